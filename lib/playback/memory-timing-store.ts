// Files' timings held in this process's memory: the TimingStore port, by file and version, as
// the table keeps them (test/contracts/timing.ts holds both adapters to it).
import { storedCopy } from '../util/stored-copy';
import type { VideoTiming } from './plan';
import type { TimingStore } from './timing-store';

export class MemoryTimingStore implements TimingStore {
  private readonly timings = new Map<string, VideoTiming>();

  async get(mediaId: string, part: number, version: string): Promise<VideoTiming | undefined> {
    const timing = this.timings.get(`${mediaId}#${part}#${version}`);
    return timing && storedCopy(timing);
  }

  async put(mediaId: string, part: number, version: string, timing: VideoTiming): Promise<void> {
    this.timings.set(`${mediaId}#${part}#${version}`, storedCopy(timing));
  }
}
