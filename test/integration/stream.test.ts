// Streaming through the stack: the handler decides, the front door sends the bytes. Every
// range case is compared byte for byte with the file on disk.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { tempDir } from '../support/instance';
import { mediaOf, scan } from '../support/media';
import { call, stack } from '../support/stack';

/** A GET or HEAD with the raw body as bytes (the helper in support/stack reads text). */
const fetchBytes = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Promise<{ status: number; headers: Record<string, any>; body: Buffer }>((resolve, reject) => {
    const req = request(new URL(path, stack.url), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

/** Bytes that differ at every offset, so a range off by one cannot pass. */
const pattern = (size: number, seed: number) => {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + seed + (i >> 8)) & 0xff;
  return b;
};

describe('streaming', () => {
  const root = tempDir('stream');
  const SIZE = 3 * 1024 * 1024 + 123;
  const files: Record<string, Buffer> = {
    'Stream Test (2011)/Stream Test (2011).mkv': pattern(SIZE, 1),
    'Clip Test (2012).mp4': pattern(10_000, 2),
    'Web Test (2013).webm': pattern(5_000, 3),
    'Parted Test (2014)/Parted Test (2014) - cd1.avi': pattern(4_000, 4),
    'Parted Test (2014)/Parted Test (2014) - cd2.avi': pattern(6_000, 5),
    'Vanishing Test (2015).mkv': pattern(1_000, 6),
  };
  const ids: Record<string, string> = {};
  let mkv: Buffer;
  let url: string;

  before(async () => {
    for (const [rel, bytes] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), bytes);
    }
    const job = await scan({ path: root, mediaType: 'movie' });
    assert.equal(job.status, 'completed');
    const movies = mediaOf((await call('GET', '/api/v1/movies?limit=100')).json.data);
    for (const title of ['Stream Test', 'Clip Test', 'Web Test', 'Parted Test', 'Vanishing Test'])
      ids[title] = movies.find((m: any) => m.title === title).id;
    mkv = files['Stream Test (2011)/Stream Test (2011).mkv']!;
    url = (await call('GET', `/api/v1/movies/${ids['Stream Test']}`)).json.data.streamUrl;
    url = new URL(url).pathname;
  });

  it('sends the whole file, with its type, size, ETag and Last-Modified, not counted by the rate limit', async () => {
    const res = await fetchBytes(url);
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(mkv), 'byte-exact');
    assert.equal(res.headers['content-length'], String(SIZE));
    assert.equal(res.headers['content-type'], 'video/x-matroska');
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.match(res.headers.etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
    assert.ok(res.headers['last-modified']);
    assert.equal(res.headers['x-send-file'], undefined, 'the internal header never leaves');
    assert.equal(res.headers.ratelimit, undefined);
  });

  it('answers every single-range form byte for byte', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1048576-2097151', 1048576, 2097151],
      [`bytes=${SIZE - 100}-`, SIZE - 100, SIZE - 1],
      ['bytes=-100', SIZE - 100, SIZE - 1],
      [`bytes=${SIZE - 10}-${SIZE + 5000}`, SIZE - 10, SIZE - 1], // past the end: cut at the end
      ['bytes=0-0', 0, 0],
      [`bytes=-${SIZE + 10}`, 0, SIZE - 1], // a suffix longer than the file: all of it
      ['bytes=0-9,20-29', 0, 9], // several: the first
    ];
    for (const [range, start, end] of cases) {
      const res = await fetchBytes(url, { Range: range });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${SIZE}`, range);
      assert.equal(res.headers['content-length'], String(end - start + 1), range);
      assert.ok(res.body.equals(mkv.subarray(start, end + 1)), `${range}: byte-exact`);
    }
  });

  it('416 with Content-Range for a range outside the file; a malformed header or another unit is ignored', async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 1}-${SIZE + 9}`]) {
      const res = await fetchBytes(url, { Range: range });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers['content-range'], `bytes */${SIZE}`);
      assert.equal(JSON.parse(res.body.toString()).type, '/problems/range-not-satisfiable');
    }
    for (const range of ['bytes=abc', 'bytes=9-2', 'items=0-5', 'bytes']) {
      const res = await fetchBytes(url, { Range: range });
      assert.equal(res.status, 200, range);
      assert.equal(res.body.length, SIZE, range);
    }
  });

  it('HEAD: the headers of a GET, no body', async () => {
    const res = await fetchBytes(url, {}, 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-length'], String(SIZE));
    assert.equal(res.headers['content-type'], 'video/x-matroska');
    assert.equal(res.body.length, 0);
    const ranged = await fetchBytes(url, { Range: 'bytes=10-19' }, 'HEAD');
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers['content-range'], `bytes 10-19/${SIZE}`);
  });

  it('conditional requests: 304 for the current ETag, If-Range falls back to the whole file for another version', async () => {
    const { headers } = await fetchBytes(url, { Range: 'bytes=0-0' });
    const notModified = await fetchBytes(url, { 'If-None-Match': headers.etag });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body.length, 0);
    assert.equal((await fetchBytes(url, { 'If-None-Match': '"other"' })).status, 200);
    assert.equal((await fetchBytes(url, { 'If-Modified-Since': headers['last-modified'] })).status, 304);
    const same = await fetchBytes(url, { Range: 'bytes=5-9', 'If-Range': headers.etag });
    assert.equal(same.status, 206);
    assert.equal((await fetchBytes(url, { Range: 'bytes=5-9', 'If-Range': headers['last-modified'] })).status, 206);
    const older = await fetchBytes(url, { Range: 'bytes=5-9', 'If-Range': '"0-0"' });
    assert.equal(older.status, 200);
    assert.equal(older.body.length, SIZE);
  });

  it('types by container, and the parts of a stacked movie', async () => {
    assert.equal((await fetchBytes(`/api/v1/stream/${ids['Clip Test']}`, {}, 'HEAD')).headers['content-type'], 'video/mp4');
    assert.equal((await fetchBytes(`/api/v1/stream/${ids['Web Test']}`, {}, 'HEAD')).headers['content-type'], 'video/webm');
    const part1 = await fetchBytes(`/api/v1/stream/${ids['Parted Test']}`);
    assert.ok(part1.body.equals(files['Parted Test (2014)/Parted Test (2014) - cd1.avi']!));
    const part2 = await fetchBytes(`/api/v1/stream/${ids['Parted Test']}?part=2`);
    assert.ok(part2.body.equals(files['Parted Test (2014)/Parted Test (2014) - cd2.avi']!));
    assert.equal((await fetchBytes(`/api/v1/stream/${ids['Parted Test']}?part=3`)).status, 404);
    assert.equal((await fetchBytes(`/api/v1/stream/${ids['Parted Test']}?part=0`)).status, 400);
  });

  it('unknown, odd and traversal ids are 400 or 404, and a file deleted after the scan is a 404', async () => {
    for (const id of ['mv_unknown000000000000000', 'tv_unknown000000000000000'])
      assert.equal((await fetchBytes(`/api/v1/stream/${id}`)).status, 404, id);
    for (const path of [
      '/api/v1/stream/..%2F..%2Fetc%2Fpasswd',
      '/api/v1/stream/%2Fetc%2Fpasswd',
      '/api/v1/stream/a.b',
      '/api/v1/stream/..',
    ]) {
      const res = await fetchBytes(path);
      assert.ok([400, 404].includes(res.status), `${path}: ${res.status}`);
      assert.ok(!res.body.toString().includes('root:'), path);
    }
    rmSync(join(root, 'Vanishing Test (2015).mkv'));
    const gone = await fetchBytes(`/api/v1/stream/${ids['Vanishing Test']}`);
    assert.equal(gone.status, 404);
    assert.equal(JSON.parse(gone.body.toString()).type, '/problems/not-found');
  });

  it('eight readers at once each get their own bytes', async () => {
    const ranges = Array.from({ length: 8 }, (_, i) => [i * 300_000, i * 300_000 + 999_999] as const);
    const results = await Promise.all(ranges.map(([s, e]) => fetchBytes(url, { Range: `bytes=${s}-${e}` })));
    results.forEach((res, i) => {
      const [s, e] = ranges[i]!;
      assert.equal(res.status, 206);
      assert.ok(res.body.equals(mkv.subarray(s, e + 1)), `reader ${i}`);
    });
    assert.ok(readFileSync(join(root, 'Stream Test (2011)/Stream Test (2011).mkv')).equals(mkv), 'the file is untouched');
  });
});
