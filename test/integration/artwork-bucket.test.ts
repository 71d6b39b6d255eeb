// The artwork store's bucket adapter (MEDIA_STORAGE=s3) against a real S3-API server
// (s3rver): the same round trips as the disk adapter, the content type kept as the object's,
// an item's objects removed and only its own, presigned URLs of stored keys only, keys that
// would leave the prefix refused.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { serveArtwork, type Pictured } from '../../lib/artwork/service';
import { ArtworkKeyError, bucketArtworkStore, sourceKey, variantKeyOf, type ArtworkStore } from '../../lib/artwork/store';
import { rootLogger } from '../../lib/log';
import { assertRoundTrip, jpegLike, pngLike } from '../support/artwork-store';
import { startS3, type LocalS3 } from '../support/s3';

const BUCKET = 'media';
const PREFIX = '.cache/artwork';

let s3: LocalS3;
let store: ArtworkStore;
const keysIn = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key).sort();

before(async () => {
  s3 = await startS3([BUCKET]);
  store = bucketArtworkStore(s3.client, { bucket: BUCKET, prefix: PREFIX });
});
after(async () => {
  await s3?.close();
});

describe('the artwork store in a bucket', () => {
  it('gives back what was put, with its content type, under its prefix; nothing for a key never put', async () => {
    await assertRoundTrip(store);
    assert.deepEqual(await keysIn(), ['.cache/artwork/mv_a/poster-e1/poster-w160-r1.png', '.cache/artwork/mv_a/poster-e1/source']);
  });

  it('replaces an object whole', async () => {
    const key = sourceKey('mv_b', 'backdrop', 'e1');
    await store.put(key, jpegLike(2000, 1), 'image/jpeg');
    await store.put(key, jpegLike(3000, 2), 'image/jpeg');
    assert.deepEqual((await store.get(key))?.bytes, jpegLike(3000, 2));
  });

  it('keeps images only, under the type their bytes show', async () => {
    await assert.rejects(
      store.put(sourceKey('mv_c', 'poster', 'e1'), Buffer.from('<svg/>'), 'image/jpeg'),
      /keeps images under their own type/,
    );
    await assert.rejects(store.put(sourceKey('mv_c', 'poster', 'e1'), pngLike(100), 'image/jpeg'), /keeps images under their own type/);
    assert.equal(await store.get(sourceKey('mv_c', 'poster', 'e1')), undefined);
  });

  it("removes everything of one item and nothing of another's", async () => {
    for (let i = 0; i < 3; i++)
      await store.put(variantKeyOf('mv_gone', 'poster', `e${i}`, { width: 320, format: 'jpeg' }), jpegLike(100, i), 'image/jpeg');
    await store.put(sourceKey('mv_gone2', 'poster', 'e1'), jpegLike(100, 9), 'image/jpeg');
    await store.removeAll('mv_gone');
    await store.removeAll('mv_never_stored');
    const left = await keysIn();
    assert.equal(
      left.some((k) => k?.startsWith('.cache/artwork/mv_gone/')),
      false,
    );
    assert.ok(left.includes('.cache/artwork/mv_gone2/poster-e1/source'), 'a media id that starts like another is its own');
  });

  it('presigns a URL that serves a stored key with its type, and none for a key never put', async () => {
    const key = variantKeyOf('mv_signed', 'poster', 'e1', { width: 320, format: 'jpeg' });
    await store.put(key, jpegLike(700, 3), 'image/jpeg');
    const url = await store.presignedUrl!(key, 300);
    assert.ok(url);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), jpegLike(700, 3));
    assert.equal(await store.presignedUrl!(variantKeyOf('mv_signed', 'poster', 'e1', { width: 160, format: 'jpeg' }), 300), undefined);
    await assert.rejects(store.presignedUrl!('../secret', 300), ArtworkKeyError);
  });

  it('refuses keys and media ids that would leave its prefix', async () => {
    await assert.rejects(store.get('../secret'), ArtworkKeyError);
    await assert.rejects(store.put('mv_a/../../x/source', jpegLike(10, 1), 'image/jpeg'), ArtworkKeyError);
    await assert.rejects(store.removeAll('..'), ArtworkKeyError);
  });

  it('answers an image larger than a function answer carries with a redirect to it, a smaller one with its bytes', async () => {
    // A poster of noise: its PNG is some hundreds of KB, over the limit this test sets.
    const noise = randomBytes(400 * 600 * 3);
    const png = await sharp(noise, { raw: { width: 400, height: 600, channels: 3 } })
      .png()
      .toBuffer();
    const item: Pictured = {
      id: 'mv_big',
      entity: 'movie',
      artwork: { poster: { etag: 'big1', contentType: 'image/png', width: 400, height: 600, source: 'local', from: 'poster.png' } },
    };
    await store.put(sourceKey('mv_big', 'poster', 'big1'), png, 'image/png');
    const deps = { catalog: { get: async () => item }, store, log: rootLogger, redirect: { urlSeconds: 600, aboveBytes: 100_000 } };
    const request = { mediaId: 'mv_big', kind: 'poster' as const, accept: 'image/png' };

    const original = await serveArtwork(deps, { ...request, width: undefined });
    assert.equal(original.status, 302);
    assert.match(original.headers['Cache-Control']!, /^private, max-age=540$/);
    const fetched = await fetch(original.headers.Location!);
    assert.equal(fetched.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await fetched.arrayBuffer()), png);

    const small = await serveArtwork(deps, { ...request, width: 160 });
    assert.equal(small.status, 200);
    assert.ok(small.body!.length < 100_000);
    assert.equal((await sharp(small.body).metadata()).width, 160);
  });
});
