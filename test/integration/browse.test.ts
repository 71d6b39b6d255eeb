// Browsing the whole library through the stack: the movie and show lists sorted and filtered,
// filed by letter the way people look for titles (articles in several languages, accents,
// digits), paged with small pages under every sort (also while a scan adds titles), facets'
// counts, the played filter and the lastPlayed sort after reports and marks, bad parameters,
// and the lists answering as before without the new parameters. An instance of its own with a
// fake TMDB that knows three of the films (release dates, and `matched`); the others are
// described by NFOs beside them (genres, ratings) or by their file names alone.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';

const KEY = 'browse-key';

interface Film {
  title: string;
  year: number;
  genres: string[];
  rating: number | null;
  /** Known to the fake TMDB (matched), with this release date. */
  released?: string;
  /** The second library. */
  elsewhere?: boolean;
  /** The file's name when it cannot be the title ("2001: ..." holds a colon). */
  file?: string;
}

const FILMS: Film[] = [
  { title: 'The Matrix', year: 1999, genres: ['Action', 'Science Fiction'], rating: 8.2, released: '1999-03-30' },
  { title: 'Mad Max', year: 1979, genres: ['Action'], rating: 6.9, released: '1979-04-12' },
  { title: 'Heat', year: 1995, genres: ['Crime', 'Drama'], rating: 8.3, released: '1995-12-15' },
  { title: 'Les Misérables', year: 2012, genres: ['Drama', 'Music'], rating: 7.6 },
  { title: "L'Avventura", year: 1960, genres: ['Drama'], rating: 7.8 },
  { title: 'Édith', year: 2020, genres: [], rating: null },
  { title: 'Amélie', year: 2001, genres: ['Comedy', 'Romance'], rating: 7.9 },
  { title: '2001: A Space Odyssey', year: 1968, genres: ['Science Fiction'], rating: 8.1, file: '2001 A Space Odyssey' },
  { title: '(500) Days of Summer', year: 2009, genres: ['Comedy', 'Drama'], rating: null },
  { title: 'El Laberinto del Fauno', year: 2006, genres: ['Fantasy', 'Drama'], rating: 8.2 },
  { title: 'Theo', year: 2010, genres: [], rating: null },
  { title: 'Annie Hall', year: 1977, genres: ['Comedy', 'Romance'], rating: 8 },
  { title: 'De Lift', year: 1983, genres: ['Horror'], rating: 6 },
  { title: 'Elf', year: 2003, genres: [], rating: null },
  { title: 'Das Boot', year: 1981, genres: ['War', 'Drama'], rating: 8.3, elsewhere: true },
  { title: 'Der Untergang', year: 2004, genres: ['War', 'Drama'], rating: 8.2, elsewhere: true },
  { title: 'Il Postino', year: 1994, genres: ['Drama'], rating: 7.7, elsewhere: true },
];

/** As people look for them: the article, accents and case do not count; digits and other scripts under # (after Z). */
const BY_TITLE = [
  'Amélie',
  'Annie Hall',
  "L'Avventura",
  'Das Boot',
  'Édith',
  'Elf',
  'Heat',
  'El Laberinto del Fauno',
  'De Lift',
  'Mad Max',
  'The Matrix',
  'Les Misérables',
  'Il Postino',
  'Theo',
  'Der Untergang',
  '(500) Days of Summer',
  '2001: A Space Odyssey',
];

const fake = new FakeTmdb({ keys: [KEY] });
let tmdb: FakeTmdbServer;
let instance: Instance;
const movies = tempDir('browse-movies');
const more = tempDir('browse-more');
const shows = tempDir('browse-shows');
let libraries: { main: string; more: string };

const api = (method: string, path: string, body?: unknown) =>
  call(method, path, { ...(body === undefined ? {} : jsonBody(body)), base: instance.url });
const get = async (path: string) => {
  const res = await api('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.json;
};
const titles = (body: any): string[] => body.data.map((e: any) => e.media.title);
/** Every title of a listing, following nextCursor a page of `limit` at a time. */
const allTitles = async (path: string, params: string, limit: number) => {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const body: any = await get(`${path}?${params}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.ok(body.data.length <= limit);
    seen.push(...titles(body));
    cursor = body.meta.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error(`${path}?${params}: paging did not end`);
};
const ids = new Map<string, string>();
const idOf = (title: string) => ids.get(title) ?? assert.fail(`no id for ${title}`);
const nfo = (f: Film) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<movie><title>${f.title.replace(/&/g, '&amp;')}</title><year>${f.year}</year>` +
  `${f.genres.map((g) => `<genre>${g}</genre>`).join('')}${f.rating === null ? '' : `<rating>${f.rating}</rating>`}</movie>\n`;

before(async () => {
  for (const [i, f] of FILMS.entries()) {
    if (f.released)
      fake.addMovie({
        id: 100 + i,
        title: f.title,
        releaseDate: f.released,
        genres: f.genres,
        voteAverage: f.rating!,
        poster: null,
        backdrop: null,
      });
  }
  tmdb = await fake.start();
  instance = await startInstance({
    env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl },
  });
  for (const f of FILMS) {
    const root = f.elsewhere ? more : movies;
    const name = `${f.file ?? f.title} (${f.year})`;
    makeTree(root, [`${name}.mkv`], 4096);
    // The fake describes its own films; the others have an NFO when there is more than a title to tell.
    if (!f.released && (f.genres.length || f.file)) writeFileSync(join(root, `${name}.nfo`), nfo(f));
  }
  makeTree(
    shows,
    [
      'The Wire/Season 1/The Wire S01E01.mkv',
      'The Wire/Season 1/The Wire S01E02.mkv',
      'Deadwood/Season 1/Deadwood S01E01.mkv',
      'Élite/Season 1/Élite S01E01.mkv',
    ],
    4096,
  );
  const scanned: string[] = [];
  for (const [path, mediaType] of [
    [movies, 'movie'],
    [more, 'movie'],
    [shows, 'tvshow'],
  ] as const) {
    const job = await scan({ path, mediaType }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    scanned.push(job.libraryId);
  }
  libraries = { main: scanned[0]!, more: scanned[1]! };
  for (const e of (await get('/api/v1/movies?sort=title&limit=100')).data) ids.set(e.media.title, e.id);
  for (const e of (await get('/api/v1/tvshows?sort=title&limit=100')).data) ids.set(e.media.title, e.id);
});
after(async () => {
  await instance?.stop();
  await tmdb?.close();
});

describe('browsing the whole library', () => {
  it('answers the lists as before without the new parameters: newest first, totals of the last scans, the same cursors', async () => {
    const first = await get('/api/v1/movies?limit=5');
    assert.equal(first.meta.total, FILMS.length);
    const cursor = JSON.parse(Buffer.from(first.meta.nextCursor, 'base64url').toString('utf8'));
    assert.deepEqual(Object.keys(cursor).sort(), ['gsi1pk', 'gsi1sk', 'pk', 'sk'], "the recent index's own cursor");
    const all = [...first.data];
    for (let next = first.meta.nextCursor; next;) {
      const page = await get(`/api/v1/movies?limit=5&cursor=${encodeURIComponent(next)}`);
      all.push(...page.data);
      next = page.meta.nextCursor;
    }
    // The recent index's order: its sort key `<addedAt>#<id>`, descending, by code unit.
    const key = (e: any) => `${e.media.addedAt}#${e.id}`;
    const newestFirst = [...all].sort((a, b) => (key(a) < key(b) ? 1 : -1));
    assert.deepEqual(
      all.map((e) => e.id),
      newestFirst.map((e) => e.id),
    );
    assert.deepEqual(Object.keys(all[0]).sort(), ['id', 'media', 'type', 'userData']);
    // `matched` alone is an old parameter too.
    const unmatched = await get('/api/v1/movies?matched=false&limit=100');
    assert.deepEqual([unmatched.meta.total, unmatched.data.length], [FILMS.length - 3, FILMS.length - 3]);
  });

  it('files titles by letter, the leading article, accents and case left out, digits under #', async () => {
    assert.deepEqual(titles(await get('/api/v1/movies?sort=title&limit=100')), BY_TITLE);
    assert.deepEqual(titles(await get('/api/v1/movies?sort=title&order=desc&limit=100')), [...BY_TITLE].reverse());
    const letter = async (l: string) => titles(await get(`/api/v1/movies?letter=${encodeURIComponent(l)}&sort=title&limit=100`));
    assert.deepEqual(await letter('A'), ['Amélie', 'Annie Hall', "L'Avventura"]);
    assert.deepEqual(await letter('E'), ['Édith', 'Elf']);
    assert.deepEqual(await letter('L'), ['El Laberinto del Fauno', 'De Lift']);
    assert.deepEqual(await letter('M'), ['Mad Max', 'The Matrix', 'Les Misérables']);
    assert.deepEqual(await letter('T'), ['Theo']);
    assert.deepEqual(await letter('#'), ['(500) Days of Summer', '2001: A Space Odyssey']);
    assert.deepEqual(await letter('Q'), []);
    assert.deepEqual(titles(await get('/api/v1/tvshows?sort=title&limit=100')), ['Deadwood', 'Élite', 'The Wire']);
  });

  it('sorts by year, rating, release date and date added, titles without the value last either way', async () => {
    const sorted = async (params: string) => titles(await get(`/api/v1/movies?${params}&limit=100`));
    const byYear = [...FILMS].sort((a, b) => a.year - b.year).map((f) => f.title);
    assert.deepEqual(await sorted('sort=year&order=asc'), byYear);
    assert.deepEqual(await sorted('sort=year'), [...byYear].reverse(), 'newest first by default');
    const rated = await sorted('sort=rating');
    const unrated = FILMS.filter((f) => f.rating === null);
    assert.deepEqual(rated.slice(0, 2), ['Heat', 'Das Boot'], 'a tie at 8.3 goes by year, turned round with the order');
    assert.deepEqual(new Set(rated.slice(-unrated.length)), new Set(unrated.map((f) => f.title)));
    assert.deepEqual(new Set((await sorted('sort=rating&order=asc')).slice(-unrated.length)), new Set(unrated.map((f) => f.title)));
    assert.deepEqual((await sorted('sort=released')).slice(0, 3), ['The Matrix', 'Heat', 'Mad Max'], 'those the provider dated first');
    assert.deepEqual((await sorted('sort=released&order=asc')).slice(0, 3), ['Mad Max', 'Heat', 'The Matrix']);
    assert.equal((await get('/api/v1/movies?sort=added&limit=1')).meta.total, FILMS.length);
  });

  it('filters by genres (every one, any case), years, library and match, and counts what it keeps', async () => {
    const kept = async (params: string) => {
      const body = await get(`/api/v1/movies?${params}&sort=title&limit=100`);
      return [body.meta.total, titles(body)];
    };
    assert.deepEqual(await kept('genre=war&genre=DRAMA'), [2, ['Das Boot', 'Der Untergang']]);
    assert.deepEqual(await kept('genre=Comedy&genre=Drama'), [1, ['(500) Days of Summer']]);
    assert.deepEqual(await kept('genre=Science%20Fiction'), [2, ['The Matrix', '2001: A Space Odyssey']]);
    assert.deepEqual(await kept('genre=Western'), [0, []]);
    assert.deepEqual(await kept('genre=Drama&letter=M'), [1, ['Les Misérables']]);
    assert.deepEqual(await kept('yearFrom=1990&yearTo=1999'), [3, ['Heat', 'The Matrix', 'Il Postino']]);
    assert.deepEqual(await kept('yearFrom=2010'), [3, ['Édith', 'Les Misérables', 'Theo']]);
    assert.deepEqual(await kept(`libraryId=${libraries.more}`), [3, ['Das Boot', 'Il Postino', 'Der Untergang']]);
    assert.deepEqual(await kept('libraryId=nowhere'), [0, []]);
    assert.deepEqual(await kept('matched=true'), [3, ['Heat', 'Mad Max', 'The Matrix']]);
    assert.deepEqual(await kept('matched=false&genre=Action'), [0, []]);
    assert.deepEqual(await kept('collectionId=404'), [0, []], 'no film is in that collection');
    const drama = FILMS.filter((f) => f.genres.includes('Drama')).map((f) => f.title);
    assert.deepEqual(await kept('genre=drama'), [drama.length, BY_TITLE.filter((t) => drama.includes(t))]);
  });

  it('pages through every sort and order with small pages, each title once, as one long page has them', async () => {
    for (const sort of ['added', 'title', 'year', 'rating', 'released', 'lastPlayed']) {
      for (const order of ['asc', 'desc']) {
        const whole = titles(await get(`/api/v1/movies?sort=${sort}&order=${order}&limit=100`));
        assert.equal(whole.length, FILMS.length);
        for (const limit of [2, 3])
          assert.deepEqual(await allTitles('/api/v1/movies', `sort=${sort}&order=${order}`, limit), whole, `${sort} ${order} by ${limit}`);
      }
    }
    assert.deepEqual(
      await allTitles('/api/v1/movies', 'sort=rating&genre=Drama', 2),
      titles(await get('/api/v1/movies?sort=rating&genre=Drama&limit=100')),
    );
  });

  it('counts genres, years and letters of what the filters keep', async () => {
    const all = (await get('/api/v1/movies/facets')).data;
    assert.equal(all.total, FILMS.length);
    const genreCounts = new Map<string, number>();
    for (const f of FILMS) for (const g of f.genres) genreCounts.set(g, (genreCounts.get(g) ?? 0) + 1);
    assert.deepEqual(
      all.genres,
      [...genreCounts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1)),
    );
    assert.deepEqual(
      all.years,
      [...new Set(FILMS.map((f) => f.year))]
        .sort((a, b) => b - a)
        .map((year) => ({ year, count: FILMS.filter((f) => f.year === year).length })),
    );
    assert.deepEqual(all.letters, [
      { letter: 'A', count: 3 },
      { letter: 'B', count: 1 },
      { letter: 'E', count: 2 },
      { letter: 'H', count: 1 },
      { letter: 'L', count: 2 },
      { letter: 'M', count: 3 },
      { letter: 'P', count: 1 },
      { letter: 'T', count: 1 },
      { letter: 'U', count: 1 },
      { letter: '#', count: 2 },
    ]);
    const war = (await get('/api/v1/movies/facets?genre=War')).data;
    assert.deepEqual(war, {
      total: 2,
      genres: [
        { name: 'Drama', count: 2 },
        { name: 'War', count: 2 },
      ],
      years: [
        { year: 2004, count: 1 },
        { year: 1981, count: 1 },
      ],
      letters: [
        { letter: 'B', count: 1 },
        { letter: 'U', count: 1 },
      ],
    });
    const shows = (await get('/api/v1/tvshows/facets?letter=E')).data;
    assert.deepEqual([shows.total, shows.letters], [1, [{ letter: 'E', count: 1 }]]);
  });

  it('filters by what a profile played and sorts by when it last played, films and shows', async () => {
    const progress = await api('PUT', `/api/v1/progress/${idOf('Heat')}`, { positionSeconds: 3000, durationSeconds: 6000 });
    assert.equal(progress.status, 200, progress.text);
    assert.equal((await api('POST', `/api/v1/played/${idOf('Amélie')}`)).status, 200);
    assert.equal((await api('POST', `/api/v1/played/${idOf('Das Boot')}`)).status, 200);
    const played = await get('/api/v1/movies?played=true&sort=title');
    assert.deepEqual([played.meta.total, titles(played)], [2, ['Amélie', 'Das Boot']]);
    assert.ok(played.data.every((e: any) => e.userData.played));
    const unplayed = await get('/api/v1/movies?played=false&sort=title&limit=100');
    assert.deepEqual(
      titles(unplayed),
      BY_TITLE.filter((t) => t !== 'Amélie' && t !== 'Das Boot'),
    );
    assert.deepEqual(titles(await get('/api/v1/movies?sort=lastPlayed&limit=3')), ['Das Boot', 'Amélie', 'Heat'], 'most recently first');
    assert.deepEqual(
      titles(await get('/api/v1/movies?sort=lastPlayed&order=asc&limit=3')),
      ['Heat', 'Amélie', 'Das Boot'],
      'the others after them either way',
    );
    assert.equal((await get('/api/v1/movies/facets?played=true')).data.total, 2);

    const other = (await api('POST', '/api/v1/profiles', { name: 'Browser' })).json.data.id;
    assert.equal((await get(`/api/v1/movies?played=true&profileId=${other}`)).meta.total, 0, 'another profile has played nothing');
    assert.equal((await api('GET', '/api/v1/movies?played=true&profileId=pf_0000000000000000')).status, 404);

    // A show is played when every episode is; its last played is its latest episode's.
    assert.equal((await api('POST', `/api/v1/played/${idOf('Deadwood')}`)).status, 200);
    const wire = await get(`/api/v1/tvshows/${idOf('The Wire')}`);
    assert.equal((await api('POST', `/api/v1/played/${wire.data.seasons[0].episodes[0].id}`)).status, 200);
    assert.deepEqual(titles(await get('/api/v1/tvshows?played=true')), ['Deadwood']);
    assert.deepEqual(titles(await get('/api/v1/tvshows?played=false&sort=title')), ['Élite', 'The Wire']);
    assert.deepEqual(titles(await get('/api/v1/tvshows?sort=lastPlayed')), ['The Wire', 'Deadwood', 'Élite']);
  });

  it('answers 400 to parameters it cannot take, naming them', async () => {
    const refused = async (path: string, field: string) => {
      const res = await api('GET', path);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.headers['content-type'], 'application/problem+json');
      assert.equal(res.json.type, '/problems/invalid-request');
      assert.ok(
        res.json.errors.some((e: any) => e.field === field),
        `${path}: ${JSON.stringify(res.json.errors)}`,
      );
    };
    await refused('/api/v1/movies?sort=popularity', 'query.sort');
    await refused('/api/v1/movies?sort=title&order=up', 'query.order');
    await refused('/api/v1/movies?letter=AB', 'query.letter');
    await refused('/api/v1/movies?letter=m', 'query.letter');
    await refused('/api/v1/movies?yearFrom=2000&yearTo=1990', 'query.yearTo');
    await refused('/api/v1/movies/facets?yearFrom=2000&yearTo=1990', 'query.yearTo');
    await refused('/api/v1/movies?yearFrom=nineteen', 'query.yearFrom');
    await refused('/api/v1/movies?played=maybe', 'query.played');
    await refused('/api/v1/tvshows?collectionId=1', 'query.collectionId');
    await refused('/api/v1/tvshows/facets?sort=title', 'query.sort');
    const byTitle = (await get('/api/v1/movies?sort=title&limit=2')).meta.nextCursor;
    await refused(`/api/v1/movies?sort=year&limit=2&cursor=${encodeURIComponent(byTitle)}`, 'query.cursor');
    await refused(`/api/v1/tvshows?sort=title&limit=2&cursor=${encodeURIComponent(byTitle)}`, 'query.cursor');
    await refused(`/api/v1/movies?limit=2&cursor=${encodeURIComponent(byTitle)}`, 'query.cursor');
    const recent = (await get('/api/v1/movies?limit=2')).meta.nextCursor;
    await refused(`/api/v1/movies?sort=added&limit=2&cursor=${encodeURIComponent(recent)}`, 'query.cursor');
  });

  it('documents the parameters and the facets in the OpenAPI document', async () => {
    const doc = (await api('GET', '/api/docs.json')).json;
    const names = (path: string) => doc.paths[path].get.parameters.map((p: any) => p.name);
    for (const name of [
      'sort',
      'order',
      'genre',
      'yearFrom',
      'yearTo',
      'letter',
      'played',
      'favorite',
      'libraryId',
      'collectionId',
      'matched',
    ]) {
      assert.ok(names('/api/v1/movies').includes(name), name);
      if (name !== 'sort' && name !== 'order') assert.ok(names('/api/v1/movies/facets').includes(name), name);
    }
    assert.ok(!names('/api/v1/tvshows').includes('collectionId'));
    assert.ok(doc.paths['/api/v1/tvshows/facets'].get);
    assert.ok(doc.components.schemas.Facets);
  });

  it('neither repeats nor skips a title while a scan adds titles between pages', async () => {
    const seen: string[] = [];
    const first = await get('/api/v1/movies?sort=title&limit=3');
    seen.push(...titles(first));
    makeTree(movies, ['Zulu (1964).mkv', 'Alien (1979).mkv', 'Marty (1955).mkv'], 4096);
    assert.equal((await scan({ path: movies, mediaType: 'movie' }, instance.url)).status, 'completed');
    for (let cursor = first.meta.nextCursor; cursor;) {
      const page = await get(`/api/v1/movies?sort=title&limit=3&cursor=${encodeURIComponent(cursor)}`);
      seen.push(...titles(page));
      cursor = page.meta.nextCursor;
    }
    assert.deepEqual(
      seen,
      [...BY_TITLE.slice(0, 10), 'Marty', ...BY_TITLE.slice(10, 15), 'Zulu', ...BY_TITLE.slice(15)],
      'Alien came before the first page ended',
    );
  });
});
