// The folder monitor, in the runner. Each library with monitoring on is watched recursively
// (folder-watch.ts: @parcel/watcher, inotify on Linux). Changes collect per
// library and, once its folder has been quiet for MONITOR_QUIET_MS and no changed file is still
// growing, go to the upkeep function as one folder to scan: a burst of 500 files is one job.
// Every MONITOR_TICK_MS the upkeep function also runs the schedule and says which libraries to
// watch, and each root is looked at: a disk that went away gets a scan, which records the
// library offline. A library created or changed through the front door is looked at at once
// (onAnswer), not at the next tick. A watch hears nothing of what landed before it began (a new
// library, a disk back, the runner stopped, a watch lost): each watch of a root holding files
// begins with one scan of it, which also brings a library back online; an empty root is watched
// too (a new library's). What cannot be watched (the inotify limit, a network share) is said in
// the library's status; the schedule covers it. What matters, when and which folder are the
// rules' to say (lib/scan/monitor-rules.ts); this is their adapter.
import { stat } from 'node:fs/promises';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { libraryOperations } from '../../../lib/api/library-operations';
import type { Log } from '../../../lib/log';
import {
  busyWait,
  changeMatters,
  nearestRemaining,
  networkShareProblem,
  PendingChanges,
  quietWait,
  RETRY_WATCH_MS,
  rootNeedsScan,
  stillWritten,
  watchProblem,
} from '../../../lib/scan/monitor-rules';
import type { UpkeepInput, UpkeepResult } from '../../../lib/scan/upkeep';
import { holdsEntries } from '../../../lib/storage/local-paths';
import { invokeAndWait, localFunction, localLambda } from '../local-lambda';
import { changedFolders, filesystemType, watchFolder, type FolderEvent, type FolderWatch } from './folder-watch';

const UPKEEP_FUNCTION = localFunction('libraryUpkeep');

/** The operations after which the libraries to watch may differ: created (also by a scan of a new folder), changed, deleted. */
const LIBRARY_CHANGES: ReadonlySet<string> = new Set(
  [libraryOperations.createLibrary, libraryOperations.startScan, libraryOperations.patchLibrary, libraryOperations.deleteLibrary].map(
    (op) => op.id,
  ),
);

type Change = Required<NonNullable<UpkeepInput['changed']>[number]>;

interface Watched {
  libraryId: string;
  path: string;
  offline: boolean;
  subscription?: FolderWatch;
  /** Why it is not (fully) watched, for the library's status; null when it is. */
  problem: string | null;
  retryAt: number;
  pending: PendingChanges;
  timer?: NodeJS.Timeout;
  /** Whether the root held something at the last look (undefined before the first). */
  rootSeen?: boolean;
  /** Whether the root was a folder at the last look, empty or not: a folder can be watched. */
  rootThere: boolean;
  /** The root is back (or there, while the library says offline): its watch's first scan brings it online. */
  rootBack: boolean;
  /** The watch changes in progress (see serial). */
  queue: Promise<void>;
}

export interface MonitorOptions {
  lambdaEndpoint: string;
  log: Log;
  tickMs: number;
  quietMs: number;
}

export class LibraryMonitor {
  private readonly watched = new Map<string, Watched>();
  private readonly ready: Change[] = [];
  private ticking: Promise<void> = Promise.resolve();
  private tickQueued = false;
  private interval?: NodeJS.Timeout;
  private stopped = false;
  private readonly client: LambdaClient;

  constructor(private readonly options: MonitorOptions) {
    this.client = localLambda(options.lambdaEndpoint);
  }

  start() {
    this.requestTick();
    this.interval = setInterval(() => this.requestTick(), this.options.tickMs);
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.interval);
    await this.ticking;
    await Promise.all([...this.watched.values()].map((w) => this.unwatch(w)));
    this.client.destroy();
  }

  /**
   * The front door's word that it answered an operation: one that may have created a library or
   * switched its monitoring makes the monitor look now, so a new library's watch begins within
   * a moment, not a tick.
   */
  onAnswer(operationId: string, status: number) {
    if (status < 300 && LIBRARY_CHANGES.has(operationId)) this.requestTick();
  }

  /** Ticks run one at a time, in order; asked for again before the next one began, they are that one. */
  private requestTick() {
    if (this.tickQueued) return;
    this.tickQueued = true;
    this.ticking = this.ticking
      .then(() => {
        this.tickQueued = false;
        return this.tick();
      })
      .catch((err: unknown) => this.options.log.warn({ err }, 'library upkeep failed'));
  }

  private async tick() {
    if (this.stopped) return;
    await Promise.all([...this.watched.values()].map((w) => this.lookAtRoot(w)));
    const changed = this.ready.splice(0);
    const watching = [...this.watched.values()].map((w) => ({ libraryId: w.libraryId, problem: w.problem }));
    const result = await this.invoke({ changed, watching }).catch((err: unknown) => {
      this.ready.unshift(...changed);
      throw err;
    });
    for (const change of changed.filter((c) => result.busy.includes(c.libraryId))) {
      // Its scan runs: these changes go with the next one.
      const w = this.watched.get(change.libraryId);
      if (w) this.arm(w, busyWait(this.options.quietMs), change);
    }
    await this.reconcile(result.watch);
  }

  private async invoke(input: UpkeepInput): Promise<UpkeepResult> {
    const { result, failed } = await invokeAndWait(this.client, UPKEEP_FUNCTION, input);
    if (failed || !result) throw new Error(`library upkeep failed: ${JSON.stringify(result)}`);
    const upkeep = result as UpkeepResult;
    if (upkeep.started?.length) this.options.log.info({ started: upkeep.started }, 'scans started by the monitor or the schedule');
    return upkeep;
  }

  /** Watches what the upkeep function lists, and stops watching the rest. */
  private async reconcile(list: UpkeepResult['watch']) {
    const wanted = new Map(list.map((l) => [l.libraryId, l]));
    for (const w of this.watched.values()) {
      if (wanted.get(w.libraryId)?.path !== w.path) await this.unwatch(w).then(() => this.watched.delete(w.libraryId));
    }
    for (const l of list) {
      const w = this.watched.get(l.libraryId) ?? {
        libraryId: l.libraryId,
        path: l.path,
        offline: l.offline,
        problem: null,
        retryAt: 0,
        rootBack: false,
        rootThere: false,
        pending: new PendingChanges(l.path),
        queue: Promise.resolve(),
      };
      w.offline = l.offline;
      if (!this.watched.has(l.libraryId)) {
        this.watched.set(l.libraryId, w);
        await this.lookAtRoot(w);
      }
      if (!w.subscription && w.rootThere && Date.now() >= w.retryAt) await this.watch(w);
      // Back, yet no watch began (it cannot be watched): scanned now, as its return must be.
      if (w.rootBack) this.scanRoot(w);
    }
  }

  /**
   * A root that went away or came back (or disagrees with the library's status at the first
   * look) gets a scan of the whole library. One that came back is watched again first (in
   * reconcile), and the watch's first scan is that scan: nothing landing in between is missed.
   */
  private async lookAtRoot(w: Watched) {
    const [seen, there] = await Promise.all([
      holdsEntries(w.path).catch(() => false),
      stat(w.path).then(
        (s) => s.isDirectory(),
        () => false,
      ),
    ]);
    const needsScan = rootNeedsScan(seen, w.rootSeen, w.offline);
    if (needsScan && seen) w.rootBack = true;
    else if (needsScan) this.scanRoot(w);
    w.rootSeen = seen;
    w.rootThere = there;
    // A disk unmounted takes its watches with it, and one mounted hides the empty mount point
    // watched until then: either way the root is watched again. An empty folder is watched (a
    // new library's, files to come); a missing one cannot be.
    if (w.subscription && (needsScan || !there)) await this.unwatch(w);
  }

  /**
   * Watch changes of one library run one at a time: the watcher keeps one native watch per
   * folder and options, and a subscribe racing an unsubscribe would join the old watch (and
   * never list the folders made since).
   */
  private serial(w: Watched, change: () => Promise<void>): Promise<void> {
    const next = w.queue.then(change, change);
    w.queue = next.catch(() => undefined);
    return next;
  }

  private scanRoot(w: Watched) {
    w.rootBack = false;
    this.ready.push({ libraryId: w.libraryId, path: w.path, before: Date.now() });
    this.requestTick();
  }

  private watch(w: Watched) {
    return this.serial(w, async () => {
      if (w.subscription) return;
      await this.subscribe(w);
      // An empty root has nothing to catch up: a library whose files went meanwhile was scanned as the root was looked at.
      if (w.subscription && w.rootSeen) this.catchUp(w);
    });
  }

  /**
   * What landed in the folder before its watch began sent no event: one scan of the root finds
   * it (an incremental scan, so cheap when nothing did), unless a scan started since the watch
   * began has completed by then (the upkeep function looks). It waits the quiet period as a
   * change would, so a copy still going on as the watch begins is one scan with it.
   */
  private catchUp(w: Watched) {
    w.rootBack = false;
    this.arm(w, this.options.quietMs, { path: w.path, before: Date.now() });
  }

  private unwatch(w: Watched) {
    clearTimeout(w.timer);
    return this.serial(w, () => this.unsubscribe(w));
  }

  private async subscribe(w: Watched) {
    try {
      w.subscription = await watchFolder(w.path, (err, events) => this.onEvents(w, err, events));
      w.problem = networkShareProblem(w.path, await filesystemType(w.path));
      this.options.log.info({ libraryId: w.libraryId, path: w.path }, 'watching a library folder');
    } catch (err) {
      w.problem = watchProblem(w.path, err);
      w.retryAt = Date.now() + RETRY_WATCH_MS;
      this.options.log.warn({ err, libraryId: w.libraryId, path: w.path }, 'cannot watch a library folder');
    }
  }

  private async unsubscribe(w: Watched) {
    const sub = w.subscription;
    w.subscription = undefined;
    await sub?.unsubscribe().catch(() => undefined);
  }

  private onEvents(w: Watched, err: Error | null, events: FolderEvent[]) {
    if (err) {
      w.problem = watchProblem(w.path, err);
      w.retryAt = Date.now() + RETRY_WATCH_MS;
      void this.unwatch(w);
      return;
    }
    const now = Date.now();
    for (const e of events) if (changeMatters(w.path, e.path)) w.pending.add(e.path, e.type, now);
    if (!w.pending.empty) this.arm(w, this.options.quietMs);
  }

  /** (Re)starts the quiet period; `carried` is a folder of changes to scan with the next ones. */
  private arm(w: Watched, delayMs: number, carried?: Pick<Change, 'path' | 'before'>) {
    if (carried) w.pending.addFolder(carried.path, carried.before);
    clearTimeout(w.timer);
    w.timer = setTimeout(() => void this.settle(w), delayMs);
  }

  /** Once quiet, and no file still growing, the changes become one folder to scan. */
  private async settle(w: Watched) {
    if (this.stopped || w.pending.empty) return;
    const { quietMs } = this.options;
    const wait = quietWait(w.pending.lastAt, Date.now(), quietMs);
    if (wait > 0) return this.arm(w, wait);
    const times = await Promise.all(
      w.pending.written().map((f) =>
        stat(f).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      ),
    );
    if (stillWritten(times, Date.now(), quietMs)) return this.arm(w, quietMs);
    const isFolder = (path: string) =>
      stat(path).then(
        (s) => s.isDirectory(),
        () => false,
      );
    // The watcher adds a watch for a new folder but does not list it, and never watches the
    // subfolders of one moved in: the scan walks them (it scans their parent), and watching
    // again takes them in.
    const created = w.pending.createdPaths();
    const newFolders = (await Promise.all(created.map(async (p) => ((await isFolder(p)) ? p : undefined)))).filter(
      (p): p is string => p !== undefined,
    );
    const before = w.pending.lastAt;
    const folder = await nearestRemaining(w.path, w.pending.take(), isFolder);
    this.ready.push({ libraryId: w.libraryId, path: folder, before });
    this.requestTick();
    if (newFolders.length && w.subscription) await this.rewatch(w, newFolders);
  }

  /**
   * Watches the whole tree again. The old watch goes first: the two would share the kernel's
   * watch of each folder, and ending the old one would end the new one's. What changed in the
   * new folders meanwhile (their times moved) is scanned next.
   */
  private async rewatch(w: Watched, newFolders: string[]) {
    const since = Date.now();
    await this.serial(w, async () => {
      await this.unsubscribe(w);
      await this.subscribe(w);
    });
    const touched = await changedFolders(newFolders, since);
    const now = Date.now();
    for (const folder of touched) w.pending.addFolder(folder, now);
    if (touched.length) this.arm(w, this.options.quietMs);
  }
}
