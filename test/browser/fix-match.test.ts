// Fixing a wrong match in the web client, in a real browser (Debian's Chromium), against an
// instance of the service matched with the fake TMDB. The fake knows two films called RoboCop
// (1987, the more popular, and 2014); a file named just "Robocop" is matched to the 1987 one,
// and the test chooses the 2014 one by hand in the "Fix match" dialog, sees the page describe it
// at once and keep it after a reload, finds a film TMDB does not know in the Unmatched view
// reached from the libraries screen, and unlocks the match. Screenshots of the dialog at a
// phone's and a TV's size are kept in test/.artifacts/screenshots.
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

const KEY = 'fix-match-tmdb-key-5678';
const OLD = { id: 5548, overview: 'In a violent, near-apocalyptic Detroit, a police officer is murdered and brought back as a cyborg.' };
const NEW = { id: 97020, overview: 'In 2028 Detroit, a loving husband and father is critically injured and rebuilt by OmniCorp.' };
const UNKNOWN = 'Zzq Unknown Film';

// Run in the page (functions, as the page's CSP allows no eval); the page's globals, typed loosely here.
declare const document: {
  querySelectorAll(s: string): ArrayLike<{ complete: boolean; naturalWidth: number }>;
  activeElement: { getAttribute(n: string): string | null; textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};
declare const innerWidth: number;
const CANDIDATE_POSTERS_LOADED = (count: number) => {
  const images = Array.from(document.querySelectorAll('.candidate-poster img'));
  return images.length === count && images.every((img) => img.complete && img.naturalWidth > 0);
};
const DETAIL_POSTER_LOADED = () =>
  Array.from(document.querySelectorAll('.detail-poster img')).every((img) => img.complete && img.naturalWidth > 0);
const FOCUSED = () => ({ name: document.activeElement?.getAttribute('name') ?? null, text: document.activeElement?.textContent ?? null });
const FITS = () => document.documentElement.scrollWidth <= innerWidth;

describe('fixing a wrong match in the web client', { skip: browserSkip }, () => {
  let fake: FakeTmdb;
  let tmdb: FakeTmdbServer;
  let instance: Instance;
  let browser: Browser;
  let page: Page;
  let robocop: string;
  let unknown: string;
  let show: string;
  const blocked: string[] = [];
  const failed: string[] = [];

  before(async () => {
    fake = new FakeTmdb({ keys: [KEY] });
    fake.addMovie({
      id: OLD.id,
      title: 'RoboCop',
      releaseDate: '1987-07-17',
      overview: OLD.overview,
      popularity: 40,
      genres: ['Action', 'Science Fiction'],
      poster: { color: '#b03030' },
    });
    fake.addMovie({
      id: NEW.id,
      title: 'RoboCop',
      releaseDate: '2014-01-30',
      overview: NEW.overview,
      popularity: 25,
      genres: ['Action'],
      poster: { quadrants: ['#2050c0', '#20a0c0', '#102040', '#000000'] },
    });
    tmdb = await fake.start();
    fake.addShow({
      id: 1399,
      name: 'Dark Waters',
      firstAirDate: '2019-05-01',
      overview: 'A town keeps a secret.',
      popularity: 30,
      seasons: [{ seasonNumber: 1, episodes: [{ episodeNumber: 1, name: 'Pilot', airDate: '2019-05-01' }] }],
    });
    fake.addShow({
      id: 2001,
      name: 'Dark Waters',
      firstAirDate: '2003-09-10',
      overview: 'Another town, another secret.',
      popularity: 10,
      seasons: [{ seasonNumber: 1, episodes: [{ episodeNumber: 1, name: 'Beginnings', airDate: '2003-09-10' }] }],
    });
    const films = tempDir('fix-match-films');
    // No year in the name: the two RoboCops are as alike as the name goes, and the more popular wins.
    for (const name of ['Robocop', `${UNKNOWN} (2001)`]) {
      mkdirSync(join(films, name));
      makeMp4(join(films, name, `${name}.mp4`), { seconds: 2 });
    }
    const shows = tempDir('fix-match-shows');
    mkdirSync(join(shows, 'Dark Waters', 'Season 01'), { recursive: true });
    makeMp4(join(shows, 'Dark Waters', 'Season 01', 'Dark Waters S01E01.mp4'), { seconds: 2 });
    instance = await startInstance({
      env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, LOG_LEVEL: 'info' },
    });
    const job = await scan({ path: films, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const showJob = await scan({ path: shows, mediaType: 'tvshow' }, instance.url);
    assert.equal(showJob.status, 'completed', JSON.stringify(showJob.error));
    const showList = (await (await fetch(`${instance.url}/api/v1/tvshows?limit=100`)).json()) as { data: Array<{ id: string }> };
    show = showList.data[0]?.id ?? assert.fail('the show was scanned');
    const list = (await (await fetch(`${instance.url}/api/v1/movies?limit=100`)).json()) as {
      data: Array<{ id: string; media: { title: string; year: number | null } }>;
    };
    const byTitle = (title: string) => list.data.find((e) => e.media.title === title);
    robocop = byTitle('RoboCop')?.id ?? assert.fail(`RoboCop was matched: ${JSON.stringify(list.data)}`);
    unknown = byTitle(UNKNOWN)?.id ?? assert.fail(`the unknown film keeps its file's title: ${JSON.stringify(list.data)}`);
    assert.equal(byTitle('RoboCop')!.media.year, 1987, 'the automatic match took the more popular, wrong one');

    browser = await launchChromium();
    ({ page } = await pageOnlyFor(browser, instance.url, SIZES.tv, { blocked, failed }));
  });

  after(async () => {
    await browser?.close();
    await instance?.stop();
    await tmdb?.close();
  });

  const heading = () => page.locator('.detail h1').innerText();
  const dialog = () => page.locator('dialog.fix-match');
  const candidateTitles = () => page.locator('.candidate-title').allInnerTexts();

  it('shows the film as matched automatically, to the wrong RoboCop', async () => {
    await page.goto(`${instance.url}/movies/${robocop}`);
    await page.waitForSelector('.detail h1');
    assert.match(await heading(), /RoboCop \(1987\)/);
    assert.equal(await page.locator('.match-state').count(), 0, 'neither chosen by hand nor unmatched');
  });

  it('opens "Fix match": a modal dialog, the title prefilled and focused, searched at once', async () => {
    await page.getByRole('button', { name: 'Fix match' }).click();
    await page.waitForSelector('dialog.fix-match[open]');
    assert.equal(await dialog().getAttribute('aria-labelledby'), 'fix-match-title');
    assert.equal(await page.locator('#fix-match-title').innerText(), 'Fix the match');
    assert.equal(await page.locator('.fix-match input[name=query]').inputValue(), 'RoboCop');
    assert.equal(await page.locator('.fix-match input[name=year]').inputValue(), '', 'no year at first');
    assert.equal((await page.evaluate(FOCUSED)).name, 'query');
    await page.waitForSelector('.candidate');
    assert.deepEqual(await candidateTitles(), ['RoboCop (1987) · matched now', 'RoboCop (2014)']);
  });

  it('searches again and lists both RoboCops, with posters that load', async () => {
    await page.fill('.fix-match input[name=query]', 'robocop');
    await page.click('.fix-match button[type=submit]');
    await page.waitForSelector('.candidate');
    assert.deepEqual(await candidateTitles(), ['RoboCop (1987) · matched now', 'RoboCop (2014)']);
    await page.waitForFunction(CANDIDATE_POSTERS_LOADED, 2);
    const images = page.locator('.candidate-poster img');
    assert.deepEqual(
      await images.evaluateAll((imgs: Array<{ getAttribute(n: string): string | null }>) =>
        imgs.map((i) => [i.getAttribute('alt'), i.getAttribute('loading')]),
      ),
      [
        ['Poster of RoboCop (1987)', 'lazy'],
        ['Poster of RoboCop (2014)', 'lazy'],
      ],
    );
    assert.match(
      (await images.first().getAttribute('src')) ?? '',
      new RegExp(`^${instance.url}/api/v1/provider-images/`),
      'through the box, not from the provider',
    );
    assert.deepEqual(await page.locator('.candidate-overview').allInnerTexts(), [OLD.overview, NEW.overview]);
    // The arrow keys (a TV remote's) move between the candidates.
    await page.locator('.candidate').first().focus();
    await page.keyboard.press('ArrowDown');
    assert.equal((await page.evaluate(FOCUSED)).text?.includes('2014'), true);
    await page.screenshot({ path: join(SCREENSHOTS, 'fix-match-1920x1080.png') });
  });

  it('narrows the search to a year', async () => {
    await page.fill('.fix-match input[name=year]', '2014');
    await page.click('.fix-match button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('.candidate').length === 1);
    assert.deepEqual(await candidateTitles(), ['RoboCop (2014)']);
  });

  it('chooses the 2014 RoboCop: the page describes it at once, chosen by hand', async () => {
    const posterBefore = await page.locator('.detail-poster img').getAttribute('src');
    await page.getByRole('button', { name: 'Choose RoboCop (2014)' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.match(await heading(), /RoboCop \(2014\)/);
    assert.equal(await page.locator('.overview').innerText(), NEW.overview);
    assert.notEqual(await page.locator('.detail-poster img').getAttribute('src'), posterBefore, 'the new poster');
    await page.waitForFunction(DETAIL_POSTER_LOADED);
    assert.match(await page.locator('.match-state').innerText(), /Match chosen by hand/);
    assert.equal((await page.evaluate(FOCUSED)).text, 'Fix match', 'the focus goes back to the button that opened the dialog');
    await page.screenshot({ path: join(SCREENSHOTS, 'fix-match-chosen-1920x1080.png') });
  });

  it('keeps the choice after a reload', async () => {
    await page.reload();
    await page.waitForSelector('.detail h1');
    assert.match(await heading(), /RoboCop \(2014\)/);
    assert.equal(await page.locator('.overview').innerText(), NEW.overview);
    assert.match(await page.locator('.match-state').innerText(), /Match chosen by hand/);
    await page.getByRole('button', { name: 'Unlock' }).waitFor();
  });

  it('refreshes the metadata from the chosen record', async () => {
    const before = fake.stats.byPath[`/3/movie/${NEW.id}`] ?? 0;
    await page.getByRole('button', { name: 'Refresh metadata' }).click();
    await page.waitForSelector('.match-note:has-text("Metadata fetched again.")');
    assert.ok((fake.stats.byPath[`/3/movie/${NEW.id}`] ?? 0) > before, 'the record was fetched again');
    assert.match(await heading(), /RoboCop \(2014\)/);
    assert.match(await page.locator('.match-state').innerText(), /Match chosen by hand/);
  });

  it("fits a phone's width, and Escape closes the dialog", async () => {
    await page.setViewportSize(SIZES.phone);
    await page.getByRole('button', { name: 'Fix match' }).click();
    await page.waitForFunction(CANDIDATE_POSTERS_LOADED, 2);
    assert.equal(await page.evaluate(FITS), true, 'nothing wider than the screen');
    const box = (await dialog().boundingBox())!;
    assert.ok(
      box.x >= 0 && box.x + box.width <= SIZES.phone.width && box.y >= 0 && box.y + box.height <= SIZES.phone.height,
      `the dialog is on the screen: ${JSON.stringify(box)}`,
    );
    for (const selector of ['input[name=query]', 'input[name=year]', 'button[type=submit]', '.candidate >> nth=1']) {
      const part = (await page.locator(`.fix-match ${selector}`).boundingBox())!;
      assert.ok(part.x >= box.x && part.x + part.width <= box.x + box.width, `${selector} is inside the dialog: ${JSON.stringify(part)}`);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'fix-match-390x844.png') });
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    assert.match(await heading(), /RoboCop \(2014\)/, 'closing changes nothing');
    await page.setViewportSize(SIZES.tv);
  });

  it('lists the film TMDB does not know in the Unmatched view, reached from the libraries screen', async () => {
    await page.goto(`${instance.url}/`);
    await page.waitForSelector('[aria-label="Recently added films"] .poster');
    assert.deepEqual(
      (await page.locator('[aria-label="Recently added films"] .poster-title').allInnerTexts()).sort(),
      ['RoboCop', UNKNOWN],
      'home lists them all',
    );
    await page.goto(`${instance.url}/libraries`);
    const link = page.getByRole('link', { name: /Unmatched titles/ });
    await link.waitFor();
    assert.equal(await link.innerText(), 'Unmatched titles (1)');
    await page.screenshot({ path: join(SCREENSHOTS, 'libraries-unmatched-link-1920x1080.png') });
    await link.click();
    await page.waitForURL(/\/unmatched$/);
    await page.waitForSelector('[aria-label="Unmatched films"] .poster');
    assert.deepEqual(await page.locator('[aria-label="Unmatched films"] .poster-title').allInnerTexts(), [UNKNOWN]);
    assert.equal(await page.locator('.shelf:has-text("Unmatched shows") .empty').innerText(), 'Every show is matched.');
    await page.screenshot({ path: join(SCREENSHOTS, 'unmatched-1920x1080.png') });
    await page.click('[aria-label="Unmatched films"] .poster');
    await page.waitForURL(new RegExp(`/movies/${unknown}$`));
    await page.waitForSelector('.match-state');
    assert.match(await page.locator('.match-state').innerText(), /Not matched: TMDB could not say which film this is/);
    await page.getByRole('button', { name: 'Fix match' }).click();
    await page.waitForSelector('.fix-match .empty');
    assert.match(await page.locator('.fix-match .empty').innerText(), /TMDB knows no film by that name/);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    // The view is served at its own address too (a reload or a shared link).
    await page.goto(`${instance.url}/unmatched`);
    await page.waitForSelector('[aria-label="Unmatched films"] .poster');
  });

  it("fixes a show's match the same way, its episodes described from the chosen record", async () => {
    await page.goto(`${instance.url}/shows/${show}`);
    await page.waitForSelector('.episodes a');
    assert.match(await heading(), /Dark Waters \(2019\)/);
    await page.getByRole('button', { name: 'Fix match' }).click();
    await page.getByRole('button', { name: 'Choose Dark Waters (2003)' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.match(await heading(), /Dark Waters \(2003\)/);
    assert.equal(await page.locator('.overview').innerText(), 'Another town, another secret.');
    assert.deepEqual(await page.locator('.episode-title').allInnerTexts(), ['Beginnings']);
    assert.match(await page.locator('.match-state').innerText(), /Match chosen by hand/);
  });

  it('unlocks the match: the line goes, and the film is matched automatically again', async () => {
    await page.goto(`${instance.url}/movies/${robocop}`);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.waitForSelector('.match-state', { state: 'detached' });
    assert.match(await heading(), /RoboCop \(1987\)/, "the file's name finds the popular one again");
    await page.reload();
    await page.waitForSelector('.detail h1');
    assert.equal(await page.locator('.match-state').count(), 0);
  });

  it('asked no other host for anything, and nothing it asked for failed', () => {
    assert.deepEqual(blocked, []);
    assert.deepEqual(failed, []);
  });

  it('says in words why the provider cannot be asked, inside the dialog', async () => {
    // TMDB refusing the key: the service answers 409 provider-not-configured.
    fake.intercept = ({ api }) => (api ? 401 : undefined);
    try {
      await page.getByRole('button', { name: 'Fix match' }).click();
      await page.fill('.fix-match input[name=query]', 'robocop returns');
      await page.click('.fix-match button[type=submit]');
      const problem = page.locator('.fix-match .problem');
      await problem.waitFor();
      assert.match(await problem.innerText(), /TMDB refused the API key that is set/);
      assert.ok(
        failed.some((f) => f.startsWith('409 GET') && f.includes('/candidates')),
        failed.join('\n'),
      );
    } finally {
      fake.intercept = undefined;
    }
  });
});
