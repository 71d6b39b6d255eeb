// How a stream's bytes leave (lib/stream/deliver.ts): a presigned redirect where the storage
// serves them, the internal redirect where a gateway in front sends them, else in the response,
// read through the storage port. Real adapters: a file on disk, and a bucket's presigning.
import { S3Client } from '@aws-sdk/client-s3';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { localMediaStorage } from '../../../lib/storage/local';
import { s3Storage } from '../../../lib/storage/s3';
import { deliverStream, INLINE_MAX_BYTES, streamRequestOf } from '../../../lib/stream/deliver';
import type { StreamTarget } from '../../../lib/stream/resolve';
import { FORWARDED_RANGE_HEADER, parseSendFile, SEND_FILE_HEADER } from '../../../lib/stream/send-file';
import { tempDir } from '../../support/instance';

// A real file a little larger than one inline answer, every byte telling its offset.
const SIZE = INLINE_MAX_BYTES + 10;
const bytes = Buffer.alloc(SIZE);
for (let i = 0; i < SIZE; i++) bytes[i] = i % 251;
const dir = tempDir('deliver');
const filePath = join(dir, 'Film (2001).mkv');
writeFileSync(filePath, bytes);

const onDisk: StreamTarget = {
  path: filePath,
  size: SIZE,
  mtimeMs: 1_000,
  contentType: 'video/x-matroska',
  etag: '"a-1"',
  lastModified: 'Thu, 01 Jan 1970 00:00:01 GMT',
};
const inBucket: StreamTarget = { ...onDisk, path: undefined, object: { bucket: 'media', key: 'Film (2001).mkv' } };

const disk = localMediaStorage({ dataDir: dir, limits: { maxEntries: 1_000, maxDepth: 8 } });
// Presigning is computed here; the address is never asked anything.
const bucket = s3Storage(
  { region: 'us-east-1', bucket: 'media' },
  new S3Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  }),
);

describe('deliverStream', () => {
  it('redirects to a presigned URL where the storage serves the bytes itself, with no bytes in the answer', async () => {
    const reply = await deliverStream(bucket, inBucket, streamRequestOf('GET', { range: 'bytes=0-9' }), {
      delivery: 'inline',
      urlSeconds: 60,
    });
    assert.deepEqual(
      { ...reply, headers: { ...reply.headers, Location: undefined } },
      { status: 307, headers: { Location: undefined, 'Cache-Control': 'private, no-store' }, body: '' },
    );
    const location = new URL(reply.headers.Location!);
    assert.equal(location.pathname, '/media/Film%20%282001%29.mkv');
    assert.equal(location.searchParams.get('X-Amz-Expires'), '60');
    assert.equal(location.searchParams.get('response-content-type'), 'video/x-matroska');
  });

  it('names the file and range for the gateway in front, with a grant, with no bytes in the answer', async () => {
    const reply = await deliverStream(disk, onDisk, streamRequestOf('GET', { [FORWARDED_RANGE_HEADER]: 'bytes=10-19' }), {
      delivery: 'front-door',
      urlSeconds: 60,
    });
    assert.equal(reply.status, 206);
    assert.equal(reply.body, '');
    assert.equal(reply.headers['Content-Range'], `bytes 10-19/${SIZE}`);
    const spec = parseSendFile(reply.headers[SEND_FILE_HEADER]!);
    assert.deepEqual({ ...spec, grant: undefined }, { path: onDisk.path, start: 10, end: 19, head: false, grant: undefined });
    assert.equal(spec?.grant?.target.path, onDisk.path);
  });

  it('answers the bytes in the response through the storage, at most INLINE_MAX_BYTES as a 206', async () => {
    const reply = await deliverStream(disk, onDisk, streamRequestOf('GET', {}), { delivery: 'inline', urlSeconds: 60 });
    assert.equal(reply.status, 206);
    assert.equal(reply.headers['Content-Range'], `bytes 0-${INLINE_MAX_BYTES - 1}/${SIZE}`);
    assert.ok((reply.body as Buffer).equals(bytes.subarray(0, INLINE_MAX_BYTES)));
    const rest = await deliverStream(disk, onDisk, streamRequestOf('GET', { range: `bytes=${INLINE_MAX_BYTES}-` }), {
      delivery: 'inline',
      urlSeconds: 60,
    });
    assert.deepEqual([rest.status, rest.headers['Content-Range']], [206, `bytes ${INLINE_MAX_BYTES}-${SIZE - 1}/${SIZE}`]);
    assert.ok((rest.body as Buffer).equals(bytes.subarray(INLINE_MAX_BYTES)));
  });

  it('answers HEAD and 304 with headers only', async () => {
    const head = await deliverStream(disk, onDisk, streamRequestOf('HEAD', {}), { delivery: 'inline', urlSeconds: 60 });
    assert.deepEqual([head.status, head.headers['Content-Length'], head.body], [200, String(SIZE), '']);
    const notModified = await deliverStream(disk, onDisk, streamRequestOf('GET', { 'if-none-match': onDisk.etag }), {
      delivery: 'front-door',
      urlSeconds: 60,
    });
    assert.deepEqual([notModified.status, notModified.headers[SEND_FILE_HEADER], notModified.body], [304, undefined, '']);
  });
});
