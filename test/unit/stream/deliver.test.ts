// How a stream's bytes leave (lib/stream/deliver.ts): a presigned redirect where the storage
// serves them, the internal redirect where a gateway in front sends them, else in the response,
// read through the storage port.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaStorage } from '../../../lib/storage';
import { deliverStream, INLINE_MAX_BYTES, streamRequestOf } from '../../../lib/stream/deliver';
import type { StreamTarget } from '../../../lib/stream/resolve';
import { FORWARDED_RANGE_HEADER, parseSendFile, SEND_FILE_HEADER } from '../../../lib/stream/send-file';

const SIZE = INLINE_MAX_BYTES + 10;
const onDisk: StreamTarget = { path: '/media/Film (2001).mkv', size: SIZE, mtimeMs: 1_000, contentType: 'video/x-matroska', etag: '"a-1"', lastModified: 'Thu, 01 Jan 1970 00:00:01 GMT' };
const inBucket: StreamTarget = { ...onDisk, path: undefined, object: { bucket: 'media', key: 'Film (2001).mkv' } };

/** A storage that records what was read and presigns when asked to. */
const storageOf = (presigns: boolean) => {
  const reads: Array<[number, number]> = [];
  const storage = {
    readRange: async (_file: unknown, start: number, end: number) => {
      reads.push([start, end]);
      return Buffer.alloc(end - start + 1, 7);
    },
    ...(presigns ? { signedUrl: async () => 'https://bucket.example/signed' } : {}),
  } as unknown as MediaStorage;
  return { storage, reads };
};

describe('deliverStream', () => {
  it('redirects to a presigned URL where the storage serves the bytes itself, reading none', async () => {
    const { storage, reads } = storageOf(true);
    const reply = await deliverStream(storage, inBucket, streamRequestOf('GET', { range: 'bytes=0-9' }), { delivery: 'inline', urlSeconds: 60 });
    assert.deepEqual(reply, { status: 307, headers: { Location: 'https://bucket.example/signed', 'Cache-Control': 'private, no-store' }, body: '' });
    assert.deepEqual(reads, []);
  });

  it('names the file and range for the gateway in front, with a grant, reading none', async () => {
    const { storage, reads } = storageOf(false);
    const reply = await deliverStream(storage, onDisk, streamRequestOf('GET', { [FORWARDED_RANGE_HEADER]: 'bytes=10-19' }), { delivery: 'front-door', urlSeconds: 60 });
    assert.equal(reply.status, 206);
    assert.equal(reply.body, '');
    assert.equal(reply.headers['Content-Range'], `bytes 10-19/${SIZE}`);
    const spec = parseSendFile(reply.headers[SEND_FILE_HEADER]!);
    assert.deepEqual({ ...spec, grant: undefined }, { path: onDisk.path, start: 10, end: 19, head: false, grant: undefined });
    assert.equal(spec?.grant?.target.path, onDisk.path);
    assert.deepEqual(reads, []);
  });

  it('answers the bytes in the response through the storage, at most INLINE_MAX_BYTES as a 206', async () => {
    const { storage, reads } = storageOf(false);
    const reply = await deliverStream(storage, onDisk, streamRequestOf('GET', {}), { delivery: 'inline', urlSeconds: 60 });
    assert.equal(reply.status, 206);
    assert.equal(reply.headers['Content-Range'], `bytes 0-${INLINE_MAX_BYTES - 1}/${SIZE}`);
    assert.equal((reply.body as Buffer).length, INLINE_MAX_BYTES);
    assert.deepEqual(reads, [[0, INLINE_MAX_BYTES - 1]]);
  });

  it('answers HEAD and 304 with headers only', async () => {
    const { storage, reads } = storageOf(false);
    const head = await deliverStream(storage, onDisk, streamRequestOf('HEAD', {}), { delivery: 'inline', urlSeconds: 60 });
    assert.deepEqual([head.status, head.headers['Content-Length'], head.body], [200, String(SIZE), '']);
    const notModified = await deliverStream(storage, onDisk, streamRequestOf('GET', { 'if-none-match': onDisk.etag }), { delivery: 'front-door', urlSeconds: 60 });
    assert.deepEqual([notModified.status, notModified.headers[SEND_FILE_HEADER], notModified.body], [304, undefined, '']);
    assert.deepEqual(reads, []);
  });
});
