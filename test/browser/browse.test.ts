// Browsing the whole library in the web client, in a real browser (Debian's Chromium), against
// an instance of the service matched with the fake TMDB: 37 films (seven real videos the fake
// knows, one of them in a collection whose other part is not here, and 30 tiny unmatched
// files, more than a page) and one show. The header's menu at a phone's width reaches every
// screen; the Films screen sorts by title the way people look ("The Godfather" under G), pages
// as one scrolls, narrows by genre, letter, years and watched, keeps all of it in the address
// across a reload, and shrugs off a bad address; a collection's page names its missing part;
// a film's page links its collection; a library's card counts "1 item". Screenshots at a
// phone's and a TV's size are kept in test/.artifacts/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserSkip, launchChromium, pageOnlyFor, SCREENSHOTS, SIZES } from '../support/browser';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { makeTree, scan } from '../support/media';
import { makeMp4 } from '../support/videos';

const KEY = 'browse-web-tmdb-key-4242';
const GODFATHER_COLLECTION = 230;

/** The films the fake knows, each a real video here (the Godfather's Part II is only the fake's). */
const KNOWN = [
  { id: 238, title: 'The Godfather', year: 1972, genres: ['Crime', 'Drama'] },
  { id: 949, title: 'Heat', year: 1995, genres: ['Crime', 'Thriller'] },
  { id: 194, title: 'Amélie', year: 2001, genres: ['Comedy', 'Romance'] },
  { id: 68, title: 'Brazil', year: 1985, genres: ['Comedy', 'Science Fiction'] },
  { id: 603, title: 'The Matrix', year: 1999, genres: ['Action', 'Science Fiction'] },
  { id: 9659, title: 'Mad Max', year: 1979, genres: ['Action'] },
  { id: 389, title: '12 Angry Men', year: 1957, genres: ['Drama'] },
];
/** Titles the fake does not know: they keep their files' names, filed under O. */
const FILLERS = Array.from({ length: 30 }, (_, i) => ({ title: `Ocean ${String(i + 1).padStart(2, '0')}`, year: 2010 + (i % 10) }));
/** A to Z without the articles, digits (under #) last. */
const BY_TITLE = ['Amélie', 'Brazil', 'The Godfather', 'Heat', 'Mad Max', 'The Matrix', ...FILLERS.map((f) => f.title), '12 Angry Men'];

// Run in the page (functions, as the page's CSP allows no eval); the page's globals, typed loosely here.
declare const document: {
  querySelector(s: string): { getClientRects(): ArrayLike<unknown> } | null;
  querySelectorAll(s: string): ArrayLike<unknown>;
  documentElement: { scrollWidth: number; scrollHeight: number };
  activeElement: { textContent: string | null } | null;
};
declare const innerWidth: number;
declare const scrollTo: (x: number, y: number) => void;
const FITS = () => document.documentElement.scrollWidth <= innerWidth;
const POSTER_COUNT = (count: number) => document.querySelectorAll('[aria-label="Films"] .poster').length === count;

describe('browsing the whole library in the web client', { skip: browserSkip }, () => {
  let tmdb: FakeTmdbServer;
  let instance: Instance;
  let browser: Browser;
  let page: Page;
  let films: string;
  let shows: string;
  let godfather: string;
  let heat: string;
  const blocked: string[] = [];
  const failed: string[] = [];

  before(async () => {
    const fake = new FakeTmdb({ keys: [KEY] });
    for (const f of KNOWN)
      fake.addMovie({ id: f.id, title: f.title, releaseDate: `${f.year}-06-01`, genres: f.genres, overview: `${f.title}, the film.` });
    fake.addMovie({ id: 240, title: 'The Godfather Part II', releaseDate: '1974-12-20', genres: ['Crime', 'Drama'] });
    fake.addCollection({
      id: GODFATHER_COLLECTION,
      name: 'The Godfather Collection',
      overview: 'The Corleone family, over three generations.',
      parts: [240, 238],
    });
    fake.addShow({
      id: 57243,
      name: 'Doctor Who',
      firstAirDate: '2005-03-26',
      overview: 'A Time Lord travels.',
      genres: ['Drama'],
      seasons: [{ seasonNumber: 1, episodes: [{ episodeNumber: 1, name: 'Rose', airDate: '2005-03-26' }] }],
    });
    tmdb = await fake.start();
    films = tempDir('browse-web-films');
    for (const f of KNOWN) {
      const name = `${f.title.replace('é', 'e')} (${f.year})`;
      mkdirSync(join(films, name));
      makeMp4(join(films, name, `${name}.mp4`), { seconds: 1 });
    }
    // Many titles cost little: empty files of a few KiB, scanned as films the provider does not know.
    makeTree(
      films,
      FILLERS.map((f) => `${f.title} (${f.year}).mkv`),
      4096,
    );
    shows = tempDir('browse-web-shows');
    mkdirSync(join(shows, 'Doctor Who (2005)', 'Season 01'), { recursive: true });
    makeMp4(join(shows, 'Doctor Who (2005)', 'Season 01', 'Doctor Who S01E01.mp4'), { seconds: 1 });
    instance = await startInstance({
      env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, LOG_LEVEL: 'info' },
    });
    for (const [path, mediaType] of [
      [films, 'movie'],
      [shows, 'tvshow'],
    ] as const) {
      const job = await scan({ path, mediaType }, instance.url);
      assert.equal(job.status, 'completed', JSON.stringify(job.error));
    }
    const list = (await (await fetch(`${instance.url}/api/v1/movies?sort=title&limit=100`)).json()) as {
      data: Array<{ id: string; media: { title: string } }>;
    };
    assert.deepEqual(
      list.data.map((e) => e.media.title),
      BY_TITLE,
      'the service files the titles as the test expects',
    );
    const idOf = (title: string) => list.data.find((e) => e.media.title === title)!.id;
    [godfather, heat] = [idOf('The Godfather'), idOf('Heat')];
    // Heat played by the household's profile, for the watched filter.
    assert.equal((await fetch(`${instance.url}/api/v1/played/${heat}`, { method: 'POST' })).status, 200);

    browser = await launchChromium();
    ({ page } = await pageOnlyFor(browser, instance.url, SIZES.tv, { blocked, failed }));
  });

  after(async () => {
    await browser?.close();
    await instance?.stop();
    await tmdb?.close();
  });

  const wallTitles = (label = 'Films') => page.locator(`[aria-label="${label}"] .poster-title`).allInnerTexts();
  const total = () => page.locator('.browse-total').innerText();
  const select = (name: string) => page.getByRole('combobox', { name, exact: true });
  const menuButton = () => page.getByRole('button', { name: 'Menu' });
  const letter = (name: string) => page.getByRole('group', { name: 'First letter' }).getByRole('button', { name, exact: true });
  const chip = (name: RegExp | string) => page.getByRole('group', { name: 'Genres' }).getByRole('button', { name });
  /** Waits for the wall to show exactly these titles (a new view replaces the one before when it arrives). */
  const wallShows = async (titles: string[], label = 'Films') => {
    await page
      .waitForFunction(
        ([l, want]) =>
          JSON.stringify(
            Array.from(document.querySelectorAll(`[aria-label="${l}"] .poster-title`)).map(
              (e) => (e as { textContent: string }).textContent,
            ),
          ) === want,
        [label, JSON.stringify(titles)] as const,
        { timeout: 10_000 },
      )
      .catch(async () => assert.deepEqual(await wallTitles(label), titles));
  };

  it("offers every screen in the header at a TV's width, and links from home to all films and shows", async () => {
    await page.goto(`${instance.url}/`);
    await page.waitForSelector('[aria-label="Recently added films"] .poster');
    assert.equal(await menuButton().isVisible(), false, 'no menu button where the links fit');
    const nav = page.getByRole('navigation', { name: 'Screens' });
    assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['Films', 'Shows', 'Collections', 'Libraries', 'Settings', 'Log']);
    for (const link of await nav.getByRole('link').all()) assert.equal(await link.isVisible(), true);
    await page.getByRole('link', { name: 'All shows' }).click();
    await page.waitForURL(`${instance.url}/shows`);
    await wallShows(['Doctor Who'], 'Shows');
    assert.equal(await total(), '1 show');
    assert.equal(await nav.getByRole('link', { name: 'Shows' }).getAttribute('aria-current'), 'page');
    await page.goBack();
    await page.getByRole('link', { name: 'All films' }).click();
    await page.waitForURL(`${instance.url}/movies`);
    await page.waitForSelector('[aria-label="Films"] .poster');
    assert.equal(await total(), '37 films');
  });

  it('sorts the films by title, "The …" by its next word, and asks for the next page as the wall\'s end nears', async () => {
    await page.setViewportSize(SIZES.phone);
    await page.goto(`${instance.url}/movies`);
    await page.waitForSelector('[aria-label="Films"] .poster');
    assert.equal(await total(), '37 films');
    assert.equal(await select('Sort by').inputValue(), 'title');
    assert.deepEqual(await wallTitles(), BY_TITLE.slice(0, 30), 'the first page, A to Z');
    assert.equal(await page.locator('button.more').innerText(), 'More (7 left)');
    assert.equal(await page.evaluate(FITS), true, 'nothing wider than the screen');
    await page.screenshot({ path: join(SCREENSHOTS, 'films-390x844.png') });
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(POSTER_COUNT, 37);
    assert.deepEqual(await wallTitles(), BY_TITLE, 'the second page after the first, none twice');
    assert.equal(await page.locator('button.more').count(), 0, 'nothing more to ask for');
    await page.setViewportSize(SIZES.tv);
  });

  it('sorts by year, oldest first, from the controls, and keeps it in the address', async () => {
    await page.goto(`${instance.url}/movies`);
    await page.waitForSelector('[aria-label="Films"] .poster');
    await select('Sort by').selectOption('year');
    await page.waitForURL(`${instance.url}/movies?sort=year`);
    assert.equal(await select('Order').inputValue(), 'desc', 'newest first unless asked otherwise');
    await select('Order').selectOption({ label: 'Oldest first' });
    await page.waitForURL(`${instance.url}/movies?sort=year&order=asc`);
    await page.waitForFunction(
      () =>
        (document.querySelectorAll('[aria-label="Films"] .poster-title')[0] as { textContent: string } | undefined)?.textContent ===
        '12 Angry Men',
    );
    assert.deepEqual((await wallTitles()).slice(0, 6), ['12 Angry Men', 'The Godfather', 'Mad Max', 'Brazil', 'Heat', 'The Matrix']);
  });

  it('narrows to a genre with its chip, counts it right, and shows the same view from its address after a reload', async () => {
    await page.goto(`${instance.url}/movies`);
    await page.waitForSelector('.chip');
    assert.deepEqual(await page.locator('.chip').allInnerTexts(), [
      'Action 2',
      'Comedy 2',
      'Crime 2',
      'Drama 2',
      'Science Fiction 2',
      'Romance 1',
      'Thriller 1',
    ]);
    await chip('Crime 2').click();
    await page.waitForURL(`${instance.url}/movies?genre=Crime`);
    await wallShows(['The Godfather', 'Heat']);
    assert.equal(await total(), '2 films');
    // The other chips count within Crime now.
    assert.deepEqual(await page.locator('.chip').allInnerTexts(), ['Crime 2', 'Drama 1', 'Thriller 1']);
    assert.equal(await chip(/^Crime/).getAttribute('aria-pressed'), 'true');
    assert.equal(await chip(/^Drama/).getAttribute('aria-pressed'), 'false');
    await chip(/^Drama/).click();
    await page.waitForURL(`${instance.url}/movies?genre=Crime&genre=Drama`);
    await wallShows(['The Godfather']);
    assert.equal(await total(), '1 film');
    await page.screenshot({ path: join(SCREENSHOTS, 'films-genres-1920x1080.png') });
    await page.reload();
    await wallShows(['The Godfather']);
    assert.equal(await total(), '1 film');
    assert.equal(await chip(/^Crime/).getAttribute('aria-pressed'), 'true');
    assert.equal(await chip(/^Drama/).getAttribute('aria-pressed'), 'true');
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.waitForURL(`${instance.url}/movies`);
    await page.waitForFunction(POSTER_COUNT, 30);
    assert.equal(await total(), '37 films');
  });

  it('narrows to a letter from the letter bar, with the letters no film is under disabled', async () => {
    await page.goto(`${instance.url}/movies`);
    await page.waitForSelector('[aria-label="Films"] .poster');
    await page.waitForFunction(() => document.querySelectorAll('.letters button:disabled').length > 0);
    const disabled = await page.locator('.letters button:disabled').allInnerTexts();
    assert.deepEqual(disabled, [...'CDEFIJKLNPQRSTUVWXYZ'], 'the films are under A, B, G, H, M, O and #');
    await letter('M').click();
    await page.waitForURL(`${instance.url}/movies?letter=M`);
    await wallShows(['Mad Max', 'The Matrix']);
    assert.equal(await total(), '2 films');
    assert.equal(await letter('M').getAttribute('aria-pressed'), 'true');
    assert.equal(await letter('G').isEnabled(), true, 'another letter can be chosen at once');
    await letter('#').click();
    await page.waitForURL(`${instance.url}/movies?letter=%23`);
    await wallShows(['12 Angry Men']);
    await page.reload();
    await wallShows(['12 Angry Men']);
    await letter('All').click();
    await page.waitForURL(`${instance.url}/movies`);
    await page.waitForFunction(POSTER_COUNT, 30);
    // Typed by hand, in lower case: the same view, and the address says it as the screen would.
    await page.goto(`${instance.url}/movies?letter=m&genre=Action`);
    await page.waitForURL(`${instance.url}/movies?genre=Action&letter=M`);
    await wallShows(['Mad Max', 'The Matrix']);
  });

  it('narrows to a decade and to what the profile has watched', async () => {
    await page.goto(`${instance.url}/movies`);
    await page.waitForSelector('[aria-label="Films"] .poster');
    await select('Years').selectOption('1970');
    await page.waitForURL(`${instance.url}/movies?yearFrom=1970&yearTo=1979`);
    await wallShows(['The Godfather', 'Mad Max']);
    assert.equal(await page.getByLabel('From', { exact: true }).inputValue(), '1970');
    await page.getByLabel('To', { exact: true }).fill('1999');
    await page.getByLabel('To', { exact: true }).press('Enter');
    await page.waitForURL(`${instance.url}/movies?yearFrom=1970&yearTo=1999`);
    await wallShows(['Brazil', 'The Godfather', 'Heat', 'Mad Max', 'The Matrix']);
    await select('Watched').selectOption('true');
    await page.waitForURL(`${instance.url}/movies?yearFrom=1970&yearTo=1999&played=true`);
    await wallShows(['Heat']);
    await select('Watched').selectOption('false');
    await wallShows(['Brazil', 'The Godfather', 'Mad Max', 'The Matrix']);
  });

  it('leaves out what the address says wrong, and says in words what the service refuses', async () => {
    await page.goto(`${instance.url}/movies?sort=nonsense&letter=zz&played=maybe&yearFrom=nineteen`);
    await page.waitForURL(`${instance.url}/movies`, { timeout: 5000 });
    await page.waitForSelector('[aria-label="Films"] .poster');
    assert.equal(await total(), '37 films');
    assert.deepEqual((await wallTitles()).slice(0, 3), BY_TITLE.slice(0, 3), 'by title, unfiltered');
    await page.goto(`${instance.url}/movies?yearFrom=2000&yearTo=1990`);
    const problem = page.locator('.browse-results .problem');
    await problem.waitFor();
    assert.match(await problem.innerText(), /yearTo/);
    assert.equal(await select('Sort by').isVisible(), true, 'the controls stay');
    await page.screenshot({ path: join(SCREENSHOTS, 'films-refused-1920x1080.png') });
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.waitForURL(`${instance.url}/movies`);
    await page.waitForFunction(POSTER_COUNT, 30);
  });

  it("lists the collections, and a collection's page links the film here and names the missing one", async () => {
    await page.goto(`${instance.url}/collections`);
    const card = page.locator('[aria-label="Collections"] .poster');
    await card.waitFor();
    assert.deepEqual(await card.locator('span').allInnerTexts(), ['The Godfather Collection', '1 of 2']);
    await card.click();
    await page.waitForURL(`${instance.url}/collections/${GODFATHER_COLLECTION}`);
    await page.waitForSelector('.detail h1');
    assert.equal(await page.locator('.detail h1').innerText(), 'The Godfather Collection');
    assert.equal(await page.locator('.overview').innerText(), 'The Corleone family, over three generations.');
    const parts = page.locator('[aria-label="Films of the collection"] [role=listitem]');
    assert.equal(await parts.count(), 2);
    // In release order, whatever order TMDB lists them in.
    const owned = parts.nth(0).locator('a.poster');
    assert.equal(await owned.getAttribute('href'), `/movies/${godfather}`);
    assert.equal(await owned.locator('.poster-title').innerText(), 'The Godfather');
    assert.equal(await parts.nth(1).locator('a').count(), 0, 'nothing to open for a film not here');
    assert.deepEqual(await parts.nth(1).locator('.missing-mark, .poster-title, .poster-year').allInnerTexts(), [
      'Missing',
      'The Godfather Part II',
      '1974',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'collection-1920x1080.png') });
    await owned.click();
    await page.waitForURL(`${instance.url}/movies/${godfather}`);
    await page.waitForSelector('.detail h1');
  });

  it("links a film's page to its collection", async () => {
    await page.goto(`${instance.url}/movies/${godfather}`);
    const link = page.locator('.collection-link a');
    await link.waitFor();
    assert.equal(await page.locator('.collection-link').innerText(), 'Part of The Godfather Collection');
    assert.equal(await link.getAttribute('href'), `/collections/${GODFATHER_COLLECTION}`);
    await link.click();
    await page.waitForURL(`${instance.url}/collections/${GODFATHER_COLLECTION}`);
    await page.goto(`${instance.url}/movies/${heat}`);
    await page.waitForSelector('.detail h1');
    assert.equal(await page.locator('.collection-link').count(), 0, 'Heat is in no collection');
  });

  it("reaches every screen from the header's menu at a phone's width, each fitting the width", async () => {
    await page.setViewportSize(SIZES.phone);
    await page.goto(`${instance.url}/`);
    await page.waitForSelector('[aria-label="Recently added films"] .poster');
    const list = page.locator('#screens-list');
    assert.equal(await list.isVisible(), false, 'the links wait behind the menu');
    assert.equal(await menuButton().getAttribute('aria-controls'), 'screens-list');
    for (const [name, path, ready] of [
      ['Films', '/movies', '[aria-label="Films"] .poster'],
      ['Shows', '/shows', '[aria-label="Shows"] .poster'],
      ['Collections', '/collections', '[aria-label="Collections"] .poster'],
      ['Libraries', '/libraries', '.library'],
      ['Settings', '/settings', '.key-state'],
      ['Log', '/logs', '.logs tr'],
    ] as const) {
      assert.equal(await menuButton().getAttribute('aria-expanded'), 'false');
      await menuButton().click();
      assert.equal(await menuButton().getAttribute('aria-expanded'), 'true');
      await list.getByRole('link', { name, exact: true }).click();
      await page.waitForURL(`${instance.url}${path}`);
      await page.waitForSelector(ready);
      assert.equal(await list.isVisible(), false, `the menu closes once ${name} is chosen`);
      assert.equal(await page.evaluate(FITS), true, `${name} fits a phone's width`);
      await page.screenshot({ path: join(SCREENSHOTS, `menu-${path.slice(1)}-390x844.png`) });
    }
    // By keyboard: Escape closes it and gives the focus back to the button; so does a click elsewhere.
    await menuButton().focus();
    await page.keyboard.press('Enter');
    await list.waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'menu-open-390x844.png') });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Films', 'the first screen is next to the button');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Menu');
    await menuButton().click();
    await list.waitFor();
    await page.mouse.click(20, SIZES.phone.height - 40);
    await list.waitFor({ state: 'hidden' });
    assert.equal(await menuButton().getAttribute('aria-expanded'), 'false');
  });

  it("says \"1 item\" on a library's card, and keeps the last scan's time on one line at a phone's width", async () => {
    await page.goto(`${instance.url}/libraries`);
    await page.waitForSelector('.library');
    const card = (path: string) => page.locator('.library', { has: page.locator('.library-path', { hasText: path }) });
    assert.equal(await card(shows).locator('.status').innerText(), '1 item');
    assert.equal(await card(films).locator('.status').innerText(), '37 items');
    const time = card(films).locator('.last-scan time');
    assert.match(await time.innerText(), /\d/);
    assert.equal(
      await time.evaluate((t: { getClientRects(): ArrayLike<unknown> }) => t.getClientRects().length),
      1,
      'the date and time are not broken across lines',
    );
    assert.equal(await page.evaluate(FITS), true);
    await page.setViewportSize(SIZES.tv);
  });

  it('asked no other host for anything, and nothing failed but what the bad address asked for', () => {
    assert.deepEqual(blocked, []);
    assert.deepEqual(
      failed.filter((f) => !/^400 GET .*\/api\/v1\/movies(\/facets)?\?.*yearFrom=2000&yearTo=1990/.test(f)),
      [],
    );
    assert.ok(failed.length > 0, 'the refused years were asked for');
  });
});
