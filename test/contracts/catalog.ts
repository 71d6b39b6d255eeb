// The CatalogStore contract: what every adapter of the catalogue does (test/contracts/support.ts
// says how contracts run).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CatalogItem, EpisodeItem, FileRef, IndexEntry, MovieItem, ShowItem, TitledItem } from '../../lib/catalog/model';
import { ANNOUNCED_MAX, CHANGES_KEPT } from '../../lib/catalog/changes';
import type { CatalogStore } from '../../lib/catalog/store';
import type { MediaKind } from '../../lib/library/model';
import { byId, isProblem, longAgo, TECH, uid } from './support';

// Fixtures: every item shape, with its optional parts filled in, so a round trip that loses or
// reshapes a field shows.

const stamp = (id: string, libraryId: string, addedAt: string) => ({
  id,
  libraryId,
  addedAt,
  updatedAt: addedAt,
  lastJob: `job_${uid()}`,
  lastChange: 'added' as const,
});

const titled = (title: string) => ({
  title,
  originalTitle: null,
  year: 1999,
  overview: null,
  genres: [] as string[],
  rating: null,
  meshGradientColors: ['#101010', '#202020', '#303030', '#404040'] as [string, string, string, string],
  tmdbId: null,
});

export const movie = (libraryId: string, addedAt = longAgo(0), extra: Partial<MovieItem> = {}): MovieItem => {
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
      source: 'provider',
      matched: true,
      confidence: 0.93,
      tagline: 'Hot.',
      runtimeMinutes: 121,
      releaseDate: '1999-06-21',
      certification: 'PG-13',
      cast: [
        { name: 'A', character: 'B', order: 0 },
        { name: 'C', character: '', order: 1 },
      ],
      directors: ['D'],
      creators: [],
      imdbId: 'tt0133093',
      tvdbId: null,
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

export const show = (libraryId: string, addedAt = longAgo(2), extra: Partial<ShowItem> = {}): ShowItem => {
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

export const episode = (
  libraryId: string,
  showId: string,
  seasonNumber: number,
  episodeNumber: number,
  extra: Partial<EpisodeItem> = {},
): EpisodeItem => {
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
    files: [
      {
        relPath: `Show/Season ${seasonNumber}/S${seasonNumber}E${episodeNumber} ${id}.mkv`,
        size: 700_000_000,
        mtimeMs: 1_600_000_000_000,
        part: null,
        tech: TECH,
      },
    ],
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

/** A contract's store is its own and starts empty (test/contracts/support.ts). */
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
      local: { still: `Show/Season 1/S1E2-thumb.jpg` },
      localStamp: 'still:S1E2-thumb.jpg@5',
      artwork: {
        still: {
          etag: 'etag-still',
          contentType: 'image/png',
          width: 640,
          height: 360,
          source: 'local',
          from: 'Show/Season 1/S1E2-thumb.jpg',
        },
      },
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
    const second: MovieItem = {
      ...rest,
      libraryId: lib2,
      title: 'Renamed',
      addedAt: longAgo(50),
      lastChange: 'updated',
      files: [first.files[0]!],
    };
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
      assert.deepEqual(await store.get(m.id), {
        ...m,
        meshGradientColors: ['#ff0000', '#00ff00', '#0000ff', '#ffffff'],
        colorsFrom: 'etag-a',
      });
      assert.deepEqual(await store.get(s.id), {
        ...s,
        meshGradientColors: ['#010101', '#020202', '#030303', '#040404'],
        colorsFrom: 'etag-b',
      });

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
      // A page of the same, in the same order: what a removal takes each step.
      assert.deepEqual(
        await store.firstOf(library, 3),
        index.slice(0, 3).map((e) => e.id),
      );
      assert.deepEqual((await store.firstOf(library, 100)).sort(), all.map((i) => i.id).sort());
      assert.deepEqual(await store.firstOf(`lib_sc${uid()}`, 3), []);
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
        assert.deepEqual(
          items.map((i) => i.addedAt),
          [9, 7, 5, 3, 3, 2, 1].map((s) => longAgo(1_000 + s)),
          `newest first (limit ${limit})`,
        );
        assert.deepEqual(sizes, pageSizes(movies.length, limit), `full pages, then the rest (limit ${limit})`);
      }
      const shown = await walkRecent('tvshow', 2);
      assert.deepEqual(shown.items, [shows[1], shows[2], shows[0]], 'the shows only, newest first');
      assert.deepEqual(shown.sizes, [2, 1]);

      // An item written again with another addedAt moves, and is still listed once.
      const moved = { ...movies[1]!, addedAt: longAgo(1_006) };
      await store.put([moved]);
      const after = await walkRecent('movie', 2);
      assert.deepEqual(
        after.items,
        newestFirst(
          movies.map((m) => (m.id === moved.id ? moved : m)),
          after.items,
        ),
      );
      assert.deepEqual(
        after.items.map((i) => i.addedAt),
        [9, 7, 6, 5, 3, 3, 2].map((s) => longAgo(1_000 + s)),
      );
      assert.deepEqual(after.items[2], moved);
      assert.deepEqual(after.sizes, [2, 2, 2, 1]);
    } finally {
      await store.remove(all.map((i) => i.id));
    }
  });

  it('recent() refuses a cursor it did not hand out for that list with a 400', async () => {
    const library = `lib_sc${uid()}`;
    const items = [
      movie(library, longAgo(2_000)),
      movie(library, longAgo(2_001)),
      show(library, longAgo(2_000)),
      show(library, longAgo(2_001)),
    ];
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
      const tampered = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(movieCursor, 'base64url').toString('utf8')), extra: 'x' }),
      ).toString('base64url');
      for (const bad of [
        'not a cursor',
        'bnVsbA',
        Buffer.from('[1,2]').toString('base64url'),
        Buffer.from('{}').toString('base64url'),
        tampered,
      ]) {
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
    const eps = [
      [1, 20],
      [10, 1],
      [0, 1],
      [2, 1],
      [1, 100],
      [1, 2],
      [1, 1],
      [0, 3],
    ].map(([season, ep]) => episode(library, s.id, season!, ep!));
    const stranger = episode(library, other.id, 1, 1);
    try {
      await store.put([s, other, stranger, ...eps]);
      const listed = await store.episodes(s.id);
      const order = listed.map((e) => `${e.seasonNumber}x${e.episodeNumber}`);
      assert.deepEqual(order, ['0x1', '0x3', '1x1', '1x2', '1x20', '1x100', '2x1', '10x1']);
      assert.deepEqual(
        listed,
        [2, 7, 6, 5, 0, 4, 3, 1].map((i) => eps[i]),
        'the episodes whole, in that order, none of another show',
      );
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

  it('withdraws a library in a move readers wait for, naming no item, until it is restored', async () => {
    const [one, two] = [`lib_${uid()}`, `lib_${uid()}`];
    const v = await store.version();
    await store.withdrawLibrary(one, true);
    await store.withdrawLibrary(two, true);
    await store.withdrawLibrary(two, true);
    assert.deepEqual(await store.versionState(), { version: v + 3, quiet: false, withdrawn: [one, two].sort() });
    assert.deepEqual(await store.changedBetween(v, v + 3), []);
    await store.withdrawLibrary(one, false);
    await store.withdrawLibrary(two, false);
    assert.deepEqual(await store.versionState(), { version: v + 5, quiet: false, withdrawn: [] });
  });

  it('each write moves the stamp itself, naming what it wrote, and changedBetween gathers them', async () => {
    const library = `lib_${uid()}`;
    const [a, b, c] = [movie(library), movie(library), movie(library)];
    const v = await store.version();
    try {
      await store.put([a, b], { quiet: true });
      assert.deepEqual(await store.versionState(), { version: v + 1, quiet: true, withdrawn: [] }, "a scan's write: a quiet move");
      await store.remove([b.id]);
      assert.deepEqual(await store.versionState(), { version: v + 2, quiet: false, withdrawn: [] });
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
