// When the disk runs low, the caches give their space back first (lib/scan/disk-full.ts): the
// artwork variants rendered on demand and the subtitles taken out of videos go, on real
// folders; the sources stay, and so does an extraction running now.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { localArtworkStore, sourceKey, variantKeyOf } from '../../lib/artwork/store';
import { SubtitleExtractor } from '../../lib/subtitles/extract';
import { tempDir } from '../support/instance';

const sizeOf = (path: string) => statSync(path).size;

describe('caches give their space back', () => {
  it('artwork: every rendered variant and stray temporary file goes, every source stays', async () => {
    const root = tempDir('reclaim-artwork');
    const store = localArtworkStore(root);
    const jpeg = await sharp({ create: { width: 64, height: 96, channels: 3, background: '#405060' } })
      .jpeg()
      .toBuffer();
    const webp = await sharp(jpeg).webp().toBuffer();
    const source = sourceKey('mv_one', 'poster', 'etag1');
    const variants = [
      variantKeyOf('mv_one', 'poster', 'etag1', { width: 160, format: 'webp' }),
      variantKeyOf('mv_one', 'poster', 'etag1', { width: 320, format: 'webp' }),
    ];
    await store.put(source, jpeg, 'image/jpeg');
    for (const key of variants) await store.put(key, webp, 'image/webp');
    await store.put(sourceKey('mv_two', 'backdrop', 'etag2'), jpeg, 'image/jpeg');
    // What a writer killed mid-write leaves: a temporary file no key can name.
    const stray = join(root, 'mv_one', 'poster-etag1', '.0123456789ab.tmp');
    writeFileSync(stray, Buffer.alloc(1000));

    const freed = await store.dropVariants!();

    assert.equal(freed, 2 * webp.length + 1000);
    for (const key of variants) assert.equal(await store.get(key), undefined, `${key} is gone`);
    assert.equal(existsSync(stray), false);
    assert.deepEqual((await store.get(source))?.bytes, jpeg);
    assert.deepEqual((await store.get(sourceKey('mv_two', 'backdrop', 'etag2')))?.bytes, jpeg);
    assert.equal(await store.dropVariants!(), 0, 'nothing more to give');
  });

  it('subtitles: finished extractions go, one running now keeps its folder', async () => {
    const cacheDir = tempDir('reclaim-subtitles');
    const done = join(cacheDir, 'mv_one', '1f-2a');
    const running = join(cacheDir, 'mv_two', '3b-4c');
    mkdirSync(done, { recursive: true });
    mkdirSync(running, { recursive: true });
    writeFileSync(join(done, '0_3.vtt'), 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n');
    writeFileSync(join(done, 'complete.txt'), '0:3');
    writeFileSync(join(running, 'extracting.lock'), JSON.stringify({ pid: process.pid, at: Date.now() }));
    writeFileSync(join(running, '0_2.vtt'), 'WEBVTT\n');
    const expected = sizeOf(join(done, '0_3.vtt')) + sizeOf(join(done, 'complete.txt'));

    const freed = await new SubtitleExtractor({ ffmpeg: 'off', cacheDir, timeoutMs: 1_000 }).clear();

    assert.equal(freed, expected);
    assert.equal(existsSync(done), false);
    assert.deepEqual(readdirSync(running).sort(), ['0_2.vtt', 'extracting.lock']);
  });
});
