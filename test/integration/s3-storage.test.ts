// Media in a bucket (MEDIA_STORAGE=s3) against a real S3-API server (s3rver): libraries are
// s3:// locations, a scan lists the keys, and the stream endpoint redirects to a presigned URL
// that the S3 server answers with ranges itself. An instance of its own, with its own database.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { startInstance, type Instance } from '../support/instance';
import { allPages, scan } from '../support/media';
import { S3RVER_CREDENTIALS, startS3, type LocalS3 } from '../support/s3';
import { call, jsonBody } from '../support/stack';

const BUCKET = 'media';
const pattern = (size: number, seed: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 37 + seed + (i >> 9)) & 0xff));
const HEAT = pattern(300_000, 1);
const ALIEN = pattern(20_000, 2);

let s3: LocalS3;
let POSTER: Buffer;
let instance: Instance;
const api = (method: string, path: string, opts: Parameters<typeof call>[2] = {}) => call(method, path, { ...opts, base: instance.url });

before(async () => {
  POSTER = await sharp({ create: { width: 60, height: 90, channels: 3, background: '#803020' } })
    .jpeg()
    .toBuffer();
  s3 = await startS3([BUCKET, 'elsewhere']);
  await Promise.all([
    s3.put(BUCKET, 'movies/Heat (1995)/Heat (1995).mkv', HEAT),
    s3.put(BUCKET, 'movies/Alien (1979).mp4', ALIEN),
    s3.put(BUCKET, 'movies/Heat (1995)/Sample/sample.mkv', Buffer.from('x')),
    s3.put(BUCKET, 'movies/Heat (1995)/poster.jpg', POSTER),
    s3.put(BUCKET, 'movies/Heat (1995)/Heat (1995).fr.srt', Buffer.from('1\r\n00:00:01,000 --> 00:00:02,000\r\nUn café\r\n', 'latin1')),
    s3.put(BUCKET, 'movies/Heat (1995)/Subs/English.sdh.srt', Buffer.from('1\n00:00:03,000 --> 00:00:04,000\n[gunfire]\n')),
    s3.put(BUCKET, 'movies/Hidden/.ignore', Buffer.from('')),
    s3.put(BUCKET, 'movies/Hidden/Hidden (2000).mkv', Buffer.from('x')),
    s3.put(BUCKET, 'moviesandmore/Elsewhere (2001).mkv', Buffer.from('x')),
    s3.put('elsewhere', 'movies/Other (2002).mkv', Buffer.from('x')),
  ]);
  instance = await startInstance({
    env: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      MEDIA_BUCKET: BUCKET,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
  });
});
after(async () => {
  await instance?.stop();
  await s3?.close();
});

describe('media in a bucket', () => {
  it('refuses locations it cannot use, with the reason', async () => {
    const cases: [string, RegExp][] = [
      ['/srv/movies', /s3:\/\/bucket\/prefix/],
      ['s3://elsewhere/movies', /not in the media bucket media/],
      ['s3://media/nothing-here', /does not exist/],
      ['s3://media/movies/../secrets', /\.\. segments/],
      ['s3://Bad_Bucket/x', /invalid bucket/],
    ];
    for (const [path, reason] of cases) {
      const res = await api('POST', '/api/v1/library', jsonBody({ name: 'x', path, mediaType: 'movie' }));
      assert.equal(res.status, 422, path);
      assert.equal(res.json.type, '/problems/path-not-usable');
      assert.match(res.json.detail, reason, path);
    }
  });

  let heatId: string;
  it('scans the keys below a prefix with the naming rules of folders', async () => {
    const job = await scan({ path: 's3://media/movies/', mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.path, 's3://media/movies');
    const movies = await allPages('/api/v1/movies', instance.url);
    assert.deepEqual(movies.map((m) => m.title).sort(), ['Alien', 'Heat']);
    heatId = movies.find((m) => m.title === 'Heat')!.id;
    const detail = await api('GET', `/api/v1/movies/${heatId}`);
    assert.equal(detail.json.data.file.size, HEAT.length);
    assert.equal(detail.json.data.streamUrl, `${instance.url}/api/v1/stream/${heatId}`);
  });

  it('lists subtitle objects beside the video and in Subs/, and serves them as WebVTT through the storage port', async () => {
    const { subtitles } = (await api('GET', `/api/v1/movies/${heatId}`)).json.data;
    assert.deepEqual(
      subtitles.map((t: any) => [t.label, t.source, t.url !== null]),
      [
        ['English (SDH)', 'external', true],
        ['French', 'external', true],
      ],
    );
    const french = await api('GET', new URL(subtitles[1].url).pathname);
    assert.equal(french.status, 200, french.text);
    assert.equal(french.headers['content-type'], 'text/vtt; charset=utf-8');
    assert.equal(french.text, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nUn café\n\n');
    const sdh = await api('GET', `${new URL(subtitles[0].url).pathname}?offsetMs=500`);
    assert.equal(sdh.text, 'WEBVTT\n\n00:00:03.500 --> 00:00:04.500\n[gunfire]\n\n');
    assert.equal(
      (await api('GET', new URL(subtitles[1].url).pathname, { headers: { 'If-None-Match': String(french.headers.etag) } })).status,
      304,
    );
  });

  it('keeps artwork in the bucket under .cache/artwork, never under DATA_DIR, and serves it from there', async () => {
    const detail = (await api('GET', `/api/v1/movies/${heatId}`)).json.data;
    assert.ok(detail.poster, 'the poster beside the film was stored');
    const poster = await api('GET', `${new URL(detail.poster).pathname}${new URL(detail.poster).search}`);
    assert.equal(poster.status, 200);
    assert.equal(poster.headers['content-type'], 'image/jpeg');
    const keys = ((await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: '.cache/artwork/' }))).Contents ?? []).map(
      (o) => o.Key,
    );
    assert.ok(
      keys.some((k) => k?.startsWith(`.cache/artwork/${heatId}/poster-`) && k.endsWith('/source')),
      JSON.stringify(keys),
    );
    assert.equal(existsSync(join(instance.dataDir, 'artwork')), false);
  });

  it('streams by a redirect to a presigned URL that answers ranges byte for byte', async () => {
    const res = await api('GET', `/api/v1/stream/${heatId}`, { headers: { range: 'bytes=0-99' } });
    assert.equal(res.status, 307);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const location = new URL(String(res.headers.location));
    assert.equal(location.origin, s3.endpoint);
    assert.match(location.search, /X-Amz-Signature=/);
    assert.match(location.search, /X-Amz-Expires=14400/);

    // Ranges are the S3 server's to answer (s3rver gets suffix ranges wrong, so none here).
    const ranges: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=150000-150099', 150_000, 150_099],
      ['bytes=299000-', 299_000, HEAT.length - 1],
    ];
    for (const [range, start, end] of ranges) {
      const bytes = await fetch(location, { headers: { range } });
      assert.equal(bytes.status, 206, range);
      assert.equal(bytes.headers.get('content-range'), `bytes ${start}-${end}/${HEAT.length}`);
      assert.equal(bytes.headers.get('content-type'), 'video/x-matroska');
      assert.ok(Buffer.from(await bytes.arrayBuffer()).equals(HEAT.subarray(start, end + 1)), range);
    }
    const whole = await fetch(location);
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(HEAT));

    const head = await api('HEAD', `/api/v1/stream/${heatId}`);
    assert.equal(head.status, 307);
  });

  it('an object deleted after the scan is a 404, and the next scan removes its item', async () => {
    await s3.remove(BUCKET, 'movies/Alien (1979).mp4');
    const movies = await allPages('/api/v1/movies', instance.url);
    const alien = movies.find((m) => m.title === 'Alien')!;
    const res = await api('GET', `/api/v1/stream/${alien.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.json.type, '/problems/not-found');
    const job = await scan({ path: 's3://media/movies', mediaType: 'movie' }, instance.url);
    assert.equal(job.counts.removed, 1);
    assert.deepEqual(
      (await allPages('/api/v1/movies', instance.url)).map((m) => m.title),
      ['Heat'],
    );
  });

  it('unknown and odd ids are 400 or 404 and name no object', async () => {
    for (const id of ['mv_0000000000000000', '..%2F..%2Fetc%2Fpasswd', 'tv_nothing']) {
      const res = await api('GET', `/api/v1/stream/${id}`);
      assert.ok([400, 404].includes(res.status), `${id}: ${res.status}`);
      assert.doesNotMatch(res.text, /s3:|X-Amz/);
    }
  });

  it("wrote nothing under DATA_DIR from a handler: only the runner's database, its state and the log", () => {
    // The runner keeps DynamoDB Local's files (db, tmp/dynamodb), runner.json, the log collector's logs/ and the disk reserve.
    const entries = readdirSync(instance.dataDir).sort();
    assert.deepEqual(
      entries.filter((e) => !['.space-reserve', 'db', 'logs', 'runner.json', 'tmp'].includes(e)),
      [],
    );
    // An instance on the test run's database has no DynamoDB Local of its own, nor its tmp/.
    const tmp = join(instance.dataDir, 'tmp');
    if (existsSync(tmp)) assert.deepEqual(readdirSync(tmp), ['dynamodb']);
  });
});
