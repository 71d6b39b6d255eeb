// Debian's Chromium driven by playwright-core, for the tests that need a real browser.
// `.ci/run` installs chromium and ffmpeg and sets MLS_REQUIRE_BROWSER, so there a missing tool
// fails the test; elsewhere it is skipped with the reason.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { PROJECT_DIR } from '../../infra/project';
import { hasFfmpeg } from './videos';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What is missing for a browser test with videos ffmpeg makes, or an empty string. */
export const browserMissing = [!existsSync(CHROMIUM) && `Chromium (${CHROMIUM})`, !hasFfmpeg() && 'ffmpeg'].filter(Boolean).join(' and ');

/** node:test's `skip` for such a test: the reason, unless CI requires the browser. */
export const browserSkip: string | false =
  browserMissing && !process.env.MLS_REQUIRE_BROWSER ? `needs ${browserMissing} (apt-get install chromium ffmpeg)` : false;

export const launchChromium = (): Promise<Browser> => {
  if (browserMissing) throw new Error(`the browser test needs ${browserMissing}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
};

/** Where the browser tests keep their screenshots, and the sizes they look at. */
export const SCREENSHOTS = join(PROJECT_DIR, 'test/.artifacts/screenshots');
export const SIZES = { phone: { width: 390, height: 844 }, tv: { width: 1920, height: 1080 } } as const;

/**
 * A page in a context of its own that reaches nothing but `base`'s host (no CDN, no font, no
 * analytics): every other request is aborted and noted in `blocked`, and every answer of 400 or
 * more is noted in `failed` as "<status> <method> <url>".
 */
export const pageOnlyFor = async (
  browser: Browser,
  base: string,
  viewport: { width: number; height: number },
  notes: { blocked: string[]; failed: string[] },
) => {
  const context = await browser.newContext({ viewport });
  const own = new URL(base).host;
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === own) return route.continue();
    notes.blocked.push(url.href);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('response', (res) => {
    if (res.status() >= 400) notes.failed.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return { context, page };
};
