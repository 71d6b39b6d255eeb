// Taking subtitle streams out of a real video with ffmpeg (lib/subtitles/extract.ts): one run
// for all of a file's streams however many ask at once, the cache reused, a broken file failed
// once and remembered, a replaced file extracted afresh, and a lock left by a dead process
// taken over. Skipped without ffmpeg, except in CI (MLS_REQUIRE_BROWSER), which installs it.
import assert from 'node:assert/strict';
import { statSync, writeFileSync, readdirSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SubtitleExtractor, type VideoFile } from '../../../lib/subtitles/extract';
import { findExecutable } from '../../../lib/util/executable';
import { tempDir } from '../../support/instance';
import { hasFfmpeg, makeMkv } from '../../support/videos';

const skip = !hasFfmpeg() && !process.env.MLS_REQUIRE_BROWSER ? 'needs ffmpeg (apt-get install ffmpeg)' : false;

const videoAt = (path: string, mediaId = 'mv_x'): VideoFile => {
  const s = statSync(path);
  return { mediaId, path, size: s.size, mtimeMs: s.mtimeMs };
};

describe('subtitle extraction', { skip }, () => {
  it('finds ffmpeg on PATH or by absolute path; `off` or a missing one is none', () => {
    const found = findExecutable('ffmpeg');
    assert.ok(found?.startsWith('/'));
    assert.equal(findExecutable(found!), found);
    assert.equal(findExecutable('off'), null);
    assert.equal(findExecutable('/nonexistent/ffmpeg'), null);
    assert.equal(new SubtitleExtractor({ ffmpeg: 'no-such-ffmpeg-here', cacheDir: tempDir('sx'), timeoutMs: 1_000 }).available, false);
  });

  it('one run serves requests that come at once, and the cache serves later ones', async () => {
    const dir = tempDir('sx');
    const video = videoAt(makeMkv(join(dir, 'clip.mkv')));
    const cacheDir = join(dir, 'cache');
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir, timeoutMs: 60_000 });
    const [a, b] = await Promise.all([extractor.extract(video, '0:3', ['0:3'], 30_000), extractor.extract(video, '0:3', ['0:3'], 30_000)]);
    assert.equal(a.state, 'ready');
    assert.deepEqual(a, b);
    assert.match((a as { text: string }).text, /^WEBVTT[\s\S]*Hallo[\s\S]*Welt/);
    const version = readdirSync(join(cacheDir, 'mv_x'));
    assert.equal(version.length, 1);
    assert.deepEqual(readdirSync(join(cacheDir, 'mv_x', version[0]!)).sort(), ['0_3.vtt', 'complete.txt'], 'no lock or work folder left');
    // Cached: answers with no wait at all.
    assert.deepEqual(await extractor.extract(video, '0:3', ['0:3'], 0), a);
  });

  it("is 'pending' when the wait runs out, and the run carries on to fill the cache", async () => {
    const dir = tempDir('sx');
    const video = videoAt(makeMkv(join(dir, 'clip.mkv')));
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir: join(dir, 'cache'), timeoutMs: 60_000 });
    assert.deepEqual(await extractor.extract(video, '0:3', ['0:3'], 0), { state: 'pending' });
    const later = await extractor.extract(video, '0:3', ['0:3'], 30_000);
    assert.equal(later.state, 'ready');
  });

  it('a file ffmpeg cannot read fails once, and is not read again at every request', async () => {
    const dir = tempDir('sx');
    const path = join(dir, 'broken.mkv');
    writeFileSync(path, Buffer.alloc(4096, 7));
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir: join(dir, 'cache'), timeoutMs: 60_000 });
    const first = await extractor.extract(videoAt(path), '0:3', [], 30_000);
    assert.equal(first.state, 'failed');
    assert.match((first as { reason: string }).reason, /ffmpeg exited with 1/);
    const failedAt = statSync(join(dir, 'cache', 'mv_x', readdirSync(join(dir, 'cache', 'mv_x'))[0]!, 'failed.txt')).mtimeMs;
    assert.deepEqual(await extractor.extract(videoAt(path), '0:3', [], 0), first, 'the marker answers');
    assert.equal(statSync(join(dir, 'cache', 'mv_x', readdirSync(join(dir, 'cache', 'mv_x'))[0]!, 'failed.txt')).mtimeMs, failedAt);
  });

  it('a replaced video gets a fresh folder and the old one goes; removeAll drops an item', async () => {
    const dir = tempDir('sx');
    const path = join(dir, 'clip.mkv');
    const cacheDir = join(dir, 'cache');
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir, timeoutMs: 60_000 });
    makeMkv(path);
    await extractor.extract(videoAt(path), '0:3', [], 30_000);
    const before = readdirSync(join(cacheDir, 'mv_x'));
    makeMkv(path, { seconds: 4 });
    assert.equal((await extractor.extract(videoAt(path), '0:3', [], 30_000)).state, 'ready');
    const after = readdirSync(join(cacheDir, 'mv_x'));
    assert.equal(after.length, 1);
    assert.notDeepEqual(after, before);
    await extractor.removeAll(['mv_x', '../escape']);
    assert.equal(existsSync(join(cacheDir, 'mv_x')), false);
  });

  it('takes over a lock left by a process that is gone; waits on one a live process holds', async () => {
    const dir = tempDir('sx');
    const video = videoAt(makeMkv(join(dir, 'clip.mkv')));
    const cacheDir = join(dir, 'cache');
    const folder = join(cacheDir, 'mv_x', `${video.size.toString(16)}-${Math.trunc(video.mtimeMs).toString(16)}`);
    mkdirSync(folder, { recursive: true });
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir, timeoutMs: 60_000 });
    // pid 1 is alive (and not ours): its lock holds while fresh.
    writeFileSync(join(folder, 'extracting.lock'), JSON.stringify({ pid: 1, at: Date.now() }));
    assert.deepEqual(await extractor.extract(video, '0:3', [], 300), { state: 'pending' });
    // A pid that cannot exist: taken over.
    writeFileSync(join(folder, 'extracting.lock'), JSON.stringify({ pid: 2 ** 30, at: Date.now() }));
    assert.equal((await extractor.extract(video, '0:3', [], 30_000)).state, 'ready');
  });

  it('refuses a stream specifier or media id that is not one the track list makes', async () => {
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir: tempDir('sx'), timeoutMs: 1_000 });
    const video = { mediaId: 'mv_x', path: '/dev/null', size: 0, mtimeMs: 0 };
    await assert.rejects(extractor.extract(video, '0:3 -f', [], 0), /Not a stream specifier/);
    await assert.rejects(extractor.extract({ ...video, mediaId: '../x' }, '0:3', [], 0), /Not a media id/);
  });
});
