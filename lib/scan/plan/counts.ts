// A library's counts from its final index, as a finished scan records them.
import type { IndexEntry } from '../../catalog/model';
import type { LibraryCounts } from '../../library/model';

/** Every show left in the index has episodes (emptied ones were removed); a file holding two episodes is sized once. */
export const countsOf = (items: IndexEntry[]): LibraryCounts => {
  const counts: LibraryCounts = { movies: 0, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 0, totalDurationSeconds: 0 };
  const seasons = new Set<string>();
  const sized = new Set<string>();
  for (const item of items) {
    if (item.entity === 'movie') counts.movies++;
    if (item.entity === 'tvshow') counts.tvShows++;
    if (item.entity === 'episode') {
      counts.episodes++;
      seasons.add(`${item.showId}#${item.seasonNumber}`);
    }
    for (const f of item.files ?? []) {
      if (sized.has(f.relPath)) continue;
      sized.add(f.relPath);
      counts.totalSizeBytes += f.size;
      counts.totalDurationSeconds! += f.tech?.durationSeconds ?? 0;
    }
  }
  counts.seasons = seasons.size;
  return counts;
};
