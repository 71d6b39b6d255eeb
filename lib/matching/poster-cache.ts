// Candidates' posters, fetched from the provider's image host by the service (a browser on the
// LAN may not reach it) and kept briefly in memory: a "Fix match" dialog shows a page of them,
// and its user searches again with another year or title. Bounded in bytes, oldest out first.
import type { FetchedImage } from '../metadata/provider';

export interface PosterCacheOptions {
  maxBytes: number;
  ttlMs: number;
  clock?: () => number;
}

export class PosterCache {
  // A Map keeps insertion order: the first entry is the least recently used.
  private readonly entries = new Map<string, { image: FetchedImage; at: number }>();
  private bytes = 0;

  constructor(private readonly options: PosterCacheOptions) {}

  /** The image kept under `key`, else fetched (null: the provider has none, which is not kept). */
  async get(key: string, fetch: () => Promise<FetchedImage | null>): Promise<FetchedImage | null> {
    const now = (this.options.clock ?? Date.now)();
    const kept = this.entries.get(key);
    if (kept && now - kept.at < this.options.ttlMs) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.image;
    }
    if (kept) this.drop(key);
    const image = await fetch();
    if (image && image.bytes.length <= this.options.maxBytes) {
      this.entries.set(key, { image, at: now });
      this.bytes += image.bytes.length;
      for (const [oldest] of this.entries) {
        if (this.bytes <= this.options.maxBytes) break;
        this.drop(oldest);
      }
    }
    return image;
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.image.bytes.length;
  }
}
