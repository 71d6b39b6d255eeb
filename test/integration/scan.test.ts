// Scanning real trees through the running stack: the items a mixed movie tree and a TV tree
// give, the WebSocket events in order, rescans that change nothing, removals, the catalogue
// and search over what was found, and deleting a library.
//
// The stack is shared with other test files, which scan meanwhile: the catalogue's lists hold
// their items too. This file knows its own items by id, from the library:updated event each of
// its scans sends (the ids it added, updated, moved and removed), and its jobs by library id,
// so it compares exactly its own entries, whole; only the totals across libraries and the
// first pages of the lists are everyone's. (An instance of its own would make those exact too,
// at the cost of another stack starting, 10-30 s here, and about 400 MiB while it runs, beside
// the other test file the suite runs at the same time.)
import assert from 'node:assert/strict';
import { existsSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { PHASES, ZERO_COUNTS } from '../../lib/scan/job';
import { tempDir } from '../support/instance';
import { allPages, makeTree, mediaOf, scan, waitForJob } from '../support/media';
import { call, jsonBody, stack } from '../support/stack';
import { WsClient } from '../support/ws';

/** The household profile's state of what nobody watched yet, as list entries and search hits carry it. */
const NOT_WATCHED = { positionSeconds: 0, progress: 0, played: false, playCount: 0, lastPlayedAt: null, favorite: false };

const MOVIE_FILES = [
  'Inception (2010)/Inception (2010).mkv',
  'Inception (2010)/sample.mkv', // sample
  'Inception (2010)/Extras/Making of.mkv', // extras folder
  'Inception (2010)/Featurettes/Dream Levels.mp4',
  'Ame\u0301lie (2001)/Ame\u0301lie (2001).mkv', // decomposed on disk, as macOS writes it
  'The.Dark.Knight.2008.1080p.BluRay.x264-GRP.mkv', // release style, loose
  'Kill Bill (2003)/Kill Bill (2003) - cd1.avi', // one movie in two parts
  'Kill Bill (2003)/Kill Bill (2003) - cd2.avi',
  'Heat (1995).mp4',
  'Heat (1995)-trailer.mkv', // a trailer
  '.hidden/Secret (2000).mkv',
  'Skipped/.ignore',
  'Skipped/Nope (2001).mkv',
  'Inception (2010)/poster.jpg',
  'Inception (2010)/notes.txt',
];
const MOVIES = ['Amélie', 'Heat', 'Inception', 'Kill Bill', 'The Dark Knight'];

const TV_FILES = [
  'Doctor Who (2005)/Season 01/Doctor.Who.2005.S01E01.mkv',
  'Doctor Who (2005)/Season 01/Doctor.Who.2005.S01E02-E03.mkv', // two episodes in one file
  'Doctor Who (2005)/Season 01/sample.mkv',
  'Doctor Who (2005)/Season 01/Extras/Bloopers.mkv',
  'Doctor Who (2005)/Season 02/Doctor Who - 2x01.mkv',
  'Doctor Who (2005)/Specials/Doctor.Who.S00E01.mkv', // season 0
  'Breaking Bad/Season 1/Breaking.Bad.S01E01.mkv',
];

const NO_CHANGES = { added: [], updated: [], moved: [], removed: [], truncated: false };
const sorted = (ids: string[]) => [...ids].sort();
/** Newest first, as the recent lists give them (the order of items added at the same moment is left open). */
const newestFirst = (a: any, b: any) => (a.addedAt === b.addedAt ? 0 : a.addedAt < b.addedAt ? 1 : -1);

describe('scanning a movie tree and a TV tree', () => {
  const root = tempDir('scan');
  const movies = makeTree(join(root, 'movies'), MOVIE_FILES);
  const tv = makeTree(join(root, 'tv'), TV_FILES);
  let ws: WsClient;
  let movieJob: any;
  let movieLibrary: string;
  /** Every scan of the movie library, oldest first. */
  const movieJobs: any[] = [];
  /** What the first scan changed, as its library:updated event says. */
  let firstChanges: any;
  /** The movie library's movies as the list showed them after the first scan, newest first. */
  let ourMovies: any[];

  /** The items a finished job changed: the ids of its library:updated event, the one after its scan:complete. */
  const changedBy = async (job: any) => {
    const isComplete = (m: any) => m.type === 'scan:complete' && m.jobId === job.jobId;
    await ws.next(isComplete);
    const after = ws.messages.findIndex(isComplete);
    const updated = await ws.next((m) => m.type === 'library:updated' && m.libraryId === job.libraryId && ws.messages.indexOf(m) > after);
    return updated.items;
  };

  /** The entries of the movie list, every page, that are among `ids`, in list order. */
  const listedOf = async (path: string, ids: Set<string>) => (await allPages(path)).filter((m: any) => ids.has(m.id));

  before(async () => {
    ws = await WsClient.open(stack.ws);
    // A real picture: pictures beside a film are stored as its artwork, even with no provider.
    writeFileSync(
      join(movies, 'Inception (2010)/poster.jpg'),
      await sharp({ create: { width: 60, height: 90, channels: 3, background: '#335577' } })
        .jpeg()
        .toBuffer(),
    );
    movieJob = await scan({ path: movies, mediaType: 'movie' });
    movieLibrary = movieJob.libraryId;
    movieJobs.push(movieJob);
    // Here rather than in the first test, so a failure there does not take the later tests, which compare with these, along.
    firstChanges = await changedBy(movieJob);
    ourMovies = await listedOf('/api/v1/movies', new Set(firstChanges.added));
  });
  after(() => ws.close());

  it('finds exactly the movies on disk: samples, extras, trailers, hidden and ignored folders skipped, parts counted once', async () => {
    assert.equal(movieJob.status, 'completed', JSON.stringify(movieJob.error));
    assert.deepEqual(
      {
        discovered: movieJob.counts.discovered,
        added: movieJob.counts.added,
        removed: movieJob.counts.removed,
        failed: movieJob.counts.failed,
      },
      { discovered: 6, added: 5, removed: 0, failed: 0 },
    );
    const library = (await call('GET', `/api/v1/library/${movieLibrary}`)).json.data;
    assert.equal(library.path, movies);
    assert.equal(library.itemCount, 5);
    assert.equal(library.stats.movies, 5);
    assert.equal(library.stats.totalSizeBytes, 6 * 1024 * 1024);

    // The scan's own account of what it added: five ids, nothing else.
    assert.deepEqual({ ...firstChanges, added: [] }, NO_CHANGES);
    assert.equal(new Set(firstChanges.added).size, 5, JSON.stringify(firstChanges.added));
    const ours = new Set<string>(firstChanges.added);

    // Other files' scans run alongside and may add newer movies: page on until ours are all seen.
    const seen: any[] = [];
    for (let cursor: string | null = null, pages = 0; pages === 0 || (cursor && pages < 50); pages++) {
      const page = await call('GET', `/api/v1/movies?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(page.status, 200);
      // List entries have the search hit's shape, so one client component renders both.
      seen.push(...mediaOf(page.json.data));
      cursor = [...ours].every((id) => seen.some((m) => m.id === id)) ? null : page.json.meta.nextCursor;
    }
    const recent = { json: { data: seen } };
    assert.deepEqual(
      seen.filter((m) => ours.has(m.id)),
      ourMovies,
      'the first pages show ours as the whole list does',
    );
    assert.deepEqual(ourMovies.map((m) => m.title).sort(), MOVIES, 'each of our five once');
    assert.deepEqual(ourMovies, [...ourMovies].sort(newestFirst), 'newest first');
    // Whole, but for what the scan computed (ids, times, colours); the poster beside Inception is its artwork.
    const inception = ourMovies.find((m) => m.title === 'Inception');
    assert.match(inception.posterUrl, new RegExp(`^${stack.url}/api/v1/artwork/${inception.id}/poster\\?v=[^&]+$`));
    const film = (title: string, year: number, posterUrl: string | null = null) => ({
      type: 'movie',
      title,
      originalTitle: null,
      year,
      overview: null,
      genres: [],
      rating: null,
      posterUrl,
      backdropUrl: null,
    });
    assert.deepEqual(
      [...ourMovies]
        .sort((a, b) => a.title.localeCompare(b.title))
        .map(({ id: _id, addedAt: _at, meshGradientColors: _colors, ...rest }) => rest),
      [
        film('Amélie', 2001),
        film('Heat', 1995),
        film('Inception', 2010, inception.posterUrl),
        film('Kill Bill', 2003),
        film('The Dark Knight', 2008),
      ],
    );
    const killBill = ourMovies.find((m: any) => m.title === 'Kill Bill');
    const detail = (await call('GET', `/api/v1/movies/${killBill.id}`)).json.data;
    assert.equal(detail.file.parts, 2);
    assert.equal(detail.file.size, 2 * 1024 * 1024);
    assert.equal(detail.file.container, 'avi');
    assert.equal(detail.streamUrl, `${stack.url}/api/v1/stream/${killBill.id}`);
    assert.equal(killBill.year, 2003);
    for (const m of recent.json.data) {
      assert.equal(m.meshGradientColors.length, 4);
      for (const c of m.meshGradientColors) assert.match(c, /^#[0-9a-f]{6}$/);
    }
    // Names are stored composed (NFC), whatever the disk holds.
    assert.ok(recent.json.data.some((m: any) => m.title === 'Am\u00e9lie'));
  });

  it('sent progress in phase order, never going down, then scan:complete and library:updated', async () => {
    const mine = ws.messages.filter((m) => m.jobId === movieJob.jobId || m.libraryId === movieLibrary);
    const progress = mine.filter((m) => m.type === 'scan:progress');
    assert.ok(progress.length >= 2, JSON.stringify(mine));
    const order = PHASES.map((p) => p.phase);
    for (let i = 1; i < progress.length; i++) {
      assert.ok(progress[i].progress >= progress[i - 1].progress, 'progress never goes down');
      assert.ok(order.indexOf(progress[i].phase) >= order.indexOf(progress[i - 1].phase), 'phases in order');
    }
    assert.equal(progress[0].phase, 'discovering');
    assert.equal(progress.at(-1).progress, 100);
    assert.deepEqual([...new Set(progress.map((p) => p.phase))], order);
    const types = mine.map((m) => m.type);
    assert.deepEqual(types.slice(types.indexOf('scan:complete')), ['scan:complete', 'library:updated']);
    assert.ok(types.indexOf('library:created') < types.indexOf('scan:progress'));
    const complete = mine.find((m) => m.type === 'scan:complete');
    assert.deepEqual({ ...complete.summary, durationMs: 0 }, { added: 5, updated: 0, moved: 0, removed: 0, failed: 0, durationMs: 0 });
    for (const m of mine) assert.ok(!Number.isNaN(Date.parse(m.timestamp)));
  });

  it('a rescan of an unchanged tree changes nothing', async () => {
    const again = await scan({ path: movies, mediaType: 'movie' });
    movieJobs.push(again);
    assert.equal(again.libraryId, movieLibrary, 'the same library is used');
    assert.deepEqual(again.counts, { ...ZERO_COUNTS, discovered: 6, processed: 6 });
    assert.deepEqual(await changedBy(again), NO_CHANGES);
    assert.equal((await call('GET', `/api/v1/library/${movieLibrary}`)).json.data.stats.movies, 5);
    const all = await allPages('/api/v1/movies', undefined, 2);
    assert.equal(new Set(all.map((m) => m.id)).size, all.length, 'no movie twice across pages');
    const ours = new Set(ourMovies.map((m) => m.id));
    assert.deepEqual(
      all.filter((m) => ours.has(m.id)),
      ourMovies,
      'our five as they were, in the same order',
    );
  });

  it('a deleted file leaves the catalogue, a changed one is updated, a lost part shrinks the stack', async () => {
    // Every page: other test files add films to the shared stack meanwhile, so this library's may not be among the newest 100.
    const ours = new Set(ourMovies.map((m) => m.id));
    assert.deepEqual(await listedOf('/api/v1/movies', ours), ourMovies);
    const titled = (title: string) => ourMovies.find((m) => m.title === title);
    const [heat, killBill, inception] = [titled('Heat'), titled('Kill Bill'), titled('Inception')];
    assert.equal((await call('GET', `/api/v1/movies/${heat.id}`)).json.data.file.path, 'Heat (1995).mp4');
    assert.equal((await call('GET', `/api/v1/movies/${killBill.id}`)).json.data.file.path, 'Kill Bill (2003)/Kill Bill (2003) - cd1.avi');
    rmSync(join(movies, 'Heat (1995).mp4'));
    truncateSync(join(movies, 'Inception (2010)/Inception (2010).mkv'), 3 * 1024 * 1024);
    rmSync(join(movies, 'Kill Bill (2003)/Kill Bill (2003) - cd2.avi'));
    const job = await scan({ path: movies, mediaType: 'movie' });
    movieJobs.push(job);
    assert.deepEqual(
      { added: job.counts.added, updated: job.counts.updated, removed: job.counts.removed },
      { added: 0, updated: 2, removed: 1 },
    );
    const changed = await changedBy(job);
    assert.deepEqual(
      { ...changed, updated: sorted(changed.updated) },
      { ...NO_CHANGES, updated: sorted([inception.id, killBill.id]), removed: [heat.id] },
    );
    assert.equal((await call('GET', `/api/v1/movies/${heat.id}`)).status, 404);
    assert.equal((await call('GET', `/api/v1/movies/${killBill.id}`)).json.data.file.parts, 1);
    // The other four are listed as they were: an update keeps an item's place and what the list shows of it.
    assert.deepEqual(
      await listedOf('/api/v1/movies', ours),
      ourMovies.filter((m) => m.id !== heat.id),
    );
    const library = (await call('GET', `/api/v1/library/${movieLibrary}`)).json.data;
    assert.equal(library.stats.movies, 4);
    assert.equal(library.stats.totalSizeBytes, (3 + 1 + 1 + 1) * 1024 * 1024);
  });

  it('search finds "Amélie" for "amelie" and "The Dark Knight" for "dark kni", best match first', async () => {
    const amelie = (await call('GET', '/api/v1/search?query=amelie')).json;
    assert.equal(amelie.data[0].media.title, 'Amélie');
    assert.equal(amelie.data[0].type, 'movie');
    const dark = (await call('GET', `/api/v1/search?query=${encodeURIComponent('dark kni')}`)).json;
    assert.equal(dark.data[0].media.title, 'The Dark Knight');
    assert.equal(dark.data[0].id, dark.data[0].media.id);
    // Of our films, each query finds exactly the one, as the list shows it, and says by what.
    const hitOf = (title: string) => {
      const media = ourMovies.find((m) => m.title === title);
      return { id: media.id, type: 'movie', media, userData: NOT_WATCHED, matchedOn: 'title', matchedText: title };
    };
    const ours = (hits: any[]) => hits.filter((h) => ourMovies.some((m) => m.id === h.id));
    assert.deepEqual(ours(amelie.data), [hitOf('Amélie')]);
    assert.deepEqual(ours(dark.data), [hitOf('The Dark Knight')]);
    const none = (await call('GET', '/api/v1/search?query=zzzzzz')).json;
    assert.deepEqual(none.data, []);
    // A removed movie is no longer found.
    assert.deepEqual(
      (await call('GET', '/api/v1/search?query=heat&type=movie')).json.data.filter((h: any) => h.media.title === 'Heat'),
      [],
    );
  });

  describe('TV', () => {
    let tvJob: any;
    /** What the library's first scan changed, and its shows as the list showed them then, newest first. */
    let tvChanges: any;
    let ourShows: any[];
    const show = (title: string) => ourShows.find((s) => s.title === title);
    before(async () => {
      tvJob = await scan({ path: tv, mediaType: 'tvshow' });
      tvChanges = await changedBy(tvJob);
      ourShows = await listedOf('/api/v1/tvshows', new Set(tvChanges.added));
    });

    it('finds the shows, seasons in order with specials as season 0, and a double episode under both numbers', async () => {
      assert.equal(tvJob.status, 'completed', JSON.stringify(tvJob.error));
      assert.equal(tvJob.counts.discovered, 5);
      // Two shows and six episodes added (S01E02-E03 is two), nothing else.
      const changed = tvChanges;
      assert.deepEqual({ ...changed, added: [] }, NO_CHANGES);
      assert.equal(new Set(changed.added).size, 8, JSON.stringify(changed.added));
      assert.deepEqual(ourShows, [...ourShows].sort(newestFirst), 'newest first');
      const series = (title: string, year: number | null) => ({
        type: 'tvshow',
        title,
        originalTitle: null,
        year,
        overview: null,
        genres: [],
        rating: null,
        posterUrl: null,
        backdropUrl: null,
      });
      assert.deepEqual(
        [...ourShows]
          .sort((a, b) => a.title.localeCompare(b.title))
          .map(({ id: _id, addedAt: _at, meshGradientColors: _colors, ...rest }) => rest),
        [series('Breaking Bad', null), series('Doctor Who', 2005)],
      );
      const shows = ourShows;
      assert.deepEqual(shows.map((s: any) => s.title).sort(), ['Breaking Bad', 'Doctor Who']);
      const who = shows.find((s: any) => s.title === 'Doctor Who');
      assert.equal(who.year, 2005);
      const detail = (await call('GET', `/api/v1/tvshows/${who.id}`)).json.data;
      assert.deepEqual(
        detail.seasons.map((s: any) => [s.seasonNumber, s.name, s.episodes.map((e: any) => e.episodeNumber)]),
        [
          [0, 'Specials', [1]],
          [1, 'Season 1', [1, 2, 3]],
          [2, 'Season 2', [1]],
        ],
      );
      assert.equal(detail.seasons[1].episodeCount, 3);
      const [e2, e3] = [detail.seasons[1].episodes[1], detail.seasons[1].episodes[2]];
      assert.notEqual(e2.id, e3.id);
      assert.equal(e2.streamUrl, `${stack.url}/api/v1/stream/${e2.id}`);
      const stats = (await call('GET', `/api/v1/library/${tvJob.libraryId}`)).json.data.stats;
      assert.deepEqual(
        { tvShows: stats.tvShows, seasons: stats.seasons, episodes: stats.episodes },
        { tvShows: 2, seasons: 4, episodes: 6 },
      );
      // The added ids are exactly the shows and the episodes their details list.
      const breakingDetail = (await call('GET', `/api/v1/tvshows/${show('Breaking Bad').id}`)).json.data;
      const episodeIds = [detail, breakingDetail].flatMap((d: any) => d.seasons.flatMap((s: any) => s.episodes.map((e: any) => e.id)));
      assert.deepEqual(sorted(changed.added), sorted([who.id, breakingDetail.id, ...episodeIds]));

      const hits = (await call('GET', '/api/v1/search?query=doctor&type=tvshow')).json.data;
      assert.equal(hits[0].media.title, 'Doctor Who');
      assert.ok(hits.every((h: any) => h.type === 'tvshow'));
      assert.deepEqual(
        hits.filter((h: any) => ourShows.some((s) => s.id === h.id)),
        [{ id: who.id, type: 'tvshow', media: who, userData: NOT_WATCHED, matchedOn: 'title', matchedText: 'Doctor Who' }],
      );
    });

    it("a rescan changes nothing; removing a show's last episode removes the show", async () => {
      const again = await scan({ path: tv, mediaType: 'tvshow' });
      assert.deepEqual(
        { added: again.counts.added, updated: again.counts.updated, removed: again.counts.removed },
        { added: 0, updated: 0, removed: 0 },
      );
      assert.deepEqual(await changedBy(again), NO_CHANGES);
      const ids = new Set<string>(ourShows.map((s) => s.id));
      assert.deepEqual(await listedOf('/api/v1/tvshows', ids), ourShows, 'both shows as they were');
      const breaking = show('Breaking Bad');
      const [episode] = (await call('GET', `/api/v1/tvshows/${breaking.id}`)).json.data.seasons.flatMap((s: any) => s.episodes);
      rmSync(join(tv, 'Breaking Bad'), { recursive: true });
      const after = await scan({ path: tv, mediaType: 'tvshow' });
      assert.equal(after.counts.removed, 2, 'the episode and its show');
      const changed = await changedBy(after);
      assert.deepEqual({ ...changed, removed: sorted(changed.removed) }, { ...NO_CHANGES, removed: sorted([breaking.id, episode.id]) });
      assert.equal((await call('GET', `/api/v1/tvshows/${breaking.id}`)).status, 404);
      assert.deepEqual(await listedOf('/api/v1/tvshows', ids), [show('Doctor Who')]);
      const stats = (await call('GET', `/api/v1/library/${tvJob.libraryId}`)).json.data.stats;
      assert.deepEqual({ tvShows: stats.tvShows, episodes: stats.episodes }, { tvShows: 1, episodes: 5 });
    });

    it('deleting the library removes its catalogue entries and leaves the files alone', async () => {
      const who = show('Doctor Who');
      const res = await call('DELETE', `/api/v1/library/${tvJob.libraryId}`);
      assert.equal(res.status, 204);
      assert.equal((await call('GET', `/api/v1/library/${tvJob.libraryId}`)).status, 404);
      assert.equal((await call('GET', `/api/v1/tvshows/${who.id}`)).status, 404);
      assert.deepEqual(await listedOf('/api/v1/tvshows', new Set(ourShows.map((s) => s.id))), []);
      assert.ok(existsSync(join(tv, 'Doctor Who (2005)/Season 01/Doctor.Who.2005.S01E01.mkv')));
      await ws.next((m) => m.type === 'library:deleted' && m.libraryId === tvJob.libraryId);
      assert.equal((await call('GET', '/api/v1/search?query=doctor&type=tvshow')).json.data.filter((h: any) => h.id === who.id).length, 0);
    });
  });

  it('library stats add up across libraries', async () => {
    const libraries = (await call('GET', '/api/v1/library')).json;
    const stats = (await call('GET', '/api/v1/library/stats')).json.data;
    assert.equal(stats.libraries, libraries.data.length);
    assert.ok(stats.movies >= 4);
    assert.ok(stats.lastScanAt);
    // Of this file's libraries (under its own folder) only the movie library is left, listed as it reads alone.
    const { stats: own, ...movieView } = (await call('GET', `/api/v1/library/${movieLibrary}`)).json.data;
    assert.deepEqual(
      libraries.data.filter((l: any) => l.path.startsWith(`${root}/`)),
      [movieView],
    );
    assert.deepEqual(own, {
      libraries: 1,
      movies: 4,
      tvShows: 0,
      seasons: 0,
      episodes: 0,
      totalSizeBytes: 6 * 1024 * 1024,
      totalDurationSeconds: 0,
      lastScanAt: movieView.lastScannedAt,
    });
  });

  it('pages through the recent movies newest first with a cursor', async () => {
    const first = (await call('GET', '/api/v1/movies?limit=1')).json;
    first.data = mediaOf(first.data);
    assert.equal(first.data.length, 1);
    assert.ok(first.meta.total >= 4);
    assert.ok(first.meta.nextCursor);
    const second = (await call('GET', `/api/v1/movies?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`)).json;
    second.data = mediaOf(second.data);
    assert.ok(second.data[0].addedAt <= first.data[0].addedAt);
    assert.notEqual(second.data[0].id, first.data[0].id);
  });

  it('starting a scan answers 202 with a queued job, listed before older ones', async () => {
    const res = await call('POST', '/api/v1/scan/path', jsonBody({ path: movies, mediaType: 'movie', libraryId: movieLibrary }));
    assert.equal(res.status, 202);
    assert.equal(res.json.data.status, 'queued');
    assert.equal(res.json.data.libraryId, movieLibrary);
    // Other test files scan meanwhile: of the list, this library's jobs are exactly its scans, newest first.
    const ofOurs = (jobs: any[]) => jobs.filter((j: any) => j.libraryId === movieLibrary);
    const ids = ofOurs((await call('GET', '/api/v1/scan/jobs')).json.data).map((j: any) => j.jobId);
    assert.deepEqual(ids, [res.json.data.jobId, ...movieJobs.map((j) => j.jobId).reverse()]);
    const finished = await waitForJob(res.json.data.jobId);
    assert.equal(finished.status, 'completed');
    const completed = (await call('GET', '/api/v1/scan/jobs?status=completed')).json.data;
    assert.ok(completed.length > 0 && completed.every((j: any) => j.status === 'completed'));
    assert.deepEqual(ofOurs(completed), [finished, ...[...movieJobs].reverse()], 'each whole, as it finished');
  });
});
