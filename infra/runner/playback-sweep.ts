// The files of conversion sessions (lib/playback/segment-cache.ts) that nobody asks for any
// more: the runner removes a session's folder once it has been idle for the idle time (its slot
// in the table is free by then anyway), and at start every folder a killed service left.
import { join } from 'node:path';
import { config } from '../../lib/config';
import type { Log } from '../../lib/log';
import { SegmentCache } from '../../lib/playback/segment-cache';

const EVERY_MS = 10_000;

export class PlaybackSweep {
  private timer: NodeJS.Timeout | undefined;
  private readonly cache: SegmentCache;

  constructor(
    dataDir: string,
    private readonly log: Log,
  ) {
    this.cache = new SegmentCache({
      dir: join(dataDir, 'playback'),
      perSession: config.playback.sessionSegments,
      maxBytes: config.playback.cacheBytes,
    });
  }

  /** Clears what a previous run left, then sweeps every few seconds. */
  async start(): Promise<void> {
    const left = await this.cache.sweep(0);
    if (left.length) this.log.info({ sessions: left.length }, 'removed the conversion files a previous run left');
    this.timer = setInterval(() => void this.sweep(), EVERY_MS);
    this.timer.unref();
  }

  private async sweep() {
    try {
      const ended = await this.cache.sweep(config.playback.idleSeconds * 1000);
      if (ended.length) this.log.info({ sessions: ended }, 'idle playback sessions ended: their files went');
    } catch (err) {
      this.log.warn({ err }, 'could not sweep the playback folder');
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}
