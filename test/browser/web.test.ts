// The web client in a real browser (Debian's Chromium), against an instance of the service
// with a library of real videos matched with the fake TMDB, with every host but the box
// blocked: the client loads nothing from anywhere else. Screenshots of home and a film's page
// at a phone's and a TV's size are kept in test/.artifacts/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkip, launchChromium, pageOnlyFor, SCREENSHOTS, SIZES } from '../support/browser';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { scan } from '../support/media';
import { makeMp4 } from '../support/videos';

const KEY = 'web-client-tmdb-key-1234';

// Run in the page (functions, as the page's CSP allows no eval); the page's globals, typed loosely here.
declare const document: {
  querySelectorAll(s: string): ArrayLike<{ complete: boolean; naturalWidth: number; getAttribute(n: string): string | null }>;
  querySelector(s: string): { currentTime: number } | null;
  activeElement: { getAttribute(n: string): string | null } | null;
  documentElement: { scrollWidth: number };
  body: object;
};
declare const MutationObserver: new (callback: () => void) => { observe(target: object, options: object): void };
declare const innerWidth: number;
const POSTERS_LOADED = () => Array.from(document.querySelectorAll('.poster-art img')).every((img) => img.complete && img.naturalWidth > 0);
const FOCUSED_ID = () => document.activeElement?.getAttribute('data-id');
const FITS = () => document.documentElement.scrollWidth <= innerWidth;

describe('the web client', { skip: browserSkip }, () => {
  let tmdb: FakeTmdbServer;
  let instance: Instance;
  let browser: Browser;
  let page: Page;
  const blocked: string[] = [];
  let more: string;
  const failed: string[] = [];

  before(async () => {
    // Slow enough answers that a scan of a few films is seen in progress.
    const fake = new FakeTmdb({ keys: [KEY], latencyMs: 150 });
    fake.addMovie({
      id: 194,
      title: 'Amélie',
      originalTitle: "Le Fabuleux Destin d'Amélie Poulain",
      releaseDate: '2001-04-25',
      overview: 'A shy waitress decides to change the lives of those around her.',
      genres: ['Comedy', 'Romance'],
      cast: [{ name: 'Audrey Tautou', character: 'Amélie Poulain' }],
    });
    fake.addMovie({ id: 949, title: 'Heat', releaseDate: '1995-12-15', overview: 'A bank robbery goes wrong.', genres: ['Crime'] });
    fake.addMovie({
      id: 348,
      title: 'Alien',
      releaseDate: '1979-05-25',
      overview: 'In space no one can hear you scream.',
      genres: ['Horror'],
    });
    fake.addShow({
      id: 57243,
      name: 'Doctor Who',
      firstAirDate: '2005-03-26',
      overview: 'A Time Lord travels.',
      genres: ['Drama'],
      seasons: [
        {
          seasonNumber: 1,
          episodes: [
            { episodeNumber: 1, name: 'Rose', airDate: '2005-03-26' },
            { episodeNumber: 2, name: 'The End of the World', airDate: '2005-04-02' },
          ],
        },
      ],
    });
    tmdb = await fake.start();
    const films = tempDir('web-films');
    for (const name of ['Amelie (2001)', 'Heat (1995)', 'Alien (1979)']) {
      mkdirSync(join(films, name));
      makeMp4(join(films, name, `${name}.mp4`), { seconds: 6 });
    }
    instance = await startInstance({
      env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, LOG_LEVEL: 'info' },
    });
    const job = await scan({ path: films, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const shows = tempDir('web-shows');
    mkdirSync(join(shows, 'Doctor Who (2005)', 'Season 01'), { recursive: true });
    for (const n of [1, 2]) makeMp4(join(shows, 'Doctor Who (2005)', 'Season 01', `Doctor Who S01E0${n}.mp4`), { seconds: 6 });
    const showJob = await scan({ path: shows, mediaType: 'tvshow' }, instance.url);
    assert.equal(showJob.status, 'completed', JSON.stringify(showJob.error));
    // A folder the libraries screen adds and scans.
    more = tempDir('web-more');
    for (const [i, name] of [
      'Brazil (1985)',
      'Forrest Gump (1994)',
      'Pulp Fiction (1994)',
      'The Dark Knight (2008)',
      'Blade Runner (1982)',
      'Star Wars (1977)',
    ].entries()) {
      mkdirSync(join(more, name));
      makeMp4(join(more, name, `${name}.mp4`), { seconds: 2 + (i % 2) });
    }

    browser = await launchChromium();
    // Every other host is blocked: no CDN, no font, no analytics.
    ({ page } = await pageOnlyFor(browser, instance.url, SIZES.tv, { blocked, failed }));
  });

  after(async () => {
    await browser?.close();
    await instance?.stop();
    await tmdb?.close();
  });

  const posterTitles = (wall: string) => page.locator(`[aria-label="${wall}"] .poster-title`).allInnerTexts();

  it("shows the films on their gradients, then their posters, at a TV's width", async () => {
    await page.goto(`${instance.url}/`);
    await page.waitForSelector('[aria-label="Recently added films"] .poster');
    assert.deepEqual((await posterTitles('Recently added films')).sort(), ['Alien', 'Amélie', 'Heat']);
    const art = page.locator('[aria-label="Recently added films"] .poster-art').first();
    assert.match((await art.getAttribute('style')) ?? '', /radial-gradient/, 'the mesh gradient behind the poster');
    await page.waitForFunction(POSTERS_LOADED);
    const srcset = await page.locator('.poster-art img').first().getAttribute('srcset');
    assert.match(srcset ?? '', /w=160 160w, .*w=320 320w, .*w=480 480w/);
    await page.screenshot({ path: join(SCREENSHOTS, 'home-1920x1080.png') });
  });

  it('moves between posters with the arrow keys', async () => {
    const posters = page.locator('[aria-label="Recently added films"] .poster');
    await posters.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(FOCUSED_ID), await posters.nth(1).getAttribute('data-id'));
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.evaluate(FOCUSED_ID), await posters.nth(0).getAttribute('data-id'));
  });

  it('finds "Amélie" as one types "amelie"', async () => {
    await page.fill('input[type=search]', 'amelie');
    await page.waitForURL(/\/search\?q=amelie$/);
    await page.waitForSelector('[aria-label="Search results"] .poster');
    assert.deepEqual(await posterTitles('Search results'), ['Amélie']);
  });

  it('opens the film, plays it and seeks', async () => {
    await page.click('[aria-label="Search results"] .poster');
    await page.waitForSelector('.detail h1');
    assert.match(await page.locator('.detail h1').innerText(), /Amélie/);
    assert.match(await page.locator('.overview').innerText(), /shy waitress/);
    assert.deepEqual(await page.locator('.cast li').allInnerTexts(), ['Audrey Tautou as Amélie Poulain']);
    assert.match(await page.locator('.file').innerText(), /MP4.*h264 320x240/i);
    await page.screenshot({ path: join(SCREENSHOTS, 'detail-1920x1080.png') });
    await page.click('a.play');
    await page.waitForURL(/\/play\//);
    const video = page.locator('video');
    await page.waitForFunction((at) => (document.querySelector('video')?.currentTime ?? 0) >= at, 0.3);
    await video.evaluate((v: { currentTime: number }) => {
      v.currentTime = 4;
    });
    await page.waitForFunction((at) => (document.querySelector('video')?.currentTime ?? 0) >= at, 4);
  });

  it('resumes a film from ?t=', async () => {
    const [, id] = /\/play\/([\w-]+)/.exec(page.url())!;
    await page.goto(`${instance.url}/play/${id}?t=3`);
    await page.waitForFunction((at) => (document.querySelector('video')?.currentTime ?? 0) >= at, 3);
  });

  it('opens a show, its seasons and episodes, and plays an episode', async () => {
    await page.goto(`${instance.url}/`);
    await page.waitForSelector('[aria-label="Recently added shows"] .poster');
    assert.deepEqual(await posterTitles('Recently added shows'), ['Doctor Who']);
    await page.click('[aria-label="Recently added shows"] .poster');
    await page.waitForSelector('.episodes a');
    assert.deepEqual(await page.locator('.episode-title').allInnerTexts(), ['Rose', 'The End of the World']);
    await page.locator('.episodes a').first().click();
    await page.waitForURL(/\/shows\/tv_[\w-]+\/play\/ep_[\w-]+$/);
    assert.match(await page.locator('.player h1').innerText(), /Doctor Who S01E01 · Rose/);
    await page.waitForFunction((at) => (document.querySelector('video')?.currentTime ?? 0) >= at, 0.3);
  });

  it("adds a library by its path and shows its scan's progress live, up to 100%", async () => {
    await page.goto(`${instance.url}/libraries`);
    await page.waitForSelector('.library');
    // Every value the bar shows, as it shows it.
    await page.evaluate(() => {
      const seen: number[] = [];
      (globalThis as unknown as { seen: number[] }).seen = seen;
      new MutationObserver(() => {
        for (const bar of Array.from(document.querySelectorAll('[role=progressbar]'))) seen.push(Number(bar.getAttribute('aria-valuenow')));
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await page.fill('input[name=name]', 'More films');
    await page.fill('input[name=path]', more);
    await page.click('.add-library button[type=submit]');
    await page.waitForSelector('.library:has-text("More films") [role=progressbar][aria-valuenow="100"]', { timeout: 60_000 });
    assert.equal(await page.locator('input[name=path]').inputValue(), '', 'the form is emptied once the library is added');
    const seen = await page.evaluate(() => (globalThis as unknown as { seen: number[] }).seen);
    assert.ok(
      seen.some((v) => v > 0 && v < 100),
      `a value between 0 and 100 was shown: ${seen.join(', ')}`,
    );
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      seen,
      'never going down',
    );
    await page.waitForSelector('.library:has-text("More films") .last-scan');
    assert.match(await page.locator('.library:has-text("More films") .last-scan').innerText(), /completed.*6 added/);
    await page.screenshot({ path: join(SCREENSHOTS, 'libraries-1920x1080.png') });
    await page.goto(`${instance.url}/`);
    await page.waitForSelector('[aria-label="Recently added films"] .poster');
    assert.equal((await posterTitles('Recently added films')).length, 9);
  });

  it('deletes a library after a confirmation', async () => {
    await page.goto(`${instance.url}/libraries`);
    await page.waitForSelector('.library:has-text("More films")');
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.click('.library:has-text("More films") button.danger');
    assert.equal(await page.locator('.library:has-text("More films")').count(), 1, 'kept when the question is dismissed');
    page.once('dialog', (dialog) => {
      assert.match(dialog.message(), /Delete the library “More films”\? Its 6 items/);
      void dialog.accept();
    });
    await page.click('.library:has-text("More films") button.danger');
    await page.waitForSelector('.library:has-text("More films")', { state: 'detached' });
  });

  it('saves a TMDB key in the settings and shows only its hint', async () => {
    await page.goto(`${instance.url}/settings`);
    await page.waitForSelector('.key-state');
    const key = 'saved-from-the-page-9876';
    await page.fill('input[name=key]', key);
    await page.click('.key button[type=submit]');
    await page.waitForSelector('.key-state:has-text("****9876")');
    assert.equal(await page.locator('input[name=key]').inputValue(), '', 'the field is emptied');
    assert.ok(!(await page.content()).includes(key), 'the key is nowhere in the page');
    await page.reload();
    await page.waitForSelector('.key-state:has-text("****9876")');
    await page.click('input[name=artwork]');
    await page.waitForFunction(() => !(document.querySelector('input[name=artwork]') as unknown as { checked: boolean }).checked);
    await page.reload();
    await page.waitForSelector('input[name=artwork]');
    assert.equal(await page.locator('input[name=artwork]').isChecked(), false, 'the switch was saved');
    await page.click('input[name=artwork]');
  });

  it('shows the log, filtered by level', async () => {
    await page.goto(`${instance.url}/logs`);
    await page.waitForSelector('.logs tr');
    assert.ok((await page.locator('.logs .msg').allInnerTexts()).some((m) => m === 'scan completed'));
    await page.selectOption('.logs select', 'warn');
    await page.waitForURL(/\/logs\?level=warn$/);
    // The rows of the new level replace the others when they arrive (there may be none at all).
    await page.waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('.logs .level')).some(
          (cell) => (cell as unknown as { textContent: string }).textContent === 'info',
        ),
    );
    const levels = await page.locator('.logs .level').allInnerTexts();
    assert.ok(
      levels.every((l) => ['warn', 'error', 'fatal'].includes(l)),
      levels.join(', '),
    );
    if (!levels.length) assert.equal(await page.locator('.logs .empty').innerText(), 'Nothing at this level.');
    assert.ok(!(await page.locator('.logs .msg').allInnerTexts()).includes('scan completed'));
  });

  it("fits a phone's width", async () => {
    await page.setViewportSize(SIZES.phone);
    await page.goto(`${instance.url}/`);
    await page.waitForFunction(POSTERS_LOADED);
    assert.equal(await page.evaluate(FITS), true, 'nothing wider than the screen');
    await page.screenshot({ path: join(SCREENSHOTS, 'home-390x844.png') });
    await page.click('[aria-label="Recently added films"] .poster');
    await page.waitForSelector('.detail h1');
    assert.equal(await page.evaluate(FITS), true);
    await page.screenshot({ path: join(SCREENSHOTS, 'detail-390x844.png') });
    await page.goto(`${instance.url}/libraries`);
    await page.waitForSelector('.library');
    assert.equal(await page.evaluate(FITS), true);
    await page.screenshot({ path: join(SCREENSHOTS, 'libraries-390x844.png') });
  });

  it('asked no other host for anything, and nothing it asked for failed', () => {
    assert.deepEqual(blocked, []);
    assert.deepEqual(failed, []);
  });
});

// A real 429 from the box's own rate limit (an instance that allows 4 counted requests a
// minute): the page says why, counts the wait down, and only then offers to try again.
describe('the web client when the box says no', { skip: browserSkip }, () => {
  let instance: Instance;
  let browser: Browser;

  before(async () => {
    instance = await startInstance({ env: { RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW_MS: '60000' } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await instance?.stop();
  });

  it("shows the problem's title and detail, and the rate limit's wait before a retry", async () => {
    const page = await browser.newPage();
    // Home asks for the profiles, Continue watching, Next up, films and shows: five counted
    // requests a load, sent together, so which of them the limit refuses first varies (the
    // watch rows hide themselves on a failure): loads until the films' or shows' shelf says so.
    let refused = false;
    for (let i = 0; i < 6 && !refused; i++) {
      await page.goto(`${instance.url}/`);
      await page.waitForSelector('.shelf .empty, .problem');
      refused = (await page.locator('.problem').count()) > 0;
    }
    assert.ok(refused, 'the limit of 10 refused a load within six');
    const text = await page.locator('.problem').first().innerText();
    assert.match(text, /Too many requests|Rate limit/i);
    assert.match(text, /retry in \d+ s/, 'the detail the service gave');
    assert.match(text, /you can try again in \d+ s/);
    assert.equal(await page.locator('.problem button').count(), 0, 'no retry before the wait is over');
  });
});
