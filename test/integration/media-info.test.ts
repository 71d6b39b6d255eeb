// Technical info read during a scan from real files that ffmpeg makes here: durations and
// codecs in movie and episode details, the library's total duration, and a truncated file
// that is counted for the probing step only and never fails the scan. `.ci/run` installs
// ffmpeg and sets MLS_REQUIRE_BROWSER, so there a missing ffmpeg fails; elsewhere it skips.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { tempDir } from '../support/instance';
import { allPages, scan } from '../support/media';
import { call } from '../support/stack';
import { hasFfmpeg, makeMkv, makeMp4, makeWebm } from '../support/videos';

const skip = !hasFfmpeg() && !process.env.MLS_REQUIRE_BROWSER ? 'needs ffmpeg (apt-get install ffmpeg)' : false;

describe('technical info from the files', { skip }, () => {
  const movies = tempDir('probe-movies');
  const shows = tempDir('probe-shows');

  before(() => {
    mkdirSync(join(movies, 'Probe Clip (2020)'), { recursive: true });
    makeMp4(join(movies, 'Probe Clip (2020)', 'Probe Clip (2020).mp4'), { seconds: 3 });
    makeMkv(join(movies, 'Probe Many Tracks (2021).mkv'), { seconds: 2 });
    const whole = makeMp4(join(tempDir('probe-source'), 'whole.mp4'), { seconds: 3, faststart: false });
    // The first 20 KB of a file whose index is at its end: no stream can be read from it.
    writeFileSync(join(movies, 'Probe Truncated (2022).mp4'), readFileSync(whole).subarray(0, 20_000));
    mkdirSync(join(shows, 'Probe Show (2019)', 'Season 1'), { recursive: true });
    makeWebm(join(shows, 'Probe Show (2019)', 'Season 1', 'Probe Show - S01E01.webm'), { seconds: 2 });
  });

  const detail = async (title: string) => {
    const all = await allPages('/api/v1/movies');
    const movie = all.find((m) => m.title === title);
    assert.ok(movie, title);
    return (await call('GET', `/api/v1/movies/${movie.id}`)).json.data;
  };

  it('movie details carry duration, container and codecs; a truncated file does not fail the scan', async () => {
    const job = await scan({ path: movies, mediaType: 'movie' });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(
      { probed: job.counts.probed, probeFailed: job.counts.probeFailed, failed: job.counts.failed, added: job.counts.added },
      { probed: 2, probeFailed: 1, failed: 0, added: 3 },
    );

    const clip = (await detail('Probe Clip')).file;
    assert.ok(Math.abs(clip.durationSeconds - 3) < 0.2, `duration ${clip.durationSeconds}`);
    assert.equal(clip.container, 'mp4');
    assert.deepEqual(
      { codec: clip.video.codec, width: clip.video.width, height: clip.video.height },
      { codec: 'h264', width: 320, height: 240 },
    );
    assert.deepEqual(
      clip.audio.map((a: any) => [a.codec, a.language]),
      [['aac', 'en']],
    );

    const many = (await detail('Probe Many Tracks')).file;
    assert.equal(many.container, 'matroska');
    assert.deepEqual(
      many.audio.map((a: any) => [a.codec, a.language]),
      [
        ['ac3', 'en'],
        ['aac', 'fr'],
      ],
    );
    assert.deepEqual(
      many.subtitles.map((s: any) => s.language),
      ['de'],
    );

    const truncated = (await detail('Probe Truncated')).file;
    assert.equal(truncated.durationSeconds, null);
    assert.equal(truncated.video, null);
    assert.equal(truncated.container, 'mp4', 'the extension still names the container');
  });

  it('a rescan of unchanged files reads no headers again', async () => {
    const job = await scan({ path: movies, mediaType: 'movie' });
    assert.deepEqual({ probed: job.counts.probed, probeFailed: job.counts.probeFailed }, { probed: 0, probeFailed: 0 });
  });

  it('episodes carry theirs, and the library stats sum the durations', async () => {
    const job = await scan({ path: shows, mediaType: 'tvshow' });
    assert.equal(job.status, 'completed');
    const list = await allPages('/api/v1/tvshows');
    const show = (await call('GET', `/api/v1/tvshows/${list.find((s) => s.title === 'Probe Show')!.id}`)).json.data;
    const file = show.seasons[0].episodes[0].file;
    assert.equal(file.container, 'webm');
    assert.equal(file.video.codec, 'vp9');
    assert.deepEqual(
      file.audio.map((a: any) => a.codec),
      ['opus'],
    );
    assert.ok(Math.abs(file.durationSeconds - 2) < 0.2);
    const stats = (await call('GET', '/api/v1/library/stats')).json.data;
    assert.ok(stats.totalDurationSeconds >= 7, `total ${stats.totalDurationSeconds}`);
  });
});
