// The front door's byte sender on a real server and real files: exact bytes across its
// reused chunk buffers, concurrent readers that never see each other's bytes, a client that
// leaves mid-file, and a file that shrinks while it is being sent.
import assert from 'node:assert/strict';
import { writeFileSync, truncateSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sendBytes } from '../../../infra/gateway/send-file';
import { rootLogger } from '../../../lib/log';
import { tempDir } from '../../support/instance';

const MiB = 1024 * 1024;
const pattern = (size: number, seed: number) => {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 131 + seed + (i >> 12)) & 0xff;
  return b;
};

const dir = tempDir('send-file');
const files = { a: join(dir, 'a.bin'), b: join(dir, 'b.bin'), shrinking: join(dir, 'shrinking.bin') };
const content = { a: pattern(5 * MiB + 17, 1), b: pattern(3 * MiB + 5, 2) };
let server: Server;
let base: string;
const missing: string[] = [];

const get = (path: string, start: number, end: number, opts: { abortAfter?: number } = {}) =>
  new Promise<{ status: number; body: Buffer; complete: boolean }>((resolve, reject) => {
    const req = request(`${base}/?path=${encodeURIComponent(path)}&start=${start}&end=${end}`, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let got = 0;
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        got += c.length;
        if (opts.abortAfter !== undefined && got >= opts.abortAfter) req.destroy();
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), complete: false }));
    });
    req.on('error', (err) =>
      opts.abortAfter !== undefined ? resolve({ status: 0, body: Buffer.alloc(0), complete: false }) : reject(err),
    );
    req.end();
  });

describe('front door byte sender', () => {
  before(async () => {
    writeFileSync(files.a, content.a);
    writeFileSync(files.b, content.b);
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const path = url.searchParams.get('path')!;
      const start = Number(url.searchParams.get('start'));
      const end = Number(url.searchParams.get('end'));
      sendBytes(res, 206, { 'content-type': 'application/octet-stream' }, { path, start, end }, rootLogger, () => {
        missing.push(path);
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('sends exactly the named bytes, across chunk boundaries', async () => {
    for (const [start, end] of [
      [0, content.a.length - 1],
      [MiB - 1, 2 * MiB],
      [12_345, 12_345],
      [4 * MiB + 3, content.a.length - 1],
    ] as const) {
      const res = await get(files.a, start, end);
      assert.equal(res.status, 206);
      assert.ok(res.body.equals(content.a.subarray(start, end + 1)), `${start}-${end}`);
    }
  });

  it('eight readers of two files at once each get their own bytes', async () => {
    const jobs = Array.from({ length: 8 }, (_, i) => {
      const [file, data] = i % 2 ? [files.b, content.b] : [files.a, content.a];
      const start = i * 100_003;
      return get(file, start, data.length - 1).then((res) => assert.ok(res.body.equals(data.subarray(start)), `reader ${i}`));
    });
    await Promise.all(jobs);
  });

  it('a client that leaves mid-file does not harm the readers after it', async () => {
    for (let i = 0; i < 5; i++) await get(files.a, 0, content.a.length - 1, { abortAfter: 64 * 1024 });
    const res = await get(files.a, 0, content.a.length - 1);
    assert.ok(res.body.equals(content.a));
  });

  it('a file that shrinks while it is sent ends the response short, and the server goes on', async () => {
    writeFileSync(files.shrinking, pattern(4 * MiB, 3));
    const pending = get(files.shrinking, 0, 4 * MiB - 1);
    truncateSync(files.shrinking, MiB);
    const res = await pending;
    assert.ok(res.body.length < 4 * MiB);
    assert.equal(res.complete, false);
    assert.ok((await get(files.b, 0, 99)).body.equals(content.b.subarray(0, 100)));
  });

  it('a file gone before it is opened is handed to the caller', async () => {
    const res = await get(join(dir, 'never.bin'), 0, 10);
    assert.equal(res.status, 404);
    assert.deepEqual(missing, [join(dir, 'never.bin')]);
  });
});
