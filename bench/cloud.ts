// The cloud part of `npm run bench` (`tsx bench/run.ts cloud` alone): what the deployed service
// does, and so what it costs, per 1,000 scanned files. The artifact of `npm run package` runs as
// Lambda runs it (test/support/cloud.ts) against s3rver, DynamoDB Local and offline's WebSocket
// management API (an instance of our own, MEDIA_STORAGE=s3) and the fake TMDB (40 ms per answer,
// 40 requests/s), with counting proxies in front of each and of the fake SSM holding the TMDB key
// (bench/cloud-meters.ts); one browser tab on the WebSocket API. Windows counted:
//   setup  the TMDB key as docs/cloud.md deploys it (SSM; BENCH_CLOUD_KEY=settings: PATCH /settings)
//   A      first scan of BENCH_CLOUD_FILMS (1,000) files through the HTTP API, the job polled every 5 s
//   B      a rescan of the unchanged library;  C  the 15-minute upkeep rule's invocation, nothing due
//   D      the same when the library's schedule (every 12 h) is due: the rescan it starts
// Then each function's cold start, and the table's and the bucket's size at rest.
// BENCH_CLOUD_PACKAGE names an existing `npm run package -- --package <dir>` folder to use.
import { ARTWORK_PREFIX } from '../lib/artwork';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import tableDefinition from '../lib/db/table.json';
import { startCloud, type Cloud } from '../test/support/cloud';
import { FakeSsm } from '../test/support/fake-ssm';
import { FakeTmdb, type FakeRequest } from '../test/support/fake-tmdb';
import { startInstance, tempDir } from '../test/support/instance';
import { FINISHED } from '../test/support/media';
import { packaged } from '../test/support/packaged';
import { S3RVER_CREDENTIALS, startS3, type LocalS3 } from '../test/support/s3';
import { call, jsonBody } from '../test/support/stack';
import { hasFfmpeg, makeMkv } from '../test/support/videos';
import { WsClient } from '../test/support/ws';
import {
  ITEM_OVERHEAD_BYTES,
  itemSize,
  lambdaUse,
  meterAwsJson,
  meterDynamo,
  meterS3,
  meterWebSocket,
  since,
  slice,
  sumOf,
  Tally,
  totalUse,
  type Counts,
  type LambdaUse,
} from './cloud-meters';
import type { MeteredProxy } from './forwarding';
import { machineLine, median, sayer, sleep, writeDoc } from './support';
import { generateMovies, pool, type Movie } from './tree';

const FILMS = Number(process.env.BENCH_CLOUD_FILMS ?? 1000);
const BUCKET = 'media';
const PREFIX = 'films';
const TABLE = 'media';
const SERVICE = 'media-library-prod';
const KEY = 'b3nchcl0udk3y0123456789abcdef0123';
const TMDB_LATENCY_MS = 40;
const TMDB_CAP = 40; // requests/s: the fake's limit and the client's default pace
const POLL_MS = 5_000;
/** After the emulator is idle, for the last log lines to come through their pipes. */
const SETTLE_MS = 500;
const SCAN_TIMEOUT_MS = 30 * 60_000;
const INIT_RUNS = 3;
/** Where the TMDB key comes from: the SSM parameter the template names (the deploy in docs/cloud.md), or the settings. */
const KEY_FROM = process.env.BENCH_CLOUD_KEY === 'settings' ? 'settings' : 'ssm';
const KEY_PARAMETER = `/media-library/prod/tmdb-api-key`;
const INIT_FUNCTIONS = [KEY_FROM === 'ssm' ? 'getSettings' : 'patchSettings', 'startScan', 'getJob', 'scanWorker', 'libraryUpkeep'];
const DUE_INTERVAL_HOURS = 0.0001; // makes the schedule due at once
const DEFAULT_INTERVAL_HOURS = 12;

const say = sayer('cloud');
const short = (fullName: string) => fullName.replace(`${SERVICE}-`, '');
const full = (shortName: string) => `${SERVICE}-${shortName}`;
const filmKey = (m: Movie) => `${PREFIX}/${m.title} (${m.year})/${m.title} (${m.year}).mkv`;

export interface TmdbUse {
  apiRequests: number;
  search: number;
  details: number;
  otherApi: number;
  images: number;
  rateLimited: number;
}

export interface Scenario {
  id: string;
  label: string;
  wallMs: number;
  /** Everything the proxies and the bench counted: totals, and `fn|key` per function. */
  counts: Counts;
  lambda: Record<string, LambdaUse>;
  tmdb: TmdbUse;
  job?: { jobId: string; status: string; trigger: string; counts: Record<string, number> };
  notes: string[];
}

interface Sizes {
  /** Items, their bytes and with DynamoDB's 100 bytes each (billed); of which expire by ttl (jobs); by kind; each index's copies; DynamoDB Local's own figure. */
  table: {
    items: number;
    itemBytes: number;
    billedBytes: number;
    expiringItems: number;
    expiringBilledBytes: number;
    byKind: Record<string, { items: number; bytes: number }>;
    indexes: Record<string, { items: number; billedBytes: number }>;
    localTableSizeBytes: number | null;
  };
  bucket: Record<'media' | 'artwork', { objects: number; bytes: number }>;
}

/** One film's file: a small real Matroska file (ffmpeg), else a few bytes that are not media. */
const filmBody = (dir: string) => {
  if (!hasFfmpeg()) return { body: Buffer.from('not a video, the bench had no ffmpeg\n'), kind: 'text (no ffmpeg)' };
  const body = readFileSync(makeMkv(join(dir, 'film.mkv'), { seconds: 2 }));
  return { body, kind: 'a 2 s 320x240 Matroska file (ffmpeg)' };
};

const scheduledEvent = () => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  region: 'us-east-1',
  detail: {},
  time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  resources: [`arn:aws:events:us-east-1:123456789012:rule/${SERVICE}-LibraryUpkeepEventsRuleSchedule1`],
});

const tmdbUse = (log: readonly FakeRequest[], rateLimited: number): TmdbUse => {
  const api = log.filter((r) => r.path.startsWith('/3/'));
  const search = api.filter((r) => r.path.startsWith('/3/search/')).length;
  const details = api.filter((r) => /^\/3\/(movie|tv)\/\d+/.test(r.path)).length;
  return {
    apiRequests: api.length,
    search,
    details,
    otherApi: api.length - search - details,
    images: log.length - api.length,
    rateLimited,
  };
};

/** The table's items and their indexes' copies, sized by DynamoDB's rules, and the bucket's objects. */
const measureSizes = async (dynamodbEndpoint: string, s3: LocalS3): Promise<Sizes> => {
  const client = new DynamoDBClient({
    endpoint: dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const indexes = tableDefinition.GlobalSecondaryIndexes.map((gsi) => {
    const keys = gsi.KeySchema.map((k) => k.AttributeName);
    const projected =
      gsi.Projection.ProjectionType === 'ALL'
        ? undefined
        : new Set([
            ...keys,
            ...tableDefinition.KeySchema.map((k) => k.AttributeName),
            ...((gsi.Projection as { NonKeyAttributes?: string[] }).NonKeyAttributes ?? []),
          ]);
    return { name: gsi.IndexName, keys, projected };
  });
  const table: Sizes['table'] = {
    items: 0,
    itemBytes: 0,
    billedBytes: 0,
    expiringItems: 0,
    expiringBilledBytes: 0,
    byKind: {},
    indexes: Object.fromEntries(indexes.map((i) => [i.name, { items: 0, billedBytes: 0 }])),
    localTableSizeBytes: null,
  };
  try {
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) {
        const size = itemSize(item);
        table.items++;
        table.itemBytes += size;
        table.billedBytes += size + ITEM_OVERHEAD_BYTES;
        if (item.ttl) {
          table.expiringItems++;
          table.expiringBilledBytes += size + ITEM_OVERHEAD_BYTES;
        }
        const kind = item.entity?.S ?? item.pk?.S?.split('#')[0] ?? '?';
        const k = (table.byKind[kind] ??= { items: 0, bytes: 0 });
        k.items++;
        k.bytes += size;
        for (const index of indexes) {
          if (!index.keys.every((name) => item[name] !== undefined)) continue;
          const into = table.indexes[index.name]!;
          into.items++;
          into.billedBytes += itemSize(item, index.projected) + ITEM_OVERHEAD_BYTES;
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
    const described = await client.send(new DescribeTableCommand({ TableName: TABLE }));
    table.localTableSizeBytes = described.Table?.TableSizeBytes ?? null;
  } finally {
    client.destroy();
  }
  const bucket: Sizes['bucket'] = { media: { objects: 0, bytes: 0 }, artwork: { objects: 0, bytes: 0 } };
  let token: string | undefined;
  do {
    const page = await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }));
    for (const o of page.Contents ?? []) {
      const area = o.Key?.startsWith(`${ARTWORK_PREFIX}/`) ? bucket.artwork : bucket.media;
      area.objects++;
      area.bytes += o.Size ?? 0;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return { table, bucket };
};

// ---- The run ------------------------------------------------------------------------------

interface Measured {
  films: number;
  filmBody: { bytes: number; kind: string };
  scenarios: Scenario[];
  initMs: Record<string, { runs: number[]; median: number }>;
  sizes: Sizes;
  memoryMb: Record<string, number>;
}

const measure = async (root: string, stops: (() => Promise<unknown>)[]): Promise<Measured> => {
  const movies = generateMovies(FILMS);
  const film = filmBody(tempDir('film'));
  say(`${FILMS} films, each file ${film.body.length} bytes (${film.kind})`);

  const fake = new FakeTmdb({ keys: [KEY], latencyMs: TMDB_LATENCY_MS, rateLimit: TMDB_CAP });
  movies.forEach((m, i) =>
    fake.addMovie({ id: 700_001 + i, title: m.title, releaseDate: `${m.year}-06-15`, overview: `About ${m.title}.`, genres: ['Drama'] }),
  );
  const tmdb = await fake.start();
  stops.push(() => tmdb.close());
  const ssmFake = new FakeSsm();
  if (KEY_FROM === 'ssm') ssmFake.putSecureString(KEY_PARAMETER, KEY);
  const ssm = await ssmFake.start();
  stops.push(() => ssm.close());

  const s3 = await startS3([BUCKET]);
  stops.push(() => s3.close());
  const t0 = performance.now();
  await pool(movies, 16, (m) => s3.put(BUCKET, filmKey(m), film.body));
  say(`${FILMS} objects put under s3://${BUCKET}/${PREFIX} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  say(
    process.env.BENCH_CLOUD_PACKAGE
      ? `using the package in ${process.env.BENCH_CLOUD_PACKAGE}`
      : 'building the package (npm run package) and starting an instance',
  );
  const [packageDir, instance] = await Promise.all([
    process.env.BENCH_CLOUD_PACKAGE ? Promise.resolve(process.env.BENCH_CLOUD_PACKAGE) : packaged(),
    startInstance({
      env: {
        MEDIA_STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        MEDIA_BUCKET: BUCKET,
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      },
    }),
  ]);
  stops.push(() => instance.stop());
  const state = instance.state();

  const tally = new Tally();
  const proxies: MeteredProxy[] = [
    await meterDynamo(state.dynamodbEndpoint, tally),
    await meterS3(s3.endpoint, tally),
    await meterWebSocket(state.offlineWebsocket.replace('ws', 'http'), tally),
    await meterAwsJson('ssm', ssm.url, tally),
  ];
  stops.push(() => Promise.all(proxies.map((p) => p.close())));
  const [dynamoProxy, s3Proxy, wsProxy, ssmProxy] = proxies as [MeteredProxy, MeteredProxy, MeteredProxy, MeteredProxy];

  const cloud: Cloud = await startCloud({
    packageDir,
    root: tempDir('cloud'),
    resources: { MediaTable: TABLE, MediaBucket: BUCKET, WebsocketsApi: 'offline' },
    endpoints: {
      DYNAMODB_ENDPOINT: dynamoProxy.url,
      S3_ENDPOINT: s3Proxy.url,
      WS_MANAGEMENT_ENDPOINT: wsProxy.url,
      TMDB_API_BASE_URL: tmdb.apiBaseUrl,
      TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl,
      SSM_ENDPOINT: ssmProxy.url,
    },
    credentials: S3RVER_CREDENTIALS,
  });
  const parameter = cloud.functions.find((f) => f.environment.TMDB_API_KEY_PARAMETER)?.environment.TMDB_API_KEY_PARAMETER;
  if (parameter !== KEY_PARAMETER) throw new Error(`the template names the key parameter ${parameter}, the bench puts ${KEY_PARAMETER}`);
  stops.push(() => cloud.stop());
  // Each function's SDK names it in its user agent, so the proxies can tell the callers apart.
  // (Read when an environment starts; nothing has started yet.)
  for (const fn of cloud.functions) fn.environment.AWS_SDK_UA_APP_ID = short(fn.name);
  const memoryMb = Object.fromEntries(cloud.functions.map((f) => [short(f.name), f.memoryMb]));

  // One browser tab on the WebSocket API (offline's, standing in for API Gateway's).
  const tab = await WsClient.open(`${instance.url.replace('http', 'ws')}/ws`);
  stops.push(() => tab.close());

  const api = async (method: string, path: string, expect: number, body?: unknown) => {
    tally.add('api.requests');
    const res = await call(method, path, { base: cloud.url, ...(body === undefined ? {} : jsonBody(body)) });
    if (res.status !== expect) throw new Error(`${method} ${path} -> ${res.status} (expected ${expect}): ${res.text.slice(0, 1000)}`);
    return res.json.data;
  };

  const window = async (id: string, label: string, work: (notes: string[]) => Promise<Scenario['job'] | void>): Promise<Scenario> => {
    say(`${id}: ${label}`);
    // What came before has finished, and its last log lines are through.
    await cloud.idle();
    await sleep(SETTLE_MS);
    const at = performance.now();
    const logsFrom = cloud.logs.length;
    const envs = new Set(cloud.tmpDirs());
    const counts0 = tally.snapshot();
    const tmdbFrom = fake.stats.log.length;
    const limited0 = fake.stats.rateLimited;
    const notes: string[] = [];
    const job = await work(notes);
    await cloud.idle();
    await sleep(SETTLE_MS);
    const started = cloud
      .tmpDirs()
      .filter((d) => !envs.has(d))
      .map((d) => basename(d).replace(/-[0-9a-f]{8}$/, ''));
    const scenario: Scenario = {
      id,
      label,
      wallMs: performance.now() - at,
      counts: since(counts0, tally.snapshot()),
      lambda: lambdaUse(cloud.logs.slice(logsFrom), started, short),
      tmdb: tmdbUse(fake.stats.log.slice(tmdbFrom), fake.stats.rateLimited - limited0),
      ...(job ? { job } : {}),
      notes,
    };
    const errors = Object.entries(slice(scenario.counts)).filter(
      ([k]) => k.startsWith('ddb.errors.') || k.startsWith('ssm.status.') || k.startsWith('s3.status.'),
    );
    if (errors.length) notes.push(`errors: ${errors.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const t = totalUse(scenario.lambda);
    say(
      `${id}: ${(scenario.wallMs / 1000).toFixed(1)} s, ${t.invocations} invocations, ${t.billedMs} billed ms, ${sumOf(slice(scenario.counts), 'ddb.calls.')} DynamoDB calls, ${sumOf(slice(scenario.counts), 's3.calls.') / 2} S3 requests, ${scenario.counts['ws.posts'] ?? 0} WebSocket posts`,
    );
    return scenario;
  };

  const jobView = (job: any): Scenario['job'] => ({ jobId: job.jobId, status: job.status, trigger: job.trigger, counts: job.counts });

  /** POST /scan/path, then the job every POLL_MS until it is finished. */
  const scan = async (notes: string[]) => {
    const queued = await api('POST', '/api/v1/scan/path', 202, { path: `s3://${BUCKET}/${PREFIX}`, mediaType: 'movie' });
    const t0 = performance.now();
    for (;;) {
      await sleep(POLL_MS);
      const job = await api('GET', `/api/v1/scan/jobs/${queued.jobId}`, 200);
      if (FINISHED.has(job.status)) {
        if (job.status !== 'completed') throw new Error(`scan ${job.status}: ${JSON.stringify(job)}`);
        if (job.warnings?.length) notes.push(`warnings: ${JSON.stringify(job.warnings)}`);
        return jobView(job);
      }
      if (performance.now() - t0 > SCAN_TIMEOUT_MS)
        throw new Error(`scan not finished after ${SCAN_TIMEOUT_MS / 60_000} min: ${JSON.stringify(job)}`);
      say(`  ${job.status} ${job.phase ?? ''} ${Math.round(job.progress ?? 0)}% ${JSON.stringify(job.counts)}`);
    }
  };

  const upkeep = async () => {
    const out = await cloud.invoke(full('libraryUpkeep'), scheduledEvent());
    if (out.failed) throw new Error(`libraryUpkeep failed: ${JSON.stringify(out.payload)}`);
    return out.payload as { started: { jobId: string; trigger: string }[]; busy: string[] };
  };

  const scenarios: Scenario[] = [];
  scenarios.push(
    KEY_FROM === 'ssm'
      ? await window('setup', `the TMDB key in SSM (${KEY_PARAMETER}), seen through GET /api/v1/settings`, async (notes) => {
          const settings = await api('GET', '/api/v1/settings', 200);
          if (!settings.metadata?.tmdbApiKeySet) notes.push(`WRONG: the settings see no key: ${JSON.stringify(settings.metadata)}`);
        })
      : await window('setup', 'PATCH /api/v1/settings with the TMDB key (once per deploy)', async () => {
          await api('PATCH', '/api/v1/settings', 200, { metadata: { tmdbApiKey: KEY } });
        }),
  );
  scenarios.push(
    await window('A', `first scan of ${FILMS} files (POST /api/v1/scan/path, the job polled every ${POLL_MS / 1000} s)`, async (notes) => {
      const job = await scan(notes);
      const c = job!.counts;
      if (c.added !== FILMS) notes.push(`WRONG: added ${c.added} films of ${FILMS}`);
      if (c.artwork !== 2 * FILMS)
        notes.push(`artwork stored for ${c.artwork} pictures (a poster and a backdrop each would be ${2 * FILMS})`);
      return job;
    }),
  );
  scenarios.push(
    await window('B', `rescan of the ${FILMS} unchanged files, the same way`, async (notes) => {
      const job = await scan(notes);
      const c = job!.counts;
      if (c.added || c.removed || c.updated)
        notes.push(`WRONG: an unchanged rescan added ${c.added}, updated ${c.updated}, removed ${c.removed}`);
      return job;
    }),
  );
  scenarios.push(
    await window('C', 'libraryUpkeep as the rate(15 minutes) EventBridge rule invokes it, nothing due', async (notes) => {
      const result = await upkeep();
      if (result.started.length) notes.push(`WRONG: the upkeep started ${result.started.length} scans with nothing due`);
    }),
  );

  // Make the schedule due (counted apart), as it is every scanIntervalHours.
  const libraries = (await api('GET', '/api/v1/library', 200)) as { id: string; path: string; scanIntervalHours: number }[];
  const library = libraries.find((l) => l.path === `s3://${BUCKET}/${PREFIX}`);
  if (!library) throw new Error(`no library at s3://${BUCKET}/${PREFIX}: ${JSON.stringify(libraries)}`);
  if (library.scanIntervalHours !== DEFAULT_INTERVAL_HOURS) say(`NOTE: the library's scanIntervalHours is ${library.scanIntervalHours}`);
  await api('PATCH', `/api/v1/library/${library.id}`, 200, { scanIntervalHours: DUE_INTERVAL_HOURS });
  let dueJobId = '';
  scenarios.push(
    await window(
      'D',
      `libraryUpkeep when the schedule is due (every ${DEFAULT_INTERVAL_HOURS} h by default): the rescan it starts`,
      async (notes) => {
        const result = await upkeep();
        if (result.started.length !== 1) notes.push(`WRONG: the upkeep started ${result.started.length} scans (1 due)`);
        dueJobId = result.started[0]?.jobId ?? '';
      },
    ),
  );
  const d = scenarios.at(-1)!;
  if (dueJobId) {
    const job = await api('GET', `/api/v1/scan/jobs/${dueJobId}`, 200);
    d.job = jobView(job);
    if (job.status !== 'completed') d.notes.push(`WRONG: the scheduled scan ended ${job.status}`);
  }
  await api('PATCH', `/api/v1/library/${library.id}`, 200, { scanIntervalHours: DEFAULT_INTERVAL_HOURS });
  await cloud.idle();

  // A cold start (a new environment: the runtime up and the handler's module loaded), alone.
  const initMs: Measured['initMs'] = {};
  for (const fn of INIT_FUNCTIONS) {
    const runs: number[] = [];
    for (let i = 0; i < INIT_RUNS; i++) {
      const t = performance.now();
      await cloud.coldStart(full(fn));
      runs.push(Math.round(performance.now() - t));
    }
    initMs[fn] = { runs, median: median(runs) };
  }
  say(
    `cold starts (median of ${INIT_RUNS}): ${Object.entries(initMs)
      .map(([fn, r]) => `${fn} ${r.median} ms`)
      .join(', ')}`,
  );

  const sizes = await measureSizes(state.dynamodbEndpoint, s3);
  return { films: FILMS, filmBody: { bytes: film.body.length, kind: film.kind }, scenarios, initMs, sizes, memoryMb };
};

// ---- The report ---------------------------------------------------------------------------

const fmt = (n: number, digits = 0) =>
  Number.isInteger(n) && digits === 0
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** GB-s: each function's billed milliseconds at its memory size. */
const gbSeconds = (use: Record<string, LambdaUse>, memoryMb: Record<string, number>) =>
  Object.entries(use).reduce((n, [fn, u]) => n + (u.billedMs / 1000) * ((memoryMb[fn] ?? 512) / 1024), 0);

const summaryRows = (m: Measured): [string, (s: Scenario) => string][] => {
  const t = (s: Scenario) => slice(s.counts);
  const units = (s: Scenario, unit: string) => {
    const c = t(s);
    const parts = Object.keys(c)
      .filter((k) => k.startsWith(`ddb.${unit}.`))
      .sort();
    return parts.length ? parts.map((k) => `${k.slice(unit.length + 5)} ${fmt(c[k]!, 1)}`).join(' / ') : '0';
  };
  return [
    ['wall time, s', (s) => fmt(s.wallMs / 1000, 1)],
    ['Lambda invocations', (s) => fmt(totalUse(s.lambda).invocations)],
    ['Lambda billed ms (each rounded up to 1 ms)', (s) => fmt(totalUse(s.lambda).billedMs)],
    ['Lambda GB-s (512 MB)', (s) => fmt(gbSeconds(s.lambda, m.memoryMb), 2)],
    [
      'cold starts (new environments)',
      (s) =>
        Object.entries(s.lambda)
          .filter(([, u]) => u.coldStarts)
          .map(([fn, u]) => `${fn} ${u.coldStarts}`)
          .join(', ') || '0',
    ],
    ['DynamoDB calls', (s) => fmt(sumOf(t(s), 'ddb.calls.'))],
    [
      '  by operation',
      (s) =>
        Object.entries(t(s))
          .filter(([k]) => k.startsWith('ddb.calls.'))
          .map(([k, v]) => `${k.slice(10)} ${fmt(v)}`)
          .join(', '),
    ],
    ['DynamoDB write request units (table / indexes)', (s) => units(s, 'wru')],
    ['DynamoDB read request units (table / indexes)', (s) => units(s, 'rru')],
    ['DynamoDB request bytes', (s) => fmt(sumOf(t(s), 'ddb.requestBytes.'))],
    [
      'S3 requests',
      (s) =>
        Object.entries(t(s))
          .filter(([k]) => k.startsWith('s3.calls.') && k.includes('@'))
          .map(([k, v]) => `${k.slice(9)} ${fmt(v)}`)
          .join(', ') || '0',
    ],
    ['S3 bytes out / in', (s) => `${fmt(sumOf(t(s), 's3.bytesOut.'))} / ${fmt(sumOf(t(s), 's3.bytesIn.'))}`],
    [
      'WebSocket posts (32 KB units, bytes)',
      (s) => `${fmt(t(s)['ws.posts'] ?? 0)} (${fmt(t(s)['ws.messageUnits'] ?? 0)}, ${fmt(t(s)['ws.bytes'] ?? 0)})`,
    ],
    [
      'TMDB API requests (search / details / other), images, 429s',
      (s) => `${s.tmdb.apiRequests} (${s.tmdb.search} / ${s.tmdb.details} / ${s.tmdb.otherApi}), ${s.tmdb.images}, ${s.tmdb.rateLimited}`,
    ],
    [
      'log events, bytes (function + platform)',
      (s) => {
        const u = totalUse(s.lambda);
        return `${fmt(u.logEvents)} + ${fmt(u.platformEvents)}, ${fmt(u.logBytes)} + ${fmt(u.platformBytes)}`;
      },
    ],
  ];
};

const scenarioTable = (m: Measured) => {
  const rows = summaryRows(m);
  const head = `| | ${m.scenarios.map((s) => s.id).join(' | ')} |`;
  return [
    head,
    `|---|${m.scenarios.map(() => '---').join('|')}|`,
    ...rows.map(([label, cell]) => `| ${label} | ${m.scenarios.map((s) => cell(s) || '-').join(' | ')} |`),
  ].join('\n');
};

const sizesText = (z: Sizes) =>
  [
    `table: ${fmt(z.table.items)} items, ${fmt(z.table.itemBytes)} bytes of items, ${fmt(z.table.billedBytes)} billed with 100 B each (of which ${fmt(z.table.expiringItems)} items, ${fmt(z.table.expiringBilledBytes)} B, expire by ttl); DynamoDB Local says ${z.table.localTableSizeBytes ?? '?'} B`,
    `  by kind: ${Object.entries(z.table.byKind)
      .map(([k, v]) => `${k} ${v.items} (${fmt(v.bytes)} B)`)
      .join(', ')}`,
    `  indexes: ${Object.entries(z.table.indexes)
      .map(([k, v]) => `${k} ${v.items} items, ${fmt(v.billedBytes)} B billed`)
      .join('; ')}`,
    `bucket: media ${z.bucket.media.objects} objects, ${fmt(z.bucket.media.bytes)} B; artwork cache ${z.bucket.artwork.objects} objects, ${fmt(z.bucket.artwork.bytes)} B`,
  ].join('\n');

export const runCloud = async () => {
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-cloud-'));
  // The functions run as an unprivileged user when the bench runs as root: they must get through.
  chmodSync(root, 0o755);
  const previousTmp = process.env.MLS_TEST_TMP;
  process.env.MLS_TEST_TMP = root;
  const stops: (() => Promise<unknown>)[] = [];
  // The emulator's request handlers reject when a function cannot start; that would end the
  // process before the instance and the servers above are stopped. Said here, the request that
  // hit it then times out and the run ends through the finally below.
  const unhandled = (err: unknown) => say(`unhandled: ${err instanceof Error ? err.stack : String(err)}`);
  process.on('unhandledRejection', unhandled);
  let m: Measured;
  try {
    m = await measure(root, stops);
  } finally {
    process.off('unhandledRejection', unhandled);
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => say(`stopping: ${String(err)}`));
    if (previousTmp === undefined) delete process.env.MLS_TEST_TMP;
    else process.env.MLS_TEST_TMP = previousTmp;
    if (!process.env.BENCH_CLOUD_KEEP) rmSync(root, { recursive: true, force: true });
  }
  writeDoc(
    'cloud',
    [
      `${machineLine()}. ${m.films} files of ${fmt(m.filmBody.bytes)} bytes each (${m.filmBody.kind}); the TMDB key from ${KEY_FROM === 'ssm' ? `the SSM parameter ${KEY_PARAMETER}` : 'the settings'}; the fake TMDB answers after ${TMDB_LATENCY_MS} ms and allows ${TMDB_CAP} requests/s; one WebSocket client connected. Durations are this machine's (2 cores shared by every process), not a 512 MB Lambda's.`,
      '',
      m.scenarios.map((s) => `${s.id}: ${s.label}`).join('; ') + '.',
      '',
      scenarioTable(m),
      '',
      `Cold start alone, median of ${INIT_RUNS} (ms): ${Object.entries(m.initMs)
        .map(([fn, r]) => `${fn} ${r.median}`)
        .join(', ')}.`,
      '',
      '```',
      sizesText(m.sizes),
      '```',
      ...m.scenarios.filter((s) => s.notes.length).map((s) => `- ${s.id}: ${s.notes.join('; ')}`),
    ].join('\n'),
  );
  if (m.scenarios.some((s) => s.notes.some((n) => n.startsWith('WRONG')))) process.exitCode = 1;
};
