// The scan and stream functions' exported handlers, called as Lambda calls them, with their
// sample events from events/. They need the scan worker, which runs on the stack and reads the
// stack's table, so unlike handlers.test.ts this file uses that shared table too: other files
// scan meanwhile, and lists are asserted on this file's own entries (its library's jobs).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as scans from '../../functions/scan/api';
import * as catalog from '../../functions/catalog/api';
import * as stream from '../../functions/stream/get';
import { handler as scanWorker } from '../../functions/scan/worker';
import { makeTree, waitForJob } from '../support/media';
import { tempDir } from '../support/instance';
import { lambdaContext, sampleEvent } from '../support/lambda';

type Result = { statusCode: number; headers?: Record<string, string>; body?: string };
const run = async (fn: (e: any, c: any) => Promise<unknown>, name: string, patch?: (e: any) => void) =>
  (await fn(sampleEvent(name, patch), lambdaContext(name))) as Result;
const bodyOf = (res: Result) => JSON.parse(res.body!);

describe('scan and stream handlers with their sample events', () => {
  it('the scan functions queue a job that the worker completes, and list, read and clean up jobs', async () => {
    const dir = makeTree(tempDir('handler-scan'), ['Handler Movie (1999).mkv']);
    const started = await run(scans.start, 'startScan', (e) => (e.body = JSON.stringify({ path: dir, mediaType: 'movie' })));
    assert.equal(started.statusCode, 202, started.body);
    const queued = bodyOf(started).data;
    assert.equal(queued.status, 'queued');
    assert.equal(queued.path, dir);
    const { jobId, libraryId } = queued;
    const finished = await waitForJob(jobId);
    assert.equal(finished.status, 'completed', JSON.stringify(finished.error));
    assert.equal(finished.counts.added, 1);
    const withId = (e: any) => (e.pathParameters.jobId = jobId);
    // The handler reads the job as the stack's API answered it once finished, whole.
    assert.deepEqual(bodyOf(await run(scans.job, 'getJob', withId)).data, finished);
    // The sample lists completed jobs: of this library's, exactly this one.
    const completed = bodyOf(await run(scans.jobs, 'listJobs')).data;
    assert.ok(completed.every((j: any) => j.status === 'completed'));
    assert.deepEqual(
      completed.filter((j: any) => j.libraryId === libraryId),
      [finished],
    );
    assert.equal((await run(scans.resume, 'resumeJob', withId)).statusCode, 409);
    assert.equal((await run(scans.cleanup, 'cleanupJobs')).statusCode, 200);
    // The sample worker event names a job that does not exist: the worker does nothing, and
    // in particular creates no job.
    const sample = sampleEvent<{ jobId: string }>('scanWorker');
    await scanWorker(sample, lambdaContext('scanWorker'));
    assert.equal((await run(scans.job, 'getJob', (e) => (e.pathParameters.jobId = sample.jobId))).statusCode, 404);
  });

  it('the stream function alone answers its bytes in the response, at most 4 MiB each', async () => {
    const size = 5 * 1024 * 1024 + 7;
    const bytes = Buffer.alloc(size, 0);
    for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096) & 0xff;
    const dir = tempDir('handler-stream');
    writeFileSync(join(dir, 'Inline Stream (2001).mp4'), bytes);
    const job = await waitForJob(
      bodyOf(await run(scans.start, 'startScan', (e) => (e.body = JSON.stringify({ path: dir, mediaType: 'movie' })))).data.jobId,
    );
    const movie = bodyOf(await run(catalog.listMovies, 'listMovies', (e) => (e.queryStringParameters = { limit: '100' }))).data.find(
      (m: any) => m.media.title === 'Inline Stream',
    );
    assert.equal(job.counts.added, 1);
    const withId = (range?: string) => (e: any) => {
      e.pathParameters.mediaId = movie.id;
      if (range) e.headers.range = range;
      else delete e.headers.range;
    };
    const ranged = await run(stream.handler, 'stream', withId('bytes=100-199'));
    assert.equal(ranged.statusCode, 206);
    assert.ok(Buffer.from(ranged.body!, 'base64').equals(bytes.subarray(100, 200)));
    // No range on a file over 4 MiB: the first 4 MiB as a 206 the player continues from.
    const whole = await run(stream.handler, 'stream', withId());
    assert.equal(whole.statusCode, 206);
    assert.equal(whole.headers!['Content-Range'], `bytes 0-${4 * 1024 * 1024 - 1}/${size}`);
    assert.ok(Buffer.from(whole.body!, 'base64').equals(bytes.subarray(0, 4 * 1024 * 1024)));
    const head = await run(stream.head, 'streamHead', withId());
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers!['Content-Length'], String(size));
    assert.equal(head.body, '');
    assert.equal((await run(stream.handler, 'stream')).statusCode, 404);
  });
});
