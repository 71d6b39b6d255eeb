// Jellyfin's own web client (a v10.11.11 build read from outside the project, JELLYFIN_WEB_DIR
// or ../shared/jellyfin/web-10.11.11) in a real browser (Debian's Chromium), against the
// Jellyfin door of an instance of its own: `/` leads to /web/, the login page shows the
// household's card, a click logs it in without a password, home lists both libraries under
// "My Media" (and the newest films), the film library lists its films with their posters, and a
// film's page shows its title. Every host but the door is blocked; the door's answers of 400 and
// more and the page's uncaught errors are noted to say why a step failed, and no answer may be a
// 5xx. Screenshots are kept in test/.artifacts/screenshots.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { PROJECT_DIR } from '../../infra/project';
import { freePort } from '../../infra/runner/ports';
import { browserSkip, launchChromium, pageOnlyFor, SCREENSHOTS, SIZES } from '../support/browser';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { makeTree, scan } from '../support/media';
import { flatJpeg } from '../support/posters';

const WEB_DIR = process.env.JELLYFIN_WEB_DIR ?? join(PROJECT_DIR, '../shared/jellyfin/web-10.11.11');
const webSkip = existsSync(join(WEB_DIR, 'index.html'))
  ? browserSkip
  : `needs a build of Jellyfin's web client at ${WEB_DIR} (set JELLYFIN_WEB_DIR to one)`;

const FILMS = [
  { folder: 'Arrival (2016)', title: 'Arrival', colour: '#304060' },
  { folder: 'Brazil (1985)', title: 'Brazil', colour: '#803020' },
  { folder: 'Casablanca (1942)', title: 'Casablanca', colour: '#505050' },
];
/** jellyfin-web is heavy and the box may have two cores. */
const SLOW = 90_000;

describe("Jellyfin's web client through the Jellyfin door", { skip: webSkip }, () => {
  let instance: Instance;
  let door: string;
  let browser: Browser;
  let page: Page;
  const blocked: string[] = [];
  const failed: string[] = [];
  /** Every answer of the door to the page: "<status> <method> <path and query>". */
  const answers: { status: number; line: string }[] = [];
  /** The page's uncaught errors (a refused request can end up one). */
  const pageErrors: string[] = [];
  /** The steps build on each other: after one fails, the rest are skipped, not timed out. */
  let failedStep: string | undefined;

  before(async () => {
    const doorPort = await freePort();
    door = `http://127.0.0.1:${doorPort}`;
    instance = await startInstance({ env: { JELLYFIN_PORT: String(doorPort), JELLYFIN_WEB_DIR: WEB_DIR, TMDB_API_KEY: '' } });
    // The folders' names are the libraries' names.
    const films = join(tempDir('jellyfin-web-films'), 'Films');
    makeTree(
      films,
      FILMS.map((f) => `${f.folder}/${f.folder}.mkv`),
      4096,
    );
    for (const f of FILMS) {
      writeFileSync(join(films, f.folder, 'poster.jpg'), await flatJpeg(60, 90, f.colour));
    }
    const shows = join(tempDir('jellyfin-web-shows'), 'Shows');
    makeTree(shows, ['Door Show/Season 1/Door Show - S01E01.mkv', 'Door Show/Season 1/Door Show - S01E02.mkv'], 4096);
    for (const [path, mediaType] of [
      [films, 'movie'],
      [shows, 'tvshow'],
    ] as const) {
      const job = await scan({ path, mediaType }, instance.url);
      assert.equal(job.status, 'completed', JSON.stringify(job.error));
    }
    browser = await launchChromium();
    ({ page } = await pageOnlyFor(browser, door, SIZES.tv, { blocked, failed }));
    page.setDefaultTimeout(SLOW);
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.origin !== door) return;
      answers.push({ status: res.status(), line: `${res.status()} ${res.request().method()} ${url.pathname}${url.search}` });
    });
    page.on('pageerror', (err) => pageErrors.push(err.message || String(err)));
  });

  after(async () => {
    await browser?.close();
    await instance?.stop();
  });

  /** What the door refused so far and the page's errors, to say why a step failed. */
  const trouble = () => {
    const lines = answers.filter((a) => a.status >= 400).map((a) => a.line);
    return [
      lines.length ? `the door answered:\n  ${lines.join('\n  ')}` : 'the door refused nothing',
      ...(pageErrors.length ? [`the page's uncaught errors:\n  ${pageErrors.join('\n  ')}`] : []),
    ].join('\n');
  };
  const step = (name: string, fn: (t: TestContext) => Promise<void>): void =>
    void it(name, async (t) => {
      if (failedStep) return t.skip(`"${failedStep}" failed`);
      try {
        await fn(t);
      } catch (err) {
        failedStep = name;
        throw err;
      }
    });
  /** Waits for `locator` to be visible; a timeout says where the page was and what the door refused. */
  const see = async (what: string, locator: Locator) => {
    await locator
      .first()
      .waitFor({ state: 'visible' })
      .catch((err: Error) => {
        throw new Error(`${what} was not seen at ${page.url()}: ${err.message.split('\n')[0]}\n${trouble()}`);
      });
  };
  /** Waits for the page's address to match; a timeout says where it stayed and what the door refused. */
  const reach = async (what: string, url: RegExp) => {
    await page.waitForURL(url).catch((err: Error) => {
      throw new Error(`${what} was not reached (still at ${page.url()}): ${err.message.split('\n')[0]}\n${trouble()}`);
    });
  };
  const until = async (what: string, probe: () => Promise<boolean>) => {
    const deadline = Date.now() + SLOW;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`${what} was not seen at ${page.url()}\n${trouble()}`);
      await page.waitForTimeout(250);
    }
  };
  const noServerErrors = () =>
    assert.deepEqual(
      answers.filter((a) => a.status >= 500).map((a) => a.line),
      [],
      `no door request may fail with a 5xx; ${trouble()}`,
    );

  step("opens at the door's root on the login page, with the household's card", async () => {
    await page.goto(`${door}/`);
    await reach('the login page', /\/web\/#\/login/u);
    await see('the login page', page.getByRole('heading', { name: 'Please sign in' }));
    await see("the household's card", page.getByRole('button', { name: 'Household' }));
    noServerErrors();
  });

  step('logs the household in with a click (no password) and lists both libraries under "My Media"', async () => {
    await page.getByRole('button', { name: 'Household' }).click();
    await reach('home', /#\/home/u);
    const myMedia = page.locator('.verticalSection').filter({ has: page.getByRole('heading', { name: 'My Media', exact: true }) });
    await see('"My Media"', myMedia);
    for (const name of ['Films', 'Shows']) await see(`the ${name} library in "My Media"`, myMedia.getByText(name, { exact: true }));
    await see('the newest films', page.getByRole('heading', { name: /Recently Added in Films/u }));
    await page.screenshot({ path: join(SCREENSHOTS, 'jellyfin-web-home-1920x1080.png') });
    noServerErrors();
  });

  step('opens the film library, its films on their posters', async () => {
    const myMedia = page.locator('.verticalSection').filter({ has: page.getByRole('heading', { name: 'My Media', exact: true }) });
    await myMedia.getByText('Films', { exact: true }).click();
    await reach('the film library', /#\/movies\?topParentId=[0-9a-f]{32}/u);
    // Earlier screens stay in the page, hidden: only what is visible counts.
    for (const f of FILMS) {
      await see(`the film ${f.title}`, page.getByRole('link', { name: f.title, exact: true }).filter({ visible: true }));
      // The card's picture is drawn as its background once the door's poster has loaded.
      const art = page.getByRole('img', { name: f.title, exact: true }).filter({ visible: true }).first();
      await until(`${f.title}'s poster`, async () =>
        /url\("?[^)]*\/Items\/[0-9a-f]{32}\/Images\/Primary\?/u.test((await art.getAttribute('style')) ?? ''),
      );
    }
    noServerErrors();
  });

  step("opens a film's page, its title the page's heading", async (t) => {
    await page.getByRole('link', { name: 'Brazil', exact: true }).filter({ visible: true }).first().click();
    await reach("the film's page", /#\/details\?id=[0-9a-f]{32}/u);
    await see("the film's title", page.getByRole('heading', { level: 1, name: 'Brazil' }).filter({ visible: true }));
    await page.screenshot({ path: join(SCREENSHOTS, 'jellyfin-web-film-1920x1080.png') });
    noServerErrors();
    t.diagnostic(trouble());
  });
});
