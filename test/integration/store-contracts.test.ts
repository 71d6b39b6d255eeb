// The contracts of the store ports (CatalogStore, LibraryStore, ManifestStore), each written
// once as a function of the port and run here against its DynamoDB adapter on the test run's
// DynamoDB Local. The contracts speak only the ports' methods, never the table's keys (one
// adapter test at the end writes a library as older versions stored it).
//
// Each contract runs on a store of its own, empty when it starts, that nothing else writes to
// (here: a table of its own, test/support/own-table.ts), and its tests run one after another,
// each removing what it wrote. So lists, orders and totals are asserted whole: an item too
// many, one missing or one out of place fails.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoManifestStore, type ManifestStore } from '../../lib/catalog/manifest';
import type { CatalogItem, EpisodeItem, FileRef, IndexEntry, MovieItem, ShowItem, TitledItem } from '../../lib/catalog/model';
import { ANNOUNCED_MAX, CHANGES_KEPT } from '../../lib/catalog/changes';
import { DynamoCatalogStore, type CatalogStore } from '../../lib/catalog/store';
import { keys } from '../../lib/db/table';
import { AppError } from '../../lib/errors';
import type { Library, LibraryCounts, MediaKind } from '../../lib/library/model';
import { aLibrary as libraryFixture } from '../support/library-fixture';
import { DynamoLibraryStore, type LibraryStore } from '../../lib/library/store';
import type { TechnicalInfo } from '../../lib/media/technical-info';
import { ownTable } from '../support/own-table';

const uid = () => randomUUID().replaceAll('-', '');

const isProblem = (status: number, code: string) => (err: unknown) => {
  assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
  assert.equal(err.status, status);
  assert.equal(err.code, code);
  return true;
};

/** A fixed moment, `seconds` after a base long ago. */
const longAgo = (seconds: number) => new Date(Date.UTC(1990, 0, 1) + seconds * 1000).toISOString();

// ---------------------------------------------------------------------------------------------
// Fixtures: every item shape, with its optional parts filled in, so a round trip that loses or
// reshapes a field shows.

const TECH: TechnicalInfo = {
  durationSeconds: 7_265.432,
  container: 'matroska',
  bitrate: 12_345_678,
  video: { codec: 'hevc', width: 3840, height: 2160, frameRate: 23.976, bitDepth: 10, hdr: 'dolby-vision' },
  audio: [
    { codec: 'truehd', channels: 8, language: 'en' },
    { codec: 'ac3', channels: 6, language: 'pt-BR' },
    { codec: 'aac', channels: null, language: null },
  ],
  subtitles: [{ codec: 'pgs', language: 'de' }, { codec: null, language: null }],
};

const stamp = (id: string, libraryId: string, addedAt: string) => ({
  id, libraryId, addedAt, updatedAt: addedAt, lastJob: `job_${uid()}`, lastChange: 'added' as const,
});

const titled = (title: string) => ({
  title, originalTitle: null, year: 1999, overview: null, genres: [] as string[], rating: null,
  meshGradientColors: ['#101010', '#202020', '#303030', '#404040'] as [string, string, string, string], tmdbId: null,
});

const movie = (libraryId: string, addedAt = longAgo(0), extra: Partial<MovieItem> = {}): MovieItem => {
  const id = `mv_sc${uid()}`;
  return {
    ...stamp(id, libraryId, addedAt),
    ...titled(`Contract Movie ${id}`),
    entity: 'movie',
    files: [{ relPath: `Contract (1999)/Contract (1999) ${id}.mkv`, size: 1_234, mtimeMs: 1_700_000_000_000, part: null }],
    ...extra,
  };
};

/** A movie with everything a finished enrichment leaves on it: a stacked pair of files, tech info, metadata, artwork. */
const fullMovie = (libraryId: string): MovieItem => {
  const id = `mv_sc${uid()}`;
  const files: FileRef[] = [
    { relPath: `Été (1999)/Été (1999) cd1 ${id}.mkv`, size: 4_000_000_123, mtimeMs: 1_700_000_000_123.5, part: 1, tech: TECH },
    { relPath: `Été (1999)/Été (1999) cd2 ${id}.mkv`, size: 3_999_999_999, mtimeMs: 1_700_000_001_000, part: 2, tech: null },
  ];
  return {
    ...stamp(id, libraryId, longAgo(1)),
    lastChange: 'updated',
    entity: 'movie',
    title: 'Été',
    originalTitle: 'L’été',
    year: 1999,
    overview: 'A summer.\nTwo lines, "quotes" and ünïcödé.',
    genres: ['Drama', 'Romance'],
    rating: 7.25,
    meshGradientColors: ['#aa0000', '#00aa00', '#0000aa', '#aaaaaa'],
    colorsFrom: 'etag-poster-1',
    tmdbId: 603,
    metadata: {
      source: 'provider', matched: true, confidence: 0.93, tagline: 'Hot.', runtimeMinutes: 121, releaseDate: '1999-06-21',
      certification: 'PG-13', cast: [{ name: 'A', character: 'B', order: 0 }, { name: 'C', character: '', order: 1 }],
      directors: ['D'], creators: [], imdbId: 'tt0133093', tvdbId: null,
    },
    enrich: 'done',
    local: { nfo: `Été (1999)/movie.nfo`, poster: `Été (1999)/poster.jpg` },
    localStamp: 'nfo:Été (1999)/movie.nfo@1700000000000|poster:Été (1999)/poster.jpg@1700000000001',
    artworkWanted: { poster: { source: 'local', from: 'Été (1999)/poster.jpg' }, backdrop: { source: 'provider', from: '/b.jpg' } },
    providerAsked: true,
    files,
    artwork: {
      poster: { etag: 'etag-poster-1', contentType: 'image/jpeg', width: 500, height: 750, source: 'local', from: 'Été (1999)/poster.jpg' },
      backdrop: { etag: 'etag-back-1', contentType: 'image/webp', width: 1920, height: 1080, source: 'provider', from: '/b.jpg' },
    },
  };
};

const show = (libraryId: string, addedAt = longAgo(2), extra: Partial<ShowItem> = {}): ShowItem => {
  const id = `tv_sc${uid()}`;
  return {
    ...stamp(id, libraryId, addedAt),
    ...titled(`Contract Show ${id}`),
    entity: 'tvshow',
    genres: ['Sci-Fi'],
    enrich: 'local',
    local: { poster: `Show ${id}/poster.png` },
    localStamp: `poster:Show ${id}/poster.png@17`,
    providerAsked: false,
    ...extra,
  };
};

const episode = (libraryId: string, showId: string, seasonNumber: number, episodeNumber: number, extra: Partial<EpisodeItem> = {}): EpisodeItem => {
  const id = `ep_sc${uid()}`;
  return {
    ...stamp(id, libraryId, longAgo(3)),
    entity: 'episode',
    showId,
    seasonNumber,
    episodeNumber,
    title: `Episode ${seasonNumber}x${episodeNumber}`,
    overview: null,
    airDate: '1999-09-09',
    files: [{ relPath: `Show/Season ${seasonNumber}/S${seasonNumber}E${episodeNumber} ${id}.mkv`, size: 700_000_000, mtimeMs: 1_600_000_000_000, part: null, tech: TECH }],
    enrich: 'artwork',
    ...extra,
  };
};

/** What a rescan compares of an item: the library index's entry for it. */
const indexEntryOf = (item: CatalogItem): IndexEntry => ({
  id: item.id,
  entity: item.entity,
  addedAt: item.addedAt,
  ...('files' in item ? { files: item.files } : {}),
  ...(item.entity === 'episode' ? { showId: item.showId, seasonNumber: item.seasonNumber } : {}),
  lastJob: item.lastJob,
  lastChange: item.lastChange,
  ...(item.enrich !== undefined ? { enrich: item.enrich } : {}),
  ...(item.localStamp !== undefined ? { localStamp: item.localStamp } : {}),
});

const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));

// ---------------------------------------------------------------------------------------------

/** A contract's store is its own and starts empty: see the top of this file. */
export const catalogContract = (store: CatalogStore) => {
  /** Walks a recent list to its end: every item, in order, and every page's size. */
  const walkRecent = async (type: MediaKind, limit: number) => {
    const items: TitledItem[] = [];
    const sizes: number[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      assert.ok(pages < 1_000, 'the recent list never ends');
      const page = await store.recent(type, limit, cursor);
      items.push(...page.items);
      sizes.push(page.items.length);
      if (page.nextCursor === null) break;
      assert.equal(typeof page.nextCursor, 'string');
      assert.ok(!cursors.has(page.nextCursor), 'the same cursor handed out twice: the list goes round in a circle');
      cursors.add(page.nextCursor);
      cursor = page.nextCursor;
    }
    return { items, sizes };
  };

  /** Full pages of `limit`, then what is left: no empty page at the end. */
  const pageSizes = (count: number, limit: number) =>
    Array.from({ length: Math.ceil(count / limit) }, (_, i) => Math.min(limit, count - i * limit));

  /**
   * `items` newest first. The port leaves open the order of items added at the same moment:
   * those take the order `listed` gives them, so a list is still compared whole (an item
   * missing from `listed` goes last among its equals, and the comparison fails).
   */
  const newestFirst = (items: TitledItem[], listed: TitledItem[]) => {
    const at = (item: TitledItem) => {
      const i = listed.findIndex((l) => l.id === item.id);
      return i < 0 ? listed.length : i;
    };
    return [...items].sort((a, b) => (a.addedAt === b.addedAt ? at(a) - at(b) : a.addedAt < b.addedAt ? 1 : -1));
  };

  const allTitled = async () => {
    const items: TitledItem[] = [];
    for await (const item of store.titled()) items.push(item);
    return items;
  };

  it('round-trips a movie with files and technical info, a show and an episode, whole', async () => {
    const library = `lib_sc${uid()}`;
    const m = fullMovie(library);
    const s = show(library);
    const e = episode(library, s.id, 1, 2, {
      local: { still: `Show/Season 1/S1E2-thumb.jpg` }, localStamp: 'still:S1E2-thumb.jpg@5',
      artwork: { still: { etag: 'etag-still', contentType: 'image/png', width: 640, height: 360, source: 'local', from: 'Show/Season 1/S1E2-thumb.jpg' } },
    });
    try {
      await store.put([m, s, e]);
      assert.deepEqual(await store.get(m.id), m);
      assert.deepEqual(await store.get(s.id), s);
      assert.deepEqual(await store.get(e.id), e);
      assert.equal(await store.get(`mv_sc${uid()}`), undefined);
    } finally {
      await store.remove([m.id, s.id, e.id]);
    }
  });

  it('replaces an item whole on a second put of its id, in every view of it', async () => {
    const [lib1, lib2] = [`lib_sc${uid()}`, `lib_sc${uid()}`];
    const first = fullMovie(lib1);
    const { colorsFrom: _c, metadata: _m, artwork: _a, ...rest } = first;
    const second: MovieItem = { ...rest, libraryId: lib2, title: 'Renamed', addedAt: longAgo(50), lastChange: 'updated', files: [first.files[0]!] };
    try {
      await store.put([first]);
      await store.put([second]);
      assert.deepEqual(await store.get(first.id), second, 'fields the second write left out are gone');
      assert.deepEqual(await store.index(lib1), [], 'it left its old library');
      assert.deepEqual(await store.index(lib2), [indexEntryOf(second)]);
    } finally {
      await store.remove([first.id]);
    }
  });

  it('getMany finds what exists past 100 ids and leaves missing ids out', async () => {
    const library = `lib_sc${uid()}`;
    const s = show(library);
    const present: CatalogItem[] = [
      s,
      ...Array.from({ length: 90 }, (_, i) => movie(library, longAgo(100 + i))),
      ...Array.from({ length: 40 }, (_, i) => episode(library, s.id, 1, i + 1)),
    ];
    const missing = Array.from({ length: 15 }, () => `mv_sc${uid()}`);
    try {
      await store.put(present);
      // Missing ids among the present ones, and present ones on both sides of the 100th id.
      const asked = [...present.map((p) => p.id)];
      missing.forEach((id, i) => asked.splice(i * 9, 0, id));
      assert.ok(asked.length > 100);
      const found = await store.getMany(asked);
      assert.equal(found.length, present.length, 'each present item once, no missing one');
      assert.deepEqual(byId(found), byId(present));

      assert.deepEqual(await store.getMany([]), []);
      assert.deepEqual(await store.getMany(missing), []);
      assert.deepEqual(await store.getMany([missing[0]!, s.id]), [s]);
    } finally {
      await store.remove(present.map((p) => p.id));
    }
  });

  it('remove takes items out of every view; missing ids and an empty list are no error', async () => {
    const library = `lib_sc${uid()}`;
    const m = movie(library);
    const s = show(library);
    const e = episode(library, s.id, 1, 1);
    try {
      await store.put([m, s, e]);
      await store.remove([m.id, e.id, `mv_sc${uid()}`]);
      await store.remove([]);
      assert.equal(await store.get(m.id), undefined);
      assert.equal(await store.get(e.id), undefined);
      assert.deepEqual(await store.get(s.id), s, 'what was not named stays');
      assert.deepEqual(await store.getMany([m.id, e.id, s.id]), [s]);
      assert.deepEqual(await store.index(library), [indexEntryOf(s)]);
      assert.deepEqual(await store.episodes(s.id), []);
    } finally {
      await store.remove([s.id]);
    }
  });

  it('setColors changes only the colours of a present item, and creates nothing for a missing one', async () => {
    const library = `lib_sc${uid()}`;
    const m = movie(library);
    const s = show(library, longAgo(3), { colorsFrom: 'old-etag' });
    const gone = `mv_sc${uid()}`;
    try {
      await store.put([m, s]);
      await store.setColors(m.id, ['#ff0000', '#00ff00', '#0000ff', '#ffffff'], 'etag-a');
      await store.setColors(s.id, ['#010101', '#020202', '#030303', '#040404'], 'etag-b');
      assert.deepEqual(await store.get(m.id), { ...m, meshGradientColors: ['#ff0000', '#00ff00', '#0000ff', '#ffffff'], colorsFrom: 'etag-a' });
      assert.deepEqual(await store.get(s.id), { ...s, meshGradientColors: ['#010101', '#020202', '#030303', '#040404'], colorsFrom: 'etag-b' });

      await store.setColors(gone, ['#ff0000', '#00ff00', '#0000ff', '#ffffff'], 'etag-a');
      assert.equal(await store.get(gone), undefined);
      assert.deepEqual(await store.getMany([gone]), []);
    } finally {
      await store.remove([m.id, s.id]);
    }
  });

  it('index() holds what a rescan compares of every item of one library, and nothing else', async () => {
    const library = `lib_sc${uid()}`;
    const m = fullMovie(library);
    const bare = movie(library); // no enrich, no localStamp
    const s = show(library, longAgo(4), { enrich: 'done' });
    const e1 = episode(library, s.id, 0, 1, { localStamp: 'still:x@1' });
    const e2 = episode(library, s.id, 3, 7, { enrich: 'metadata' });
    const elsewhere = movie(`lib_sc${uid()}`);
    const all = [m, bare, s, e1, e2];
    try {
      await store.put([...all, elsewhere]);
      const index = await store.index(library);
      // Exactly the IndexEntry fields: the rescan compares these, and titles, artwork or table keys have no place here.
      assert.deepEqual(byId(index), byId(all.map(indexEntryOf)));
      assert.deepEqual(await store.index(`lib_sc${uid()}`), []);
    } finally {
      await store.remove([...all, elsewhere].map((i) => i.id));
    }
  });

  it('recent() pages newest first through cursors, each item once, movies and shows apart', async () => {
    const library = `lib_sc${uid()}`;
    // Out of order on purpose, and two with the same addedAt (on a page boundary or not).
    const movies = [5, 1, 9, 3, 3, 7, 2].map((s) => movie(library, longAgo(1_000 + s)));
    const shows = [4, 8, 6].map((s) => show(library, longAgo(1_000 + s)));
    const eps = [episode(library, shows[0]!.id, 1, 1)];
    const all = [...movies, ...shows, ...eps];
    try {
      assert.deepEqual(await store.recent('movie', 2), { items: [], nextCursor: null }, 'an empty list is one empty page');
      await store.put(all);
      for (const limit of [1, 2, 3]) {
        const { items, sizes } = await walkRecent('movie', limit);
        // Whole: the movies only, each once, none skipped, newest first.
        assert.deepEqual(items, newestFirst(movies, items), `the movies (limit ${limit})`);
        assert.deepEqual(items.map((i) => i.addedAt), [9, 7, 5, 3, 3, 2, 1].map((s) => longAgo(1_000 + s)), `newest first (limit ${limit})`);
        assert.deepEqual(sizes, pageSizes(movies.length, limit), `full pages, then the rest (limit ${limit})`);
      }
      const shown = await walkRecent('tvshow', 2);
      assert.deepEqual(shown.items, [shows[1], shows[2], shows[0]], 'the shows only, newest first');
      assert.deepEqual(shown.sizes, [2, 1]);

      // An item written again with another addedAt moves, and is still listed once.
      const moved = { ...movies[1]!, addedAt: longAgo(1_006) };
      await store.put([moved]);
      const after = await walkRecent('movie', 2);
      assert.deepEqual(after.items, newestFirst(movies.map((m) => (m.id === moved.id ? moved : m)), after.items));
      assert.deepEqual(after.items.map((i) => i.addedAt), [9, 7, 6, 5, 3, 3, 2].map((s) => longAgo(1_000 + s)));
      assert.deepEqual(after.items[2], moved);
      assert.deepEqual(after.sizes, [2, 2, 2, 1]);
    } finally {
      await store.remove(all.map((i) => i.id));
    }
  });

  it('recent() refuses a cursor it did not hand out for that list with a 400', async () => {
    const library = `lib_sc${uid()}`;
    const items = [movie(library, longAgo(2_000)), movie(library, longAgo(2_001)), show(library, longAgo(2_000)), show(library, longAgo(2_001))];
    try {
      await store.put(items);
      const [firstMovies, firstShows] = [await store.recent('movie', 1), await store.recent('tvshow', 1)];
      assert.deepEqual(firstMovies.items, [items[1]]);
      assert.deepEqual(firstShows.items, [items[3]]);
      const [movieCursor, showCursor] = [firstMovies.nextCursor, firstShows.nextCursor];
      assert.ok(movieCursor && showCursor, 'two of each: the first page has a next one');
      // Each is good for its own list...
      assert.deepEqual(await store.recent('movie', 1, movieCursor), { items: [items[0]], nextCursor: null });
      assert.deepEqual(await store.recent('tvshow', 1, showCursor), { items: [items[2]], nextCursor: null });
      // ...and not for the other, nor is anything else.
      await assert.rejects(store.recent('tvshow', 1, movieCursor), isProblem(400, 'invalid-request'));
      await assert.rejects(store.recent('movie', 1, showCursor), isProblem(400, 'invalid-request'));
      const tampered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(movieCursor, 'base64url').toString('utf8')), extra: 'x' })).toString('base64url');
      for (const bad of ['not a cursor', 'bnVsbA', Buffer.from('[1,2]').toString('base64url'), Buffer.from('{}').toString('base64url'), tampered]) {
        await assert.rejects(store.recent('movie', 1, bad), isProblem(400, 'invalid-request'), `cursor ${bad}`);
      }
    } finally {
      await store.remove(items.map((i) => i.id));
    }
  });

  it('titled() yields every movie and show whole, and no episode', async () => {
    const library = `lib_sc${uid()}`;
    const m = fullMovie(library);
    const s = show(library);
    const e = episode(library, s.id, 1, 1);
    try {
      assert.deepEqual(await allTitled(), [], 'nothing yet');
      await store.put([m, s, e]);
      // The port gives no order: compared by id, each item once, whole.
      assert.deepEqual(byId(await allTitled()), byId([m, s]));
    } finally {
      await store.remove([m.id, s.id, e.id]);
    }
  });

  it("episodes() lists one show's episodes by season, then episode number, as numbers", async () => {
    const library = `lib_sc${uid()}`;
    const s = show(library);
    const other = show(library);
    // Written out of order; 10 after 2 and 100 after 20 only when compared as numbers.
    const eps = [[1, 20], [10, 1], [0, 1], [2, 1], [1, 100], [1, 2], [1, 1], [0, 3]].map(([season, ep]) => episode(library, s.id, season!, ep!));
    const stranger = episode(library, other.id, 1, 1);
    try {
      await store.put([s, other, stranger, ...eps]);
      const listed = await store.episodes(s.id);
      const order = listed.map((e) => `${e.seasonNumber}x${e.episodeNumber}`);
      assert.deepEqual(order, ['0x1', '0x3', '1x1', '1x2', '1x20', '1x100', '2x1', '10x1']);
      assert.deepEqual(listed, [2, 7, 6, 5, 0, 4, 3, 1].map((i) => eps[i]), 'the episodes whole, in that order, none of another show');
      assert.deepEqual(await store.episodes(other.id), [stranger]);
      assert.deepEqual(await store.episodes(`tv_sc${uid()}`), []);
    } finally {
      await store.remove([s, other, stranger, ...eps].map((i) => i.id));
    }
  });

  it('version() grows by one with each bumpVersion()', async () => {
    const before = await store.version();
    await store.bumpVersion();
    const once = await store.version();
    await store.bumpVersion();
    await store.bumpVersion();
    const thrice = await store.version();
    assert.deepEqual([once - before, thrice - before], [1, 3]);
  });

  it('each write moves the stamp itself, naming what it wrote, and changedBetween gathers them', async () => {
    const library = `lib_${uid()}`;
    const [a, b, c] = [movie(library), movie(library), movie(library)];
    const v = await store.version();
    try {
      await store.put([a, b], { quiet: true });
      assert.deepEqual(await store.versionState(), { version: v + 1, quiet: true }, 'a scan\'s write: a quiet move');
      await store.remove([b.id]);
      assert.deepEqual(await store.versionState(), { version: v + 2, quiet: false });
      await store.put([c]);
      await store.setColors(a.id, ['#010101', '#020202', '#030303', '#040404'], 'etag-x');
      await store.bumpVersion();
      const sorted = async (from: number, to: number) => (await store.changedBetween(from, to))?.sort();
      assert.equal(await store.version(), v + 5);
      assert.deepEqual(await sorted(v, v + 1), [a.id, b.id].sort());
      assert.deepEqual(await sorted(v + 1, v + 2), [b.id]);
      assert.deepEqual(await sorted(v + 2, v + 3), [c.id]);
      assert.deepEqual(await sorted(v + 3, v + 4), [a.id], 'new colours: a move too');
      assert.deepEqual(await sorted(v + 4, v + 5), [], 'a move with nothing written names nothing');
      assert.deepEqual(await sorted(v, v + 5), [a.id, b.id, c.id].sort(), 'each id once');
      assert.deepEqual(await sorted(v + 5, v + 5), []);

      await store.bumpVersion({ everything: true });
      assert.equal(await store.changedBetween(v, v + 6), undefined, 'a move of everything: read everything');
      assert.equal(await store.changedBetween(v + 5, v + 6), undefined);
      assert.deepEqual(await sorted(v + 1, v + 5), [a.id, b.id, c.id].sort(), 'the moves before it still name theirs');
      await store.put([]);
      assert.equal(await store.version(), v + 6, 'no write, no move');
    } finally {
      await store.remove([a.id, b.id, c.id]);
    }
  });

  it('a reader further behind than the moves kept is told to read everything', async () => {
    const v = await store.version();
    for (let i = 0; i < CHANGES_KEPT + 1; i++) await store.bumpVersion({ quiet: true });
    const now = v + CHANGES_KEPT + 1;
    assert.equal(await store.version(), now);
    assert.equal(await store.changedBetween(v, now), undefined, 'too far behind');
    assert.deepEqual(await store.changedBetween(now - CHANGES_KEPT, now), [], 'the last moves kept are all there');
    assert.equal(await store.changedBetween(now - CHANGES_KEPT - 1, now), undefined, 'the oldest is gone');
  });

  it('a move of more items than it can name announces everything', async () => {
    const ids = Array.from({ length: ANNOUNCED_MAX + 1 }, () => `mv_sc${uid()}`);
    const v = await store.version();
    await store.remove(ids); // removing what is not there still counts as a write of those ids
    await store.bumpVersion();
    assert.equal(await store.changedBetween(v, v + 1), undefined);
  });
};

// ---------------------------------------------------------------------------------------------

/** A contract's store is its own and starts empty: see the top of this file. */
export const libraryContract = (store: LibraryStore) => {
  const aLibrary = (createdAt?: string, path = `/media/contract/${uid()}`) => libraryFixture(createdAt, { path });


  it('creates a library and reads it back whole, by id and in the list', async () => {
    const library: Library = { ...aLibrary(), name: 'Filmé "quoted"', path: `/media/contract/${uid()}/with space/ünï`, mediaType: 'tvshow' };
    try {
      await store.create(library);
      assert.deepEqual(await store.get(library.id), library);
      assert.deepEqual(await store.list(), [library]);
      assert.equal(await store.get(`lib_sc${uid()}`), undefined);
    } finally {
      await store.remove(library);
    }
  });

  it('refuses a second library for a path with 409 library-exists, and the refused one leaves nothing', async () => {
    const first = aLibrary();
    const second = { ...aLibrary(), path: first.path };
    try {
      await store.create(first);
      await assert.rejects(store.create(second), isProblem(409, 'library-exists'));
      assert.equal(await store.get(second.id), undefined);
      assert.deepEqual(await store.list(), [first]);
      assert.deepEqual(await store.get(first.id), first, 'the first is untouched');
      // The refused create kept neither its id nor anything else: it goes through on a free path.
      const moved = { ...second, path: `${first.path}-other` };
      await store.create(moved);
      assert.deepEqual(await store.get(second.id), moved);
      await store.remove(moved);
    } finally {
      await store.remove(first);
    }
  });

  it('lets exactly one of several racing creates of a path win', async () => {
    const path = `/media/contract/${uid()}`;
    const racers = Array.from({ length: 5 }, () => aLibrary(undefined, path));
    try {
      const results = await Promise.allSettled(racers.map((l) => store.create(l)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one winner');
      for (const r of results) if (r.status === 'rejected') isProblem(409, 'library-exists')(r.reason);
      const winner = racers[results.findIndex((r) => r.status === 'fulfilled')]!;
      assert.deepEqual(await store.list(), [winner]);
    } finally {
      for (const l of racers) await store.remove(l);
    }
  });

  it('lists libraries oldest first', async () => {
    // Created newest first, so the list's order cannot come from the order of writes.
    const libs = ['1993-01-01T00:00:00.000Z', '1991-06-01T00:00:00.000Z', '1992-03-03T00:00:00.000Z', '1991-06-01T00:00:00.001Z'].map((t) => aLibrary(t));
    try {
      for (const l of libs) await store.create(l);
      const listed = await store.list();
      assert.deepEqual(listed.map((l) => l.createdAt), ['1991-06-01T00:00:00.000Z', '1991-06-01T00:00:00.001Z', '1992-03-03T00:00:00.000Z', '1993-01-01T00:00:00.000Z']);
      assert.deepEqual(listed, [libs[1], libs[3], libs[2], libs[0]], 'each library whole, once');
    } finally {
      for (const l of libs) await store.remove(l);
    }
  });

  it('recordScan stores the counts and the time, and changes nothing else', async () => {
    const library = aLibrary();
    const counts: LibraryCounts = { movies: 3, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 12_000_000_001, totalDurationSeconds: 5_400.5 };
    try {
      await store.create(library);
      await store.recordScan(library.id, counts, '2026-11-22T12:00:00.000Z');
      const expected: Library = { ...library, counts, lastScannedAt: '2026-11-22T12:00:00.000Z' };
      assert.deepEqual(await store.get(library.id), expected);
      assert.deepEqual(await store.list(), [expected]);
      // A later scan replaces the counts whole (a count it does not give is gone).
      const later: LibraryCounts = { movies: 2, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 8 };
      await store.recordScan(library.id, later, '2026-11-23T12:00:00.000Z');
      assert.deepEqual(await store.get(library.id), { ...library, counts: later, lastScannedAt: '2026-11-23T12:00:00.000Z' });
    } finally {
      await store.remove(library);
    }
  });

  it('recordScan on a deleted or unknown library is no error and brings nothing back', async () => {
    const library = aLibrary();
    const counts: LibraryCounts = { movies: 1, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 1 };
    await store.create(library);
    await store.remove(library);
    await store.recordScan(library.id, counts, '2026-11-22T12:00:00.000Z');
    assert.equal(await store.get(library.id), undefined);
    assert.deepEqual(await store.list(), []);

    const unknown = `lib_sc${uid()}`;
    await store.recordScan(unknown, counts, '2026-11-22T12:00:00.000Z');
    assert.equal(await store.get(unknown), undefined);
    // Nothing half-made holds the deleted library's path either.
    const again = { ...aLibrary(), path: library.path };
    await store.create(again);
    await store.remove(again);
  });

  it('update changes only the given fields and returns the library; an unknown id gives undefined', async () => {
    const library = aLibrary();
    const other = aLibrary(new Date(Date.parse(library.createdAt) + 1_000).toISOString());
    try {
      await store.create(library);
      await store.create(other);
      const renamed = await store.update(library.id, { name: 'Renamed ünï "quoted"' });
      const expected: Library = { ...library, name: 'Renamed ünï "quoted"' };
      assert.deepEqual(renamed, expected);
      assert.deepEqual(await store.get(library.id), expected);
      // Upkeep fields, several at once, a null among them; a field given as undefined is left alone.
      const schedule = await store.update(library.id, { scanIntervalHours: 0, monitoring: false, nextScanAt: null, name: undefined });
      const scheduled: Library = { ...expected, scanIntervalHours: 0, monitoring: false, nextScanAt: null };
      assert.deepEqual(schedule, scheduled);
      assert.deepEqual(await store.get(library.id), scheduled);
      const next = await store.update(library.id, { scanIntervalHours: 6, nextScanAt: '2026-11-22T18:00:00.000Z' });
      assert.deepEqual(next, { ...scheduled, scanIntervalHours: 6, nextScanAt: '2026-11-22T18:00:00.000Z' });
      assert.deepEqual(await store.list(), [next, other]);
      // No change at all: the library as it is.
      assert.deepEqual(await store.update(library.id, {}), next);
      assert.deepEqual(await store.get(other.id), other, 'another library is untouched');

      const unknown = `lib_sc${uid()}`;
      assert.equal(await store.update(unknown, { name: 'Ghost' }), undefined);
      assert.equal(await store.update(unknown, {}), undefined);
      assert.equal(await store.get(unknown), undefined, 'an update creates nothing');
    } finally {
      await store.remove(library);
      await store.remove(other);
    }
  });

  it('update of a deleted library gives undefined and brings nothing back', async () => {
    const library = aLibrary();
    await store.create(library);
    await store.remove(library);
    assert.equal(await store.update(library.id, { monitoring: false }), undefined);
    assert.equal(await store.get(library.id), undefined);
    assert.deepEqual(await store.list(), []);
  });

  it('setStatus tells whether the state or its reason changed; the same again, or an unknown library, is false', async () => {
    const library = aLibrary();
    try {
      await store.create(library);
      assert.equal(await store.setStatus(library.id, { state: 'online', reason: null, since: '2026-11-22T00:00:00.000Z' }), false, 'online as created');
      assert.deepEqual((await store.get(library.id))?.status, library.status, 'a refused status changes nothing, not even since');

      const offline = { state: 'offline' as const, reason: 'The folder is missing', since: '2026-11-22T01:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, offline), true);
      assert.deepEqual(await store.get(library.id), { ...library, status: offline });
      assert.equal(await store.setStatus(library.id, { ...offline, since: '2026-11-22T02:00:00.000Z' }), false);
      assert.deepEqual((await store.get(library.id))?.status, offline, 'since stays the time of the change');

      const otherReason = { state: 'offline' as const, reason: 'The folder cannot be read', since: '2026-11-22T03:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, otherReason), true, 'another reason is a change');
      const online = { state: 'online' as const, reason: null, since: '2026-11-22T04:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, online), true);
      assert.equal(await store.setStatus(library.id, { ...online, since: '2026-11-22T05:00:00.000Z' }), false);
      // Online with a note (the folder cannot be watched), then the note gone.
      const noted = { state: 'online' as const, reason: 'The folder cannot be watched', since: '2026-11-22T06:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, noted), true);
      assert.equal(await store.setStatus(library.id, online), true);
      assert.deepEqual(await store.get(library.id), { ...library, status: online }, 'only the status changed');

      // Two racing the same change: one tells.
      const results = await Promise.all(Array.from({ length: 4 }, () => store.setStatus(library.id, offline)));
      assert.equal(results.filter(Boolean).length, 1);

      const unknown = `lib_sc${uid()}`;
      assert.equal(await store.setStatus(unknown, offline), false);
      assert.equal(await store.get(unknown), undefined, 'setStatus creates nothing');
    } finally {
      await store.remove(library);
    }
  });

  it('recordScan stores nextScanAt when given one (null too), and without one leaves it alone', async () => {
    const library = { ...aLibrary(), nextScanAt: '2026-11-22T12:00:00.000Z' };
    const counts: LibraryCounts = { movies: 1, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 10 };
    try {
      await store.create(library);
      await store.recordScan(library.id, counts, '2026-11-22T13:00:00.000Z');
      assert.deepEqual(await store.get(library.id), { ...library, counts, lastScannedAt: '2026-11-22T13:00:00.000Z' }, 'a scan of one folder: the schedule stays');
      await store.recordScan(library.id, counts, '2026-11-22T14:00:00.000Z', '2026-11-23T02:00:00.000Z');
      const scheduled: Library = { ...library, counts, lastScannedAt: '2026-11-22T14:00:00.000Z', nextScanAt: '2026-11-23T02:00:00.000Z' };
      assert.deepEqual(await store.get(library.id), scheduled);
      assert.deepEqual(await store.list(), [scheduled]);
      await store.recordScan(library.id, counts, '2026-11-22T15:00:00.000Z', null);
      assert.deepEqual(await store.get(library.id), { ...scheduled, lastScannedAt: '2026-11-22T15:00:00.000Z', nextScanAt: null }, 'no schedule');
    } finally {
      await store.remove(library);
    }
  });

  it('remove deletes the library and frees its path for a new one', async () => {
    const library = aLibrary();
    const next = { ...aLibrary(), path: library.path };
    try {
      await store.create(library);
      await store.remove(library);
      assert.equal(await store.get(library.id), undefined);
      assert.deepEqual(await store.list(), []);
      await store.create(next);
      assert.deepEqual(await store.get(next.id), next);
      assert.deepEqual(await store.list(), [next]);
      // The freed path is taken again by the new library.
      await assert.rejects(store.create({ ...aLibrary(), path: library.path }), isProblem(409, 'library-exists'));
    } finally {
      await store.remove(next);
    }
  });
};

// ---------------------------------------------------------------------------------------------

/** A contract's store is its own and starts empty: see the top of this file. */
export const manifestContract = (store: ManifestStore) => {
  const movieEntries = (n: number): IndexEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `mv_sc${uid()}`,
      entity: 'movie',
      addedAt: longAgo(i),
      files: [{ relPath: `Film ${i} (2001)/Film ${i} (2001) ${uid()}.mkv`, size: i * 1000 + 1, mtimeMs: 1_700_000_000_000 + i, part: null }],
      enrich: 'done',
    }));

  /** Every shape an index entry takes, as the index holds it (what a rescan compares). */
  const shapes = (): IndexEntry[] => {
    const showId = `tv_sc${uid()}`;
    return [
      {
        id: `mv_sc${uid()}`, entity: 'movie', addedAt: longAgo(1), enrich: 'artwork', localStamp: 'nfo:Été/movie.nfo@1',
        files: [
          { relPath: 'Été (1999)/Été cd1.mkv', size: 4_000_000_123, mtimeMs: 1_700_000_000_123.5, part: 1, tech: TECH },
          { relPath: 'Été (1999)/Été cd2.mkv', size: 3, mtimeMs: 4, part: 2, tech: null },
        ],
      },
      { id: `mv_sc${uid()}`, entity: 'movie', addedAt: longAgo(2), files: [{ relPath: 'Bare.mp4', size: 0, mtimeMs: 0, part: null }] },
      { id: showId, entity: 'tvshow', addedAt: longAgo(3), enrich: 'local', localStamp: 'poster:Show/poster.jpg@9' },
      { id: `ep_sc${uid()}`, entity: 'episode', addedAt: longAgo(4), showId, seasonNumber: 0, enrich: 'metadata', files: [{ relPath: 'Show/Specials/S00E01.mkv', size: 5, mtimeMs: 6, part: null, tech: TECH }] },
      { id: `ep_sc${uid()}`, entity: 'episode', addedAt: longAgo(5), showId, seasonNumber: 12, files: [{ relPath: 'Show/Season 12/S12E01-E02.mkv', size: 7, mtimeMs: 8, part: null }] },
    ];
  };

  it('reads back the entries a job wrote, every shape whole', async () => {
    const library = `lib_sc${uid()}`;
    assert.equal(await store.read(library), undefined, 'no manifest before the first write');
    const written = [...shapes(), ...movieEntries(300)];
    await store.write(library, `job_${uid()}`, written);
    assert.deepEqual(await store.read(library), written);
    await store.drop(library);
  });

  it("keeps an empty library's manifest as an empty index, not as none", async () => {
    const library = `lib_sc${uid()}`;
    await store.write(library, `job_${uid()}`, []);
    assert.deepEqual(await store.read(library), []);
    await store.drop(library);
  });

  it("a later job's write replaces the manifest, larger or smaller", async () => {
    const library = `lib_sc${uid()}`;
    const [a, b, c] = [movieEntries(250), shapes(), movieEntries(400)];
    await store.write(library, 'job1', a);
    assert.deepEqual(await store.read(library), a);
    await store.write(library, 'job2', b);
    assert.deepEqual(await store.read(library), b);
    await store.write(library, 'job3', c);
    assert.deepEqual(await store.read(library), c);
    await store.drop(library);
  });

  // In fewer parts than the first: the first write's extra parts must go, or the set no longer
  // counts whole and read() finds no manifest.
  it('a second write by the same job replaces its first', async () => {
    const library = `lib_sc${uid()}`;
    const [a, b] = [movieEntries(400), shapes()];
    await store.write(library, 'job1', a);
    await store.write(library, 'job1', b);
    assert.deepEqual(await store.read(library), b);
    await store.drop(library);
  });

  it("drop removes one library's manifest and no other's; dropping none is no error", async () => {
    const [library, other] = [`lib_sc${uid()}`, `lib_sc${uid()}`];
    const [mine, theirs] = [movieEntries(120), shapes()];
    await store.write(library, 'job1', mine);
    await store.write(other, 'job1', theirs);
    await store.drop(library);
    assert.equal(await store.read(library), undefined);
    assert.deepEqual(await store.read(other), theirs, "another library's manifest stays");
    await store.drop(library);
    await store.drop(`lib_sc${uid()}`);
    // A write after a drop is read again.
    await store.write(library, 'job2', mine);
    assert.deepEqual(await store.read(library), mine);
    await store.drop(library);
    await store.drop(other);
  });
};

// ---------------------------------------------------------------------------------------------

// Each on a table of its own, made before its tests and deleted after them.
describe('CatalogStore contract: DynamoCatalogStore', () => catalogContract(new DynamoCatalogStore(ownTable('catalog-contract').db)));
describe('LibraryStore contract: DynamoLibraryStore', () => libraryContract(new DynamoLibraryStore(ownTable('library-contract').db)));
describe('ManifestStore contract: DynamoManifestStore', () => manifestContract(new DynamoManifestStore(ownTable('manifest-contract').db)));
// Small parts, so the same contract holds when a manifest takes many items.
describe('ManifestStore contract: DynamoManifestStore in 2 KB parts', () => manifestContract(new DynamoManifestStore(ownTable('manifest-contract-2kb').db, 2_000)));

// Data older versions left in the table, which no port method writes any more: the one place
// this file writes an item itself, with the table's own key helpers.
describe('DynamoLibraryStore: a library stored before status and schedules existed', () => {
  const table = ownTable('legacy-library');
  const store = new DynamoLibraryStore(table.db);
  /** A library as older versions wrote it: no status, scanIntervalHours, monitoring or nextScanAt. */
  const storeLegacy = async (lastScannedAt: string | null) => {
    const id = `lib_sc${uid()}`;
    const createdAt = '2025-03-01T10:00:00.000Z';
    const legacy = {
      id, name: `Legacy ${uid().slice(0, 6)}`, path: `/media/contract/${uid()}`, mediaType: 'movie' as const, createdAt, lastScannedAt,
      counts: { movies: 2, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 20 },
    };
    const { doc, tableName } = table.db();
    await doc.send(new PutCommand({ TableName: tableName, Item: { ...keys.library(id), ...keys.librariesByAge(createdAt, id), entity: 'library', ...legacy } }));
    return legacy;
  };
  const remove = (legacy: { id: string; path: string }) => store.remove({ id: legacy.id, path: legacy.path } as Library);

  it('reads back online since its creation, rescanned every 12 h from its last scan, monitored', async () => {
    const legacy = await storeLegacy('2025-03-02T08:30:00.000Z');
    try {
      const expected: Library = {
        ...legacy,
        status: { state: 'online', reason: null, since: legacy.createdAt },
        scanIntervalHours: 12,
        monitoring: true,
        nextScanAt: '2025-03-02T20:30:00.000Z',
      };
      assert.deepEqual(await store.get(legacy.id), expected);
      assert.deepEqual(await store.list(), [expected]);
    } finally {
      await remove(legacy);
    }
  });

  it('never scanned: its first scheduled scan is 12 h after its creation', async () => {
    const legacy = await storeLegacy(null);
    try {
      assert.equal((await store.get(legacy.id))?.nextScanAt, '2025-03-01T22:00:00.000Z');
    } finally {
      await remove(legacy);
    }
  });

  it('update and setStatus work on it, and what they leave out still reads with its defaults', async () => {
    const legacy = await storeLegacy('2025-03-02T08:30:00.000Z');
    try {
      const updated = await store.update(legacy.id, { monitoring: false });
      assert.deepEqual([updated?.monitoring, updated?.scanIntervalHours, updated?.status.state, updated?.nextScanAt], [false, 12, 'online', '2025-03-02T20:30:00.000Z']);
      const offline = { state: 'offline' as const, reason: 'The folder is missing', since: '2025-03-03T00:00:00.000Z' };
      assert.equal(await store.setStatus(legacy.id, offline), true, 'a library with no status stored takes one');
      assert.deepEqual((await store.get(legacy.id))?.status, offline);
    } finally {
      await remove(legacy);
    }
  });
});
