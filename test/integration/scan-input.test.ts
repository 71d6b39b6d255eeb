// Bad input to the library and scan endpoints gets the contract's 4xx, never a 5xx, and odd
// trees (strange names, symlink loops) scan to completion.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/instance';
import { makeTree, scan, waitForJob } from '../support/media';
import { call, jsonBody, type Reply } from '../support/stack';

const problem = (res: Reply, status: number, type: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.equal(res.json.type, `/problems/${type}`);
};
const post = (path: string, body: unknown) => call('POST', path, typeof body === 'string' ? { headers: { 'content-type': 'application/json' }, body } : jsonBody(body));

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
      ['/api/v1/scan/cleanup', { staleAfterSeconds: 0 }, 'body.staleAfterSeconds'],
    ];
    for (const [endpoint, body, field] of cases) {
      const res = await post(endpoint, body);
      problem(res, 400, 'invalid-request');
      assert.ok(res.json.errors.some((e: any) => e.field === field), `${endpoint} ${JSON.stringify(body)}: ${res.text}`);
    }
    problem(await post('/api/v1/scan/path', '{"path":'), 400, 'malformed-json');
    problem(await call('POST', '/api/v1/scan/path', { headers: { 'content-type': 'text/plain' }, body: 'x' }), 415, 'unsupported-media-type');
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
    problem(await post('/api/v1/scan/path', { path: join(root, 'elsewhere'), mediaType: 'movie', libraryId: created.json.data.id }), 422, 'path-not-usable');
    problem(await post('/api/v1/scan/path', { path: dir, mediaType: 'movie', libraryId: 'f'.repeat(32) }), 404, 'not-found');
    assert.equal((await call('DELETE', `/api/v1/library/${created.json.data.id}`)).status, 204);
    problem(await call('DELETE', `/api/v1/library/${created.json.data.id}`), 404, 'not-found');
  });

  it('a second scan of a library while one runs is 409, and a finished job cannot be resumed', async () => {
    const dir = makeTree(join(root, 'busy'), Array.from({ length: 400 }, (_, i) => `Busy Movie ${i} (2001)/Busy Movie ${i} (2001).mkv`), 1);
    const first = await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' });
    assert.equal(first.status, 202);
    problem(await post('/api/v1/scan/path', { path: dir, mediaType: 'movie' }), 409, 'scan-already-running');
    problem(await call('DELETE', `/api/v1/library/${first.json.data.libraryId}`), 409, 'scan-already-running');
    assert.equal((await waitForJob(first.json.data.jobId)).status, 'completed');
    problem(await call('POST', `/api/v1/scan/jobs/${first.json.data.jobId}/resume`), 409, 'job-state-conflict');
    problem(await call('POST', `/api/v1/scan/jobs/${'0'.repeat(32)}/resume`), 404, 'not-found');
    problem(await call('GET', `/api/v1/scan/jobs/${'0'.repeat(32)}`), 404, 'not-found');
    assert.equal((await call('DELETE', `/api/v1/library/${first.json.data.libraryId}`)).status, 204);
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
