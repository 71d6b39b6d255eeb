// The folder monitor's cost on a small box: an instance as `npm start` runs it (monitor on, its
// default quiet period and tick), a movie library of 10,000 folders watched. It measures the
// runner's RSS before the library exists and once its folders are watched, the CPU each process
// spends in 60 s of idle watching (the tick reads the libraries and looks at the root), and the
// time from a new film's last write to its library:updated event on /ws.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startInstance, tempDir, waitFor, type Instance } from '../test/support/instance';
import { WsClient } from '../test/support/ws';
import { cpuSeconds, machineLine, median, rssMiB, writeDoc } from './support';
import { pool } from './tree';

const GROUPS = 100;
const PER_GROUP = 100;
const IDLE_S = 60;
const TRIALS = 5;

const post = async (instance: Instance, path: string, body: unknown) => {
  const res = await fetch(`${instance.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as any;
};

export const runMonitor = async () => {
  const root = tempDir('bench-monitor');
  const library = join(root, 'films');
  const folders = Array.from({ length: GROUPS * PER_GROUP }, (_, i) => join(library, `Group ${Math.floor(i / PER_GROUP)}`, `Film ${i} (2000)`));
  await pool(folders, 64, async (f) => {
    mkdirSync(f, { recursive: true });
    writeFileSync(join(f, `${f.slice(f.lastIndexOf('/') + 1)}.mkv`), '');
  });
  const instance = await startInstance({ env: { LIBRARY_MONITOR: 'on', RATE_LIMIT_MAX: '1000000000' } });
  const ws = await WsClient.open(instance.url.replace('http', 'ws') + '/ws');
  try {
    const { pid: runner, processes } = instance.state();
    const pids = { runner, offline: processes.offline!, dynamodb: processes.dynamodb! };
    await new Promise((r) => setTimeout(r, 12_000));
    const before = rssMiB(runner);
    const job = await post(instance, '/api/v1/scan/path', { path: library, mediaType: 'movie' });
    await waitFor('the scan', async () => ((await (await fetch(`${instance.url}/api/v1/scan/jobs/${job.data.jobId}`)).json()) as any).data.status === 'completed' || undefined, 300_000, 500);
    // Two ticks: the library is listed and its folders watched.
    await new Promise((r) => setTimeout(r, 25_000));
    const watching = rssMiB(runner);
    const cpu0 = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, cpuSeconds(p)]));
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const cpu = Object.fromEntries(Object.entries(pids).map(([k, p]) => [k, ((cpuSeconds(p) - cpu0[k]!) / IDLE_S) * 100]));
    const latencies: number[] = [];
    for (let i = 0; i < TRIALS; i++) {
      const dir = join(library, `Group ${i}`, `New Film ${i} (2020)`);
      mkdirSync(dir);
      const from = ws.messages.length;
      writeFileSync(join(dir, `New Film ${i} (2020).mkv`), Buffer.alloc(1024 * 1024, 1));
      const written = Date.now();
      await waitFor('library:updated', async () => ws.messages.slice(from).find((m) => m.type === 'library:updated' && m.changes.added === 1), 60_000, 20);
      latencies.push(Date.now() - written);
      await new Promise((r) => setTimeout(r, 2_000));
    }
    const rows = [
      `| runner RSS (under tsx): before any library is watched / with 10,100 folders watched | ${before} MiB / ${watching} MiB |`,
      `| CPU while idle and watching (runner / offline / DynamoDB Local) | ${cpu.runner!.toFixed(2)}% / ${cpu.offline!.toFixed(2)}% / ${cpu.dynamodb!.toFixed(2)}% of one core |`,
      `| last write to \`library:updated\`, p50 (max) of ${TRIALS} | ${(median(latencies) / 1000).toFixed(1)} s (${(Math.max(...latencies) / 1000).toFixed(1)} s) |`,
    ];
    const section = [
      `${machineLine()}; \`npm start\`'s defaults (MONITOR_QUIET_MS 3000, MONITOR_TICK_MS 10000), a library of ${GROUPS * PER_GROUP} film folders in ${GROUPS} groups, CPU over ${IDLE_S} s idle.`,
      '',
      '| measure | value |',
      '|---|---|',
      ...rows,
    ].join('\n');
    process.stdout.write(`\n${section}\n`);
    writeDoc('monitor', section);
  } finally {
    await ws.close();
    await instance.stop();
    rmSync(root, { recursive: true, force: true });
  }
};
