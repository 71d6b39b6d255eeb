// Ids come from paths (lib/catalog/ids.ts), but a moved or renamed item keeps the id it had:
// its index entry records the id its path gives now (`pathKey`). A rescan maps that id back to
// the item's own, so the files read again after a move still land on the same item. The id a
// moved item left behind stays its own: a new file at the old path gets another one.
import { createHash } from 'node:crypto';
import type { IndexEntry } from '../../catalog/model';

export interface Aliases {
  /** The id a path gives -> the id of the item at that path. */
  of: ReadonlyMap<string, string>;
  /** Ids of items that moved away from the path that gave them. */
  reserved: ReadonlySet<string>;
}

export const NO_ALIASES: Aliases = { of: new Map(), reserved: new Set() };

export const aliasesOf = (index: readonly IndexEntry[]): Aliases => {
  const of = new Map<string, string>();
  const reserved = new Set<string>();
  for (const e of index) {
    if (!e.pathKey || e.pathKey === e.id) continue;
    of.set(e.pathKey, e.id);
    reserved.add(e.id);
  }
  return { of, reserved };
};

/** A new item's id when its path gives the id of an item that moved away: stable, so a resumed scan finds it again. */
const displaced = (id: string) =>
  `${id.slice(0, 3)}${createHash('sha256').update(`${id}\u0000displaced`).digest('base64url').slice(0, 22)}`;

/** The id of the item a path's id stands for. */
export const resolveId = (aliases: Aliases, pathId: string): string => {
  const target = aliases.of.get(pathId);
  if (target !== undefined) return target;
  return aliases.reserved.has(pathId) ? resolveId(aliases, displaced(pathId)) : pathId;
};
