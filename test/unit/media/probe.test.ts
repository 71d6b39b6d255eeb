// Probing real files made by ffmpeg in this test's setup, and files that are not media: empty,
// random, cut short, or sending MediaInfoLib into an endless loop. `.ci/run` installs ffmpeg
// and sets MLS_REQUIRE_BROWSER, so there a missing ffmpeg fails the tests; elsewhere they skip.
// It runs in a process of its own (test/run.ts): it times how soon an endless file is stopped.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  fileByteSource,
  probeFile,
  probeMedia,
  ProbeError,
  type ByteSource,
  type ProbeFailure,
  type TechnicalInfo,
} from '../../../lib/media/probe';
import { hasFfmpeg, hasHevcEncoder, makeMkv, makeMp4, makeWebm } from '../../support/videos';

const skip = !hasFfmpeg() && !process.env.MLS_REQUIRE_BROWSER ? 'needs ffmpeg (apt-get install ffmpeg)' : false;
const ENDLESS_LOOP = join(import.meta.dirname, '../../fixtures/media/mediainfo-endless-loop.mkv');

const inMemory = (bytes: Uint8Array): ByteSource => ({
  size: bytes.length,
  read: async (offset, length) => bytes.slice(offset, offset + length),
});

/** A source that counts the bytes read from it. */
const counting = (bytes: Uint8Array) => {
  const inner = inMemory(bytes);
  const source = {
    size: inner.size,
    bytesRead: 0,
    read: async (offset: number, length: number) => {
      const chunk = await inner.read(offset, length);
      source.bytesRead += chunk.length;
      return chunk;
    },
  };
  return source;
};

const rejectsWith = (promise: Promise<unknown>, reason: ProbeFailure) =>
  assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ProbeError, `a ProbeError, not ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    return true;
  });

const assertDuration = (info: TechnicalInfo, seconds: number) =>
  assert.ok(
    info.durationSeconds !== null && Math.abs(info.durationSeconds - seconds) <= 0.2,
    `duration ${info.durationSeconds}, expected ${seconds}`,
  );

describe('probing media files', { skip }, () => {
  let dir: string;
  const files = { mp4: '', mkv: '', webm: '', mp4IndexLast: '', minute: '' };

  before(() => {
    if (!hasFfmpeg()) throw new Error('the probe tests need ffmpeg');
    dir = mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), 'mls-probe-'));
    files.mp4 = makeMp4(join(dir, 'clip.mp4'));
    files.mkv = makeMkv(join(dir, 'clip.mkv'));
    files.webm = makeWebm(join(dir, 'clip.webm'));
    files.mp4IndexLast = makeMp4(join(dir, 'index-last.mp4'), { faststart: false });
    files.minute = makeMp4(join(dir, 'minute.mp4'), { seconds: 60, faststart: false });
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads an H.264 + AAC MP4: duration, container, codecs, frame size and the audio language', async () => {
    const info = await probeFile(files.mp4);

    assertDuration(info, 3);
    assert.equal(info.container, 'mp4');
    assert.deepEqual(info.video, { codec: 'h264', width: 320, height: 240, frameRate: 25, bitDepth: 8, hdr: null });
    // ffmpeg wrote ISO 639-2 `eng`; MediaInfoLib reports the BCP 47 form.
    assert.deepEqual(info.audio, [{ codec: 'aac', channels: 1, language: 'en', default: false }]);
    assert.deepEqual(info.subtitles, []);
    assert.ok(info.bitrate && info.bitrate > 0);
  });

  it('reads a Matroska file with two audio tracks and subtitles, each with its language', async () => {
    const info = await probeFile(files.mkv);

    assertDuration(info, 3);
    assert.equal(info.container, 'matroska');
    assert.deepEqual(
      { codec: info.video?.codec, width: info.video?.width, height: info.video?.height },
      { codec: hasHevcEncoder() ? 'hevc' : 'h264', width: 320, height: 240 },
    );
    assert.deepEqual(info.audio, [
      // ffmpeg marks the first track of each kind the default.
      { codec: 'ac3', channels: 1, language: 'en', default: true },
      { codec: 'aac', channels: 1, language: 'fr', default: false },
    ]);
    assert.deepEqual(info.subtitles, [{ codec: 'srt', language: 'de', streamIndex: 3, title: null, forced: false, default: false }]);
  });

  it('reads a VP9 + Opus WebM', async () => {
    const info = await probeFile(files.webm);

    assertDuration(info, 3);
    assert.equal(info.container, 'webm');
    assert.deepEqual(
      { codec: info.video?.codec, width: info.video?.width, height: info.video?.height },
      { codec: 'vp9', width: 320, height: 240 },
    );
    // MediaInfoLib reports no default flag on this one track.
    assert.deepEqual(info.audio, [{ codec: 'opus', channels: 1, language: null, default: false }]);
  });

  it('reads the header, the index at the end and the first frames of a longer file, not all of it', async () => {
    const bytes = readFileSync(files.minute);
    const source = counting(bytes);

    const info = await probeMedia(source);

    assertDuration(info, 60);
    assert.ok(source.bytesRead < bytes.length / 2, `read ${source.bytesRead} of ${bytes.length} bytes`);
  });

  it('gives the same answers to four probes at once as to one at a time', async () => {
    const paths = [files.mp4, files.mkv, files.webm, files.mp4IndexLast];
    const oneByOne: TechnicalInfo[] = [];
    for (const path of paths) oneByOne.push(await probeFile(path));

    const together = await Promise.all(paths.map((path) => probeFile(path)));

    assert.deepEqual(together, oneByOne);
  });

  it('fails an MP4 cut short before its index: no stream can be recognised', async () => {
    const cut = join(dir, 'cut.mp4');
    writeFileSync(cut, readFileSync(files.mp4IndexLast).subarray(0, 16 * 1024));

    await rejectsWith(probeFile(cut), 'not-media');
  });

  it('reports what a cut Matroska file still says in its header', async () => {
    const cut = join(dir, 'cut.mkv');
    writeFileSync(cut, readFileSync(files.mkv).subarray(0, 8 * 1024));

    const info = await probeFile(cut);

    assertDuration(info, 3);
    assert.deepEqual(
      info.audio.map((a) => a.language),
      ['en', 'fr'],
    );
  });

  it('fails random bytes, a text file and an empty file', async () => {
    const random = join(dir, 'random.mkv');
    writeFileSync(
      random,
      Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919 + (i >> 3) * 104729) % 251),
    );
    const text = join(dir, 'notes.mp4');
    writeFileSync(text, 'not a video, whatever the name says\n');
    const empty = join(dir, 'empty.mkv');
    writeFileSync(empty, '');

    await rejectsWith(probeFile(random), 'not-media');
    await rejectsWith(probeFile(text), 'not-media');
    await rejectsWith(probeFile(empty), 'empty');
  });

  it('stops a file that sends MediaInfoLib into an endless loop at the timeout, and goes on probing', async () => {
    const copy = join(dir, 'loop.mkv');
    copyFileSync(ENDLESS_LOOP, copy);
    const started = performance.now();

    await rejectsWith(probeFile(copy, { timeoutMs: 500 }), 'timeout');

    assert.ok(performance.now() - started < 2_000, `stopped after ${performance.now() - started} ms`);
    assertDuration(await probeFile(files.mp4), 3);
  });
});

describe('probing, whatever the source does', () => {
  it('fails with read-failed when the source cannot read', async () => {
    const broken: ByteSource = { size: 1_000, read: () => Promise.reject(new Error('connection reset')) };

    await rejectsWith(probeMedia(broken), 'read-failed');
  });

  it('times out when a read never answers', async () => {
    const stuck: ByteSource = { size: 1_000, read: () => new Promise(() => {}) };

    await rejectsWith(probeMedia(stuck, { timeoutMs: 100 }), 'timeout');
  });

  it('stops when the caller aborts', async () => {
    const stuck: ByteSource = { size: 1_000, read: () => new Promise(() => {}) };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);

    await rejectsWith(probeMedia(stuck, { signal: controller.signal }), 'aborted');
  });

  it('fails with read-failed for a file that is not there', async () => {
    await rejectsWith(probeFile(join(tmpdir(), 'mls-no-such-file.mkv')), 'read-failed');
  });
});

describe('a local file as a byte source', () => {
  it('reads the ranges asked for, short at the end, and closes', async () => {
    const dir = mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), 'mls-bytes-'));
    try {
      const path = join(dir, 'ten.bin');
      writeFileSync(path, Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
      const source = await fileByteSource(path);

      const middle = await source.read(2, 3);
      const end = await source.read(8, 5);
      const past = await source.read(12, 4);
      await source.close();

      assert.equal(source.size, 10);
      assert.deepEqual([...middle], [2, 3, 4]);
      assert.deepEqual([...end], [8, 9]);
      assert.deepEqual([...past], []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
