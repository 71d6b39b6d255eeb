// Stable ids: the same library and path always give the same id, so a rescan, a resumed
// job or two workers racing on one job write the same items. The prefix says what an id
// names (handy in logs and for the stream endpoint); the rest is opaque.
import { createHash } from 'node:crypto';

const digest = (parts: (string | number)[]) =>
  createHash('sha256').update(parts.map(String).join('\u0000')).digest('base64url').slice(0, 22);

/** A movie: its library and stack key (all parts of a stacked movie share it). */
export const movieId = (libraryId: string, stackKey: string) => `mv_${digest([libraryId, stackKey])}`;

/** A show: its library and its folded title and year ("Doctor Who (2005)" is not "Doctor Who"). */
export const showId = (libraryId: string, showKey: string) => `tv_${digest([libraryId, showKey])}`;

/** An episode: the file that holds it and its number (a double episode file gives two). */
export const episodeId = (libraryId: string, relPath: string, season: number, episode: number) =>
  `ep_${digest([libraryId, relPath, season, episode])}`;
