// The reader beside a scan's writes (lib/scan/analyze.ts): it reads headers in the writes'
// order, a bounded distance ahead of them, gives each write what it has read, leaves the files
// whose items were written first to the second pass, and no file is read twice. Real files on
// the local storage (not media: each reads as no technical info), the reads counted.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CatalogItem } from '../../../lib/catalog/model';
import { rootLogger } from '../../../lib/log';
import { analyzeFiles, HeaderReader, unreadPaths, type ProbeTally } from '../../../lib/scan/analyze';
import type { ClosableByteSource } from '../../../lib/storage/byte-source';
import { localMediaStorage } from '../../../lib/storage/local';
import { tempDir, waitFor } from '../../support/instance';

const FILES = 10;

const setUp = () => {
  const root = tempDir('header-reader');
  const items = Array.from({ length: FILES }, (_, i) => {
    const relPath = `Film ${i} (2000).mkv`;
    writeFileSync(join(root, relPath), `not a video ${i}`);
    return {
      id: `mv_${i}`,
      entity: 'movie',
      title: `Film ${i}`,
      year: 2000,
      files: [{ relPath, size: 13, mtimeMs: 1, part: null }],
    } as unknown as CatalogItem;
  });
  const storage = localMediaStorage({ dataDir: tempDir('header-reader-data'), limits: { maxEntries: 1000, maxDepth: 8 } });
  const reads = new Map<string, number>();
  const done = { count: 0 };
  const deps = {
    log: rootLogger.child({ test: 'header-reader' }),
    storage: {
      ...storage,
      byteSource: async (r: string, p: string): Promise<ClosableByteSource | undefined> => {
        reads.set(p, (reads.get(p) ?? 0) + 1);
        const source = await storage.byteSource(r, p);
        if (!source) return undefined;
        // Closed once the header was read: what `done` counts.
        return {
          size: source.size,
          read: (offset, length) => source.read(offset, length),
          close: async () => (done.count++, source.close()),
        };
      },
    },
  };
  return { root, items, reads, done, deps };
};
const settled = () => new Promise((r) => setTimeout(r, 150));
const readTimes = (reads: Map<string, number>) => [...reads.values()].reduce((a, b) => a + b, 0);

describe('the header reader beside the writes', () => {
  it('runs at most its distance ahead of the writes, and on as they take', async () => {
    const { root, items, reads, done, deps } = setUp();
    const reader = new HeaderReader(deps, root, unreadPaths(items), 3);
    await waitFor('three read', async () => (done.count === 3 ? true : undefined), 10_000, 20);
    await settled();
    assert.equal(reads.size, 3, 'three ahead of no write');
    const tally: ProbeTally = { probed: 0, failed: 0 };
    const first = reader.take(items.slice(0, 3), tally);
    assert.deepEqual(
      first.map((i) => (i.entity === 'movie' ? i.files[0]!.tech : 'show')),
      [null, null, null],
      'the write carries what was read',
    );
    assert.deepEqual(tally, { probed: 0, failed: 3 });
    await waitFor('three more', async () => (done.count === 6 ? true : undefined), 10_000, 20);
    await settled();
    assert.equal(reads.size, 6);
    const left = await reader.stop();
    assert.deepEqual([...left.keys()].sort(), unreadPaths(items.slice(3, 6)).sort(), 'read and not yet taken: given back');
    assert.equal(readTimes(reads), 6);
  });

  it('leaves files whose items were written first to the second pass, which reads each of the rest once', async () => {
    const { root, items, reads, deps } = setUp();
    const reader = new HeaderReader(deps, root, unreadPaths(items), 3);
    // Every item written before the reader got anywhere: the writes never wait for it.
    const tally: ProbeTally = { probed: 0, failed: 0 };
    const written = reader.take(items, tally);
    const left = await reader.stop();
    assert.ok(reads.size <= 4, `at most the reads in flight: ${reads.size}`);
    const described = await analyzeFiles(deps, root, written, tally, left);
    assert.ok(described.every((i) => i.entity === 'movie' && i.files[0]!.tech === null));
    assert.equal(reads.size, FILES);
    assert.equal(readTimes(reads), FILES, 'no file read twice');
    assert.equal(tally.failed, FILES, 'each counted once');
  });
});
