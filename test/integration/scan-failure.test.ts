// A job that cannot go on ends failed with scan:error, keeps its work, and can be resumed.
import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { db } from '../../lib/db/client';
import { interrupt, newJob, start } from '../../lib/scan/transitions';
import { DynamoScanJobStore } from '../../lib/scan/job-store';
import { tempDir } from '../support/instance';
import { makeTree, scan, waitForJob } from '../support/media';
import { call, stack } from '../support/stack';
import { WsClient } from '../support/ws';

describe('a scan that fails', () => {
  it('ends failed with scan:error when its folder has gone, and completes when resumed after it is back', async () => {
    const root = tempDir('failure');
    const dir = makeTree(join(root, 'films'), ['Gamma (1990).mkv', 'Delta (1991).mkv']);
    const first = await scan({ path: dir, mediaType: 'movie' });
    assert.equal(first.status, 'completed');

    // A job interrupted part-way (as after a power cut), whose folder then goes away.
    const store = new DynamoScanJobStore(db);
    const now = Date.now();
    let job = await store.create(newJob({ jobId: `failing${now}`, libraryId: first.libraryId, path: dir, mediaType: 'movie' }, now));
    job = await store.save(job, start(job.value, now));
    job = await store.save(job, interrupt(job.value, now + 1));
    renameSync(dir, `${dir}-away`);

    const ws = await WsClient.open(stack.ws);
    try {
      assert.equal((await call('POST', `/api/v1/scan/jobs/${job.value.jobId}/resume`)).status, 202);
      const failed = await waitForJob(job.value.jobId);
      assert.equal(failed.status, 'failed');
      // The library's own folder is gone: offline, not emptied.
      assert.equal(failed.error.code, 'library-offline');
      const event = await ws.next((m) => m.type === 'scan:error' && m.jobId === job.value.jobId);
      assert.deepEqual(event.error, failed.error);
      // Nothing was removed because the folder was missing.
      assert.equal((await call('GET', `/api/v1/library/${first.libraryId}`)).json.data.stats.movies, 2);

      renameSync(`${dir}-away`, dir);
      assert.equal((await call('POST', `/api/v1/scan/jobs/${job.value.jobId}/resume`)).status, 202);
      const done = await waitForJob(job.value.jobId);
      assert.equal(done.status, 'completed');
      assert.equal(done.error, null);
      assert.deepEqual({ added: done.counts.added, removed: done.counts.removed }, { added: 0, removed: 0 });
    } finally {
      await ws.close();
    }
  });
});
