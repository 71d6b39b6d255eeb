// The web client's files through the front door: index.html at the client's own addresses
// (no-cache, a CSP that allows the box only), hashed assets cached for a year and sent
// gzip-compressed to clients that take it, and the service's 404 problem for everything else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call } from '../support/stack';

const page = async (path: string) => {
  const res = await call('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  return res;
};

const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/assets\/[\w-]+\.(?:js|css))"/g)].map((m) => m[1]!);

describe("the web client's files", () => {
  it("serves the page at the client's own addresses, never cached, loading only from the box", async () => {
    const home = await page('/');
    assert.equal(home.headers['cache-control'], 'no-cache');
    assert.match(String(home.headers['content-security-policy']), /default-src 'self'/);
    assert.equal(home.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(
      assetsOf(home.text)
        .map((a) => a.replace(/-[A-Z0-9]+\./, '-HASH.'))
        .sort(),
      ['/assets/app-HASH.css', '/assets/app-HASH.js'],
    );
    assert.doesNotMatch(home.text, /https?:\/\//, 'no other host named');
    for (const path of ['/search?q=heat', '/movies/mv_anything', '/shows/tv_anything', '/play/mv_anything?t=30', '/shows/tv_a/play/ep_b']) {
      assert.equal((await page(path)).text, home.text, path);
    }
    const head = await call('HEAD', '/');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  it('serves hashed assets for a year, gzip-compressed when asked, and a budget of JavaScript', async () => {
    const home = await page('/');
    for (const asset of assetsOf(home.text)) {
      const plain = await call('GET', asset);
      assert.equal(plain.status, 200, asset);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.match(String(plain.headers['content-type']), asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      assert.equal(plain.headers['content-encoding'], undefined);
      const zipped = await call('GET', asset, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(zipped.headers['content-encoding'], 'gzip');
      assert.equal(zipped.headers.vary, 'Accept-Encoding');
      const compressed = Number(zipped.headers['content-length']);
      // The budget: under 250 KB of JavaScript, gzipped.
      if (asset.endsWith('.js')) assert.ok(compressed < 250_000, `${asset}: ${compressed} bytes gzipped`);
    }
  });

  it("keeps the service's 404 problem for every other address and method", async () => {
    for (const [method, path] of [
      ['GET', '/assets/app-NOSUCHFILE.js'],
      ['GET', '/nothing'],
      ['GET', '/movies/extra/depth'],
      ['GET', '/assets/../package.json'],
      ['POST', '/'],
      ['DELETE', '/search'],
    ]) {
      const res = await call(method!, path!);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/, `${method} ${path}`);
    }
  });
});
