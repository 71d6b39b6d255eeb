// MediaInfoLib instances kept for the life of the process: each is a WebAssembly module
// compiled and started once (20-55 ms here, ~36 MB of memory reserved) and reused by
// every probe after it. An instance parses one file at a time (mediainfo.js refuses a second
// analysis while one runs), so probes borrow one from a small pool and wait their turn when
// all are busy. Instances start only when a probe needs one: a process that never probes
// never loads the module, and one that probes one file at a time never starts a second.
// The named export: the default one is lost when a CommonJS bundle requires the package.
import { mediaInfoFactory, type MediaInfo } from 'mediainfo.js';
import { mediainfoWasmPath } from './mediainfo-wasm';

/** Reports as JSON text, parsed by the caller (technical-info.ts reads numbers from strings). */
export type MediaInfoInstance = MediaInfo<'JSON'>;

/** A borrowed instance: give it back after a clean run, or retire it. */
export interface Lease {
  readonly instance: MediaInfoInstance;
  release(): void;
  /** Never lend it again: after a failure it may be mid-parse, aborted or interrupted. */
  retire(): void;
}

type Waiter = { resolve: (instance: MediaInfoInstance) => void; reject: (error: unknown) => void };

const startInstance = async (): Promise<MediaInfoInstance> => {
  const wasm = mediainfoWasmPath();
  return mediaInfoFactory({ format: 'JSON', locateFile: () => wasm });
};

export class MediaInfoPool {
  private readonly idle: MediaInfoInstance[] = [];
  private readonly waiting: Waiter[] = [];
  /** Instances started or starting, idle or lent (retired ones no longer count). */
  private live = 0;
  /** How long each instance took to start, in ms, for the bench. */
  readonly startupMs: number[] = [];

  constructor(
    private readonly size: number,
    private readonly start: () => Promise<MediaInfoInstance> = startInstance,
  ) {}

  async lease(): Promise<Lease> {
    const instance =
      this.idle.pop() ??
      (await new Promise<MediaInfoInstance>((resolve, reject) => {
        this.waiting.push({ resolve, reject });
        this.startForWaiters();
      }));
    let returned = false;
    const once = (give: () => void) => {
      if (!returned) give();
      returned = true;
    };
    return {
      instance,
      release: () => once(() => this.handBack(instance)),
      retire: () => once(() => this.retire()),
    };
  }

  private handBack(instance: MediaInfoInstance) {
    const next = this.waiting.shift();
    if (next) next.resolve(instance);
    else this.idle.push(instance);
  }

  /**
   * Dropped, not closed: closing calls into a module that may have been interrupted mid-call,
   * and garbage collection frees its memory all the same.
   */
  private retire() {
    this.live -= 1;
    this.startForWaiters();
  }

  /** Starts instances for waiting probes while the pool has room; each waiter gets its own start's outcome. */
  private startForWaiters() {
    while (this.waiting.length > 0 && this.live < this.size) {
      const waiter = this.waiting.shift()!;
      this.live += 1;
      const began = performance.now();
      // Through a promise, so a start that throws at once rejects like one that fails later.
      Promise.resolve()
        .then(this.start)
        .then(
          (instance) => {
            this.startupMs.push(performance.now() - began);
            waiter.resolve(instance);
          },
          (error: unknown) => {
            this.live -= 1;
            waiter.reject(error);
            this.startForWaiters();
          },
        );
    }
  }
}
