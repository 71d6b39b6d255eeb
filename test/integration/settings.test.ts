import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInstance, type Instance } from '../support/instance';
import { call as stackCall, jsonBody } from '../support/stack';

// An instance of its own: a TMDB key set here for a moment must not reach the scans other test
// files run meanwhile on the shared stack.
let instance: Instance;
before(async () => {
  instance = await startInstance({ env: { LOG_LEVEL: 'info' } });
});
after(async () => {
  await instance?.stop();
});
const call = (method: string, path: string, opts: Parameters<typeof stackCall>[2] = {}) =>
  stackCall(method, path, { ...opts, base: instance.url });

const KEY = 'tmdbkey-0123456789-wxyz';

describe('settings', () => {
  it('stores the TMDB key but only ever shows a hint', async () => {
    const patched = await call('PATCH', '/api/v1/settings', jsonBody({ metadata: { tmdbApiKey: KEY } }));
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.data.metadata.tmdbApiKeySet, true);
    assert.equal(patched.json.data.metadata.tmdbApiKeyHint, '****wxyz');
    const got = await call('GET', '/api/v1/settings');
    assert.equal(got.json.data.metadata.tmdbApiKeyHint, '****wxyz');
    assert.doesNotMatch(patched.text + got.text, /0123456789/);
  });

  it('merges a partial update and answers the whole settings', async () => {
    const res = await call('PATCH', '/api/v1/settings', jsonBody({ features: { artwork: false }, preferences: { theme: 'dark' } }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.features.artwork, false);
    assert.equal(res.json.data.features.metadataFetching, true);
    assert.equal(res.json.data.preferences.theme, 'dark');
    assert.equal((await call('GET', '/api/v1/settings')).json.data.preferences.theme, 'dark');
  });

  it('names every unknown key and wrong type in one 400', async () => {
    const res = await call(
      'PATCH',
      '/api/v1/settings',
      jsonBody({ metadata: { language: 'english', colour: 'red' }, features: { artwork: 'yes' }, extra: 1 }),
    );
    assert.equal(res.status, 400);
    assert.equal(res.json.type, '/problems/invalid-request');
    const fields = res.json.errors.map((e: { field: string }) => e.field).sort();
    assert.deepEqual(fields, ['body.extra', 'body.features.artwork', 'body.metadata.colour', 'body.metadata.language']);
  });

  it('refuses an empty update', async () => {
    assert.equal((await call('PATCH', '/api/v1/settings', jsonBody({}))).status, 400);
  });

  it('keeps every change when clients patch at the same time', async () => {
    await Promise.all([
      call('PATCH', '/api/v1/settings', jsonBody({ preferences: { pageSize: 42 } })),
      call('PATCH', '/api/v1/settings', jsonBody({ features: { meshGradients: false } })),
      call('PATCH', '/api/v1/settings', jsonBody({ metadata: { language: 'fr-FR' } })),
    ]);
    const { data } = (await call('GET', '/api/v1/settings')).json;
    assert.equal(data.preferences.pageSize, 42);
    assert.equal(data.features.meshGradients, false);
    assert.equal(data.metadata.language, 'fr-FR');
  });

  it('removes the key when asked', async () => {
    const res = await call('PATCH', '/api/v1/settings', jsonBody({ metadata: { tmdbApiKey: null } }));
    assert.equal(res.json.data.metadata.tmdbApiKeySet, false);
    assert.equal(res.json.data.metadata.tmdbApiKeyHint, null);
  });
});

describe('logs', () => {
  it('finds recent records newest first, and never the key', async () => {
    await call('PATCH', '/api/v1/settings', jsonBody({ metadata: { tmdbApiKey: KEY } }));
    await new Promise((r) => setTimeout(r, 300)); // the runner collects output asynchronously
    const res = await call('GET', '/api/v1/logs?q=settings%20updated&limit=5');
    assert.equal(res.status, 200, res.text);
    assert.ok(res.json.data.length >= 1);
    assert.equal(res.json.data[0].msg, 'settings updated');
    const times = res.json.data.map((r: { time: string }) => r.time);
    assert.deepEqual(times, [...times].sort().reverse());
    const everything = await call('GET', '/api/v1/logs?limit=1000&level=trace');
    assert.doesNotMatch(everything.text, /0123456789/);
    await call('PATCH', '/api/v1/settings', jsonBody({ metadata: { tmdbApiKey: null } }));
  });

  it('filters by minimum level', async () => {
    const res = await call('GET', '/api/v1/logs?level=error&limit=1000');
    assert.equal(res.status, 200);
    for (const r of res.json.data) assert.ok(['error', 'fatal'].includes(r.level), r.level);
  });

  it('rejects a bad level, limit or time with 400', async () => {
    for (const q of ['level=loud', 'limit=0', 'limit=1001', 'since=yesterday', 'colour=red']) {
      const res = await call('GET', `/api/v1/logs?${q}`);
      assert.equal(res.status, 400, q);
    }
  });
});
