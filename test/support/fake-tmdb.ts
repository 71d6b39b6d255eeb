// A fake TMDB of our own, over real HTTP on 127.0.0.1: the API v3 paths the metadata client
// uses (/3/search/movie, /3/movie/{id}, /3/tv/{id}/season/{n}, /3/find/{id}, /3/collection/{id},
// /3/genre/movie/list, /3/genre/tv/list, /3/configuration),
// TMDB's auth (an `api_key` query or a Bearer read access token) and error bodies, and an image
// CDN under /t/p/{size}/{file}. Knobs make it slow, rate-limited or failing, and its stats say
// what a client did to it (requests by path, 429s, the most requests in any one second).
//
//   const fake = new FakeTmdb({ keys: ['k3y'] });
//   fake.addMovie({ id: 603, title: 'The Matrix', releaseDate: '1999-03-30', poster: { quadrants: [...] } });
//   const { apiBaseUrl, imageBaseUrl, close } = await fake.start();
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  collectionDetails,
  configuration,
  ERRORS,
  genreList,
  imageFile,
  movieDetails,
  movieResult,
  page,
  seasonDetails,
  tvDetails,
  tvResult,
  type ImageKind,
  type ImageSpec,
  type SeedCollection,
  type SeedMovie,
  type SeedShow,
} from './fake-tmdb-bodies';
import { createImageStore, type ImageFault } from './fake-tmdb-images';

export type { ImageSpec, SeedCollection, SeedEpisode, SeedMovie, SeedSeason, SeedShow } from './fake-tmdb-bodies';
export { HUGE_IMAGE, type ImageFault } from './fake-tmdb-images';

/** How a request is made to fail. */
export type Failure =
  | 500
  | 502
  | 503
  | 504
  /** With `Retry-After` (retryAfterSeconds, 1 by default). */
  | 429
  /** TMDB's invalid-key answer, whatever the key. */
  | 401
  /** Never answers (until the server closes). */
  | 'timeout'
  /** A 200 whose JSON is cut off. */
  | 'malformed-json'
  /** The connection is dropped without an answer. */
  | 'reset';

export interface FailureOptions {
  retryAfterSeconds?: number;
  /** Which requests count down: API calls, image downloads or both (default). */
  only?: 'api' | 'images';
}

export interface FakeRequest {
  /** Milliseconds since the server started. */
  at: number;
  path: string;
  query: Record<string, string>;
  auth: 'api_key' | 'bearer' | 'none';
  status: number;
}

export interface FakeTmdbStats {
  requests: number;
  apiRequests: number;
  imageRequests: number;
  /** Requests per path ("/3/movie/603"), query left out. */
  byPath: Record<string, number>;
  /** 429s answered, by the rate limit or by failNext. */
  rateLimited: number;
  /** The most API requests that arrived within any one second. */
  maxPerSecond: number;
  log: FakeRequest[];
}

export interface FakeTmdbOptions {
  /** Valid v3 keys and v4 read access tokens. */
  keys?: string[];
  latencyMs?: number;
  /** API requests allowed per second, over a sliding window; beyond it, 429 with Retry-After. */
  rateLimit?: number;
}

export interface FakeTmdbServer {
  url: string;
  apiBaseUrl: string;
  imageBaseUrl: string;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const emptyStats = (): FakeTmdbStats => ({
  requests: 0,
  apiRequests: 0,
  imageRequests: 0,
  byPath: {},
  rateLimited: 0,
  maxPerSecond: 0,
  log: [],
});

export class FakeTmdb {
  latencyMs: number;
  rateLimit: number | undefined;
  /** Sees every request first; a Failure it returns is answered instead (a 429 with Retry-After: 1). */
  intercept: ((request: { path: string; query: Record<string, string>; api: boolean }) => Failure | undefined) | undefined;
  stats: FakeTmdbStats = emptyStats();

  private readonly keys: Set<string>;
  private readonly movies = new Map<number, SeedMovie>();
  private readonly shows = new Map<number, SeedShow>();
  private readonly collections = new Map<number, SeedCollection>();
  private readonly imageStore = createImageStore();
  private failures: Array<{ failure: Failure; options: FailureOptions }> = [];
  private arrivals: number[] = []; // API arrivals in the last second, for maxPerSecond
  private admitted: number[] = []; // API requests let through in the last second, for rateLimit
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private startedAt = 0;
  private baseUrl = '';

  constructor(options: FakeTmdbOptions = {}) {
    this.keys = new Set(options.keys ?? []);
    this.latencyMs = options.latencyMs ?? 0;
    this.rateLimit = options.rateLimit;
  }

  // --- Seeding -----------------------------------------------------------------------------

  addKey(key: string) {
    this.keys.add(key);
    return this;
  }

  addMovie(movie: SeedMovie) {
    this.movies.set(movie.id, movie);
    this.registerImage(movie.poster, `movie-${movie.id}`, 'poster');
    this.registerImage(movie.backdrop, `movie-${movie.id}`, 'backdrop');
    return this;
  }

  addShow(show: SeedShow) {
    this.shows.set(show.id, show);
    this.registerImage(show.poster, `tv-${show.id}`, 'poster');
    this.registerImage(show.backdrop, `tv-${show.id}`, 'backdrop');
    for (const season of show.seasons ?? []) {
      this.registerImage(season.poster, `tv-${show.id}-s${season.seasonNumber}`, 'poster');
      for (const e of season.episodes) this.registerImage(e.still, `tv-${show.id}-s${season.seasonNumber}e${e.episodeNumber}`, 'still');
    }
    return this;
  }

  /** A film collection: its parts' details name it in `belongs_to_collection`. */
  addCollection(collection: SeedCollection) {
    this.collections.set(collection.id, collection);
    this.registerImage(collection.poster, `collection-${collection.id}`, 'poster');
    this.registerImage(collection.backdrop, `collection-${collection.id}`, 'backdrop');
    return this;
  }

  /** An image of its own ("/poster.jpg"), not tied to a seeded title. */
  addImage(file: string, spec: ImageSpec = {}, kind: ImageKind = 'poster') {
    this.imageStore.register(file, { kind, spec });
    return this;
  }

  /** Makes an image misbehave (see ImageFault); `undefined` makes it good again. */
  breakImage(file: string, fault: ImageFault | undefined = 'garbage') {
    const image = this.imageStore.images.get(file);
    if (!image) throw new Error(`No image ${file} in the fake TMDB`);
    this.imageStore.register(file, { ...image, fault });
    return this;
  }

  /** Serves an 8000x12000 JPEG for the image at every size. */
  hugeImage(file: string) {
    return this.breakImage(file, 'huge');
  }

  private registerImage(spec: ImageSpec | null | undefined, owner: string, kind: ImageKind) {
    const file = imageFile(spec, owner, kind);
    if (file) this.imageStore.register(file, { kind, spec: spec ?? {} });
  }

  // --- Knobs -------------------------------------------------------------------------------

  /** The next `count` requests (of `options.only`) fail this way, in order after earlier ones. */
  failNext(count: number, failure: Failure, options: FailureOptions = {}) {
    for (let i = 0; i < count; i++) this.failures.push({ failure, options });
    return this;
  }

  /** Clears stats, pending failures, latency, the rate limit and the hook; seeds and keys stay. */
  reset() {
    this.stats = emptyStats();
    this.failures = [];
    this.arrivals = [];
    this.admitted = [];
    this.latencyMs = 0;
    this.rateLimit = undefined;
    this.intercept = undefined;
  }

  // --- Server ------------------------------------------------------------------------------

  async start(): Promise<FakeTmdbServer> {
    const server = createServer((req, res) => void this.handle(req, res).catch((err) => this.crash(res, err)));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.startedAt = performance.now();
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url: this.baseUrl,
      apiBaseUrl: `${this.baseUrl}/3`,
      imageBaseUrl: `${this.baseUrl}/t/p`,
      close: () => this.close(),
    };
  }

  private async close() {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy(); // requests left hanging by 'timeout'
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private crash(res: ServerResponse, err: unknown) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`fake TMDB failed: ${String(err)}`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const query = Object.fromEntries(url.searchParams);
    const api = url.pathname.startsWith('/3/');
    const auth = query.api_key !== undefined ? 'api_key' : /^Bearer /i.test(req.headers.authorization ?? '') ? 'bearer' : 'none';
    const entry: FakeRequest = { at: performance.now() - this.startedAt, path: url.pathname, query, auth, status: 0 };
    this.count(entry, api);

    const hooked = this.intercept?.({ path: url.pathname, query, api });
    const failure = hooked === undefined ? this.takeFailure(api) : { failure: hooked, options: {} };
    if (failure !== undefined) return this.fail(res, entry, failure.failure, failure.options);
    if (api && this.overRateLimit()) return this.fail(res, entry, 429, { retryAfterSeconds: this.retryAfterSeconds() });

    if (url.pathname.startsWith('/t/p/')) return this.image(res, entry, url.pathname);
    if (!api) return this.send(res, entry, ERRORS.notFound);
    if (!this.authorized(query, req.headers.authorization)) return this.send(res, entry, ERRORS.invalidKey);
    return this.send(res, entry, this.route(url.pathname.slice(2), url.searchParams));
  }

  private count(entry: FakeRequest, api: boolean) {
    this.stats.requests++;
    this.stats.byPath[entry.path] = (this.stats.byPath[entry.path] ?? 0) + 1;
    this.stats.log.push(entry);
    if (!api) return void this.stats.imageRequests++;
    this.stats.apiRequests++;
    const now = performance.now();
    this.arrivals = this.arrivals.filter((t) => t > now - 1000);
    this.arrivals.push(now);
    this.stats.maxPerSecond = Math.max(this.stats.maxPerSecond, this.arrivals.length);
  }

  private takeFailure(api: boolean) {
    const next = this.failures[0];
    if (!next) return undefined;
    const applies = next.options.only === undefined || (next.options.only === 'api') === api;
    return applies ? this.failures.shift() : undefined;
  }

  private overRateLimit() {
    if (this.rateLimit === undefined) return false;
    const now = performance.now();
    this.admitted = this.admitted.filter((t) => t > now - 1000);
    if (this.admitted.length >= this.rateLimit) return true;
    this.admitted.push(now);
    return false;
  }

  /** Whole seconds until the oldest admitted request leaves the window. */
  private retryAfterSeconds() {
    const oldest = this.admitted[0] ?? performance.now();
    return Math.max(1, Math.ceil((oldest + 1000 - performance.now()) / 1000));
  }

  private authorized(query: Record<string, string>, authorization: string | undefined) {
    if (query.api_key !== undefined) return this.keys.has(query.api_key);
    const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    return token !== undefined && this.keys.has(token);
  }

  // --- Answers -----------------------------------------------------------------------------

  private route(path: string, params: URLSearchParams): Answer {
    const ok = (body: unknown): Answer => ({ status: 200, body });
    const append = new Set((params.get('append_to_response') ?? '').split(',').filter(Boolean));
    const pageNumber = Math.max(1, Number(params.get('page') ?? 1) || 1);
    let m: RegExpExecArray | null;
    if (path === '/configuration') return ok(configuration(`${this.baseUrl}/t/p`));
    if (path === '/genre/movie/list') return ok(genreList('movie', this.movies.values()));
    if (path === '/genre/tv/list') return ok(genreList('tv', this.shows.values()));
    if (path === '/search/movie') return ok(page(this.searchMovies(params), pageNumber));
    if (path === '/search/tv') return ok(page(this.searchShows(params), pageNumber));
    if ((m = /^\/movie\/(\d+)$/.exec(path))) {
      const movie = this.movies.get(Number(m[1]));
      const collection = [...this.collections.values()].find((c) => movie && c.parts.includes(movie.id));
      return movie ? ok(movieDetails(movie, append, collection)) : ERRORS.notFound;
    }
    if ((m = /^\/collection\/(\d+)$/.exec(path))) {
      const collection = this.collections.get(Number(m[1]));
      const parts = collection?.parts.map((id) => this.movies.get(id)).filter((p): p is SeedMovie => p !== undefined);
      return collection ? ok(collectionDetails(collection, parts!)) : ERRORS.notFound;
    }
    if ((m = /^\/tv\/(\d+)$/.exec(path))) {
      const show = this.shows.get(Number(m[1]));
      return show ? ok(tvDetails(show, append)) : ERRORS.notFound;
    }
    if ((m = /^\/tv\/(\d+)\/season\/(\d+)$/.exec(path))) {
      const show = this.shows.get(Number(m[1]));
      const season = show?.seasons?.find((s) => s.seasonNumber === Number(m![2]));
      return show && season ? ok(seasonDetails(show, season)) : ERRORS.notFound;
    }
    if ((m = /^\/find\/([^/]+)$/.exec(path))) return ok(this.find(decodeURIComponent(m[1]!), params.get('external_source')));
    return ERRORS.notFound;
  }

  private searchMovies(params: URLSearchParams) {
    const query = fold(params.get('query') ?? '');
    const year = params.get('primary_release_year') ?? params.get('year');
    return [...this.movies.values()]
      .filter((m) => query && [m.title, m.originalTitle ?? ''].some((t) => fold(t).includes(query)))
      .filter((m) => !year || (m.releaseDate ?? '').startsWith(`${year}-`))
      .sort((a, b) => (b.popularity ?? 1) - (a.popularity ?? 1))
      .map(movieResult);
  }

  private searchShows(params: URLSearchParams) {
    const query = fold(params.get('query') ?? '');
    const year = params.get('first_air_date_year') ?? params.get('year');
    return [...this.shows.values()]
      .filter((s) => query && [s.name, s.originalName ?? ''].some((t) => fold(t).includes(query)))
      .filter((s) => !year || (s.firstAirDate ?? '').startsWith(`${year}-`))
      .sort((a, b) => (b.popularity ?? 1) - (a.popularity ?? 1))
      .map(tvResult);
  }

  private find(externalId: string, source: string | null) {
    const movies = source === 'imdb_id' ? [...this.movies.values()].filter((m) => m.imdbId === externalId) : [];
    const shows = [...this.shows.values()].filter((s) =>
      source === 'imdb_id' ? s.imdbId === externalId : source === 'tvdb_id' ? String(s.tvdbId) === externalId : false,
    );
    return {
      movie_results: movies.map((m) => ({ ...movieResult(m), media_type: 'movie' })),
      person_results: [],
      tv_results: shows.map((s) => ({ ...tvResult(s), media_type: 'tv' })),
      tv_episode_results: [],
      tv_season_results: [],
    };
  }

  private async image(res: ServerResponse, entry: FakeRequest, pathname: string) {
    const [, size = '', ...rest] = pathname.slice('/t/p'.length).split('/');
    const answer = await this.imageStore.answer(size, `/${rest.join('/')}`);
    await this.delay();
    entry.status = answer.status;
    res.writeHead(answer.status, {
      'content-type': answer.contentType,
      'content-length': answer.body.length,
      'cache-control': 'public, max-age=31536000',
    });
    res.end(answer.body);
  }

  private async fail(res: ServerResponse, entry: FakeRequest, failure: Failure, options: FailureOptions) {
    if (failure === 'timeout') return; // the socket is destroyed when the server closes
    if (failure === 'reset') return void res.socket?.destroy();
    if (failure === 'malformed-json') return this.send(res, entry, { status: 200, body: '{"id": 603, "title": "The Ma' });
    if (failure === 429) {
      this.stats.rateLimited++;
      return this.send(res, entry, { ...ERRORS.rateLimited, headers: { 'retry-after': String(options.retryAfterSeconds ?? 1) } });
    }
    if (failure === 401) return this.send(res, entry, ERRORS.invalidKey);
    if (failure === 502)
      return this.send(res, entry, {
        status: 502,
        body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
        headers: { 'content-type': 'text/html' },
      });
    return this.send(res, entry, failure === 500 ? ERRORS.internal : failure === 503 ? ERRORS.offline : ERRORS.backendTimeout);
  }

  private async send(res: ServerResponse, entry: FakeRequest, answer: Answer) {
    await this.delay();
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    entry.status = answer.status;
    res.writeHead(answer.status, {
      'content-type': 'application/json;charset=utf-8',
      'content-length': Buffer.byteLength(body),
      ...answer.headers,
    });
    res.end(body);
  }

  private delay() {
    return this.latencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.latencyMs)) : Promise.resolve();
  }
}

/** Case, accents and punctuation do not matter to the search, roughly as on TMDB. */
const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
