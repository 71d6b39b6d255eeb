// Debian's Chromium driven by playwright-core, for the tests that need a real browser.
// `.ci/run` installs chromium and ffmpeg and sets MLS_REQUIRE_BROWSER, so there a missing tool
// fails the test; elsewhere it is skipped with the reason.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { hasFfmpeg } from './videos';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What is missing for a browser test with videos ffmpeg makes, or an empty string. */
export const browserMissing = [!existsSync(CHROMIUM) && `Chromium (${CHROMIUM})`, !hasFfmpeg() && 'ffmpeg'].filter(Boolean).join(' and ');

/** node:test's `skip` for such a test: the reason, unless CI requires the browser. */
export const browserSkip: string | false = browserMissing && !process.env.MLS_REQUIRE_BROWSER ? `needs ${browserMissing} (apt-get install chromium ffmpeg)` : false;

export const launchChromium = (): Promise<Browser> => {
  if (browserMissing) throw new Error(`the browser test needs ${browserMissing}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
};
