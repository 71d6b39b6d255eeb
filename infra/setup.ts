// Runs after `npm install`: what the service needs from the system, installed where it is
// missing and we may install packages (root with apt-get), else said exactly what to do.
// - Java 17+ with a JDK, for the embedded database (its loopback launcher is a Java source file);
// - ffmpeg, which takes subtitle streams out of videos (and will convert what a client cannot play).
// Never fails the install.
import { execFileSync, spawnSync } from 'node:child_process';
import { findExecutable } from '../lib/util/executable';
import { compiledLauncher, javaCanRunSource, javaVersion } from './runner/dynamodb/local';

interface Need {
  /** What it is for, in a sentence's words. */
  what: string;
  /** Debian's package. */
  pkg: string;
  /** Without an alternative: say what to do instead. */
  otherwise: string;
  missing(): boolean;
}

const NEEDS: Need[] = [
  {
    what: 'The embedded database needs Java 17+ with a JDK',
    pkg: 'openjdk-17-jdk-headless',
    otherwise: 'or point DYNAMODB_ENDPOINT at another DynamoDB',
    missing: () => {
      if (process.env.DYNAMODB_ENDPOINT) return false; // an external DynamoDB needs no Java here
      const version = javaVersion();
      return !(version && version >= 17 && javaCanRunSource());
    },
  },
  {
    what: 'Taking subtitles out of videos needs ffmpeg',
    pkg: 'ffmpeg',
    otherwise: 'or set FFMPEG_PATH to an ffmpeg binary (FFMPEG_PATH=off goes without)',
    // FFMPEG_PATH=off is a choice; an absolute path or a name on PATH that runs is enough.
    missing: () => process.env.FFMPEG_PATH !== 'off' && findExecutable(process.env.FFMPEG_PATH || 'ffmpeg') === null,
  },
];

const main = () => {
  const missing = NEEDS.filter((n) => n.missing());
  if (missing.length === 0) return;
  const canApt = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canApt) {
    for (const n of missing) process.stderr.write(`\n${n.what}. Install it (e.g. \`sudo apt-get install ${n.pkg}\`)\n${n.otherwise}.\n`);
    process.stderr.write('\n');
    return;
  }
  const packages = missing.map((n) => n.pkg);
  process.stderr.write(`Installing ${packages.join(' and ')}...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  } catch {
    for (const n of missing) process.stderr.write(`Could not install ${n.pkg}: install it by hand, ${n.otherwise}.\n`);
  }
};

main();
// The database's loopback launcher, compiled here once rather than at the first start (it
// compiles itself there where this could not: no JDK yet, say).
if (!process.env.DYNAMODB_ENDPOINT && javaCanRunSource()) compiledLauncher();
