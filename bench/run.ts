// `npm run bench`: request throughput and latency of health and settings through the whole
// stack (front door -> serverless-offline -> Middy -> DynamoDB Local) against a bare
// node:http server answering the same JSON in the same run, plus the RSS of every process
// under that load, for both ways offline can run handlers; then the catalogue part
// (bench/catalog.ts), the search part (bench/search.ts), the streaming part (bench/stream.ts), the subtitle
// part (bench/subtitles.ts), the metadata part (bench/metadata.ts), fixing wrong matches against
// the fake TMDB, counted at the provider (bench/matching.ts), the folder monitor's cost
// (bench/monitor.ts) and a poster wall's artwork from a bucket, answered or redirected
// (bench/artwork-delivery.ts) and what a cloud deploy does per 1,000 scanned files, counted at
// DynamoDB, S3, the WebSocket API and Lambda (bench/cloud.ts), and the web client's home screen
// on a 10,000-film library (bench/web.ts), and playback: films remuxed and transcoded while they
// are watched, over HTTP and in Chromium (bench/playback.ts), and watch state: progress reports,
// Continue watching, Next up and home's four requests with 1,000 films in progress and 200 shows
// being watched (bench/watching.ts), and browsing the whole library: a sorted and filtered page
// and the facets at 10,000 and 100,000 films (bench/browse.ts), and a household's load during a
// first scan (bench/household.ts), and a first scan of 10,000 films with a provider: when they are
// listed, have posters and are fully described, and the provider requests per film (bench/described.ts).
// Writes docs/benchmarks.md.
// `tsx bench/run.ts runtime|footprint|catalog|search|stream|subtitles|metadata|matching|monitor|artwork-delivery|cloud|web|playback|watching|browse|household|described` runs one part only.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { createServer } from 'node:http';
import { freePort } from '../infra/runner/ports';
import { startInstance, type Instance } from '../test/support/instance';
import { runArtworkDelivery } from './artwork-delivery';
import { runBrowse } from './browse';
import { runCatalog } from './catalog';
import { runCloud } from './cloud';
import { runDescribed } from './described';
import { runWeb } from './web';
import { runFootprint } from './footprint';
import { runHousehold } from './household';
import { runMatching } from './matching';
import { runMetadata } from './metadata';
import { runMonitor } from './monitor';
import { runPlayback } from './playback';
import { runSearch } from './search';
import { runStream } from './stream';
import { runSubtitles } from './subtitles';
import { runWatching } from './watching';
import { CONNECTIONS, DURATION_S, load, machineLine, RUNS, sampleRss, writeDoc } from './support';

interface Row {
  target: string;
  mode: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  rss: Record<string, number>;
}


const measure = async (target: string, mode: string, url: string, pids: Record<string, number>): Promise<Row> => {
  const { result, peak } = await sampleRss({ bench: process.pid, ...pids }, () => load(url));
  const row = { target, mode, ...result, reqPerSec: Math.round(result.reqPerSec), rss: peak };
  process.stdout.write(`${target} (${mode}): ${row.reqPerSec} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms\n`);
  return row;
};

const bareServer = async () => {
  // The same JSON health answers, with the headers it sends, so only the stack differs.
  const body = JSON.stringify({ data: { status: 'ok', database: 'ok', version: '0.1.0', uptimeSeconds: 1 } });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Request-Id': 'x' });
    res.end(body);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${port}/api/v1/health` };
};

const stackPids = (i: Instance) => {
  const { pid, processes } = i.state();
  return { runner: pid, offline: processes.offline!, dynamodb: processes.dynamodb! };
};

const runMode = async (mode: 'shared-process'): Promise<Row[]> => {
  const instance = await startInstance({ env: { RATE_LIMIT_MAX: '1000000000' } });
  try {
    const pids = stackPids(instance);
    return [
      await measure('GET /api/v1/health', mode, `${instance.url}/api/v1/health`, pids),
      await measure('GET /api/v1/settings', mode, `${instance.url}/api/v1/settings`, pids),
    ];
  } finally {
    await instance.stop();
  }
};

const table = (rows: Row[]) => {
  const lines = [
    '| target | handlers | req/s | p50 ms | p99 ms | errors | peak RSS MiB (runner / offline / DynamoDB Local / load generator) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const rss = r.target.startsWith('bare') ? `- / - / - / ${r.rss.bench}` : `${r.rss.runner} / ${r.rss.offline} / ${r.rss.dynamodb} / ${r.rss.bench}`;
    lines.push(`| ${r.target} | ${r.mode} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | ${rss} |`);
  }
  return lines.join('\n');
};

const runRuntime = async () => {
  const bare = await bareServer();
  const rows: Row[] = [];
  rows.push(await measure('bare node:http, same JSON', '-', bare.url, {}));
  bare.server.close();
  rows.push(...(await runMode('shared-process')));

  const section = [
    `${machineLine()}; autocannon, ${CONNECTIONS} connections, median of ${RUNS} runs of ${DURATION_S} s after a 2 s warm-up, in the same process as the bench (it shares the cores).`,
    '',
    table(rows),
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  writeDoc('runtime', section);
};

const PARTS = ['runtime', 'footprint', 'catalog', 'search', 'stream', 'subtitles', 'metadata', 'matching', 'monitor', 'artwork-delivery', 'cloud', 'web', 'playback', 'watching', 'browse', 'household', 'described'] as const;

const main = async () => {
  const only = process.argv[2];
  if (only !== undefined && !(PARTS as readonly string[]).includes(only)) throw new Error(`unknown part "${only}": one of ${PARTS.join(', ')}, or none for all`);
  if (only === undefined || only === 'runtime') await runRuntime();
  if (only === undefined || only === 'footprint') await runFootprint();
  if (only === undefined || only === 'catalog') await runCatalog();
  if (only === undefined || only === 'search') await runSearch();
  if (only === undefined || only === 'stream') await runStream();
  if (only === undefined || only === 'subtitles') await runSubtitles();
  if (only === undefined || only === 'metadata') await runMetadata();
  if (only === undefined || only === 'matching') await runMatching();
  if (only === undefined || only === 'monitor') await runMonitor();
  if (only === undefined || only === 'artwork-delivery') await runArtworkDelivery();
  if (only === undefined || only === 'cloud') await runCloud();
  if (only === undefined || only === 'web') await runWeb();
  if (only === undefined || only === 'playback') await runPlayback();
  if (only === undefined || only === 'watching') await runWatching();
  if (only === undefined || only === 'browse') await runBrowse();
  if (only === undefined || only === 'household') await runHousehold();
  if (only === undefined || only === 'described') await runDescribed();
};

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
