// `npm run bench`: the standing measurements of what a user asks of the product, each part
// rewriting its own section of docs/benchmarks.md. The parts that need a library share one
// (bench/library.ts: built and scanned once per run, behind the one counting DynamoDB proxy);
// the others start what they measure (footprint: `npm start` as a user runs it; metadata: an
// instance with a fake provider; cloud: the packaged functions as Lambda runs them).
// `npx tsx bench/run.ts <part> [<part> ...]` runs only those parts (names below), in this order.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { runBrowse } from './browse';
import { runCatalog } from './catalog';
import { runCloud } from './cloud';
import { runFootprint } from './footprint';
import { runHousehold } from './household';
import { closeShared } from './library';
import { runMetadata } from './metadata';
import { runPlayback } from './playback';
import { runSearch } from './search';
import { runStream } from './stream';
import { runSubtitles } from './subtitles';
import { runWatching } from './watching';
import { runWeb } from './web';

/**
 * In the order they run. The footprint first: it starts the service as a user does, and
 * rebuilds the bundles, before the shared stack exists. The household last of those on the
 * shared library: it scans a second library of the same size into it.
 */
const PARTS: Record<string, () => Promise<void>> = {
  footprint: runFootprint,
  catalog: runCatalog,
  search: runSearch,
  browse: runBrowse,
  web: runWeb,
  watching: runWatching,
  stream: runStream,
  subtitles: runSubtitles,
  playback: runPlayback,
  household: runHousehold,
  metadata: runMetadata,
  cloud: runCloud,
};
/** What the folder monitor costs is measured in the footprint part's `npm start`. */
const ALIASES: Record<string, string> = { monitor: 'footprint' };

const main = async () => {
  const asked = process.argv.slice(2).map((p) => ALIASES[p] ?? p);
  const unknown = asked.filter((p) => !(p in PARTS));
  if (unknown.length)
    throw new Error(
      `unknown part ${unknown.map((p) => `"${p}"`).join(', ')}: ${[...Object.keys(PARTS), ...Object.keys(ALIASES)].join(', ')}, or none for all`,
    );
  try {
    for (const [name, run] of Object.entries(PARTS)) {
      if (asked.length && !asked.includes(name)) continue;
      // The parts after the household start their own instances: the shared stack goes first.
      if (name === 'metadata' || name === 'cloud') await closeShared();
      const t0 = performance.now();
      await run();
      process.stdout.write(`[bench] ${name} took ${Math.round((performance.now() - t0) / 1000)} s\n`);
    }
  } finally {
    await closeShared();
  }
};

// Ended outright: a client's idle keep-alive sockets or a build service must not hold the run open.
main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
