// Looks at the free space of DATA_DIR every few seconds (one statfs, no disk I/O), keeps the
// reserve in place while there is room for it, and when the state turns (low, or room again)
// asks the handlers' `diskSpace` function to act: caches give their space back, scans paused
// for space go on, clients get `system:status` (functions/scan/maintenance.ts).
import { existsSync } from 'node:fs';
import { diskStatus } from '../../lib/health/service';
import type { Log } from '../../lib/log';
import { diskSpace, keepReserve, lowSpaceBelow, reserveFile, type LowSpaceLimits } from '../../lib/util/disk-space';
import { invokeAndWait, localFunction, localLambda } from './local-lambda';

const DISK_FUNCTION = localFunction('diskSpace');

export interface DiskWatchOptions {
  dataDir: string;
  limits: LowSpaceLimits;
  /** 0 when no reserve is kept (the database is not on this disk). */
  reserveBytes: number;
  everyMs: number;
  log: Log;
}

type State = 'ok' | 'low';

export class DiskWatch {
  private timer: NodeJS.Timeout | undefined;
  /** What the handlers were last told; undefined until the first report that worked. */
  private told: State | undefined;
  private busy = false;
  private lambdaEndpoint: string | undefined;

  constructor(private readonly opts: DiskWatchOptions) {}

  /** The state now, as health reads it: the reserve counted as used when it is missing. */
  state() {
    const { dataDir, limits, reserveBytes } = this.opts;
    return diskStatus({ dir: dataDir, limits, reserveBytes });
  }

  /** Puts the reserve in place when it is missing and fits; before anything else writes, at start. */
  async keepReserve() {
    const { dataDir, reserveBytes, log } = this.opts;
    if (reserveBytes === 0 || existsSync(reserveFile(dataDir))) return;
    const raw = diskSpace(dataDir);
    if (!raw || raw.freeBytes < reserveBytes + lowSpaceBelow(raw.totalBytes, this.opts.limits)) return;
    if (await keepReserve(dataDir, reserveBytes)) log.info({ bytes: reserveBytes }, 'disk reserve in place');
  }

  /** Starts reporting to the handlers at `lambdaEndpoint`; a low disk at start is reported at once. */
  start(lambdaEndpoint: string) {
    this.lambdaEndpoint = lambdaEndpoint;
    // A disk found fine at start needs no report: the start's recovery resumed what was paused.
    if (this.state()?.state === 'ok') this.told = 'ok';
    void this.check();
    this.timer = setInterval(() => void this.check(), this.opts.everyMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check() {
    if (this.busy || !this.lambdaEndpoint) return;
    this.busy = true;
    try {
      await this.keepReserve();
      const now = this.state();
      if (!now || now.state === this.told) return;
      const { log } = this.opts;
      if (now.state === 'low')
        log.warn({ freeBytes: now.freeBytes, dataDir: this.opts.dataDir }, 'the disk holding the data is low on space');
      else log.info({ freeBytes: now.freeBytes }, 'the disk holding the data has room again');
      if (await this.report()) this.told = now.state;
    } catch (err) {
      this.opts.log.warn({ err }, 'the disk check failed; trying again');
    } finally {
      this.busy = false;
    }
  }

  /** Asks the handlers to act on the state they read themselves; false when that did not work (tried again next time). */
  private async report(): Promise<boolean> {
    const client = localLambda(this.lambdaEndpoint!);
    try {
      const { result, failed } = await invokeAndWait(client, DISK_FUNCTION);
      if (failed) this.opts.log.warn({ result }, 'the disk report failed');
      else this.opts.log.info({ result }, 'disk state reported');
      return !failed;
    } catch (err) {
      this.opts.log.warn({ err }, 'the disk report could not run');
      return false;
    } finally {
      client.destroy();
    }
  }
}
