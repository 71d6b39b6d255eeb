// Watch state in the web client, in a real browser (Debian's Chromium), against an instance of
// the service with a 20-second film and a show of three short episodes over two seasons (no
// provider: they keep their files' names). A device asks who is watching once there are
// several profiles and remembers the answer; the player reports where the viewer stopped, which
// home's "Continue watching" shows with its bar and the film's page resumes from, for that
// profile only; marking an episode played rolls "Next up" over into the next season; an
// episode played to its end offers the next one; a heart makes a film, a show or an episode a
// favourite, which the Favourites filter keeps; and a change made elsewhere (another tab, the
// API) reaches the page on /ws. Screenshots at a TV's and a phone's size are kept in
// test/.artifacts/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserSkip, launchChromium, pageOnlyFor, SCREENSHOTS, SIZES } from '../support/browser';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { scan } from '../support/media';
import { makeMp4 } from '../support/videos';

const FILM_SECONDS = 20;
const EPISODE_SECONDS = 4;

// Run in the page (functions, as the page's CSP allows no eval); the page's globals, typed loosely here.
interface VideoElement {
  currentTime: number;
  duration: number;
  paused: boolean;
  pause(): void;
}
declare const document: {
  querySelector(s: string): VideoElement | null;
  activeElement: { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};
declare const innerWidth: number;
declare const localStorage: { getItem(key: string): string | null };
const TIME = () => document.querySelector('video')?.currentTime ?? -1;
const FITS = () => document.documentElement.scrollWidth <= innerWidth;

interface UserData {
  positionSeconds: number;
  progress: number;
  played: boolean;
  playCount: number;
  lastPlayedAt: string | null;
  favorite: boolean;
}

describe('watch state in the web client', { skip: browserSkip }, () => {
  let instance: Instance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let film = '';
  let show = '';
  const episodes = new Map<string, string>();
  const profiles = new Map<string, string>();
  const blocked: string[] = [];
  const failed: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${instance.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as { data: any }) : undefined, text };
  };
  const userDataOf = async (mediaId: string, profile: string): Promise<UserData> => {
    const res = await api('GET', `/api/v1/movies/${mediaId}?profileId=${profiles.get(profile)}`);
    assert.equal(res.status, 200, res.text);
    return res.json!.data.userData as UserData;
  };
  const episodeState = async (episode: string, profile: string): Promise<UserData> => {
    const res = await api('GET', `/api/v1/tvshows/${show}?profileId=${profiles.get(profile)}`);
    assert.equal(res.status, 200, res.text);
    const found = (res.json!.data.seasons as Array<{ episodes: Array<{ id: string; userData: UserData }> }>)
      .flatMap((s) => s.episodes)
      .find((e) => e.id === episodes.get(episode));
    return found?.userData ?? assert.fail(`${episode} is in the show`);
  };
  const row = (title: string) => page.locator(`.posters[aria-label="${title}"]`);
  const rowCaptions = (title: string) =>
    row(title)
      .locator('.poster')
      .evaluateAll((cards: Array<{ innerText: string }>) => cards.map((c) => c.innerText.replace(/\s+/g, ' ').trim()));
  const profileButton = () => page.locator('.profile-menu summary');
  const switchTo = async (name: string) => {
    await profileButton().click();
    await page.locator('.menu').getByRole('button', { name, exact: true }).click();
    await page.waitForFunction(
      (n) =>
        (document as unknown as { querySelector(s: string): { textContent: string } | null }).querySelector('.profile-menu summary')
          ?.textContent === n,
      name,
    );
  };
  const homeLoaded = async () => {
    await page.waitForSelector('[aria-label="Recently added films"] .poster');
    await page.waitForSelector('[aria-label="Recently added shows"] .poster');
  };

  before(async () => {
    const films = tempDir('watching-films');
    mkdirSync(join(films, 'Long Walk (2019)'));
    makeMp4(join(films, 'Long Walk (2019)', 'Long Walk (2019).mp4'), { seconds: FILM_SECONDS });
    const shows = tempDir('watching-shows');
    for (const [season, number] of [
      [1, 1],
      [1, 2],
      [2, 1],
    ] as const) {
      mkdirSync(join(shows, 'Tidewater', `Season ${season}`), { recursive: true });
      makeMp4(join(shows, 'Tidewater', `Season ${season}`, `Tidewater.S0${season}E0${number}.mp4`), { seconds: EPISODE_SECONDS });
    }
    instance = await startInstance({ env: { LOG_LEVEL: 'info' } });
    const job = await scan({ path: films, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const showJob = await scan({ path: shows, mediaType: 'tvshow' }, instance.url);
    assert.equal(showJob.status, 'completed', JSON.stringify(showJob.error));
    film = (await api('GET', '/api/v1/movies?limit=10')).json!.data[0]?.id ?? assert.fail('the film was scanned');
    show = (await api('GET', '/api/v1/tvshows?limit=10')).json!.data[0]?.id ?? assert.fail('the show was scanned');
    const detail = (await api('GET', `/api/v1/tvshows/${show}`)).json!.data as {
      seasons: Array<{ episodes: Array<{ id: string; seasonNumber: number; episodeNumber: number }> }>;
    };
    for (const e of detail.seasons.flatMap((s) => s.episodes)) episodes.set(`S0${e.seasonNumber}E0${e.episodeNumber}`, e.id);
    assert.deepEqual([...episodes.keys()].sort(), ['S01E01', 'S01E02', 'S02E01']);

    browser = await launchChromium();
    ({ context, page } = await pageOnlyFor(browser, instance.url, SIZES.tv, { blocked, failed }));
  });

  after(async () => {
    await browser?.close();
    await instance?.stop();
  });

  it('with one profile, asks nobody and watches as the household', async () => {
    await page.goto(`${instance.url}/`);
    await homeLoaded();
    assert.equal(await page.locator('.who').count(), 0);
    assert.equal(await profileButton().innerText(), 'Household');
    assert.equal(await page.evaluate(() => localStorage.getItem('profileId')), null, 'not remembered: there was nothing to choose');
  });

  it('with several, asks "Who\'s watching?" and remembers the answer on this device', async () => {
    for (const name of ['Alice', 'Bob']) {
      const res = await api('POST', '/api/v1/profiles', { name });
      assert.equal(res.status, 201, res.text);
      profiles.set(name, res.json!.data.id);
    }
    profiles.set('Household', 'default');
    await page.reload();
    await page.waitForSelector('.who');
    assert.equal(await page.locator('.who h1').innerText(), 'Who’s watching?');
    assert.deepEqual(
      (await page.locator('.who-profile').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
      ['H Household', 'A Alice', 'B Bob'],
    );
    assert.equal(await page.locator('[aria-label="Recently added films"]').count(), 0, 'no screen before the answer');
    await page.screenshot({ path: join(SCREENSHOTS, 'who-1920x1080.png') });
    await page.locator('.who-profile', { hasText: 'Alice' }).click();
    await homeLoaded();
    assert.equal(await profileButton().innerText(), 'Alice');
    assert.equal(await page.evaluate(() => localStorage.getItem('profileId')), profiles.get('Alice'));
    await page.reload();
    await homeLoaded();
    assert.equal(await page.locator('.who').count(), 0, 'not asked again');
    assert.equal(await profileButton().innerText(), 'Alice');
  });

  it('reports where the film was left: seeking to the middle and closing the player', async () => {
    await page.goto(`${instance.url}/movies/${film}`);
    await page.waitForSelector('.detail h1');
    assert.equal(await page.locator('a.play').innerText(), '▶ Play', 'nothing to resume yet');
    assert.equal(await page.getByText('Play from the start').count(), 0);
    await page.click('a.play');
    await page.waitForURL(/\/play\/[\w-]+$/);
    await page.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) >= t, 0.3);
    await page.locator('video').evaluate((v: VideoElement) => {
      v.currentTime = 10;
    });
    await page.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) >= t, 10.5);
    // The seek was reported (a report every 10 s as well, a pause, a hidden tab): the service has it before the player closes.
    const seeked = await waitFor(
      'the seek reported',
      async () => {
        const u = await userDataOf(film, 'Alice');
        return u.positionSeconds >= 9.5 ? u : undefined;
      },
      15_000,
      200,
    );
    assert.ok(seeked.positionSeconds < FILM_SECONDS * 0.9, JSON.stringify(seeked));
    // Closing the player (back to home, in the page) reports where it was.
    await page.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) >= t, 11.5);
    await page.click('a.brand');
    await page.waitForURL(`${instance.url}/`);
    const closed = await waitFor(
      'the last report',
      async () => {
        const u = await userDataOf(film, 'Alice');
        return u.positionSeconds >= 11.5 ? u : undefined;
      },
      10_000,
      200,
    );
    assert.ok(closed.positionSeconds < 15, `the position the player closed at: ${JSON.stringify(closed)}`);
    assert.ok(closed.progress > 0.5 && closed.progress < 0.8, `its share of the film's ${FILM_SECONDS} s: ${JSON.stringify(closed)}`);
    assert.equal(closed.played, false);
  });

  it('shows the film in Continue watching on home, with its bar', async () => {
    await homeLoaded();
    await row('Continue watching').waitFor();
    assert.deepEqual(await rowCaptions('Continue watching'), ['Long Walk 2019']);
    const bar = row('Continue watching').locator('.watched');
    // The player's last report and home's first reading cross: the report's userdata:changed sets the bar right.
    const expected = Math.round((await userDataOf(film, 'Alice')).progress * 100);
    await page.waitForFunction(
      (p) =>
        (document as unknown as { querySelector(s: string): { getAttribute(n: string): string | null } | null })
          .querySelector('.posters[aria-label="Continue watching"] .watched')
          ?.getAttribute('aria-valuenow') === String(p),
      expected,
    );
    const percent = Number(await bar.getAttribute('aria-valuenow'));
    assert.ok(percent > 55 && percent < 80, `the bar: ${percent}%`);
    assert.match((await bar.locator('div').getAttribute('style')) ?? '', new RegExp(`width: ${percent}%`));
    // The film's poster in the recent films shows it too.
    assert.equal(await page.locator('[aria-label="Recently added films"] .poster .watched').count(), 1);
    assert.equal(await row('Next up').count(), 0, 'no show begun: no Next up');
    // The card plays from where it stopped.
    assert.match((await row('Continue watching').locator('.poster').getAttribute('href')) ?? '', new RegExp(`^/play/${film}\\?t=1[12]$`));
    await page.screenshot({ path: join(SCREENSHOTS, 'continue-1920x1080.png') });
  });

  it('offers "Resume from 0:00:1x" on the film\'s page, and resuming starts there', async () => {
    const { positionSeconds } = await userDataOf(film, 'Alice');
    const label = `0:00:${String(Math.floor(positionSeconds)).padStart(2, '0')}`;
    await page.goto(`${instance.url}/movies/${film}`);
    await page.waitForSelector('.detail h1');
    assert.equal(await page.locator('a.play').innerText(), `▶ Resume from ${label}`);
    assert.equal(await page.locator('a.restart').innerText(), 'Play from the start');
    assert.equal(await page.locator('a.restart').getAttribute('href'), `/play/${film}`);
    await page.click('a.play');
    await page.waitForURL(new RegExp(`/play/${film}\\?t=${Math.floor(positionSeconds)}$`));
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0 && !document.querySelector('video')!.paused);
    const started = await page.evaluate(TIME);
    assert.ok(
      started >= positionSeconds - 1 && started < positionSeconds + 3,
      `started at ${started}, not from the start (${positionSeconds})`,
    );
    await page.locator('video').evaluate((v: VideoElement) => v.pause());
    await page.goto(`${instance.url}/`);
    await homeLoaded();
  });

  it("keeps each profile's own: Bob has nothing to continue", async () => {
    // Bob's rows answered (so their absence below is his, not rows still loading).
    const bobsRows = page.waitForResponse(
      (r) => r.url().includes('/api/v1/next-up?') && r.url().includes(`profileId=${profiles.get('Bob')}`),
    );
    const bobsResume = page.waitForResponse(
      (r) => r.url().includes('/api/v1/continue?') && r.url().includes(`profileId=${profiles.get('Bob')}`),
    );
    await switchTo('Bob');
    await homeLoaded();
    await Promise.all([bobsRows, bobsResume]);
    await row('Continue watching').waitFor({ state: 'detached', timeout: 5_000 });
    assert.equal(await page.locator('[aria-label="Recently added films"] .poster .watched').count(), 0);
    assert.equal((await userDataOf(film, 'Bob')).positionSeconds, 0);
    await page.goto(`${instance.url}/movies/${film}`);
    await page.waitForSelector('.detail h1');
    assert.equal(await page.locator('a.play').innerText(), '▶ Play');
    assert.equal(await page.evaluate(() => localStorage.getItem('profileId')), profiles.get('Bob'), 'the switch is remembered');
    await switchTo('Alice');
    await page.waitForSelector('a.play:has-text("Resume from")');
  });

  it("marks S01E02 played on the show's page: Next up rolls over to S02E01", async () => {
    await page.goto(`${instance.url}/shows/${show}`);
    await page.waitForSelector('.episodes .episode');
    assert.equal(await page.locator('.seen').innerText(), '0 of 3 episodes played');
    const second = page.locator('.episode').nth(1);
    assert.match(await second.locator('.episode-title').innerText(), /Episode 2|Tidewater/);
    await second.getByRole('button', { name: 'Mark played' }).click();
    await second.getByRole('button', { name: 'Mark unplayed' }).waitFor();
    assert.equal(await second.locator('.played-mark').count(), 1, 'its ✓');
    assert.equal(await page.locator('.seen').innerText(), '1 of 3 episodes played');
    assert.equal((await episodeState('S01E02', 'Alice')).played, true);
    assert.equal((await episodeState('S01E02', 'Bob')).played, false, "Alice's mark only");
    await page.click('a.brand');
    await homeLoaded();
    await row('Next up').waitFor();
    const next = await rowCaptions('Next up');
    assert.equal(next.length, 1, next.join(' | '));
    assert.match(next[0]!, /^Tidewater S2 · E1\b/);
    assert.equal(await row('Next up').locator('.poster').getAttribute('href'), `/shows/${show}/play/${episodes.get('S02E01')}`);
    assert.match(
      (await page.locator('[aria-label="Recently added shows"] .watched').getAttribute('aria-valuenow')) ?? '',
      /^33$/,
      'a third of the show played',
    );
  });

  it('plays an episode to its end and offers the next one', async () => {
    await page.goto(`${instance.url}/shows/${show}/play/${episodes.get('S01E01')}`);
    await page.waitForSelector('.player h1');
    assert.match(await page.locator('.player h1').innerText(), /S01E01/);
    assert.equal(await page.locator('.next-episode').count(), 0, 'nothing offered while it plays');
    await page.waitForSelector('.next-episode', { timeout: (EPISODE_SECONDS + 20) * 1000 });
    assert.match(await page.locator('.next-episode').innerText(), /Up next: S01E02/);
    const next = page.getByRole('button', { name: 'Next episode' });
    assert.equal(await next.isVisible(), true);
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent ?? null),
      '▶ Next episode',
      "focused: a remote's OK plays it",
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'next-episode-1920x1080.png') });
    const ended = await waitFor(
      'the end reported',
      async () => {
        const u = await episodeState('S01E01', 'Alice');
        return u.played ? u : undefined;
      },
      10_000,
      200,
    );
    assert.equal(ended.positionSeconds, 0, 'played: nothing to resume');
    await next.click();
    await page.waitForURL(new RegExp(`/shows/${show}/play/${episodes.get('S01E02')}$`));
    await page.waitForSelector('.player h1:has-text("S01E02")');
    assert.equal(await page.locator('.next-episode').count(), 0, 'a new player offers nothing yet');
    await page.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) >= t, 0.2);
    await page.locator('video').evaluate((v: VideoElement) => v.pause());
    // Watching it again left a position in it (past 5%): played once more, for the rows below to start from S01E01 and S01E02 played.
    await page.goto(`${instance.url}/`);
    assert.equal((await api('POST', `/api/v1/played/${episodes.get('S01E02')}?profileId=${profiles.get('Alice')}`)).status, 200);
  });

  it("updates home's rows from a change made elsewhere (the API, another tab)", async () => {
    await page.goto(`${instance.url}/`);
    await homeLoaded();
    await row('Next up').waitFor();
    assert.deepEqual(await rowCaptions('Continue watching'), ['Long Walk 2019']);
    // Someone on another device stops in the middle of S02E01.
    const res = await api('PUT', `/api/v1/progress/${episodes.get('S02E01')}?profileId=${profiles.get('Alice')}`, {
      positionSeconds: 2,
      durationSeconds: EPISODE_SECONDS,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json!.data.positionSeconds, 2);
    await page.waitForFunction(
      () =>
        (document as unknown as { querySelectorAll(s: string): ArrayLike<unknown> }).querySelectorAll(
          '.posters[aria-label="Continue watching"] .poster',
        ).length === 2,
    );
    assert.match((await rowCaptions('Continue watching'))[0]!, /^Tidewater S2 · E1/, 'the latest first');
    // In progress, it is no longer "next".
    await row('Next up').waitFor({ state: 'detached' });
    // Another tab plays on in the film: its card comes to the front with its new bar, without a reload.
    const other = await context.newPage();
    await other.goto(`${instance.url}/play/${film}?t=15`);
    await other.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) >= t, 15.5);
    await other.locator('video').evaluate((v: VideoElement) => v.pause());
    await page.waitForFunction(() => {
      const bar = (document as unknown as { querySelector(s: string): { getAttribute(n: string): string | null } | null }).querySelector(
        '.posters[aria-label="Continue watching"] .poster .watched',
      );
      return Number(bar?.getAttribute('aria-valuenow')) >= 75;
    });
    assert.match((await rowCaptions('Continue watching'))[0]!, /^Long Walk/);
    await other.close();
    // Bob's changes are not Alice's.
    await api('PUT', `/api/v1/progress/${episodes.get('S01E01')}?profileId=${profiles.get('Bob')}`, {
      positionSeconds: 2,
      durationSeconds: EPISODE_SECONDS,
    });
    await page.waitForTimeout(1000);
    assert.equal((await rowCaptions('Continue watching')).length, 2);
  });

  it('marks the whole show played, and its poster shows it', async () => {
    await page.goto(`${instance.url}/shows/${show}`);
    await page.waitForSelector('.episodes .episode');
    // S02E01 is in progress: its row resumes.
    const third = page.locator('.episode').nth(2);
    assert.equal(await third.locator('a.resume').innerText(), 'Resume from 0:00:02');
    assert.equal(await third.locator('.episode-link').getAttribute('href'), `/shows/${show}/play/${episodes.get('S02E01')}?t=2`);
    assert.equal(await third.locator('.watched').getAttribute('aria-valuenow'), '50');
    await page.screenshot({ path: join(SCREENSHOTS, 'show-watching-1920x1080.png') });
    await page.getByRole('button', { name: 'Mark all played' }).click();
    await page.getByRole('button', { name: 'Mark all unplayed' }).waitFor();
    assert.equal(await page.locator('.seen').innerText(), '3 of 3 episodes played');
    assert.equal(await page.locator('.episode .played-mark').count(), 3);
    assert.equal(await third.locator('a.resume').count(), 0, 'played: nothing to resume');
    await page.click('a.brand');
    await homeLoaded();
    // The watch rows load on their own, after the shelves when the box is busy: both rows are in once one is.
    await row('Continue watching').waitFor();
    assert.equal(await page.locator('[aria-label="Recently added shows"] .poster .played-mark').count(), 1, "the show's ✓");
    assert.equal(await page.locator('[aria-label="Recently added shows"] .poster .watched').count(), 0);
    assert.deepEqual(await rowCaptions('Continue watching'), ['Long Walk 2019']);
    assert.equal(await row('Next up').count(), 0, 'nothing after the last episode');
  });

  it('marks the film played from its page, and unplayed again', async () => {
    await page.goto(`${instance.url}/movies/${film}`);
    await page.getByRole('button', { name: 'Mark played' }).click();
    await page.getByRole('button', { name: 'Mark unplayed' }).waitFor();
    assert.equal(await page.locator('a.play').innerText(), '▶ Play', 'played: nothing to resume');
    assert.equal(await page.locator('.play-actions .played-mark').count(), 1);
    assert.equal((await userDataOf(film, 'Alice')).played, true);
    await page.getByRole('button', { name: 'Mark unplayed' }).click();
    await page.getByRole('button', { name: 'Mark played' }).waitFor();
    assert.equal((await userDataOf(film, 'Alice')).played, false);
  });

  it('makes the film, the show and an episode favourites with their hearts, leaving what was watched be; Favourites keeps them', async () => {
    const heart = (scope: { getByRole: Page['getByRole'] }) => scope.getByRole('button', { name: 'Favourite', exact: true });
    await page.goto(`${instance.url}/movies/${film}`);
    await heart(page).click();
    await page.locator('.play-actions .favorite[aria-pressed="true"]').waitFor();
    assert.equal((await userDataOf(film, 'Alice')).favorite, true);
    assert.equal((await userDataOf(film, 'Bob')).favorite, false, "Alice's only");

    await page.goto(`${instance.url}/shows/${show}`);
    await page.waitForSelector('.episodes .episode');
    await heart(page.locator('.detail-text > .play-actions')).click();
    await page.locator('.detail-text > .play-actions .favorite[aria-pressed="true"]').waitFor();
    const second = page.locator('.episode').nth(1);
    await heart(second).click();
    await second.locator('.favorite[aria-pressed="true"]').waitFor();
    assert.equal((await episodeState('S01E02', 'Alice')).favorite, true);
    // The show's own change comes back on /ws too: the page still says what was played.
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('.seen').innerText(), '3 of 3 episodes played');
    assert.equal(await page.locator('.episode .played-mark').count(), 3);
    assert.equal(await page.locator('.episode .favorite[aria-pressed="true"]').count(), 1, 'the show is a favourite, not its episodes');
    await page.screenshot({ path: join(SCREENSHOTS, 'show-favourites-1920x1080.png') });

    await page.goto(`${instance.url}/movies`);
    await page.waitForSelector('.browse-results .poster');
    await page.selectOption('select[name="favorite"]', 'true');
    await page.waitForURL(/\/movies\?favorite=true$/);
    await page.waitForSelector('.browse-results .poster .favorite-mark');
    assert.equal(await page.locator('.browse-results .poster').count(), 1);
    await page.goto(`${instance.url}/shows?favorite=false`);
    await page.locator('.browse-results .empty').waitFor();

    await page.goto(`${instance.url}/movies/${film}`);
    await heart(page).click();
    await page.locator('.play-actions .favorite[aria-pressed="false"]').waitFor();
    assert.equal((await userDataOf(film, 'Alice')).favorite, false);
  });

  it('adds, renames and deletes profiles', async () => {
    await page.goto(`${instance.url}/`);
    await homeLoaded();
    await profileButton().click();
    await page.fill('.menu input[name=name] >> nth=1', 'Carol');
    await page.locator('.menu button:has-text("Add")').click();
    await page.locator('.menu').getByRole('button', { name: 'Carol', exact: true }).waitFor();
    // A name taken is said so.
    await page.fill('.menu input[name=name] >> nth=1', 'bob');
    await page.locator('.menu button:has-text("Add")').click();
    assert.equal(await page.locator('.menu .name-error').innerText(), '“bob” is taken.');
    await page.fill('.menu input[name=name] >> nth=0', 'Alice B.');
    await page.locator('.menu button:has-text("Rename")').click();
    await page.waitForFunction(
      () =>
        (document as unknown as { querySelector(s: string): { textContent: string } | null }).querySelector('.profile-menu summary')
          ?.textContent === 'Alice B.',
    );
    assert.equal(await page.locator('.menu').count(), 0, 'closed once renamed');
    await page.goto(`${instance.url}/settings`);
    await page.waitForSelector('.profiles li');
    assert.deepEqual(
      (await page.locator('.profiles li > span').allInnerTexts()).map((t) => t.trim()),
      ['Household', 'Alice B. (on this device)', 'Bob', 'Carol'],
    );
    assert.equal(await page.locator('.profiles li:has-text("Household") button').count(), 0, "the household's stays");
    page.once('dialog', (dialog) => {
      assert.match(dialog.message(), /Delete the profile “Bob”\?/);
      void dialog.accept();
    });
    await page.locator('.profiles li:has-text("Bob") button.danger').click();
    await page.locator('.profiles li:has-text("Bob")').waitFor({ state: 'detached' });
    assert.deepEqual(
      ((await api('GET', '/api/v1/profiles')).json!.data as Array<{ name: string }>).map((p) => p.name),
      ['Household', 'Alice B.', 'Carol'],
    );
  });

  it("fits a phone's width", async () => {
    const res = await api('PUT', `/api/v1/progress/${film}?profileId=${profiles.get('Alice')}`, { positionSeconds: 8 });
    assert.equal(res.status, 200, res.text);
    await page.setViewportSize(SIZES.phone);
    await page.goto(`${instance.url}/`);
    await homeLoaded();
    await row('Continue watching').waitFor();
    assert.equal(await page.evaluate(FITS), true, 'nothing wider than the screen');
    await page.screenshot({ path: join(SCREENSHOTS, 'continue-390x844.png') });
    await profileButton().click();
    assert.equal(await page.evaluate(FITS), true, 'the menu too');
    await page.screenshot({ path: join(SCREENSHOTS, 'profile-menu-390x844.png') });
    await page.keyboard.press('Escape');
    await page.goto(`${instance.url}/shows/${show}`);
    await page.waitForSelector('.episodes .episode');
    assert.equal(await page.evaluate(FITS), true);
    await page.screenshot({ path: join(SCREENSHOTS, 'show-watching-390x844.png') });
  });

  it('asked no other host for anything, and nothing it asked for failed', () => {
    assert.deepEqual(blocked, []);
    assert.deepEqual(failed, [`409 POST ${instance.url}/api/v1/profiles`], 'only the name taken, on purpose');
  });
});
