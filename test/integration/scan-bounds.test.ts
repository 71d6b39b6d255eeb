// Folders no scan may touch, and trees that must not take the service down: the root of the
// filesystem, system filesystems and the service's own data folder are refused with the
// reason; links into them, above the library or round in loops are not followed; a tree
// deeper than SCAN_MAX_DEPTH ends the job failed. Health keeps answering during the scans.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/instance';
import { makeTree, waitForJob } from '../support/media';
import { call, jsonBody, stack, type Reply } from '../support/stack';

const problem = (res: Reply, status: number, type: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.equal(res.json.type, `/problems/${type}`);
};
const post = (path: string, body: unknown) => call('POST', path, jsonBody(body));

/** Health's slowest answer while `work` runs (asked every 100 ms, one at a time). */
const healthDuring = async <T>(work: Promise<T>): Promise<{ result: T; slowestMs: number; asked: number }> => {
  let done = false;
  let slowestMs = 0;
  let asked = 0;
  const poll = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await call('GET', '/api/v1/health');
      slowestMs = Math.max(slowestMs, performance.now() - t0);
      asked++;
      assert.equal(res.status, 200, res.text);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { result: await work, slowestMs, asked };
  } finally {
    done = true;
    await poll;
  }
};

describe('folders a scan may not touch, and trees that must not take the service down', () => {
  it('the filesystem root, system filesystems and the data folder are refused with the reason', async () => {
    const refused: [string, RegExp][] = [
      ['/', /root of the filesystem/],
      ['/proc', /inside \/proc, a system filesystem \(proc\)/],
      ['/proc/self', /inside \/proc/],
      ['/sys', /inside \/sys/],
      ['/dev', /inside \/dev/],
      ['/run', /inside \/run/],
      [stack.dataDir, /service's data folder \(DATA_DIR\)/],
      [join(stack.dataDir, 'db'), /inside the service's data folder/],
      [dirname(stack.dataDir), /holds the service's data folder/],
    ];
    for (const [path, reason] of refused.filter(([p]) => existsSync(p))) {
      for (const endpoint of ['/api/v1/scan/path', '/api/v1/library']) {
        const res = await post(endpoint, { ...(endpoint.endsWith('library') ? { name: 'x' } : {}), path, mediaType: 'movie' });
        problem(res, 422, 'path-not-usable');
        assert.match(res.json.detail, reason, `${endpoint} ${path}`);
      }
    }
  });

  it('links to /proc, to the filesystem root, above the library and round in loops are not followed; health answers throughout', async () => {
    const files = Array.from({ length: 2_000 }, (_, i) => `Loop Film ${i} (${1950 + (i % 70)})/Loop Film ${i} (${1950 + (i % 70)}).mkv`);
    const dir = makeTree(tempDir('links'), files, 1);
    const outside = makeTree(tempDir('outside'), ['Outside Film (1999).mkv'], 1);
    symlinkSync('/proc', join(dir, 'proc'));
    symlinkSync('/proc/self/root', join(dir, 'whole-disk-through-proc'));
    symlinkSync('/', join(dir, 'root'));
    symlinkSync('.', join(dir, 'loop'));
    symlinkSync('..', join(dir, 'Loop Film 0 (1950)', 'up'));
    symlinkSync(stack.dataDir, join(dir, 'data'));
    symlinkSync(outside, join(dir, 'elsewhere'));
    symlinkSync(outside, join(dir, 'elsewhere again'));

    const started = await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' });
    assert.equal(started.status, 202, started.text);
    const { result: job, slowestMs, asked } = await healthDuring(waitForJob(started.json.data.jobId));
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    // Every film once, the one behind the two links to the same folder too; nothing from elsewhere on the disk.
    assert.equal(job.counts.discovered, files.length + 1);
    assert.equal(job.counts.added, files.length + 1);
    assert.equal(job.counts.failed, 0);
    assert.ok(asked >= 2, `health asked ${asked} times`);
    // A liveness bound, not a speed one (the bench measures speed): a walk that held the event loop
    // would hold health for the whole scan; two test files and the stack share two cores here.
    assert.ok(slowestMs < 5_000, `health took ${Math.round(slowestMs)} ms during the scan`);
    // 2,001 films: removed in the background.
    assert.equal((await call('DELETE', `/api/v1/library/${job.libraryId}`)).status, 202);
  });

  it('a tree deeper than the depth limit ends the job failed with the reason, and the service goes on', async () => {
    const dir = tempDir('deep');
    let at = dir;
    for (let i = 0; i < 70; i++) at = join(at, `d${i}`);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'Deep Film (2001).mkv'), 'x');
    writeFileSync(join(dir, 'Shallow Film (2002).mkv'), 'x');
    const started = await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' });
    assert.equal(started.status, 202, started.text);
    const job = await waitForJob(started.json.data.jobId);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'scan-too-deep');
    assert.match(job.error.message, /deeper than 64 folders .*SCAN_MAX_DEPTH/);
    assert.equal((await call('GET', '/api/v1/health')).status, 200);
    assert.equal((await call('DELETE', `/api/v1/library/${job.libraryId}`)).status, 204);
  });
});
