// Jellyfin's own web client (a v10.11.11 build read from outside the project, JELLYFIN_WEB_DIR
// or ../shared/jellyfin/web-10.11.11) in a real browser (Debian's Chromium), against the
// Jellyfin door of an instance of its own: `/` leads to /web/, the login page shows the
// household's card, a click logs it in without a password, home lists both libraries under
// "My Media" (and the newest films), the film library lists its films with their posters, and a
// film's page shows its title. Then it plays: a real H.264/AAC film directly from the door's
// stream, paused after a few seconds, which its progress report makes our API's place to continue
// from; after a reload the film's page offers "Resume" (and home's "Continue Watching" its bar),
// the door's UserData says where, resuming starts there, and our own web client offers to resume
// at the place the door's stop report left; a film with AC-3 plays through the door's HLS with
// the subtitles chosen on its page. Every host but the door is blocked; the door's answers of
// 400 and more and the page's uncaught errors are noted to say why a step failed, no answer may
// be a 5xx, and at the end none may have been refused. Screenshots are kept in
// test/.artifacts/screenshots.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { PROJECT_DIR } from '../../infra/project';
import { freePort } from '../../infra/runner/ports';
import { browserSkip, launchChromium, pageOnlyFor, SCREENSHOTS, SIZES } from '../support/browser';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { makeTree, scan } from '../support/media';
import { makePlaybackLibrary } from '../support/playback-media';
import { flatJpeg } from '../support/posters';
import { makeMp4 } from '../support/videos';

const WEB_DIR = process.env.JELLYFIN_WEB_DIR ?? join(PROJECT_DIR, '../shared/jellyfin/web-10.11.11');
const webSkip = existsSync(join(WEB_DIR, 'index.html'))
  ? browserSkip
  : `needs a build of Jellyfin's web client at ${WEB_DIR} (set JELLYFIN_WEB_DIR to one)`;

const FILMS = [
  { folder: 'Arrival (2016)', title: 'Arrival', colour: '#304060' },
  { folder: 'Brazil (1985)', title: 'Brazil', colour: '#803020' },
  { folder: 'Casablanca (1942)', title: 'Casablanca', colour: '#505050' },
];
/** A real H.264/AAC MP4, which a browser plays as it is, long enough to stop in the middle of. */
const PLAYED = { folder: 'Dunkirk (2017)', title: 'Dunkirk', seconds: 24, colour: '#406080' };
/** A Matroska with AC-3 (test/support/playback-media.ts), which a browser plays converted, and English subtitles beside it. */
const CONVERTED = { folder: 'Pb Mkv Ac3 (2001)', title: 'Pb Mkv Ac3', seconds: 12, colour: '#608040' };
/** One cue over most of the film, so it shows whenever the test looks. */
const CUES = '1\n00:00:00,500 --> 00:00:11,000\nHallo\n';
/** jellyfin-web is heavy and the box may have two cores. */
const SLOW = 90_000;

// Run in the page (functions, as in test/browser/watching.test.ts); the page's globals, typed loosely here.
interface VideoElement {
  currentTime: number;
  paused: boolean;
  currentSrc: string;
  textTracks: ArrayLike<{ mode: string; activeCues: ArrayLike<{ text?: string }> | null }>;
}
declare const document: { querySelector(s: string): VideoElement | null };
const TIME = () => document.querySelector('video')?.currentTime ?? -1;
const PAUSED = () => document.querySelector('video')?.paused ?? false;
const SOURCE = () => document.querySelector('video')?.currentSrc ?? '';
/** The text of the cues the video shows now. */
const CUES_SHOWN = () =>
  Array.from(document.querySelector('video')?.textTracks ?? [])
    .filter((t) => t.mode === 'showing')
    .flatMap((t) => Array.from(t.activeCues ?? []).map((c) => c.text ?? ''));

/** A film's watch state in our API (/api/v1/continue's entries, /api/v1/movies/{id}). */
interface Watched {
  id: string;
  userData: { positionSeconds: number };
}

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
  /** The film played: its id in our API and in the door. */
  let film = { id: '', guid: '' };
  /** Where the video was last paused, in seconds. */
  let pausedAt = 0;
  /** The door's token for a device of the test's own, to read what the door says apart from the page. */
  let doorToken = '';
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
    mkdirSync(join(films, PLAYED.folder));
    makeMp4(join(films, PLAYED.folder, `${PLAYED.folder}.mp4`), { seconds: PLAYED.seconds });
    mkdirSync(join(films, CONVERTED.folder));
    makePlaybackLibrary(join(films, CONVERTED.folder), { only: [CONVERTED.title], seconds: CONVERTED.seconds });
    writeFileSync(join(films, CONVERTED.folder, `${CONVERTED.folder}.en.srt`), CUES);
    // Posters for all: the web client asks /web/null for a film's picture when there is none.
    for (const f of [...FILMS, PLAYED, CONVERTED]) {
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

  const api = async (path: string) => {
    const res = await fetch(`${instance.url}${path}`);
    assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
    return ((await res.json()) as { data: unknown }).data;
  };
  /** The door's answer to GET `path`, as another device logged in as the household. */
  const doorGet = async (path: string): Promise<unknown> => {
    if (!doorToken) {
      const res = await fetch(`${door}/Users/AuthenticateByName`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: 'MediaBrowser Client="Door test", Device="node", DeviceId="jellyfin-web-test", Version="1"',
        },
        body: JSON.stringify({ Username: 'Household', Pw: '' }),
      });
      assert.equal(res.status, 200);
      doorToken = ((await res.json()) as { AccessToken: string }).AccessToken;
    }
    const res = await fetch(`${door}${path}`, { headers: { 'X-Emby-Token': doorToken } });
    assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
    return res.json();
  };
  /** A film's id in our API and in the door. */
  const filmIds = async (title: string) => {
    const ours = ((await api('/api/v1/movies?limit=100')) as { id: string; media: { title: string } }[]).find(
      (f) => f.media.title === title,
    );
    const theirs = (
      (await doorGet(`/Items?Recursive=true&IncludeItemTypes=Movie&SearchTerm=${encodeURIComponent(title)}`)) as {
        Items: { Id: string; Name: string }[];
      }
    ).Items.find((i) => i.Name === title);
    assert.ok(ours && theirs, `${title} is in the library`);
    return { id: ours.id, guid: theirs.Id };
  };

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

  /** The film's page's play button ("Resume" when there is a place to resume from). */
  const playButton = () => page.locator('.mainDetailButtons .btnPlay').filter({ visible: true });
  /** The web client names the play button "Resume" once the film's UserData has a place in it. */
  const offersResume = async () =>
    (await playButton()
      .getAttribute('title', { timeout: 1000 })
      .catch(() => null)) === 'Resume';
  /** Opens a film's page by its address, as a link or a bookmark would. */
  const openFilm = async (guid: string, title: string) => {
    await page.goto(`${door}/web/#/details?id=${guid}`);
    await see(`${title}'s title`, page.getByRole('heading', { level: 1, name: title }).filter({ visible: true }));
  };
  /** Pauses with the player's key for play and pause, and notes where. */
  const pause = async () => {
    await page.keyboard.press('k');
    await until('the video paused', () => page.evaluate(PAUSED));
    pausedAt = await page.evaluate(TIME);
  };
  /** Leaves the player as a viewer does (back), and waits for the stop report the web client sends then. */
  const leavePlayer = async () => {
    const stopped = page.waitForResponse((r) => /\/Sessions\/Playing\/Stopped$/iu.test(new URL(r.url()).pathname));
    await page.goBack();
    assert.equal((await stopped).status(), 204, trouble());
  };

  step(`plays ${PLAYED.title} from its page: the play button starts the video, streamed directly from the door`, async () => {
    film = await filmIds(PLAYED.title);
    await openFilm(film.guid, PLAYED.title);
    await see('the play button', playButton());
    assert.equal(await playButton().getAttribute('title'), 'Play', 'nothing to resume yet');
    assert.equal(await page.locator('.mainDetailButtons .btnReplay').filter({ visible: true }).count(), 0);
    await playButton().click();
    await reach('the player', /#\/video/u);
    await until('the video playing', async () => (await page.evaluate(TIME)) > 1);
    // A browser plays H.264/AAC in MP4 as it is: the file's own bytes, not a conversion.
    assert.match(await page.evaluate(SOURCE), new RegExp(`/Videos/${film.guid}/stream\\.mp4\\?`, 'iu'));
    await page.screenshot({ path: join(SCREENSHOTS, 'jellyfin-web-playing-1920x1080.png') });
    noServerErrors();
  });

  step("pauses after a few seconds: the pause's progress report is our API's place to continue from", async () => {
    await until('4 s played', async () => (await page.evaluate(TIME)) >= 4);
    // The web client reports on a pause (and every 10 s).
    const reported = page.waitForResponse((r) => /\/Sessions\/Playing\/Progress$/iu.test(new URL(r.url()).pathname));
    await pause();
    assert.equal((await reported).status(), 204);
    const entry = await waitFor(
      `${PLAYED.title} in /api/v1/continue`,
      async () => ((await api('/api/v1/continue')) as Watched[]).find((c) => c.id === film.id && c.userData.positionSeconds > 0),
      15_000,
      250,
    ).catch((err: Error) => assert.fail(`${err.message}\n${trouble()}`));
    assert.ok(Math.abs(entry.userData.positionSeconds - pausedAt) < 1, `${entry.userData.positionSeconds} s kept, paused at ${pausedAt} s`);
    noServerErrors();
  });

  step(`offers to resume on ${PLAYED.title}'s page after a reload, where the door's UserData says`, async () => {
    await leavePlayer();
    await reach("the film's page", /#\/details\?id=/u);
    await page.reload();
    await see("the film's title", page.getByRole('heading', { level: 1, name: PLAYED.title }).filter({ visible: true }));
    await until('the play button saying "Resume"', offersResume);
    await see('the button to play from the start', page.locator('.mainDetailButtons .btnReplay').filter({ visible: true }));
    await page.screenshot({ path: join(SCREENSHOTS, 'jellyfin-web-resume-1920x1080.png') });
    const item = (await doorGet(`/Items/${film.guid}`)) as { UserData: { PlaybackPositionTicks: number } };
    const seconds = item.UserData.PlaybackPositionTicks / 10_000_000;
    assert.ok(seconds > 0 && Math.abs(seconds - pausedAt) < 1, `${item.UserData.PlaybackPositionTicks} ticks, paused at ${pausedAt} s`);
    noServerErrors();
  });

  step('lists it under "Continue Watching" on home, its bar where it was paused', async () => {
    await page.goto(`${door}/web/#/home`);
    const row = page
      .locator('.verticalSection')
      .filter({ has: page.getByRole('heading', { name: 'Continue Watching', exact: true }) })
      .filter({ visible: true });
    await see('"Continue Watching"', row);
    await see(`${PLAYED.title} in it`, row.getByRole('link', { name: PLAYED.title, exact: true }));
    const width = /width:\s*([\d.]+)%/u.exec((await row.locator('.itemProgressBarForeground').first().getAttribute('style')) ?? '');
    const expected = (pausedAt / PLAYED.seconds) * 100;
    assert.ok(width && Math.abs(Number(width[1]) - expected) < 5, `the bar: ${width?.[1]}%, expected about ${expected}%`);
    noServerErrors();
  });

  step('resumes there: "Resume" starts the video where it was paused', async () => {
    await openFilm(film.guid, PLAYED.title);
    await until('the play button saying "Resume"', offersResume);
    await playButton().click();
    await reach('the player', /#\/video/u);
    await until('the video playing', async () => (await page.evaluate(TIME)) > 0 && !(await page.evaluate(PAUSED)));
    const started = await page.evaluate(TIME);
    assert.ok(started >= pausedAt - 1 && started < pausedAt + 3, `started at ${started} s, paused at ${pausedAt} s`);
    await until('2 s more played', async () => (await page.evaluate(TIME)) >= started + 2);
    await pause();
    await leavePlayer();
    noServerErrors();
  });

  step('our own web client offers to resume the film where the door was told it stopped', async () => {
    const { positionSeconds } = ((await api(`/api/v1/movies/${film.id}`)) as Watched).userData;
    assert.ok(Math.abs(positionSeconds - pausedAt) < 1, `${positionSeconds} s kept, stopped at ${pausedAt} s`);
    const ours = (await pageOnlyFor(browser, instance.url, SIZES.tv, { blocked, failed })).page;
    try {
      await ours.goto(`${instance.url}/movies/${film.id}`);
      await ours.waitForSelector('.detail h1');
      const label = `0:00:${String(Math.floor(positionSeconds)).padStart(2, '0')}`;
      assert.equal(await ours.locator('a.play').innerText(), `▶ Resume from ${label}`);
      await ours.screenshot({ path: join(SCREENSHOTS, 'jellyfin-web-resume-ours-1920x1080.png') });
    } finally {
      await ours.close();
    }
  });

  step(`plays ${CONVERTED.title} (AC-3) through the door's HLS, with the English subtitles chosen on its page`, async () => {
    const converted = await filmIds(CONVERTED.title);
    await openFilm(converted.guid, CONVERTED.title);
    const subtitles = page.locator('select.selectSubtitles').filter({ visible: true });
    await see('the choice of subtitles', subtitles);
    await subtitles.selectOption({ label: 'English' });
    const from = answers.length;
    await playButton().click();
    await reach('the player', /#\/video/u);
    await until('the video playing', async () => (await page.evaluate(TIME)) > 1);
    const asked = answers.slice(from).map((a) => a.line);
    const path = `/videos/${converted.guid}/`;
    // hls.js reads the playlists and the segments into the video (a blob: source).
    for (const part of ['master.m3u8', 'main.m3u8', 'hls1/main/0.ts']) {
      assert.ok(
        asked.some((l) => l.toLowerCase().startsWith(`200 get ${path}${part}?`)),
        `${part} was asked for and answered:\n${asked.join('\n')}`,
      );
    }
    assert.match(await page.evaluate(SOURCE), /^blob:/u);
    // The web client sets the cue's text with a direction mark before it.
    await until('the subtitle shown', async () => (await page.evaluate(CUES_SHOWN)).some((text) => text.includes('Hallo')));
    await page.screenshot({ path: join(SCREENSHOTS, 'jellyfin-web-converted-1920x1080.png') });
    await pause();
    await leavePlayer();
    // The stop report names the conversion (its PlaySessionId, read from the playlist's address): it is ended.
    const playlist = asked.find((l) => l.toLowerCase().startsWith(`200 get ${path}main.m3u8?`))!.split(' ')[2]!;
    assert.equal((await fetch(`${door}${playlist}`)).status, 404, 'the conversion ended with the stop');
    noServerErrors();
  });

  // A route the web client asks for and the door lacks shows here, even where the page copes.
  step('was refused nothing it asked the door for', async () => {
    assert.deepEqual(
      answers.filter((a) => a.status >= 400).map((a) => a.line),
      [],
    );
  });
});
