// Library upkeep on real folders through the running stack: what a scan does when the library's
// folder is not what it was.
//  - An offline root (emptied like an unmounted mount point, or gone altogether) fails the scan
//    with library-offline and removes nothing: the items stay listed, the library says it is
//    offline (and tells /ws), streams answer 503 media-offline with Retry-After. Once the files
//    are back, the next scan finds everything as it was (same ids, same addedAt) and the library
//    comes back online. A file deleted on purpose is still removed.
//  - Moves and renames keep identity: a movie folder moved, a file renamed, a year fixed, an
//    episode moved between seasons, a show folder renamed are `moved`, never removed and added
//    again, and library:updated lists them.
//  - A moved item is not looked up again: with a fake TMDB, moving a matched film's folder makes
//    no provider request, and the film keeps its tmdbId and poster.
// Why: a sleeping NAS or a tidied folder must never cost a user their catalogue, its ids
// (client bookmarks, watch state) or its metadata.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { makeTree, waitForJob } from '../support/media';
import { call, jsonBody, stack, type Reply } from '../support/stack';
import { WsClient } from '../support/ws';

// ---- helpers ---------------------------------------------------------------------------

/** Moves a file or folder, making its parent first; a rename keeps the mtime, which moves are recognised by. */
const move = (from: string, to: string) => {
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
};

/** Moves every entry of `from` into `to` (created if need be); `from` itself stays, empty. */
const moveContents = (from: string, to: string) => {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) renameSync(join(from, name), join(to, name));
};

const get = async (path: string, base?: string) => {
  const res = await call('GET', path, base ? { base } : {});
  assert.equal(res.status, 200, `GET ${path}: ${res.status} ${res.text}`);
  return res.json.data;
};

/** A short ranged read of a media item: 206 while its file can be read. */
const stream = (id: string, base?: string) =>
  call('GET', `/api/v1/stream/${id}`, { headers: { range: 'bytes=0-15' }, ...(base ? { base } : {}) });

const assertOfflineStream = (res: Reply, what: string) => {
  assert.equal(res.status, 503, `${what}: ${res.status} ${res.text}`);
  assert.match(String(res.json?.type), /media-offline$/, `${what}: problem type`);
  assert.ok(res.headers['retry-after'], `${what}: a Retry-After header`);
};

const assertStreams = (res: Reply, what: string) =>
  assert.ok(res.status === 200 || res.status === 206, `${what}: ${res.status} ${res.text}`);

const startScan = async (body: Record<string, unknown>, base?: string) => {
  const res = await call('POST', '/api/v1/scan/path', { ...jsonBody(body), ...(base ? { base } : {}) });
  assert.equal(res.status, 202, `POST /scan/path: ${res.status} ${res.text}`);
  return res.json.data.jobId as string;
};

let ws: WsClient;

/** The first /ws message from `from` on that matches. */
const eventAfter = (from: number, what: string, predicate: (m: any) => boolean) =>
  waitFor(what, async () => ws.messages.slice(from).find(predicate), 15_000, 20);

/**
 * Scans `path` on the shared stack and waits for the job; with `libraryId` set, also for the
 * library:updated it sends when it completes, and the /ws messages since it started.
 */
const scanOn = async (path: string, mediaType: 'movie' | 'tvshow', libraryId?: string) => {
  const from = ws.messages.length;
  const job = await waitForJob(await startScan({ path, mediaType, ...(libraryId ? { libraryId } : {}) }));
  let updated: any;
  if (job.status === 'completed')
    updated = await eventAfter(from, 'library:updated', (m) => m.type === 'library:updated' && m.libraryId === job.libraryId);
  return { job, updated, from };
};

const changes = (job: any) => ({
  added: job.counts.added,
  updated: job.counts.updated,
  moved: job.counts.moved,
  removed: job.counts.removed,
});

before(async () => {
  ws = await WsClient.open(stack.ws);
});
after(async () => {
  await ws?.close();
});

// ---- 1. an offline root ------------------------------------------------------------------

describe('a library whose folder goes offline', () => {
  const root = tempDir('upkeep-offline');
  const movies = join(root, 'movies');
  const aside = join(root, 'aside');
  const FILMS = ['Alien (1979)', 'Brazil (1985)', 'Heat (1995)', 'Ronin (1998)', 'Tron (1982)'];
  makeTree(
    movies,
    FILMS.map((f) => `${f}/${f}.mkv`),
  );
  let libraryId: string;
  /** Title -> the movie's detail as first scanned. */
  const first = new Map<string, any>();

  const library = () => get(`/api/v1/library/${libraryId}`);
  const allStillListed = async () => {
    for (const [title, before] of first) {
      const now = await get(`/api/v1/movies/${before.id}`);
      assert.equal(now.media.title, before.media.title, title);
      assert.equal(now.media.addedAt, before.media.addedAt, `${title} keeps its addedAt`);
    }
  };

  before(async () => {
    const { job, updated } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.counts.added, 5);
    libraryId = job.libraryId;
    assert.equal(updated.items.added.length, 5);
    for (const id of updated.items.added) {
      const detail = await get(`/api/v1/movies/${id}`);
      first.set(`${detail.media.title} (${detail.media.year})`, detail);
    }
    assert.deepEqual([...first.keys()].sort(), FILMS);
    assert.equal((await library()).status, 'online');
  });
  after(async () => {
    if (libraryId) await call('DELETE', `/api/v1/library/${libraryId}`);
    rmSync(root, { recursive: true, force: true });
  });

  it('an emptied root (an unmounted mount point) fails the scan with library-offline and removes nothing', async () => {
    moveContents(movies, aside);
    const startedAt = Date.now();
    const { job, from } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'failed');
    assert.equal(job.error?.code, 'library-offline', JSON.stringify(job.error));
    assert.equal(job.counts.removed, 0);

    await allStillListed();
    const lib = await library();
    assert.equal(lib.status, 'offline');
    assert.ok(typeof lib.statusReason === 'string' && lib.statusReason.length > 0, `a reason: ${lib.statusReason}`);
    assert.ok(Date.parse(lib.statusSince) >= startedAt - 2_000, `statusSince ${lib.statusSince} is when it went offline`);
    assert.equal(lib.itemCount, 5);

    const status = await eventAfter(from, 'library:status offline', (m) => m.type === 'library:status' && m.libraryId === libraryId);
    assert.equal(status.status, 'offline');
    assert.ok(status.reason.length > 0);
    const error = await eventAfter(from, 'scan:error', (m) => m.type === 'scan:error' && m.jobId === job.jobId);
    assert.equal(error.error.code, 'library-offline');

    assertOfflineStream(await stream(first.get('Heat (1995)').id), 'Heat while offline');
  });

  it('the files put back: the next scan changes nothing, every id and addedAt kept, the library online again', async () => {
    moveContents(aside, movies);
    const { job, from } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 0, removed: 0 });
    await allStillListed();

    const lib = await library();
    assert.equal(lib.status, 'online');
    assert.equal(lib.itemCount, 5);
    const status = await eventAfter(from, 'library:status online', (m) => m.type === 'library:status' && m.libraryId === libraryId);
    assert.equal(status.status, 'online');
    assertStreams(await stream(first.get('Heat (1995)').id), 'Heat back online');
  });

  it('a root folder that is gone: streams answer 503; a scan ends library-offline, nothing removed; back again, all there', async () => {
    const away = join(root, 'movies-unmounted');
    renameSync(movies, away);
    try {
      assertOfflineStream(await stream(first.get('Alien (1979)').id), 'Alien with its root gone');

      // A scan of a library whose folder is gone is accepted: it ends library-offline before
      // removing anything (a folder that is not a library's is still refused, 422).
      const from = ws.messages.length;
      const started = await call('POST', '/api/v1/scan/path', jsonBody({ path: movies, mediaType: 'movie', libraryId }));
      assert.equal(started.status, 202, started.text);
      const job = await waitForJob(started.json.data.jobId, undefined, 120_000, new Set(['failed', 'completed']));
      assert.equal(job.status, 'failed');
      assert.equal(job.error?.code, 'library-offline', JSON.stringify(job.error));
      assert.equal(job.counts.removed, 0);
      const lib = await library();
      assert.equal(lib.status, 'offline');
      assert.ok(lib.statusReason.length > 0);
      assert.equal(
        (await eventAfter(from, 'library:status offline', (m) => m.type === 'library:status' && m.libraryId === libraryId)).status,
        'offline',
      );
      await allStillListed();
    } finally {
      renameSync(away, movies);
    }
    const { job } = await scanOn(movies, 'movie', libraryId);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 0, removed: 0 });
    assert.equal((await library()).status, 'online');
    await allStillListed();
    assertStreams(await stream(first.get('Alien (1979)').id), 'Alien back');
  });

  it('a film deleted on purpose, the rest still there, is removed', async () => {
    rmSync(join(movies, 'Tron (1982)'), { recursive: true });
    const { job, updated } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 0, removed: 1 });
    const tron = first.get('Tron (1982)').id;
    assert.deepEqual(updated.items.removed, [tron]);
    assert.equal((await call('GET', `/api/v1/movies/${tron}`)).status, 404);
    assert.equal((await library()).itemCount, 4);
    first.delete('Tron (1982)');
    await allStillListed();
  });
});

// ---- 2. movies moved and renamed -------------------------------------------------------------

describe('movies moved and renamed keep their identity', () => {
  const movies = tempDir('upkeep-moves');
  makeTree(movies, ['Heat (1995)/Heat (1995).mkv', 'Alien (1979)/Alien (1979).mkv', 'Brazil (1985)/Brazil (1985).mkv']);
  let libraryId: string;
  const first = new Map<string, any>();

  before(async () => {
    const { job, updated } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    libraryId = job.libraryId;
    for (const id of updated.items.added) {
      const detail = await get(`/api/v1/movies/${id}`);
      first.set(detail.media.title, detail);
    }
    assert.deepEqual([...first.keys()].sort(), ['Alien', 'Brazil', 'Heat']);
  });
  after(async () => {
    if (libraryId) await call('DELETE', `/api/v1/library/${libraryId}`);
    rmSync(movies, { recursive: true, force: true });
  });

  it('a film folder moved into Archive/ is moved: same id and addedAt, the file at its new path, told on /ws', async () => {
    const heat = first.get('Heat');
    const mtime = statSync(join(movies, 'Heat (1995)/Heat (1995).mkv')).mtimeMs;
    move(join(movies, 'Heat (1995)'), join(movies, 'Archive/Heat (1995)'));
    assert.equal(statSync(join(movies, 'Archive/Heat (1995)/Heat (1995).mkv')).mtimeMs, mtime, 'a rename keeps the mtime');

    const { job, updated } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 1, removed: 0 });
    const now = await get(`/api/v1/movies/${heat.id}`);
    assert.equal(now.media.addedAt, heat.media.addedAt);
    assert.equal(now.media.title, 'Heat');
    assert.equal(now.media.year, 1995);
    assert.equal(now.file.path, 'Archive/Heat (1995)/Heat (1995).mkv');
    assertStreams(await stream(heat.id), 'Heat at its new path');

    assert.deepEqual(updated.changes, { added: 0, updated: 0, moved: 1, removed: 0 });
    assert.deepEqual(updated.items.moved, [heat.id]);
    assert.deepEqual(updated.items.added, []);
    assert.deepEqual(updated.items.removed, []);
    assert.equal(updated.items.truncated, false);
  });

  it('a file renamed in its folder is moved, same id', async () => {
    const alien = first.get('Alien');
    move(join(movies, 'Alien (1979)/Alien (1979).mkv'), join(movies, 'Alien (1979)/Alien.1979.1080p.mkv'));
    const { job, updated } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 1, removed: 0 });
    assert.deepEqual(updated.items.moved, [alien.id]);
    const now = await get(`/api/v1/movies/${alien.id}`);
    assert.equal(now.media.addedAt, alien.media.addedAt);
    assert.equal(now.file.path, 'Alien (1979)/Alien.1979.1080p.mkv');
    assertStreams(await stream(alien.id), 'Alien renamed');
  });

  it('a year fixed in the folder and file names is moved, same id and addedAt, the year from the name', async () => {
    const heat = first.get('Heat');
    move(join(movies, 'Archive/Heat (1995)'), join(movies, 'Archive/Heat (1996)'));
    move(join(movies, 'Archive/Heat (1996)/Heat (1995).mkv'), join(movies, 'Archive/Heat (1996)/Heat (1996).mkv'));
    const { job, updated } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 1, removed: 0 });
    assert.deepEqual(updated.items.moved, [heat.id]);
    const now = await get(`/api/v1/movies/${heat.id}`);
    assert.equal(now.media.addedAt, heat.media.addedAt);
    assert.equal(now.media.title, 'Heat');
    assert.equal(now.media.year, 1996);
    assert.equal(now.file.path, 'Archive/Heat (1996)/Heat (1996).mkv');
  });

  it('a rescan after all that changes nothing', async () => {
    const { job } = await scanOn(movies, 'movie');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 0, removed: 0 });
    const lib = await get(`/api/v1/library/${libraryId}`);
    assert.equal(lib.itemCount, 3);
    for (const [title, before] of first)
      assert.equal((await get(`/api/v1/movies/${before.id}`)).media.addedAt, before.media.addedAt, title);
  });
});

// ---- 3. TV episodes and shows moved ----------------------------------------------------------

describe('TV: an episode moved between seasons and a show folder renamed keep their identity', () => {
  const tv = tempDir('upkeep-tv');
  makeTree(tv, [
    'Doctor Who/Season 1/Doctor Who S01E01.mkv',
    'Doctor Who/Season 1/Doctor Who S01E02.mkv',
    'Doctor Who/Season 2/Doctor Who S02E01.mkv',
  ]);
  let libraryId: string;
  let showId: string;
  /** "S01E02" -> episode id, as first scanned. */
  const episodes = new Map<string, string>();
  let addedAt: string;

  const episodesOf = async (id: string) => {
    const detail = await get(`/api/v1/tvshows/${id}`);
    return new Map<string, any>(
      detail.seasons.flatMap((s: any) =>
        s.episodes.map((e: any) => [`S${String(e.seasonNumber).padStart(2, '0')}E${String(e.episodeNumber).padStart(2, '0')}`, e]),
      ),
    );
  };

  before(async () => {
    const { job, updated } = await scanOn(tv, 'tvshow');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    libraryId = job.libraryId;
    const shows = updated.items.added.filter((id: string) => id.startsWith('tv_'));
    assert.equal(shows.length, 1, JSON.stringify(updated.items));
    showId = shows[0];
    const show = await get(`/api/v1/tvshows/${showId}`);
    assert.equal(show.media.title, 'Doctor Who');
    assert.equal(show.media.year, null);
    addedAt = show.media.addedAt;
    for (const [key, e] of await episodesOf(showId)) episodes.set(key, e.id);
    assert.deepEqual([...episodes.keys()].sort(), ['S01E01', 'S01E02', 'S02E01']);
  });
  after(async () => {
    if (libraryId) await call('DELETE', `/api/v1/library/${libraryId}`);
    rmSync(tv, { recursive: true, force: true });
  });

  it('an episode file moved from the Season 1 folder to Season 2 is moved, same id', async () => {
    move(join(tv, 'Doctor Who/Season 1/Doctor Who S01E02.mkv'), join(tv, 'Doctor Who/Season 2/Doctor Who S01E02.mkv'));
    const { job, updated } = await scanOn(tv, 'tvshow');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.counts.added, 0);
    assert.equal(job.counts.removed, 0);
    assert.equal(job.counts.moved, 1);
    assert.deepEqual(updated.items.moved, [episodes.get('S01E02')]);
    const now = await episodesOf(showId);
    assert.deepEqual([...now.keys()].sort(), ['S01E01', 'S01E02', 'S02E01']);
    for (const [key, id] of episodes) assert.equal(now.get(key).id, id, key);
    assert.equal(now.get('S01E02').file.path, 'Doctor Who/Season 2/Doctor Who S01E02.mkv');
    assertStreams(await stream(episodes.get('S01E02')!), 'the moved episode');
  });

  it('the show folder renamed "Doctor Who" -> "Doctor Who (2005)": the show and every episode keep their ids, the year comes from the name', async () => {
    move(join(tv, 'Doctor Who'), join(tv, 'Doctor Who (2005)'));
    const { job, updated } = await scanOn(tv, 'tvshow');
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.counts.added, 0, JSON.stringify(updated.items));
    assert.equal(job.counts.removed, 0, JSON.stringify(updated.items));
    assert.deepEqual([...updated.items.moved].sort(), [showId, ...episodes.values()].sort(), 'the show and its three episodes moved');
    assert.equal(job.counts.moved, 4);

    const shows = (await get(`/api/v1/library/${libraryId}`)).stats;
    assert.equal(shows.tvShows, 1);
    assert.equal(shows.episodes, 3);
    const show = await get(`/api/v1/tvshows/${showId}`);
    assert.equal(show.media.title, 'Doctor Who');
    assert.equal(show.media.year, 2005);
    assert.equal(show.media.addedAt, addedAt);
    const now = await episodesOf(showId);
    for (const [key, id] of episodes) assert.equal(now.get(key)?.id, id, key);
    assert.ok([...now.values()].every((e) => e.file.path.startsWith('Doctor Who (2005)/')));
    assertStreams(await stream(episodes.get('S01E01')!), 'an episode of the renamed show');

    const again = await scanOn(tv, 'tvshow');
    assert.deepEqual(changes(again.job), { added: 0, updated: 0, moved: 0, removed: 0 });
  });
});

// ---- 4. no provider call for a moved item ----------------------------------------------------

describe('a moved film is not looked up again at the provider', () => {
  const KEY = 'f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5';
  let fake: FakeTmdb;
  let tmdb: FakeTmdbServer;
  let instance: Instance;
  const movies = tempDir('upkeep-tmdb');
  makeTree(movies, ['The Matrix (1999)/The Matrix (1999).mkv', 'Heat (1995)/Heat (1995).mkv'], 4096);

  before(async () => {
    fake = new FakeTmdb({ keys: [KEY] });
    fake.addMovie({ id: 603, title: 'The Matrix', releaseDate: '1999-03-30', overview: 'A hacker learns the truth.' });
    fake.addMovie({ id: 949, title: 'Heat', releaseDate: '1995-12-15', overview: 'A bank robbery goes wrong.' });
    tmdb = await fake.start();
    instance = await startInstance({
      env: { TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, TMDB_TIMEOUT_MS: '2000' },
    });
    const set = await call('PATCH', '/api/v1/settings', { ...jsonBody({ metadata: { tmdbApiKey: KEY } }), base: instance.url });
    assert.equal(set.status, 200, set.text);
  });
  after(async () => {
    await instance?.stop();
    await tmdb?.close();
    rmSync(movies, { recursive: true, force: true });
  });

  it('moving a matched film into Archive/ is a move: no provider request, tmdbId and poster kept', async () => {
    const first = await waitForJob(await startScan({ path: movies, mediaType: 'movie' }, instance.url), instance.url);
    assert.equal(first.status, 'completed', JSON.stringify(first.error));
    assert.equal(first.counts.matched, 2);
    const list = (await get('/api/v1/movies?limit=100', instance.url)).map((e: any) => e.media);
    const heatId = list.find((m: any) => m.title === 'Heat')?.id;
    assert.ok(heatId, JSON.stringify(list.map((m: any) => m.title)));
    const heat = await get(`/api/v1/movies/${heatId}`, instance.url);
    assert.equal(heat.metadata.tmdbId, 949);
    assert.ok(heat.media.posterUrl, 'a provider poster');

    const requests = fake.stats.requests;
    move(join(movies, 'Heat (1995)'), join(movies, 'Archive/Heat (1995)'));
    const job = await waitForJob(await startScan({ path: movies, mediaType: 'movie' }, instance.url), instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(changes(job), { added: 0, updated: 0, moved: 1, removed: 0 });
    assert.equal(
      fake.stats.requests,
      requests,
      `no provider request for a moved film: ${JSON.stringify(fake.stats.log.slice(requests).map((r) => r.path))}`,
    );
    assert.deepEqual({ matched: job.counts.matched, artwork: job.counts.artwork }, { matched: 0, artwork: 0 });

    const now = await get(`/api/v1/movies/${heatId}`, instance.url);
    assert.equal(now.metadata.tmdbId, 949);
    assert.equal(now.media.overview, 'A bank robbery goes wrong.');
    assert.equal(now.media.posterUrl, heat.media.posterUrl);
    assert.equal(now.media.addedAt, heat.media.addedAt);
    assert.equal(now.file.path, 'Archive/Heat (1995)/Heat (1995).mkv');
    assert.equal((await call('GET', now.media.posterUrl)).status, 200, 'the poster is still served');
  });

  it('films back after an offline period are not looked up again either: same ids, addedAt and posters', async () => {
    const before = (await get('/api/v1/movies?limit=100', instance.url)).map((e: any) => e.media);
    const requests = fake.stats.requests;
    const aside = `${movies}-unplugged`;
    moveContents(movies, aside);
    const offline = await waitForJob(await startScan({ path: movies, mediaType: 'movie' }, instance.url), instance.url);
    assert.equal(offline.error?.code, 'library-offline', JSON.stringify(offline.error));
    moveContents(aside, movies);
    const back = await waitForJob(await startScan({ path: movies, mediaType: 'movie' }, instance.url), instance.url);
    assert.equal(back.status, 'completed', JSON.stringify(back.error));
    assert.deepEqual(changes(back), { added: 0, updated: 0, moved: 0, removed: 0 });
    assert.equal(
      fake.stats.requests,
      requests,
      `no provider request for returning films: ${JSON.stringify(fake.stats.log.slice(requests).map((r) => r.path))}`,
    );
    const after = (await get('/api/v1/movies?limit=100', instance.url)).map((e: any) => e.media);
    const view = (list: any[]) => list.map((m) => [m.id, m.addedAt, m.posterUrl]).sort();
    assert.deepEqual(view(after), view(before));
  });
});
