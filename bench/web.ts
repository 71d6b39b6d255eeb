// The web client part of `npm run bench` (`tsx bench/run.ts web` alone): how soon the home
// screen of the shared library (bench/library.ts, 10,000 films) shows its first posters in
// Debian's Chromium (the target is under 1 s), and how much JavaScript it loads. 60 more films,
// each with its own painted poster beside it, are scanned in last as a library of their own, so
// that they are the newest: the first page of home. Each load is a fresh browser context
// (nothing cached), measured from navigation start to the first poster image decoded on screen,
// and to every poster of the first screen.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWeb } from '../infra/web-build';
import { launchChromium } from '../test/support/browser';
import { detailedQuadrants, paintedJpeg, seededRandom, type Rgb } from '../test/support/posters';
import { PROJECT_DIR } from '../infra/project';
import { addLibrary, sharedLibrary } from './library';
import { api, machineLine, median, sayer, writeDoc } from './support';

const WITH_POSTERS = 60;
const LOADS = 7;
const TARGET_MS = 1000;

const say = sayer('web');
const ms = (value: number) => Math.round(value);

// Runs in the page: when the first poster and all posters in view had their image decoded.
const TIMINGS = `new Promise((resolve) => {
  const done = () => {
    const imgs = [...document.querySelectorAll('.poster-art img')];
    const inView = imgs.filter((img) => img.getBoundingClientRect().top < innerHeight);
    const loaded = inView.filter((img) => img.complete && img.naturalWidth > 0);
    return inView.length > 0 && loaded.length === inView.length;
  };
  let first = null;
  const tick = () => {
    const imgs = [...document.querySelectorAll('.poster-art img')];
    if (first === null && imgs.some((img) => img.complete && img.naturalWidth > 0)) first = performance.now();
    if (done()) return resolve({ first, all: performance.now(), posters: document.querySelectorAll('.poster').length });
    requestAnimationFrame(tick);
  };
  tick();
})`;

export const runWeb = async () => {
  const built = await buildWeb();
  const { instance, movies } = await sharedLibrary();
  const newest = mkdtempSync(join(tmpdir(), 'mls-bench-web-'));
  const browser = await launchChromium();
  try {
    const next = seededRandom(7);
    for (let i = 0; i < WITH_POSTERS; i++) {
      const folder = join(newest, `Poster Film ${i + 1} (${1950 + (i % 70)})`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `Poster Film ${i + 1} (${1950 + (i % 70)}).mkv`), Buffer.alloc(1024));
      const colour = (): Rgb => [next() * 255, next() * 255, next() * 255];
      writeFileSync(
        join(folder, 'poster.jpg'),
        await paintedJpeg(detailedQuadrants([colour(), colour(), colour(), colour()], 500, 750), {
          width: 500,
          height: 750,
          noise: 8,
          seed: i,
        }),
      );
    }
    const { job } = await addLibrary(newest, 'movie', 0);
    say(`${job.counts.added} films with posters scanned in`);
    const films = (await api(instance.url, 'GET', '/api/v1/movies?limit=1', 200)).meta.total as number;

    const loads: Array<{ first: number; all: number; posters: number; bytes: number }> = [];
    for (let i = 0; i < LOADS + 1; i++) {
      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      const page = await context.newPage();
      let bytes = 0;
      page.on(
        'response',
        (res) =>
          void res.body().then(
            (b) => (bytes += b.length),
            () => {},
          ),
      );
      await page.goto(`${instance.url}/`);
      const timing = await page.evaluate<{ first: number; all: number; posters: number }>(TIMINGS);
      if (i === LOADS) await page.screenshot({ path: join(PROJECT_DIR, 'docs', 'web-client.jpg'), type: 'jpeg', quality: 80 });
      await context.close();
      // The first load pays the service's own first requests (bundles loaded, caches cold).
      if (i > 0) loads.push({ ...timing, bytes });
      say(
        `load ${i + 1}: first poster ${ms(timing.first)} ms, the first screen's ${timing.posters} posters ${ms(timing.all)} ms${i === 0 ? ' (warm-up, not counted)' : ''}`,
      );
    }
    const first = median(loads.map((l) => l.first));
    const all = median(loads.map((l) => l.all));
    const section = [
      `${machineLine()}. ${films} films in the catalogue (the shared library's ${movies.length} sparse films and any other part's, then the ${WITH_POSTERS} newest each with a 500x750 JPEG poster beside it, scanned last); Debian's Chromium, headless, 1920x1080, a fresh context per load (nothing cached), median of ${LOADS} loads after one not counted.`,
      '',
      '| measure | value | target | met? |',
      '|---|---|---|---|',
      `| navigation start to the first poster on screen | ${ms(first)} ms | < ${TARGET_MS} ms | ${first < TARGET_MS ? 'yes' : 'no'} |`,
      `| navigation start to every poster of the first screen (${loads[0]?.posters ?? 0} tiles) | ${ms(all)} ms | - | - |`,
      `| JavaScript of the client (built / gzipped) | ${Math.round(built.scriptBytes / 1024)} KiB / ${Math.round(built.scriptGzipBytes / 1024)} KiB | < 250 KB gzipped | ${built.scriptGzipBytes < 250_000 ? 'yes' : 'no'} |`,
      `| bytes the first screen loads (page, assets, API answers, posters at their srcset width) | ${Math.round(median(loads.map((l) => l.bytes)) / 1024)} KiB | - | - |`,
    ].join('\n');
    writeDoc('web', section);
  } finally {
    await browser.close();
    rmSync(newest, { recursive: true, force: true });
  }
};
