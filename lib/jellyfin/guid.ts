// Jellyfin's apps parse every id as a GUID (32 hex digits, written without dashes). Ours are
// not GUIDs, so each kind of id has a GUID derived from it, the same forever, and a way back:
// - films, shows and episodes (lib/catalog/ids.ts: a prefix and 22 base64url characters of a
//   SHA-256, 132 bits) give their first 128 bits; back, the 4 bits left out and the prefix give
//   48 candidates, which the catalogue tells apart (a wrong one names no item);
// - a season is its show's GUID mixed with a mask made of its number; back, each number's mask
//   is tried (the numbers a season may have are few);
// - libraries' ids are 32 hex digits already; profiles and film collections are a fixed prefix
//   and their own digits (a random GUID meets one of those prefixes once in 2^64).
import { createHash } from 'node:crypto';

export type GuidKind = 'item' | 'season' | 'library' | 'profile' | 'collection' | 'boxsets';

const HEX32 = /^[0-9a-f]{32}$/u;
const ITEM_ID = /^(mv|tv|ep)_[A-Za-z0-9_-]{22}$/u;
const PROFILE_PREFIX = '0a11ce5e0ffa0000';
const HOUSEHOLD = `${PROFILE_PREFIX}0000000000000000`;
const COLLECTION_PREFIX = '0b0c5e7000000000';
/** The view that holds the film collections. */
export const BOXSETS_VIEW = '0b0c5e70ffffffffffffffffffffffff';
/** Seasons numbered up to this (year-numbered seasons of daily shows included). */
const MAX_SEASON = 2200;

/** A GUID as the apps may send it (dashed, braced, any case), in the form the door writes; undefined when it is none. */
export const normalGuid = (raw: string): string | undefined => {
  const plain = raw.replace(/[{}-]/gu, '').toLowerCase();
  return HEX32.test(plain) ? plain : undefined;
};

/** A film's, show's or episode's GUID. */
export const itemGuid = (id: string): string => {
  if (!ITEM_ID.test(id)) throw new Error(`Not a catalogue id: ${id}`);
  return Buffer.from(id.slice(3), 'base64url').subarray(0, 16).toString('hex');
};

/** The catalogue ids whose GUID `guid` may be (48: three kinds, 16 values of the bits left out). */
export const itemIdsOf = (guid: string): string[] => {
  const text = Buffer.from(guid, 'hex').toString('base64url'); // 22 characters, the last holding 2 of our bits
  const head = text.slice(0, 21);
  const top = text.charCodeAt(21);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bits = alphabet.indexOf(String.fromCharCode(top)) & 0b110000;
  const tails = Array.from({ length: 16 }, (_, low) => alphabet[bits | low]!);
  return ['mv', 'tv', 'ep'].flatMap((prefix) => tails.map((tail) => `${prefix}_${head}${tail}`));
};

let masks: Buffer[] | undefined;
const maskOf = (season: number) => {
  masks ??= Array.from({ length: MAX_SEASON + 1 }, (_, n) => createHash('sha256').update(`season\u0000${n}`).digest().subarray(0, 16));
  return masks[season]!;
};
const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((byte, i) => byte ^ b[i]!));

/** A season's GUID: its show's and its number. */
export const seasonGuid = (showId: string, season: number): string => {
  if (!Number.isSafeInteger(season) || season < 0 || season > MAX_SEASON) throw new Error(`Not a season number: ${season}`);
  return xor(Buffer.from(itemGuid(showId), 'hex'), maskOf(season)).toString('hex');
};

/** The shows' GUIDs and season numbers a season's GUID may stand for, one per number. */
export const seasonCandidates = (guid: string): { showGuid: string; season: number }[] => {
  const bytes = Buffer.from(guid, 'hex');
  return Array.from({ length: MAX_SEASON + 1 }, (_, season) => ({ showGuid: xor(bytes, maskOf(season)).toString('hex'), season }));
};

export const libraryGuid = (libraryId: string): string => {
  const guid = normalGuid(libraryId);
  if (!guid) throw new Error(`Not a library id: ${libraryId}`);
  return guid;
};

export const profileGuid = (profileId: string): string => {
  if (profileId === 'default') return HOUSEHOLD;
  const own = /^pf_([0-9a-f]{16})$/u.exec(profileId);
  if (!own) throw new Error(`Not a profile id: ${profileId}`);
  return `${PROFILE_PREFIX}${own[1]}`;
};

export const profileIdOf = (guid: string): string | undefined => {
  if (guid === HOUSEHOLD) return 'default';
  return guid.startsWith(PROFILE_PREFIX) ? `pf_${guid.slice(16)}` : undefined;
};

/** People and genres have no items of their own here: a GUID made of the kind and the name (any case) keeps them apart. */
export const nameGuid = (kind: 'person' | 'genre', name: string): string =>
  createHash('sha256').update(`${kind}\u0000${name.toLowerCase()}`).digest().subarray(0, 16).toString('hex');

export const collectionGuid = (tmdbCollectionId: number): string =>
  `${COLLECTION_PREFIX}${tmdbCollectionId.toString(16).padStart(16, '0')}`;

export const collectionIdOf = (guid: string): number | undefined => {
  if (!guid.startsWith(COLLECTION_PREFIX) || guid === BOXSETS_VIEW) return undefined;
  const n = Number.parseInt(guid.slice(16), 16);
  return Number.isSafeInteger(n) ? n : undefined;
};
