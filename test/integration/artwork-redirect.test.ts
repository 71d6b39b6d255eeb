// Artwork delivered by redirect (MEDIA_STORAGE=s3, ARTWORK_REDIRECT_ABOVE_BYTES=0: every answer) against a real
// S3-API server (s3rver): the variant is rendered and stored once, then every request for it is
// a 302 to a presigned URL of the stored object, cacheable for less than the URL lives; the
// URL serves exactly the stored bytes with their content type; If-None-Match is still answered
// by the function, before the bucket is asked anything. An instance of its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { startInstance, type Instance } from '../support/instance';
import { allPages, scan } from '../support/media';
import { detailedQuadrants, paintedJpeg } from '../support/posters';
import { S3RVER_CREDENTIALS, startS3, type LocalS3 } from '../support/s3';
import { call } from '../support/stack';

const BUCKET = 'media';
const URL_SECONDS = 600;
const ARTWORK = '.cache/artwork/';

let s3: LocalS3;
let instance: Instance;
let posterUrl: URL;
let movieId: string;
const api = (path: string, headers: Record<string, string> = {}) => call('GET', path, { headers, base: instance.url });
const wall = (accept: string, extra: Record<string, string> = {}) =>
  api(`${posterUrl.pathname}${posterUrl.search}&w=320`, { accept, ...extra });
const artworkKeys = async () =>
  ((await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: ARTWORK }))).Contents ?? []).map((o) => o.Key!).sort();
const objectBytes = async (key: string) =>
  Buffer.from(await (await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToByteArray());

before(async () => {
  const poster = await paintedJpeg(
    detailedQuadrants([
      [200, 40, 40],
      [40, 200, 40],
      [40, 40, 200],
      [220, 220, 40],
    ]),
    { noise: 10 },
  );
  s3 = await startS3([BUCKET]);
  await s3.put(BUCKET, 'movies/Heat (1995)/Heat (1995).mkv', Buffer.from('not really a film'));
  await s3.put(BUCKET, 'movies/Heat (1995)/poster.jpg', poster);
  instance = await startInstance({
    env: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      MEDIA_BUCKET: BUCKET,
      ARTWORK_REDIRECT_ABOVE_BYTES: '0',
      ARTWORK_URL_TTL_SECONDS: String(URL_SECONDS),
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
  });
  const job = await scan({ path: `s3://${BUCKET}/movies`, mediaType: 'movie' }, instance.url);
  assert.equal(job.status, 'completed', JSON.stringify(job.error));
  const [movie] = await allPages('/api/v1/movies', instance.url);
  movieId = movie.id;
  posterUrl = new URL(movie.posterUrl);
});
after(async () => {
  await instance?.stop();
  await s3?.close();
});

describe('artwork delivered by redirect', () => {
  it('renders and stores a missing variant, then redirects to a presigned URL of it that is cached less long than it lives', async () => {
    assert.equal(
      (await artworkKeys()).some((k) => k.endsWith('.webp')),
      false,
      'no variant before the first request',
    );
    const res = await wall('image/avif,image/webp,*/*');
    assert.equal(res.status, 302, res.text);
    assert.equal(res.text, '');
    assert.equal(res.headers['cache-control'], `private, max-age=${URL_SECONDS - 60}`);
    assert.equal(res.headers.vary, 'Accept, Origin');
    // A 304 revalidating a cached redirect would keep a Location that has expired by then.
    assert.equal(res.headers.etag, undefined);
    const location = new URL(String(res.headers.location));
    assert.equal(location.origin, s3.endpoint);
    assert.match(location.search, /X-Amz-Signature=/);
    assert.equal(location.searchParams.get('X-Amz-Expires'), String(URL_SECONDS));
    const variants = (await artworkKeys()).filter((k) => k.endsWith('.webp'));
    assert.deepEqual(
      variants.map((k) => k.split('/').pop()),
      ['poster-w320-r1.webp'],
    );
    assert.equal(decodeURIComponent(location.pathname), `/${BUCKET}/${variants[0]}`);

    const again = await wall('image/avif,image/webp,*/*');
    assert.equal(again.status, 302);
    assert.equal(new URL(String(again.headers.location)).pathname, location.pathname, 'the stored variant, not a new one');
    assert.deepEqual(
      (await artworkKeys()).filter((k) => k.endsWith('.webp')),
      variants,
    );
  });

  it("serves the stored variant's bytes with its content type from the presigned URL, one format per Accept", async () => {
    for (const [accept, type, format] of [
      ['image/webp,*/*', 'image/webp', 'webp'],
      ['image/jpeg', 'image/jpeg', 'jpeg'],
    ] as const) {
      const res = await wall(accept);
      assert.equal(res.status, 302, accept);
      const location = new URL(String(res.headers.location));
      const image = await fetch(location);
      assert.equal(image.status, 200, accept);
      assert.equal(image.headers.get('content-type'), type);
      assert.equal(image.headers.get('cache-control'), `private, max-age=${URL_SECONDS}, immutable`);
      const bytes = Buffer.from(await image.arrayBuffer());
      assert.ok(
        bytes.equals(await objectBytes(decodeURIComponent(location.pathname).slice(`/${BUCKET}/`.length))),
        `${accept}: the stored bytes`,
      );
      const meta = await sharp(bytes).metadata();
      assert.equal(meta.format, format);
      assert.equal(meta.width, 320);
    }
  });

  it('answers If-None-Match with 304 itself, before the bucket is asked anything', async () => {
    const etag = `"${posterUrl.searchParams.get('v')}-poster-w320-r1.webp"`;
    // Everything the item has in the bucket goes: a 304 must not need any of it.
    const keys = await artworkKeys();
    await s3.client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: keys.map((Key) => ({ Key })) } }));
    const notModified = await wall('image/webp', { 'if-none-match': etag });
    assert.equal(notModified.status, 304, notModified.text);
    assert.equal(notModified.headers.etag, etag);
    assert.equal(notModified.headers.location, undefined);

    const gone = await wall('image/webp');
    assert.equal(gone.status, 404, `${movieId}: nothing left in the bucket to redirect to or render from`);
    assert.match(gone.json.detail, /no longer in the artwork cache/);
  });
});
