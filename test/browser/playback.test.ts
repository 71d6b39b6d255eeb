// A real browser plays and seeks through the product's stream URLs: headless Chromium from
// Debian (driven by playwright-core) loads a small H.264 MP4 and a VP9 WebM made by ffmpeg in
// this test's setup, plays each, seeks to the middle, and must land there; and it shows a cue
// of an SRT beside the MP4, converted to WebVTT by the subtitle endpoint, at its time through
// a <track> whose src is the URL the movie's details list (test/support/browser.ts says
// when it is skipped).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkip as skip, launchChromium } from '../support/browser';
import { tempDir } from '../support/instance';
import { mediaOf, scan } from '../support/media';
import { call, stack } from '../support/stack';
import { ffmpeg } from '../support/ffmpeg';

// Runs in the page. A string, because the test's TypeScript loader adds helpers to compiled
// functions that do not exist in the browser.
const PLAY_AND_SEEK = `async (url) => {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  document.body.appendChild(video);
  const once = (event) => new Promise((resolve, reject) => {
    video.addEventListener(event, () => resolve(), { once: true });
    video.addEventListener('error', () => reject(new Error('media error ' + (video.error && video.error.code) + ': ' + (video.error && video.error.message))), { once: true });
  });
  video.src = url;
  await once('loadedmetadata');
  await video.play();
  const target = video.duration / 2;
  const seeked = once('seeked');
  video.currentTime = target;
  await seeked;
  const landed = video.currentTime;
  video.remove();
  return { duration: video.duration, target, landed };
}`;

// A <track> on the video: once it has loaded and the video is at `at` seconds, the cues the
// browser itself says are active.
const ACTIVE_CUES_AT = `async ({ src, track, at }) => {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  const el = document.createElement('track');
  el.kind = 'subtitles';
  el.srclang = 'fr';
  el.src = track;
  el.default = true;
  video.appendChild(el);
  document.body.appendChild(video);
  const loaded = new Promise((resolve, reject) => {
    el.addEventListener('load', () => resolve(), { once: true });
    el.addEventListener('error', () => reject(new Error('the track did not load')), { once: true });
  });
  video.src = src;
  await new Promise((resolve) => video.addEventListener('loadedmetadata', () => resolve(), { once: true }));
  video.textTracks[0].mode = 'showing';
  await loaded;
  const seeked = new Promise((resolve) => video.addEventListener('seeked', () => resolve(), { once: true }));
  video.currentTime = at;
  await seeked;
  // activeCues follows the time on the next rendering step.
  for (let i = 0; i < 50 && (!video.textTracks[0].activeCues || video.textTracks[0].activeCues.length === 0); i++) await new Promise((r) => setTimeout(r, 20));
  const cues = [...(video.textTracks[0].activeCues || [])].map((c) => ({ text: c.text, startTime: c.startTime, endTime: c.endTime }));
  const all = video.textTracks[0].cues ? video.textTracks[0].cues.length : 0;
  video.remove();
  return { cues, all, time: video.currentTime };
}`;

/** Beside the MP4: two cues, the second at 3-5 s, in Windows-1252 as many older SRTs are. */
const SUBTITLE = Buffer.from(
  '1\r\n00:00:00,500 --> 00:00:01,500\r\nPremier\r\n\r\n2\r\n00:00:03,000 --> 00:00:05,000\r\n<i>Déjà vu</i>\r\n',
  'latin1',
);

const encode = (out: string, codecArgs: string[]) =>
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=8', ...codecArgs, out]);

describe('playback in a real browser', { skip }, () => {
  let browser: Browser;
  let page: Page;
  const urls: Record<string, string> = {};
  let subtitleUrl: string | undefined;

  before(async () => {
    const dir = tempDir('browser');
    encode(join(dir, 'Browser Clip H264 (2020).mp4'), ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '25', '-movflags', '+faststart']);
    writeFileSync(join(dir, 'Browser Clip H264 (2020).fr.srt'), SUBTITLE);
    encode(join(dir, 'Browser Clip VP9 (2021).webm'), [
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '200k',
      '-g',
      '25',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
    ]);
    const job = await scan({ path: dir, mediaType: 'movie' });
    assert.equal(job.status, 'completed');
    for (const m of mediaOf((await call('GET', '/api/v1/movies?limit=100')).json.data)) {
      if (!m.title.startsWith('Browser Clip')) continue;
      const detail = (await call('GET', `/api/v1/movies/${m.id}`)).json.data;
      urls[m.title] = detail.streamUrl;
      subtitleUrl ??= detail.subtitles.find((t: { language: string }) => t.language === 'fr')?.url;
    }
    browser = await launchChromium();
    page = await browser.newPage();
    // A page of the service itself, so the video loads from the same origin a client app would use.
    await page.goto(`${stack.url}/api/docs`);
  });
  after(async () => {
    await browser?.close();
  });

  it('shows the cue of an SRT beside the MP4 at its time, through a <track> of the subtitle URL', async () => {
    assert.ok(subtitleUrl, 'the French SRT is listed with a URL');
    const src = urls['Browser Clip H264'];
    const at = await page.evaluate<{ cues: Array<{ text: string; startTime: number; endTime: number }>; all: number }>(
      `(${ACTIVE_CUES_AT})(${JSON.stringify({ src, track: subtitleUrl, at: 4 })})`,
    );
    assert.equal(at.all, 2, 'both cues read');
    assert.deepEqual(at.cues, [{ text: '<i>Déjà vu</i>', startTime: 3, endTime: 5 }]);
    const before = await page.evaluate<{ cues: unknown[] }>(`(${ACTIVE_CUES_AT})(${JSON.stringify({ src, track: subtitleUrl, at: 2 })})`);
    assert.deepEqual(before.cues, [], 'between the cues, none is active');
  });

  for (const title of ['Browser Clip H264', 'Browser Clip VP9']) {
    it(`plays ${title} and seeks to the middle`, async () => {
      const src = urls[title];
      assert.ok(src, `${title} was scanned`);
      const result = await page.evaluate<{ duration: number; target: number; landed: number }>(
        `(${PLAY_AND_SEEK})(${JSON.stringify(src)})`,
      );
      assert.ok(result.duration > 7 && result.duration < 9, `duration ${result.duration}`);
      assert.ok(Math.abs(result.landed - result.target) < 0.5, `seeked to ${result.target}, landed at ${result.landed}`);
    });
  }
});
