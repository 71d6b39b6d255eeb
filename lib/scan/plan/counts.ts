// A library's counts from its index: whole, as a finished scan records them, or kept as a
// running scan writes and reads, each change costing only its own files (a library of 100,000
// films took 25-70 ms to count whole, which a scan would pay at every chunk).
import type { FileRef, IndexEntry } from '../../catalog/model';
import type { LibraryCounts } from '../../library/model';

type Counted = Pick<IndexEntry, 'entity' | 'showId' | 'seasonNumber' | 'files'>;

/** Counts that follow entries set and deleted by id. A file holding two episodes is sized once; its duration is the first one known. */
export class RunningCounts {
  private readonly entries = new Map<string, Counted>();
  private readonly seasons = new Map<string, number>();
  private readonly files = new Map<string, { holders: number; size: number; duration: number }>();
  private titles = { movies: 0, tvShows: 0, episodes: 0 };
  private size = 0;
  private duration = 0;

  /** Counts the entry as it is now (its earlier state, if any, no longer). */
  set(entry: IndexEntry): this {
    this.delete(entry.id);
    const counted: Counted = { entity: entry.entity, showId: entry.showId, seasonNumber: entry.seasonNumber, files: entry.files };
    this.entries.set(entry.id, counted);
    this.change(counted, 1);
    return this;
  }

  delete(id: string): this {
    const counted = this.entries.get(id);
    if (counted) {
      this.entries.delete(id);
      this.change(counted, -1);
    }
    return this;
  }

  get value(): LibraryCounts {
    return { ...this.titles, seasons: this.seasons.size, totalSizeBytes: this.size, totalDurationSeconds: this.duration };
  }

  private change(e: Counted, by: 1 | -1) {
    if (e.entity === 'movie') this.titles.movies += by;
    if (e.entity === 'tvshow') this.titles.tvShows += by;
    if (e.entity === 'episode') {
      this.titles.episodes += by;
      const season = `${e.showId}#${e.seasonNumber}`;
      const n = (this.seasons.get(season) ?? 0) + by;
      if (n > 0) this.seasons.set(season, n);
      else this.seasons.delete(season);
    }
    for (const f of e.files ?? []) (by > 0 ? this.addFile : this.dropFile)(f);
  }

  private readonly addFile = (f: FileRef) => {
    const duration = f.tech?.durationSeconds ?? 0;
    const known = this.files.get(f.relPath);
    if (!known) {
      this.files.set(f.relPath, { holders: 1, size: f.size, duration });
      this.size += f.size;
      this.duration += duration;
      return;
    }
    known.holders++;
    if (known.duration === 0 && duration > 0) {
      this.duration += duration;
      known.duration = duration;
    }
  };

  private readonly dropFile = (f: FileRef) => {
    const known = this.files.get(f.relPath);
    if (!known) return;
    if (--known.holders > 0) return;
    this.files.delete(f.relPath);
    this.size -= known.size;
    this.duration -= known.duration;
  };
}

/** Every show left in the index has episodes (emptied ones were removed). */
export const countsOf = (items: IndexEntry[]): LibraryCounts => {
  const counts = new RunningCounts();
  for (const item of items) counts.set(item);
  return counts.value;
};
