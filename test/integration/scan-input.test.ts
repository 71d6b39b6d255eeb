// Bad input to the library and scan endpoints gets the contract's 4xx, never a 5xx, and odd
// trees (strange names, symlink loops) scan to completion.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { WRITE_CHUNK } from '../../lib/scan/phases/write';
import { tempDir, waitFor } from '../support/instance';
import { makeTree, scan, waitForJob } from '../support/media';
import { call, jsonBody, stack, type Reply } from '../support/stack';
import { WsClient } from '../support/ws';

const problem = (res: Reply, status: number, type: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.equal(res.json.type, `/problems/${type}`);
};
const post = (path: string, body: unknown) =>
  call('POST', path, typeof body === 'string' ? { headers: { 'content-type': 'application/json' }, body } : jsonBody(body));

describe('bad input to libraries and scans', () => {
  const root = tempDir('input');
  const aFile = join(root, 'a-file.mkv');
  writeFileSync(aFile, '');

  it('a path that is relative, missing, a file or a NUL trick is 422 with the reason', async () => {
    for (const [path, reason] of [
      ['movies', /not an absolute path/],
      ['../etc', /not an absolute path/],
      [join(root, 'nope'), /does not exist/],
      [join(aFile, 'below'), /does not exist/],
      [aFile, /not a directory/],
      [`${root}\u0000/x`, /NUL/],
    ] as const) {
      for (const endpoint of ['/api/v1/scan/path', '/api/v1/library']) {
        const res = await post(endpoint, { ...(endpoint.endsWith('library') ? { name: 'x' } : {}), path, mediaType: 'movie' });
        problem(res, 422, 'path-not-usable');
        assert.match(res.json.detail, reason, `${endpoint} ${path}`);
      }
    }
  });

  it('missing or wrong fields are 400 with the field named', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/v1/scan/path', { mediaType: 'movie' }, 'body.path'],
      ['/api/v1/scan/path', { path: root, mediaType: 'music' }, 'body.mediaType'],
      ['/api/v1/scan/path', { path: root, mediaType: 'movie', extra: 1 }, 'body.extra'],
      ['/api/v1/scan/path', { path: root, mediaType: 'movie', libraryId: 'no/slashes' }, 'body.libraryId'],
      ['/api/v1/scan/path', { path: '', mediaType: 'movie' }, 'body.path'],
      ['/api/v1/library', { name: '', path: root, mediaType: 'movie' }, 'body.name'],
      ['/api/v1/library', { name: 'x', path: root }, 'body.mediaType'],
      ['/api/v1/scan/cleanup', { staleAfterSeconds: -1 }, 'body.staleAfterSeconds'],
      ['/api/v1/scan/cleanup', { staleAfterSeconds: 1e308 }, 'body.staleAfterSeconds'],
    ];
    for (const [endpoint, body, field] of cases) {
      const res = await post(endpoint, body);
      problem(res, 400, 'invalid-request');
      assert.ok(
        res.json.errors.some((e: any) => e.field === field),
        `${endpoint} ${JSON.stringify(body)}: ${res.text}`,
      );
    }
    problem(await post('/api/v1/scan/path', '{"path":'), 400, 'malformed-json');
    // A body that is valid JSON but not an object names the body; it is never a 500 or "not valid JSON".
    for (const endpoint of ['/api/v1/scan/path', '/api/v1/library', '/api/v1/scan/cleanup']) {
      for (const body of ['false', '0', '"x"', 'null', 'true', '[]', '[{"path":"/"}]']) {
        const res = await post(endpoint, body);
        problem(res, 400, 'invalid-request');
        assert.deepEqual(
          res.json.errors.map((e: any) => e.field),
          ['body'],
          `${endpoint} ${body}: ${res.text}`,
        );
        assert.equal(res.json.status, 400);
        assert.equal(res.json.requestId, res.headers['x-request-id']);
      }
    }
    // What no text could carry, and nesting deeper than any body of the API, are refused before validation.
    problem(await post('/api/v1/library', '{"name":"\\ud800","path":"/x","mediaType":"movie"}'), 400, 'invalid-request');
    problem(await post('/api/v1/library', '['.repeat(5_000) + ']'.repeat(5_000)), 400, 'invalid-request');
    // A byte-order mark before the JSON is read past.
    problem(await post('/api/v1/library', '\uFEFF{"name":"x","path":"relative","mediaType":"movie"}'), 422, 'path-not-usable');
    problem(
      await call('POST', '/api/v1/library', { headers: { 'content-type': 'application/json; charset=utf-16' }, body: '{}' }),
      415,
      'unsupported-media-type',
    );
    problem(
      await call('POST', '/api/v1/scan/path', { headers: { 'content-type': 'text/plain' }, body: 'x' }),
      415,
      'unsupported-media-type',
    );
  });

  it('the same folder twice, or one inside another library, is 409; a wrong media type or a path outside the named library is 422', async () => {
    const dir = makeTree(join(root, 'lib409'), ['Film (2000)/Film (2000).mkv']);
    mkdirSync(join(root, 'elsewhere'));
    const created = await post('/api/v1/library', { name: 'Films', path: dir, mediaType: 'movie' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.name, 'Films');
    problem(await post('/api/v1/library', { name: 'Again', path: `${dir}/`, mediaType: 'movie' }), 409, 'library-exists');
    problem(await post('/api/v1/library', { name: 'Inner', path: join(dir, 'Film (2000)'), mediaType: 'movie' }), 409, 'library-exists');
    problem(await post('/api/v1/library', { name: 'Outer', path: root, mediaType: 'movie' }), 409, 'library-exists');
    // Reached through a symlink, it is still the same folder.
    symlinkSync(dir, join(root, 'link-to-lib'));
    problem(await post('/api/v1/library', { name: 'Link', path: join(root, 'link-to-lib'), mediaType: 'movie' }), 409, 'library-exists');

    problem(await post('/api/v1/scan/path', { path: dir, mediaType: 'tvshow' }), 422, 'media-type-mismatch');
    problem(
      await post('/api/v1/scan/path', { path: join(root, 'elsewhere'), mediaType: 'movie', libraryId: created.json.data.id }),
      422,
      'path-not-usable',
    );
    problem(await post('/api/v1/scan/path', { path: dir, mediaType: 'movie', libraryId: 'f'.repeat(32) }), 404, 'not-found');
    assert.equal((await call('DELETE', `/api/v1/library/${created.json.data.id}`)).status, 204);
    problem(await call('DELETE', `/api/v1/library/${created.json.data.id}`), 404, 'not-found');
  });

  it('a second scan of a library while one runs is 409, and a finished job cannot be resumed or cancelled', async () => {
    const dir = makeTree(
      join(root, 'busy'),
      Array.from({ length: 400 }, (_, i) => `Busy Movie ${i} (2001)/Busy Movie ${i} (2001).mkv`),
      1,
    );
    const first = await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' });
    assert.equal(first.status, 202);
    problem(await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' }), 409, 'scan-already-running');
    assert.equal((await waitForJob(first.json.data.jobId)).status, 'completed');
    problem(await call('POST', `/api/v1/scan/jobs/${first.json.data.jobId}/resume`), 409, 'job-state-conflict');
    problem(await call('POST', `/api/v1/scan/jobs/${first.json.data.jobId}/cancel`), 409, 'job-state-conflict');
    problem(await call('POST', `/api/v1/scan/jobs/${'0'.repeat(32)}/resume`), 404, 'not-found');
    problem(await call('POST', `/api/v1/scan/jobs/${'0'.repeat(32)}/cancel`), 404, 'not-found');
    problem(await call('GET', `/api/v1/scan/jobs/${'0'.repeat(32)}`), 404, 'not-found');
    // 400 films: more than a delete removes before it answers.
    assert.equal((await call('DELETE', `/api/v1/library/${first.json.data.libraryId}`)).status, 202);
  });

  /** A scan long enough to be caught running: three steps of writes. */
  const LONG = 3 * WRITE_CHUNK;
  const longScan = async (name: string) => {
    const dir = makeTree(
      join(root, name),
      Array.from({ length: LONG }, (_, i) => `${name} ${i} (2001)/${name} ${i} (2001).mkv`),
      1,
    );
    const res = await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' });
    assert.equal(res.status, 202, res.text);
    const jobId = res.json.data.jobId as string;
    const running = await waitFor(
      'the scan to have written something',
      async () => {
        const job = (await call('GET', `/api/v1/scan/jobs/${jobId}`)).json.data;
        const writing = job.status === 'running' && job.counts.added > 0;
        return writing || !['queued', 'running'].includes(job.status) ? job : undefined;
      },
      60_000,
      20,
    );
    assert.equal(running.status, 'running', 'the scan finished before it could be cancelled');
    return { dir, jobId, libraryId: res.json.data.libraryId as string };
  };

  it('a running scan is cancelled at its next step: it keeps what it wrote, says scan:cancelled, and never runs again', async () => {
    const ws = await WsClient.open(stack.ws);
    try {
      const { dir, jobId, libraryId } = await longScan('Cancel Me');
      const asked = await call('POST', `/api/v1/scan/jobs/${jobId}/cancel`);
      assert.equal(asked.status, 202, asked.text);
      assert.ok(['running', 'cancelled'].includes(asked.json.data.status));
      const job = await waitForJob(jobId, undefined, 60_000, new Set(['cancelled', 'completed', 'failed']));
      assert.equal(job.status, 'cancelled');
      assert.ok(job.counts.added > 0 && job.counts.added < LONG, `added ${job.counts.added}`);
      const event = await ws.next((m) => m.type === 'scan:cancelled' && m.jobId === jobId);
      assert.equal(event.summary.added, job.counts.added);
      // What it wrote stays: the library's items are the ones the job counted.
      const index = (await call('GET', `/api/v1/search?query=${encodeURIComponent('cancel me')}&limit=100`)).json.data;
      assert.ok(index.length > 0);
      problem(await call('POST', `/api/v1/scan/jobs/${jobId}/resume`), 409, 'job-state-conflict');
      problem(await call('POST', `/api/v1/scan/jobs/${jobId}/cancel`), 409, 'job-state-conflict');
      // The library is free again: a new scan finishes the work, none of it twice.
      const again = await scan({ path: dir, mediaType: 'movie' });
      assert.equal(again.status, 'completed');
      assert.equal(again.counts.added, LONG - job.counts.added);
      // Thousands of films: they go in the background, and the answer says so at once.
      const removal = await call('DELETE', `/api/v1/library/${libraryId}`);
      assert.equal(removal.status, 202, removal.text);
      assert.deepEqual(
        { ...removal.json.data, since: undefined },
        { libraryId, name: 'Cancel Me', path: dir, state: 'removing', since: undefined, items: LONG },
      );
      await ws.next((m) => m.type === 'library:deleted' && m.libraryId === libraryId, 180_000);
    } finally {
      await ws.close();
    }
  });

  it('deleting a library whose scan is running answers at once, cancels the scan, and leaves nothing of it', async () => {
    const ws = await WsClient.open(stack.ws);
    try {
      const { jobId, libraryId } = await longScan('Delete Me');
      const res = await call('DELETE', `/api/v1/library/${libraryId}`);
      assert.equal(res.status, 202, res.text);
      assert.equal(res.json.data.state, 'removing');
      // Gone for every client from the answer on, while the scan may still be writing.
      problem(await call('GET', `/api/v1/library/${libraryId}`), 404, 'not-found');
      assert.deepEqual((await call('GET', `/api/v1/search?query=${encodeURIComponent('delete me')}`)).json.data, []);
      assert.ok(!(await call('GET', '/api/v1/library')).json.data.some((l: { id: string }) => l.id === libraryId));
      // A second delete meanwhile: the same removal.
      assert.equal((await call('DELETE', `/api/v1/library/${libraryId}`)).status, 202);
      await ws.next((m) => m.type === 'library:deleted' && m.libraryId === libraryId, 180_000);
      assert.equal((await call('GET', `/api/v1/scan/jobs/${jobId}`)).json.data.status, 'cancelled');
      problem(await call('DELETE', `/api/v1/library/${libraryId}`), 404, 'not-found');
      // Give a late worker every chance to write after the removal: nothing of the library may come back.
      await new Promise((r) => setTimeout(r, 1_500));
      assert.deepEqual((await call('GET', `/api/v1/search?query=${encodeURIComponent('delete me')}`)).json.data, []);
    } finally {
      await ws.close();
    }
  });

  it('bad ids, cursors, limits and queries are 400 or 404', async () => {
    problem(await call('GET', '/api/v1/movies?cursor=not-a-cursor'), 400, 'invalid-request');
    const forged = Buffer.from(JSON.stringify({ pk: 'settings', sk: 'settings', gsi1pk: 'jobs', gsi1sk: 'x' })).toString('base64url');
    problem(await call('GET', `/api/v1/movies?cursor=${forged}`), 400, 'invalid-request');
    problem(await call('GET', '/api/v1/movies?limit=0'), 400, 'invalid-request');
    problem(await call('GET', '/api/v1/tvshows?limit=101'), 400, 'invalid-request');
    problem(await call('GET', '/api/v1/search'), 400, 'invalid-request');
    problem(await call('GET', `/api/v1/search?query=${'a'.repeat(201)}`), 400, 'invalid-request');
    problem(await call('GET', '/api/v1/search?query=x&type=music'), 400, 'invalid-request');
    problem(await call('GET', '/api/v1/scan/jobs?status=lost'), 400, 'invalid-request');
    problem(await call('GET', '/api/v1/movies/mv_doesNotExist0000000000'), 404, 'not-found');
    problem(await call('GET', '/api/v1/tvshows/tv_doesNotExist0000000000'), 404, 'not-found');
    problem(await call('GET', '/api/v1/library/nope'), 404, 'not-found');
    problem(await call('GET', '/api/v1/movies/a.b'), 400, 'invalid-request');
    assert.deepEqual((await call('GET', '/api/v1/search?query=%21%21%21')).json.data, []);
  });

  it('odd file names and a symlink loop scan to completion', async () => {
    const names = [
      'Émilie & Co (2004)/Émilie & Co (2004).mkv',
      'Line\nBreak (2001).mkv',
      '🎬 Emoji Story (2019).mkv',
      `${'Very Long Title '.repeat(14).trim()} (2005).mkv`,
      '100% Wolf (2020).mkv',
      '#Hashtag? "Quoted" (2012).mkv',
      '-Leading Dash (2013).mkv',
      '東京物語 (1953)/東京物語 (1953).mkv',
    ];
    const dir = makeTree(join(root, 'odd'), names, 1);
    symlinkSync('..', join(dir, '東京物語 (1953)', 'loop'));
    symlinkSync(join(dir, 'missing-target'), join(dir, 'dangling.mkv'));
    const job = await scan({ path: dir, mediaType: 'movie' });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.counts.added, names.length);
    assert.equal(job.counts.failed, 0);
    const hits = (await call('GET', `/api/v1/search?query=${encodeURIComponent('emilie')}`)).json.data;
    assert.equal(hits[0]?.media.title, 'Émilie & Co');
    const tokyo = (await call('GET', `/api/v1/search?query=${encodeURIComponent('東京物語')}`)).json.data;
    assert.equal(tokyo[0]?.media.year, 1953);
    assert.equal((await call('DELETE', `/api/v1/library/${job.libraryId}`)).status, 204);
  });
});
