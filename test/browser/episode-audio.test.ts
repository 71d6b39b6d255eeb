// An episode with two audio tracks gets the menu a film has (web/src/screens/player.tsx): the
// player page of an episode made by ffmpeg (English AAC, French AC-3 marked default, as a
// dubbed release is) lists both, plays the default one, and plays the other when it is picked.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkip as skip, launchChromium } from '../support/browser';
import { tempDir, waitFor } from '../support/instance';
import { scan } from '../support/media';
import { call, stack } from '../support/stack';
import { ffmpeg } from '../support/ffmpeg';

const PLAYING = `(() => { const v = document.querySelector('.player video'); return !!v && v.currentTime > 0.5 && v.webkitAudioDecodedByteCount > 0; })()`;

describe("an episode's audio tracks in a real browser", { skip }, () => {
  let browser: Browser;
  let address = '';

  before(async () => {
    const season = join(tempDir('episode-audio'), 'Pb Dubbed Show', 'Season 01');
    mkdirSync(season, { recursive: true });
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25:duration=8',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000:duration=8',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=660:sample_rate=48000:duration=8',
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-map',
      '2:a',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '50',
      '-c:a:0',
      'aac',
      '-ac:a:0',
      '2',
      '-c:a:1',
      'ac3',
      '-ac:a:1',
      '6',
      '-ar',
      '48000',
      '-metadata:s:a:0',
      'language=eng',
      '-metadata:s:a:1',
      'language=fra',
      '-disposition:a:0',
      '0',
      '-disposition:a:1',
      'default',
      '-default_mode',
      'infer',
      join(season, 'Pb Dubbed Show S01E01.mkv'),
    ]);
    assert.equal((await scan({ path: join(season, '..'), mediaType: 'tvshow' })).status, 'completed');
    const shows = (await call('GET', '/api/v1/tvshows?limit=100')).json.data as Array<{ id: string; media: { title: string } }>;
    const show = shows.find((s) => s.media.title.startsWith('Pb Dubbed Show'));
    assert.ok(show, 'the show was scanned');
    const detail = (await call('GET', `/api/v1/tvshows/${show.id}`)).json.data as { seasons: Array<{ episodes: Array<{ id: string }> }> };
    address = `${stack.url}/shows/${show.id}/play/${detail.seasons[0]!.episodes[0]!.id}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  it('offers both tracks, the default one chosen, and plays the other when picked', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(address);
      await waitFor('the episode to play', async () => (await page.evaluate(PLAYING)) || undefined, 45_000, 200);
      assert.deepEqual(await page.locator('.audio-track option').allInnerTexts(), ['English (AAC stereo)', 'French (AC3 5.1)']);
      assert.equal(await page.locator('.audio-track select').inputValue(), '1', 'the French AC-3 track, marked default');
      assert.match(await page.locator('.player .conversion').innerText(), /AC3 → AAC/);
      await page.locator('.audio-track select').selectOption('0');
      await waitFor(
        "the English track's conversion",
        async () => !/AC3/.test(await page.locator('.player .conversion').innerText()) || undefined,
        15_000,
      );
      await waitFor('the episode to play again', async () => (await page.evaluate(PLAYING)) || undefined, 45_000, 200);
      assert.equal(await page.locator('.audio-track select').inputValue(), '0');
    } finally {
      await page.close({ runBeforeUnload: true });
    }
  });
});
