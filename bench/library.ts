// The one scanned library the parts of a `npm run bench` run share: BENCH_ITEMS (10,000)
// sparse movie files (bench/tree.ts) written once, one instance started (no TMDB key, the rate
// limit out of the way, playback's limits as the playback part wants them, the Jellyfin door
// on a port of its own) with its handlers' DynamoDB calls going through the counting proxy
// (bench/ddb-proxy.ts, a process of its own), and the library's first scan, timed as a client
// sees it. The first part that asks builds it; run.ts stops it at the end. Parts that need their
// own films scan them in as libraries of their own (`addLibrary`): they are then the newest
// films of the recent list.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { PROJECT_DIR } from '../infra/project';
import { ensureTable } from '../infra/runner/ensure-table';
import { freePort } from '../infra/runner/ports';
import { DynamoCatalogStore } from '../lib/catalog/store';
import { config, LOCAL_CREDENTIALS } from '../lib/config';
import { createDb } from '../lib/db/client';
import { rootFolderName } from '../lib/naming';
import { planScan } from '../lib/scan/plan';
import { WRITE_CHUNK } from '../lib/scan/phases/write';
import { discover } from '../lib/storage/discover';
import { startInstance, type Instance } from '../test/support/instance';
import { proxyProcess, type ProxyProcess } from './ddb-proxy';
import { api, fmt, SCAN_TIMEOUT_MS, sayer, scanPath, sleep } from './support';
import { describe, generateMovies, writeTree, type Movie } from './tree';

export const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const POLL_MS = 100;
const say = sayer('library');

export interface FirstScan {
  /** POST /scan/path to completed, as the client sees it. */
  clientMs: number;
  /** The job's own startedAt to finishedAt. */
  jobMs: number;
  /** When GET /movies first counted every film. */
  listedMs: number;
  job: any;
}

export interface Shared {
  instance: Instance;
  base: string;
  /** The Jellyfin door's address (JELLYFIN_PORT). */
  jellyfin: string;
  root: string;
  movies: Movie[];
  libraryId: string;
  /** The files as the scan finds them (the batch writes' input). */
  found: Awaited<ReturnType<typeof discover>>;
  /** The database's own rate for the scan's writes, just before it, through the same proxy. */
  batchWrite: { items: number; ms: number };
  first: FirstScan;
  proxy: ProxyProcess;
  pids: Record<string, number>;
}

/**
 * The items a first scan of `root` writes (planned by the scan's own code), put by the service's
 * batch writer in the scan's steps into a fresh table of the same shape, then dropped.
 */
const measureBatchWrite = async (endpoint: string, root: string, files: Shared['found']) => {
  const { writes } = planScan({
    libraryId: 'lib_bench',
    mediaType: 'movie',
    rootName: rootFolderName(root),
    jobId: 'job_bench',
    now: new Date().toISOString(),
    scope: '',
    files,
    index: [],
  });
  const tableName = `bench-batch-write-${Date.now()}`;
  const db = createDb({ ...config.db, endpoint, tableName, localCredentials: LOCAL_CREDENTIALS });
  await ensureTable(db.raw, tableName);
  try {
    const store = new DynamoCatalogStore(() => db);
    const t0 = performance.now();
    for (let i = 0; i < writes.length; i += WRITE_CHUNK) await store.put(writes.slice(i, i + WRITE_CHUNK).map((w) => w.item));
    return { items: writes.length, ms: performance.now() - t0 };
  } finally {
    await db.raw.send(new DeleteTableCommand({ TableName: tableName }));
    db.raw.destroy();
  }
};

/** The first scan, the job and the first page's total polled every POLL_MS. */
const firstScan = async (base: string, root: string, libraryId: string, films: number): Promise<FirstScan> => {
  const t0 = performance.now();
  const { data: queued } = await api(base, 'POST', '/api/v1/scan/path', 202, { path: root, mediaType: 'movie', libraryId });
  let listedMs: number | undefined;
  let lastSay = 0;
  for (;;) {
    const [{ data: job }, listed] = await Promise.all([
      api(base, 'GET', `/api/v1/scan/jobs/${queued.jobId}`, 200),
      listedMs === undefined ? api(base, 'GET', '/api/v1/movies?limit=1', 200) : undefined,
    ]);
    const now = performance.now();
    if (listed && listed.meta.total >= films) listedMs = now - t0;
    if (job.status === 'completed')
      return { clientMs: now - t0, jobMs: Date.parse(job.finishedAt) - Date.parse(job.startedAt), listedMs: listedMs ?? now - t0, job };
    if (job.status === 'failed' || job.status === 'interrupted')
      throw new Error(`the first scan: job ${job.status}: ${JSON.stringify(job)}`);
    if (now - t0 > SCAN_TIMEOUT_MS)
      throw new Error(`the first scan not completed after ${SCAN_TIMEOUT_MS / 60_000} min: ${JSON.stringify(job)}`);
    if (now - lastSay > 5000) {
      say(`first scan: ${job.status} ${job.phase ?? ''} ${fmt(job.progress, 0)}% ${JSON.stringify(job.counts)}`);
      lastSay = now;
    }
    await sleep(POLL_MS);
  }
};

const build = async (): Promise<Shared> => {
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-library-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-data-'));
  const movies = generateMovies(ITEMS);
  say(`writing ${movies.length} sparse movie files under ${root} ${JSON.stringify(describe(movies))}`);
  await writeTree(root, movies);
  const found = await discover(root, { limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth } });
  const proxy = await proxyProcess(dataDir);
  const jellyfinPort = await freePort();
  const instance = await startInstance({
    dataDir,
    env: {
      RATE_LIMIT_MAX: '1000000000',
      TMDB_API_KEY: '',
      PLAYBACK_MAX_TRANSCODES: '3',
      PLAYBACK_MAX_REMUXES: '8',
      JELLYFIN_PORT: String(jellyfinPort),
      BENCH_HANDLERS_DYNAMODB_ENDPOINT: proxy.url,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(PROJECT_DIR, 'bench/handlers-dynamodb.cjs')}`.trim(),
    },
  });
  const { pid, processes } = instance.state();
  const base = instance.url;
  const batchWrite = await measureBatchWrite(proxy.url, root, found);
  say(`the database's batch writes: ${batchWrite.items} items in ${fmt(batchWrite.ms / 1000, 2)} s`);
  const { data: library } = await api(base, 'POST', '/api/v1/library', 201, { name: 'Bench movies', path: root, mediaType: 'movie' });
  const first = await firstScan(base, root, library.id, movies.length);
  say(
    `first scan: every film listed after ${fmt(first.listedMs / 1000, 2)} s, completed after ${fmt(first.clientMs / 1000, 2)} s: ${JSON.stringify(first.job.counts)}`,
  );
  await proxy.take();
  return {
    instance,
    base,
    jellyfin: `http://127.0.0.1:${jellyfinPort}`,
    root,
    movies,
    libraryId: library.id,
    found,
    batchWrite,
    first,
    proxy,
    pids: {
      'runner (front door)': pid,
      'serverless-offline (handlers)': processes.offline!,
      'DynamoDB Local': processes.dynamodb!,
      'counting proxy': proxy.pid,
    },
  };
};

let shared: Promise<Shared> | undefined;

/** The shared library, built and scanned by the first part that asks. */
export const sharedLibrary = () => (shared ??= build());

/** Stops the shared stack, if one was built, and removes its files. */
export const closeShared = async () => {
  if (!shared) return;
  const s = await shared.catch(() => undefined);
  shared = undefined;
  if (!s) return;
  await s.instance.stop();
  await s.proxy.close();
  await Promise.all([s.root, s.instance.dataDir].map((d) => rm(d, { recursive: true, force: true })));
};

/** Scans `path` into the shared instance as a library of its own: the job, and its `count` newest entries of the recent list. */
export const addLibrary = async (path: string, mediaType: 'movie' | 'tvshow', count: number) => {
  const { base } = await sharedLibrary();
  const { data: library } = await api(base, 'POST', '/api/v1/library', 201, { name: path.split('/').pop(), path, mediaType });
  const { job, ms } = await scanPath(base, { path, mediaType, libraryId: library.id });
  const list = mediaType === 'movie' ? 'movies' : 'tvshows';
  const entries: any[] = count ? (await api(base, 'GET', `/api/v1/${list}?limit=${count}`, 200)).data : [];
  return { job, ms, libraryId: library.id as string, entries };
};
