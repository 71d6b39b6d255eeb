// ffmpeg writing a test's media, kept between runs: the same command (its inputs' contents,
// not their temporary paths) on the same ffmpeg makes the same file, so a run whose fixtures
// are unchanged copies them instead of encoding them again. Only the output (the last
// argument) is written where the test asked.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { extname, isAbsolute, join } from 'node:path';
import { PROJECT_DIR } from '../../infra/project';

const KEPT_DIR = join(PROJECT_DIR, 'node_modules/.cache/mls-test/media');

let version: string | undefined;
const ffmpegVersion = () => (version ??= execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' }).split('\n')[0]!);

const run = (args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });

/** What makes the output: the arguments, each input file by its contents, and ffmpeg's version. */
const keyOf = (args: string[]) => {
  const hash = createHash('sha256').update(ffmpegVersion());
  for (const arg of args.slice(0, -1)) {
    if (isAbsolute(arg) && existsSync(arg) && statSync(arg).isFile()) hash.update('\0file\0').update(readFileSync(arg));
    else hash.update(`\0${arg}`);
  }
  return `${hash.digest('hex').slice(0, 24)}${extname(args.at(-1)!)}`;
};

/** Runs `ffmpeg -y <args>` whose last argument is the file it writes, from the kept copy where there is one. */
export const ffmpeg = (args: string[]) => {
  const out = args.at(-1)!;
  const kept = join(KEPT_DIR, keyOf(args));
  if (!existsSync(kept)) {
    run(args);
    mkdirSync(KEPT_DIR, { recursive: true });
    // Written aside and renamed, so a file another run is reading is always whole.
    const aside = `${kept}.${process.pid}`;
    copyFileSync(out, aside);
    renameSync(aside, kept);
    return;
  }
  copyFileSync(kept, out);
};

/** What ffprobe reads of a file: its streams' kinds, codecs and channels, its format and duration. */
export const probeStreams = (path: string) =>
  JSON.parse(
    execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,channels:format=format_name,duration', '-of', 'json', path],
      { encoding: 'utf8' },
    ),
  ) as {
    streams: { codec_type: string; codec_name: string; channels?: number }[];
    format: { format_name: string; duration: string };
  };
