// The Jellyfin door on the shared stack, driven by a client written by others: `@jellyfin/sdk`
// (0.13, Jellyfin 10.11's API) finds the box a good server, logs in as the household, lists the
// views, pages films by name, filters played and unplayed, searches, opens a film, a show, a
// season and an episode, reads their pictures, and marks one played, which our own API sees (and
// a mark made there, the door sees); it also answers what jellyfin-web's pages ask besides. Every
// JSON answer the SDK gets is checked against Jellyfin 10.11.0's OpenAPI document with every
// non-nullable property required (test/support/jellyfin-openapi.ts). Then the forms older apps
// send, and bad input.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { Jellyfin } from '@jellyfin/sdk';
import { RecommendedServerInfoScore } from '@jellyfin/sdk/lib/models/recommended-server-info.js';
import {
  getDisplayPreferencesApi,
  getFilterApi,
  getGenresApi,
  getItemsApi,
  getLibraryApi,
  getSearchApi,
  getPlaystateApi,
  getSystemApi,
  getTvShowsApi,
  getUserApi,
  getUserLibraryApi,
  getUserViewsApi,
} from '@jellyfin/sdk/lib/utils/api/index.js';
import type { Api } from '@jellyfin/sdk';
import sharp from 'sharp';
import { flatJpeg } from '../support/posters';
import { tempDir } from '../support/instance';
import { assertJellyfinAnswer, jellyfinSchemaAvailable } from '../support/jellyfin-openapi';
import { makeTree, scan } from '../support/media';
import { hasHevcEncoder, makeMkv } from '../support/videos';
import { call, stack } from '../support/stack';

const FILMS = ['Door Alpha (2001)', 'Door Beta (2002)', 'Door Gamma (2003)', 'Door Delta (2004)'];
const SHOW = 'Door Show';
const SAGA_ID = 990_001;
const HEX32 = /^[0-9a-f]{32}$/u;

const jellyfin = new Jellyfin({
  clientInfo: { name: 'Door Test', version: '1.0.0' },
  deviceInfo: { name: 'Test Box', id: 'door-test-device' },
});

/** An SDK Api whose every JSON answer is checked against Jellyfin's document. */
const checkedApi = (token?: string): Api => {
  const api = jellyfin.createApi(stack.jellyfin, token);
  api.axiosInstance.interceptors.response.use((res) => {
    const type = String(res.headers['content-type'] ?? '');
    if (!jellyfinSchemaAvailable() && type.includes('json')) {
      const url = new URL(res.config.url ?? '', stack.jellyfin);
      assertJellyfinAnswer(res.config.method ?? 'get', url.pathname, res.status, res.data);
    }
    return res;
  });
  return api;
};

const door = (method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}) =>
  call(method, path, { base: stack.jellyfin, ...opts });

let movieLibrary: string;
let showLibrary: string;
let api: Api;
let userId: string;
let token: string;

before(async () => {
  const movies = tempDir('door-movies');
  makeTree(
    movies,
    FILMS.map((f) => `${f}/${f}.mkv`),
    1024,
  );
  for (const [i, film] of FILMS.entries()) writeFileSync(join(movies, film, 'poster.jpg'), await flatJpeg(60, 90, `#${i}0${i}0${i}0`));
  // Two films of one collection, as a Kodi or Jellyfin NFO names it.
  for (const film of FILMS.slice(0, 2)) {
    const [, title, year] = /^(.*) \((\d{4})\)$/u.exec(film)!;
    writeFileSync(
      join(movies, film, 'movie.nfo'),
      `<?xml version="1.0"?><movie><title>${title}</title><year>${year}</year><set tmdbcolid="${SAGA_ID}"><name>Door Saga</name></set></movie>`,
    );
  }
  const shows = tempDir('door-shows');
  makeTree(shows, [`${SHOW}/Season 1/${SHOW} - S01E01.mkv`, `${SHOW}/Season 1/${SHOW} - S01E02.mkv`], 1024);
  // One real file: its streams as the scan read them are what the apps decide playback by.
  mkdirSync(join(shows, SHOW, 'Season 2'), { recursive: true });
  makeMkv(join(shows, SHOW, 'Season 2', `${SHOW} - S02E01.mkv`), { seconds: 2, size: '320x240' });
  const [m, s] = await Promise.all([scan({ path: movies, mediaType: 'movie' }), scan({ path: shows, mediaType: 'tvshow' })]);
  assert.equal(m.status, 'completed');
  assert.equal(s.status, 'completed');
  movieLibrary = m.libraryId;
  showLibrary = s.libraryId;
});

describe('the Jellyfin door, as @jellyfin/sdk drives it', () => {
  it('is found a great server, answers its public info, and logs the household in', async () => {
    const candidates = await jellyfin.discovery.getRecommendedServerCandidates(stack.jellyfin);
    assert.equal(candidates[0]?.score, RecommendedServerInfoScore.GREAT, JSON.stringify(candidates[0]?.issues));
    const info = (await getSystemApi(checkedApi()).getPublicSystemInfo()).data;
    assert.equal(info.ProductName, 'Jellyfin Server');
    assert.match(info.Id ?? '', HEX32);
    assert.equal(info.StartupWizardCompleted, true);
    const auth = (await getUserApi(checkedApi()).authenticateUserByName({ authenticateUserByName: { Username: 'household', Pw: '' } }))
      .data;
    assert.ok(auth.AccessToken);
    assert.equal(auth.ServerId, info.Id);
    assert.equal(auth.User?.Name, 'Household');
    assert.equal(auth.User?.Policy?.IsAdministrator, false);
    token = auth.AccessToken;
    userId = auth.User.Id!;
    api = checkedApi(token);
    assert.equal((await getUserApi(api).getCurrentUser()).data.Id, userId);
    assert.equal((await getSystemApi(api).getSystemInfo()).data.Id, info.Id);
  });

  it('lists a view per library and pages the films by name', async () => {
    const views = (await getUserViewsApi(api).getUserViews({ userId })).data.Items ?? [];
    const movieView = views.find((v) => v.Id === movieLibrary);
    const showView = views.find((v) => v.Id === showLibrary);
    assert.equal(movieView?.CollectionType, 'movies');
    assert.equal(showView?.CollectionType, 'tvshows');
    const page = async (startIndex: number) =>
      (
        await getItemsApi(api).getItems({
          userId,
          parentId: movieLibrary,
          includeItemTypes: ['Movie'],
          recursive: true,
          sortBy: ['SortName'],
          sortOrder: ['Ascending'],
          startIndex,
          limit: 3,
        })
      ).data;
    const first = await page(0);
    const second = await page(3);
    assert.equal(first.TotalRecordCount, 4);
    assert.deepEqual(
      [...(first.Items ?? []), ...(second.Items ?? [])].map((i) => i.Name),
      ['Door Alpha', 'Door Beta', 'Door Delta', 'Door Gamma'],
    );
    assert.equal(second.StartIndex, 3);
    for (const item of first.Items ?? []) assert.ok(item.ImageTags?.Primary, `${item.Name} has a poster tag`);
  });

  it('marks a film played through the door, which our own API sees, and the other way round', async () => {
    const films = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, sortBy: ['SortName'] })).data.Items ?? [];
    const alpha = films.find((f) => f.Name === 'Door Alpha')!;
    const beta = films.find((f) => f.Name === 'Door Beta')!;
    const marked = (await getPlaystateApi(api).markPlayedItem({ itemId: alpha.Id!, userId })).data;
    assert.equal(marked.Played, true);
    const ours = (await call('GET', '/api/v1/movies?limit=100')).json.data as any[];
    const alphaOurs = ours.find((e) => e.media.title === 'Door Alpha');
    assert.equal(alphaOurs.userData.played, true);
    const betaOurs = ours.find((e) => e.media.title === 'Door Beta');
    assert.equal((await call('POST', `/api/v1/played/${betaOurs.id}`)).status, 200);
    const played = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, filters: ['IsPlayed'], sortBy: ['SortName'] })).data;
    assert.deepEqual(
      played.Items?.map((i) => i.Name),
      ['Door Alpha', 'Door Beta'],
    );
    const unplayed = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, isPlayed: false, sortBy: ['SortName'] })).data;
    assert.deepEqual(
      unplayed.Items?.map((i) => i.Name),
      ['Door Delta', 'Door Gamma'],
    );
    assert.equal((await getUserLibraryApi(api).getItem({ itemId: beta.Id!, userId })).data.UserData?.Played, true);
    await getPlaystateApi(api).markUnplayedItem({ itemId: alpha.Id!, userId });
    await call('DELETE', `/api/v1/played/${betaOurs.id}`);
  });

  it('marks a favourite through the door and through our own API, and filters by it', async () => {
    const films = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, sortBy: ['SortName'] })).data.Items ?? [];
    const gamma = films.find((f) => f.Name === 'Door Gamma')!;
    assert.equal((await getUserLibraryApi(api).markFavoriteItem({ itemId: gamma.Id!, userId })).data.IsFavorite, true);
    const ours = (await call('GET', '/api/v1/movies?limit=100&favorite=true')).json.data as any[];
    assert.ok(ours.some((e) => e.media.title === 'Door Gamma' && e.userData.favorite === true));
    const delta = ((await call('GET', '/api/v1/movies?limit=100')).json.data as any[]).find((e) => e.media.title === 'Door Delta');
    assert.equal((await call('POST', `/api/v1/favorites/${delta.id}`)).status, 200);
    const favourites = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, filters: ['IsFavorite'], sortBy: ['SortName'] }))
      .data;
    assert.deepEqual(
      favourites.Items?.map((i) => [i.Name, i.UserData?.IsFavorite]),
      [
        ['Door Delta', true],
        ['Door Gamma', true],
      ],
    );
    assert.equal((await getUserLibraryApi(api).unmarkFavoriteItem({ itemId: gamma.Id!, userId })).data.IsFavorite, false);
    await call('DELETE', `/api/v1/favorites/${delta.id}`);
    const none = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, isFavorite: true })).data;
    assert.equal(none.TotalRecordCount, 0);
  });

  it('lists film collections as box sets in a Collections view', async () => {
    const views = (await getUserViewsApi(api).getUserViews({ userId })).data.Items ?? [];
    const collections = views.find((v) => v.CollectionType === 'boxsets');
    assert.ok(collections, 'a Collections view');
    const sets = (await getItemsApi(api).getItems({ userId, parentId: collections.Id! })).data.Items ?? [];
    const saga = sets.find((s) => s.Name === 'Door Saga');
    assert.deepEqual([saga?.Type, saga?.ChildCount], ['BoxSet', 2]);
    const parts = (await getItemsApi(api).getItems({ userId, parentId: saga!.Id!, sortBy: ['SortName'] })).data.Items ?? [];
    assert.deepEqual(
      parts.map((p) => p.Name),
      ['Door Alpha', 'Door Beta'],
    );
    assert.equal((await getUserLibraryApi(api).getItem({ itemId: saga!.Id!, userId })).data.Type, 'BoxSet');
  });

  it('searches by title', async () => {
    const found = (await getItemsApi(api).getItems({ userId, searchTerm: 'door gam', recursive: true })).data.Items ?? [];
    assert.deepEqual(
      found.map((i) => i.Name),
      ['Door Gamma'],
    );
  });

  it('opens a film with its media source, and reads its poster resized', async () => {
    const [film] = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, searchTerm: 'Door Delta' })).data.Items ?? [];
    const item = (await getUserLibraryApi(api).getItem({ itemId: film!.Id!, userId })).data;
    assert.equal(item.Type, 'Movie');
    assert.equal(item.ProductionYear, 2004);
    assert.equal(item.MediaSources?.length, 1);
    assert.equal(item.MediaSources?.[0]?.Id, item.Id);
    const image = await fetch(`${stack.jellyfin}/Items/${item.Id}/Images/Primary?tag=${item.ImageTags!.Primary}&maxWidth=40`);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/jpeg');
    assert.match(image.headers.get('cache-control') ?? '', /immutable/u);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    assert.ok(meta.width <= 60, `${meta.width} wide`);
  });

  it("describes a real file's streams as the scan read them", async () => {
    const [show] = (await getItemsApi(api).getItems({ userId, parentId: showLibrary, includeItemTypes: ['Series'] })).data.Items ?? [];
    const [episode] = (await getTvShowsApi(api).getEpisodes({ seriesId: show!.Id!, season: 2, userId })).data.Items ?? [];
    const item = (await getUserLibraryApi(api).getItem({ itemId: episode!.Id!, userId })).data;
    const source = item.MediaSources![0]!;
    assert.equal(source.Container, 'mkv');
    assert.ok((source.RunTimeTicks ?? 0) > 1.5e7, `${source.RunTimeTicks} ticks: ${JSON.stringify(source).slice(0, 600)}`);
    assert.deepEqual(
      source.MediaStreams?.map((m) => [m.Type, m.Index, m.Codec, m.Language ?? null, m.IsDefault, m.IsTextSubtitleStream]),
      [
        ['Video', 0, hasHevcEncoder() ? 'hevc' : 'h264', null, true, false],
        ['Audio', 1, 'ac3', 'en', true, false],
        ['Audio', 2, 'aac', 'fr', false, false],
        ['Subtitle', 3, 'subrip', 'de', false, true],
      ],
    );
    assert.deepEqual(
      [source.MediaStreams[0]!.Width, source.MediaStreams[0]!.Height, source.MediaStreams[0]!.VideoRangeType],
      [320, 240, 'SDR'],
    );
    assert.equal(source.DefaultAudioStreamIndex, 1);
  });

  it('answers the rows and lists a home screen and a detail page ask for', async () => {
    const latest = (await getUserLibraryApi(api).getLatestMedia({ userId, parentId: movieLibrary, limit: 2 })).data;
    assert.ok(Array.isArray(latest) && latest.length === 2, 'latest is a plain array');
    assert.equal((await getItemsApi(api).getResumeItems({ userId, mediaTypes: ['Video'] })).status, 200);
    assert.equal((await getTvShowsApi(api).getNextUp({ userId })).status, 200);
    assert.equal((await getGenresApi(api).getGenres({ userId, parentId: movieLibrary })).status, 200);
    assert.equal((await getFilterApi(api).getQueryFiltersLegacy({ userId, parentId: movieLibrary })).status, 200);
    assert.equal((await getFilterApi(api).getQueryFilters({ userId, parentId: movieLibrary })).status, 200);
    const hints = (await getSearchApi(api).getSearchHints({ userId, searchTerm: 'door be' })).data;
    assert.deepEqual(
      hints.SearchHints?.map((h) => h.Name),
      ['Door Beta'],
    );
    const film = latest[0]!;
    assert.equal((await getLibraryApi(api).getSimilarItems({ itemId: film.Id!, userId })).status, 200);
    assert.deepEqual(
      (await getLibraryApi(api).getAncestors({ itemId: film.Id!, userId })).data.map((a) => a.Id),
      [movieLibrary],
    );
    assert.deepEqual((await getUserLibraryApi(api).getSpecialFeatures({ itemId: film.Id!, userId })).data, []);
    assert.deepEqual((await getUserLibraryApi(api).getLocalTrailers({ itemId: film.Id!, userId })).data, []);
    assert.equal((await getUserLibraryApi(api).getIntros({ itemId: film.Id!, userId })).data.TotalRecordCount, 0);
    const prefs = getDisplayPreferencesApi(api);
    const before = (await prefs.getDisplayPreferences({ displayPreferencesId: 'usersettings', userId, client: 'emby' })).data;
    await prefs.updateDisplayPreferences({
      displayPreferencesId: 'usersettings',
      userId,
      client: 'emby',
      displayPreferencesDto: { ...before, CustomPrefs: { homesection0: 'smalllibrarytiles' } },
    });
    const after = (await prefs.getDisplayPreferences({ displayPreferencesId: 'usersettings', userId, client: 'emby' })).data;
    assert.equal(after.CustomPrefs?.homesection0, 'smalllibrarytiles');
  });

  it("answers what jellyfin-web's pages ask besides: a bitrate test's bytes, and a film's theme media (none)", async () => {
    const bytes = await fetch(`${stack.jellyfin}/Playback/BitrateTest?Size=500000`, { headers: { 'X-Emby-Token': token } });
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), 'application/octet-stream');
    assert.equal((await bytes.arrayBuffer()).byteLength, 500_000);
    const [film] = (await getItemsApi(api).getItems({ userId, parentId: movieLibrary, limit: 1 })).data.Items ?? [];
    const theme = (await getLibraryApi(api).getThemeMedia({ itemId: film!.Id!, userId, inheritFromParent: true })).data;
    assert.deepEqual([theme.ThemeVideosResult?.Items, theme.ThemeSongsResult?.Items, theme.ThemeSongsResult?.OwnerId], [[], [], film!.Id]);
  });

  it('opens a show, its seasons and an episode', async () => {
    const [show] = (await getItemsApi(api).getItems({ userId, parentId: showLibrary, includeItemTypes: ['Series'] })).data.Items ?? [];
    assert.equal(show?.Name, SHOW);
    const seasons = (await getTvShowsApi(api).getSeasons({ seriesId: show.Id!, userId })).data.Items ?? [];
    assert.deepEqual(
      seasons.map((s) => [s.Name, s.IndexNumber, s.SeriesId]),
      [
        ['Season 1', 1, show.Id],
        ['Season 2', 2, show.Id],
      ],
    );
    const season = (await getUserLibraryApi(api).getItem({ itemId: seasons[0]!.Id!, userId })).data;
    assert.equal(season.Type, 'Season');
    const episodes = (await getTvShowsApi(api).getEpisodes({ seriesId: show.Id!, seasonId: seasons[0]!.Id!, userId })).data.Items ?? [];
    assert.deepEqual(
      episodes.map((e) => [e.ParentIndexNumber, e.IndexNumber, e.SeasonId, e.SeriesName]),
      [
        [1, 1, seasons[0]!.Id, SHOW],
        [1, 2, seasons[0]!.Id, SHOW],
      ],
    );
    const episode = (await getUserLibraryApi(api).getItem({ itemId: episodes[1]!.Id!, userId })).data;
    assert.deepEqual([episode.Type, episode.IndexNumber, episode.SeriesId], ['Episode', 2, show.Id]);
  });
});

describe('the Jellyfin door, in the forms older apps send', () => {
  const canonical = async (path: string) => (await door('GET', path, { headers: { 'X-Emby-Token': token } })).text;

  it('answers the older paths, any case, /emby, and every token form the same', async () => {
    const films = `/Items?ParentId=${movieLibrary}&SortBy=SortName`;
    const expected = await canonical(films);
    assert.ok(JSON.parse(expected).Items.length === 4);
    if (!jellyfinSchemaAvailable()) assertJellyfinAnswer('GET', '/Items', 200, JSON.parse(expected));
    const auth = (scheme: string) =>
      `${scheme} Client="Jellyfin+Android+TV", Device="TV", DeviceId="door-test-device", Version="0.18.0", Token="${token}"`;
    const forms: [string, string, Record<string, string>][] = [
      ['older path', `/Users/${userId}/Items?ParentId=${movieLibrary}&SortBy=SortName`, { 'X-Emby-Token': token }],
      ['lower case', `/items?parentid=${movieLibrary}&sortby=SortName`, { 'X-Emby-Token': token }],
      ['/emby', `/emby/Items?ParentId=${movieLibrary}&SortBy=SortName`, { 'X-Emby-Token': token }],
      ['Authorization, MediaBrowser', films, { Authorization: auth('MediaBrowser') }],
      ['Authorization, Emby', films, { Authorization: auth('Emby') }],
      ['X-Emby-Authorization', films, { 'X-Emby-Authorization': auth('MediaBrowser') }],
      ['X-MediaBrowser-Token', films, { 'X-MediaBrowser-Token': token }],
      ['ApiKey', `${films}&ApiKey=${token}`, {}],
      ['api_key', `${films}&api_key=${token}`, {}],
    ];
    for (const [name, path, headers] of forms) {
      const res = await door('GET', path, { headers });
      assert.equal(res.status, 200, `${name}: ${res.status} ${res.text}`);
      assert.equal(res.text, expected, name);
    }
    // The older forms with the user in the path, each beside the 10.11 form the SDK uses.
    const [film] = JSON.parse(expected).Items as { Id: string }[];
    const pairs: [string, string][] = [
      ['/UserViews', `/Users/${userId}/Views`],
      [`/Items/${film!.Id}`, `/Users/${userId}/Items/${film!.Id}`],
      [`/Items/Latest?ParentId=${movieLibrary}`, `/Users/${userId}/Items/Latest?ParentId=${movieLibrary}`],
      ['/UserItems/Resume', `/Users/${userId}/Items/Resume`],
    ];
    // The views list every library of the shared stack, which other files scan meanwhile (the
    // monitor rescans a new library once its watch begins): this file's own are compared.
    const ours = (text: string, path: string) => {
      if (!path.endsWith('Views')) return text;
      const views = JSON.parse(text) as { Items: { Id: string }[] };
      const own = views.Items.filter((v) => v.Id === movieLibrary || v.Id === showLibrary);
      assert.equal(own.length, 2, `${path}: this file's two libraries`);
      return JSON.stringify(own);
    };
    for (const [current, older] of pairs) {
      const answer = await canonical(current);
      if (!jellyfinSchemaAvailable()) assertJellyfinAnswer('GET', current, 200, JSON.parse(answer));
      const olderAnswer = (await door('GET', older, { headers: { 'X-Emby-Token': token } })).text;
      assert.equal(ours(olderAnswer, older), ours(answer, current), older);
    }
    // Marks in the older form answer the same state as the 10.11 form.
    const played = await door('POST', `/Users/${userId}/PlayedItems/${film!.Id}`, { headers: { 'X-Emby-Token': token } });
    assert.equal(played.json.Played, true);
    const unplayed = await door('DELETE', `/UserPlayedItems/${film!.Id}`, { headers: { 'X-Emby-Token': token } });
    assert.equal(unplayed.json.Played, false);
    const favourite = await door('POST', `/Users/${userId}/FavoriteItems/${film!.Id}`, { headers: { 'X-Emby-Token': token } });
    assert.equal(favourite.json.IsFavorite, true);
    if (!jellyfinSchemaAvailable()) assertJellyfinAnswer('POST', `/UserFavoriteItems/${film!.Id}`, 200, favourite.json);
    assert.equal((await door('DELETE', `/UserFavoriteItems/${film!.Id}`, { headers: { 'X-Emby-Token': token } })).json.IsFavorite, false);
  });

  it('refuses bad input with Jellyfin status codes, never a 5xx', async () => {
    const withToken = { 'X-Emby-Token': token };
    const cases: [string, string, string, Record<string, string>, number, string?][] = [
      ['no token', 'GET', '/UserViews', {}, 401],
      ['a garbage token', 'GET', '/UserViews', { 'X-Emby-Token': 'garbage" token' }, 401],
      ['an unknown id', 'GET', '/Items/0123456789abcdef0123456789abcdef', withToken, 404],
      ['a malformed id', 'GET', '/Items/not-a-guid', withToken, 404],
      ['an unknown image', 'GET', '/Items/0123456789abcdef0123456789abcdef/Images/Primary', {}, 404],
      ['theme media of an unknown item', 'GET', '/Items/0123456789abcdef0123456789abcdef/ThemeMedia', withToken, 404],
      ['a wrong method', 'PUT', '/Items', withToken, 405],
      ['an unknown route', 'GET', '/NoSuchThing', withToken, 404],
      [
        'a body that is not JSON',
        'POST',
        '/Users/AuthenticateByName',
        { 'Content-Type': 'application/json', Authorization: 'MediaBrowser DeviceId="x"' },
        400,
        '{"Username":',
      ],
      [
        'an unknown user',
        'POST',
        '/Users/AuthenticateByName',
        { 'Content-Type': 'application/json', Authorization: 'MediaBrowser DeviceId="x"' },
        401,
        '{"Username":"nobody here"}',
      ],
      [
        'a login without a device id',
        'POST',
        '/Users/AuthenticateByName',
        { 'Content-Type': 'application/json' },
        400,
        '{"Username":"Household"}',
      ],
    ];
    for (const [name, method, path, headers, status, body] of cases) {
      const res = await door(method, path, { headers, ...(body === undefined ? {} : { body }) });
      assert.equal(res.status, status, `${name}: ${res.status} ${res.text}`);
    }
  });

  it('ends a token at logout, and a new login from the device replaces the old token', async () => {
    const login = async () =>
      (
        await door('POST', '/Users/authenticatebyname', {
          headers: {
            'Content-Type': 'application/json',
            Authorization: 'MediaBrowser Client="c", Device="d", DeviceId="replaced-device", Version="1"',
          },
          body: JSON.stringify({ username: 'Household', pw: 'anything' }),
        })
      ).json.AccessToken as string;
    const first = await login();
    const second = await login();
    assert.notEqual(first, second);
    assert.equal((await door('GET', '/Users/Me', { headers: { 'X-Emby-Token': first } })).status, 401);
    assert.equal((await door('GET', '/Users/Me', { headers: { 'X-Emby-Token': second } })).status, 200);
    assert.equal((await door('POST', '/Sessions/Logout', { headers: { 'X-Emby-Token': second } })).status, 204);
    assert.equal((await door('GET', '/Users/Me', { headers: { 'X-Emby-Token': second } })).status, 401);
  });
});
