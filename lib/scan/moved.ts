// A moved item as written: the stored item, with the files at their new paths (and what was
// read from their headers, which a move does not change). When its name now reads as another
// title, year or episode, those come from the name and its metadata is looked up again.
import type { CatalogItem, FileRef } from '../catalog/model';

const techOf = (stored: readonly FileRef[]) => new Map(stored.map((f) => [`${f.size}:${f.mtimeMs}`, f.tech]));

export const mergeMoved = (stored: CatalogItem | undefined, planned: CatalogItem, renamed: boolean): CatalogItem => {
  if (!stored || stored.entity !== planned.entity) return planned;
  const stamp = {
    id: planned.id,
    updatedAt: planned.updatedAt,
    lastJob: planned.lastJob,
    lastChange: planned.lastChange,
    ...(planned.pathKey ? { pathKey: planned.pathKey } : {}),
    local: planned.local ?? {},
    localStamp: planned.localStamp ?? '',
  };
  const enrich = planned.enrich ? { enrich: planned.enrich } : {};
  if (planned.entity === 'tvshow') {
    return { ...stored, ...stamp, ...enrich, ...(renamed ? { title: planned.title, year: planned.year, tmdbId: planned.tmdbId } : {}) };
  }
  const tech = techOf(stored.entity === 'tvshow' ? [] : stored.files);
  const files = planned.files.map((f) => {
    const known = tech.get(`${f.size}:${f.mtimeMs}`);
    return known === undefined ? f : { ...f, tech: known };
  });
  if (planned.entity === 'movie') {
    return {
      ...stored,
      ...stamp,
      ...enrich,
      files,
      ...(renamed ? { title: planned.title, year: planned.year, tmdbId: planned.tmdbId } : {}),
    } as CatalogItem;
  }
  return {
    ...stored,
    ...stamp,
    ...enrich,
    files,
    showId: planned.showId,
    ...(renamed ? { seasonNumber: planned.seasonNumber, episodeNumber: planned.episodeNumber } : {}),
  } as CatalogItem;
};
