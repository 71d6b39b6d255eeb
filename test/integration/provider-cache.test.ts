// The provider cache in the test run's DynamoDB Local: what is put comes back until it
// expires, a request is never answered with another's value, and an oversized value is not kept.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { db } from '../../lib/db/client';
import { DynamoProviderCache } from '../../lib/metadata/provider-cache';

describe('provider cache', () => {
  let now = Date.now();
  const cache = new DynamoProviderCache(db, () => now);

  it('gives back what was put, until its TTL has passed', async () => {
    const key = `tmdb:v1:/movie/${randomUUID()}?language=en-US`;
    assert.equal(await cache.get(key), undefined);
    const value = { tmdbId: 603, title: 'The Matrix', cast: [{ name: 'Keanu Reeves', character: 'Neo', order: 0 }] };
    await cache.put(key, value, 60);
    assert.deepEqual(await cache.get(key), value);
    now += 61_000;
    assert.equal(await cache.get(key), undefined, 'expired, though DynamoDB has not deleted it yet');
  });

  it('keeps requests apart, language included', async () => {
    const base = `tmdb:v1:/search/movie?query=${randomUUID()}`;
    await cache.put(`${base}&language=en-US`, ['en'], 60);
    await cache.put(`${base}&language=de-DE`, ['de'], 60);
    assert.deepEqual(await cache.get(`${base}&language=en-US`), ['en']);
    assert.deepEqual(await cache.get(`${base}&language=de-DE`), ['de']);
  });

  it('does not keep a value too big for an item', async () => {
    const key = `tmdb:v1:/big/${randomUUID()}`;
    // Random text does not compress: far over the 350 KB a value may take once gzipped.
    await cache.put(key, { blob: randomBytes(500_000).toString('base64') }, 60);
    assert.equal(await cache.get(key), undefined);
  });
});
