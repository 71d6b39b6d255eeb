// Reading TMDB's answers field by field: every field may be missing, null, blank or of another
// type, and each reader answers null (or an empty list) rather than a wrong value; a body that
// is not an object, or a record without an id, is a ShapeError (lib/metadata/tmdb/map.ts).
import type { TmdbGenre } from './wire';

export class ShapeError extends Error {
  override name = 'ShapeError';
}

export const objectBody = <T>(body: unknown, what: string): T => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ShapeError(`${what} is not a JSON object`);
  return body as T;
};

export const requireId = (id: unknown, what: string): number => {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw new ShapeError(`${what} has no numeric id`);
  return id;
};

export const list = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : []);
export const text = (value: string | null | undefined): string | null => (typeof value === 'string' && value.trim() ? value : null);
export const date = (value: string | null | undefined): string | null =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
export const yearOf = (value: string | null) => (value ? Number(value.slice(0, 4)) : null);
export const number = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
export const positive = (value: number | null | undefined) => (number(value) !== null && value! > 0 ? value! : null);
export const imagePath = (value: string | null | undefined) => (typeof value === 'string' && value.startsWith('/') ? value : null);
export const genreNames = (genres: TmdbGenre[] | undefined) =>
  list(genres)
    .map((g) => g?.name)
    .filter((n): n is string => !!n);
export const unique = (names: Array<string | undefined>) => [...new Set(names.filter((n): n is string => !!n))];

/** "tt0133093", lowercase; anything else is no id. */
export const imdbId = (...candidates: Array<string | null | undefined>) => {
  for (const c of candidates) if (typeof c === 'string' && /^tt\d+$/i.test(c.trim())) return c.trim().toLowerCase();
  return null;
};

export const ids = (values: number[] | undefined) => list(values).filter((v) => Number.isSafeInteger(v) && v > 0);

/** No votes yet is no rating, rather than a 0 that reads like a verdict. */
export const rating = (average: number | undefined, count: number | undefined) => (count === 0 ? null : number(average));
