// Favourites through the shared stack: `userData.favorite` on details, lists, search hits and
// the watch rows; POST and DELETE /api/v1/favorites/{mediaId} for a film, a show and an episode,
// apart from positions and played marks (nothing comes into Continue watching for it); the
// `favorite` filter of the lists and facets; /ws; and bad input answered as problems. The stack
// is shared with other files: this one scans libraries of its own, lists them by `libraryId`,
// and marks as a profile of its own, so no other file's state or titles are in what it compares.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../support/instance';
import { makeTree, scan } from '../support/media';
import { call, jsonBody, stack } from '../support/stack';
import { WsClient } from '../support/ws';

const root = tempDir('favorites');
const ids = new Map<string, string>();
const idOf = (name: string) => ids.get(name) ?? assert.fail(`no id for ${name} among ${[...ids.keys()].join(', ')}`);
const libraries = { movies: '', shows: '' };
let profile = '';

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await call(method, path, body === undefined ? {} : jsonBody(body));
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json?.data;
};
/** The profile's query string, and more. */
const as = (more = '') => `profileId=${profile}${more ? `&${more}` : ''}`;
const favorite = (method: 'POST' | 'DELETE', name: string) => ok(method, `/api/v1/favorites/${idOf(name)}?${as()}`);
const titles = (entries: any[]) => entries.map((e) => e.media.title as string);
const movie = async (name: string) => (await ok('GET', `/api/v1/movies/${idOf(name)}?${as()}`)).userData;
const show = async () => ok('GET', `/api/v1/tvshows/${idOf('Quillfeather Show')}?${as()}`);
const episodeOf = (detail: any, name: string) =>
  detail.seasons.flatMap((s: any) => s.episodes).find((e: any) => e.id === idOf(name)) ?? assert.fail(`${name} in the show`);
const rowLabels = (entries: any[]) =>
  entries.map((e) => (e.episode ? `${e.media.title} ${e.episode.seasonNumber}x${e.episode.episodeNumber}` : e.media.title));
const problem = async (method: string, path: string, status: number, type: string) => {
  const res = await call(method, path);
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.json.type, type);
  return res.json;
};

before(async () => {
  const movies = makeTree(join(root, 'movies'), ['Quillfeather Alpha (2011).mkv', 'Quillfeather Beta (2012).mkv'], 4096);
  const shows = makeTree(
    join(root, 'shows'),
    ['Quillfeather Show/Season 1/Quillfeather Show S01E01.mkv', 'Quillfeather Show/Season 1/Quillfeather Show S01E02.mkv'],
    4096,
  );
  for (const [path, mediaType, kind] of [
    [movies, 'movie', 'movies'],
    [shows, 'tvshow', 'shows'],
  ] as const) {
    const job = await scan({ path, mediaType });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    libraries[kind] = job.libraryId;
  }
  for (const e of await ok('GET', `/api/v1/movies?libraryId=${libraries.movies}&limit=100`)) ids.set(e.media.title, e.id);
  const [listed] = await ok('GET', `/api/v1/tvshows?libraryId=${libraries.shows}&limit=100`);
  ids.set(listed.media.title, listed.id);
  const detail = await ok('GET', `/api/v1/tvshows/${listed.id}`);
  for (const e of detail.seasons.flatMap((s: any) => s.episodes)) ids.set(`Quillfeather Show ${e.seasonNumber}x${e.episodeNumber}`, e.id);
  profile = (await ok('POST', '/api/v1/profiles', { name: `Favourites ${randomUUID().slice(0, 8)}` })).id;
});

after(async () => {
  if (profile) await call('DELETE', `/api/v1/profiles/${profile}`);
  for (const id of Object.values(libraries)) if (id) await call('DELETE', `/api/v1/library/${id}`);
});

describe('favourites', () => {
  it('are false everywhere userData appears until marked', async () => {
    assert.equal((await movie('Quillfeather Alpha')).favorite, false);
    const detail = await show();
    assert.deepEqual(detail.userData, { playedEpisodes: 0, totalEpisodes: 2, played: false, favorite: false });
    assert.equal(episodeOf(detail, 'Quillfeather Show 1x1').userData.favorite, false);
    const listed = await ok('GET', `/api/v1/movies?${as(`libraryId=${libraries.movies}&sort=title`)}`);
    assert.deepEqual(
      listed.map((e: any) => e.userData.favorite),
      [false, false],
    );
    const hits = await ok('GET', `/api/v1/search?${as('query=quillfeather')}`);
    assert.ok(hits.length >= 3 && hits.every((h: any) => h.userData.favorite === false));
  });

  it('marks a film, and unmarks it, answering its state; positions and played marks keep it, and it is nothing to continue', async () => {
    const marked = await favorite('POST', 'Quillfeather Alpha');
    assert.deepEqual(marked, { positionSeconds: 0, progress: 0, played: false, playCount: 0, lastPlayedAt: null, favorite: true });
    assert.deepEqual(await favorite('POST', 'Quillfeather Alpha'), marked, 'marking again changes nothing');
    assert.deepEqual(rowLabels(await ok('GET', `/api/v1/continue?${as()}`)), [], 'a favourite alone is not in progress');
    assert.equal((await movie('Quillfeather Alpha')).favorite, true);
    assert.equal((await ok('GET', `/api/v1/movies/${idOf('Quillfeather Alpha')}`)).userData.favorite, false, "the household's is its own");

    const reported = await ok('PUT', `/api/v1/progress/${idOf('Quillfeather Alpha')}?${as()}`, {
      positionSeconds: 3000,
      durationSeconds: 6000,
    });
    assert.deepEqual([reported.positionSeconds, reported.favorite], [3000, true]);
    const row = await ok('GET', `/api/v1/continue?${as()}`);
    assert.deepEqual(
      row.map((e: any) => [e.media.title, e.userData.favorite]),
      [['Quillfeather Alpha', true]],
    );
    assert.equal((await ok('POST', `/api/v1/played/${idOf('Quillfeather Alpha')}?${as()}`)).favorite, true, 'played: still a favourite');
    assert.equal((await ok('DELETE', `/api/v1/played/${idOf('Quillfeather Alpha')}?${as()}`)).favorite, true);
    const hit = (await ok('GET', `/api/v1/search?${as('query=quillfeather alpha')}`)).find((h: any) => h.id === idOf('Quillfeather Alpha'));
    assert.equal(hit.userData.favorite, true, 'search hits carry it');

    const unmarked = await favorite('DELETE', 'Quillfeather Alpha');
    assert.deepEqual([unmarked.favorite, unmarked.played, unmarked.playCount], [false, false, 0]);
    assert.equal((await movie('Quillfeather Alpha')).favorite, false);
    assert.equal((await favorite('DELETE', 'Quillfeather Beta')).favorite, false, 'one that was not a favourite answers the same');
  });

  it("marks a show (its own, not its episodes') and an episode; Next up carries the episode's", async () => {
    const marked = await favorite('POST', 'Quillfeather Show');
    assert.deepEqual([marked.favorite, marked.played, marked.progress], [true, false, 0]);
    assert.deepEqual(rowLabels(await ok('GET', `/api/v1/next-up?${as()}`)), [], 'a favourite show is not being watched');
    let detail = await show();
    assert.equal(detail.userData.favorite, true);
    assert.ok(detail.seasons[0].episodes.every((e: any) => e.userData.favorite === false));

    assert.equal((await favorite('POST', 'Quillfeather Show 1x2')).favorite, true);
    detail = await show();
    assert.deepEqual(
      [episodeOf(detail, 'Quillfeather Show 1x1').userData.favorite, episodeOf(detail, 'Quillfeather Show 1x2').userData.favorite],
      [false, true],
    );
    await ok('POST', `/api/v1/played/${idOf('Quillfeather Show 1x1')}?${as()}`);
    const next = await ok('GET', `/api/v1/next-up?${as()}`);
    assert.deepEqual(
      next.map((e: any) => [rowLabels([e])[0], e.userData.favorite]),
      [['Quillfeather Show 1x2', true]],
    );
    const listed = await ok('GET', `/api/v1/tvshows?${as(`libraryId=${libraries.shows}`)}`);
    assert.deepEqual([listed[0].userData.favorite, listed[0].userData.progress], [true, 0.5], 'the list: the show marked, half played');
    const all = await ok('POST', `/api/v1/played/${idOf('Quillfeather Show')}?${as()}`);
    assert.deepEqual([all.played, all.favorite], [true, true], 'every episode played: still a favourite');
  });

  it("filters the lists and their facets by the profile's favourites", async () => {
    await favorite('POST', 'Quillfeather Beta');
    const films = (more: string) => ok('GET', `/api/v1/movies?${as(`libraryId=${libraries.movies}&sort=title&${more}`)}`);
    assert.deepEqual(titles(await films('favorite=true')), ['Quillfeather Beta']);
    assert.deepEqual(titles(await films('favorite=false')), ['Quillfeather Alpha']);
    const facets = await ok('GET', `/api/v1/movies/facets?${as(`libraryId=${libraries.movies}&favorite=true`)}`);
    assert.equal(facets.total, 1);
    const shows = await ok('GET', `/api/v1/tvshows?${as(`libraryId=${libraries.shows}&favorite=true`)}`);
    assert.deepEqual(titles(shows), ['Quillfeather Show']);
    const household = await ok('GET', `/api/v1/movies?libraryId=${libraries.movies}&favorite=true`);
    assert.deepEqual(household, [], "the household's favourites are its own");
    await favorite('DELETE', 'Quillfeather Show');
    assert.deepEqual(titles(await ok('GET', `/api/v1/tvshows?${as(`libraryId=${libraries.shows}&favorite=true`)}`)), []);
  });

  it('says so on /ws', async () => {
    const ws = await WsClient.open(stack.ws);
    try {
      await favorite('POST', 'Quillfeather Alpha');
      const event = await ws.next((m) => m.type === 'userdata:changed' && m.mediaId === idOf('Quillfeather Alpha'));
      assert.deepEqual([event.profileId, event.userData.favorite], [profile, true]);
    } finally {
      await ws.close();
    }
  });

  it('answers bad input with problems, never a 5xx', async () => {
    await problem('POST', `/api/v1/favorites/mv_00000000000000000000?${as()}`, 404, '/problems/not-found');
    await problem('DELETE', `/api/v1/favorites/${idOf('Quillfeather Alpha')}?profileId=pf_0000000000000000`, 404, '/problems/not-found');
    const malformed = await problem(
      'POST',
      `/api/v1/favorites/${idOf('Quillfeather Alpha')}?profileId=not%20one`,
      400,
      '/problems/invalid-request',
    );
    assert.ok(
      malformed.errors.some((e: any) => e.field === 'query.profileId'),
      JSON.stringify(malformed.errors),
    );
    const unknown = await problem(
      'POST',
      `/api/v1/favorites/${idOf('Quillfeather Alpha')}?${as('colour=red')}`,
      400,
      '/problems/invalid-request',
    );
    assert.ok(
      unknown.errors.some((e: any) => e.field === 'query.colour'),
      JSON.stringify(unknown.errors),
    );
    const filter = await problem('GET', `/api/v1/movies?${as('favorite=maybe')}`, 400, '/problems/invalid-request');
    assert.ok(
      filter.errors.some((e: any) => e.field === 'query.favorite'),
      JSON.stringify(filter.errors),
    );
    await problem('PUT', `/api/v1/favorites/${idOf('Quillfeather Alpha')}`, 405, '/problems/method-not-allowed');
    assert.equal((await movie('Quillfeather Alpha')).favorite, true, 'nothing refused changed anything');
  });
});
