// The subtitle part of `npm run bench` (`tsx bench/run.ts subtitles` alone): converting a
// film's worth of cues in process (SRT in Windows-1252, ASS), the subtitle URL through the
// shared stack (bench/library.ts) against health in the same run, and taking two text streams out of a 720p Matroska
// file of BENCH_SUBTITLE_MB with ffmpeg (time, MB/s, ffmpeg's peak RSS). Needs ffmpeg.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { decodeSubtitle } from '../lib/subtitles/decode';
import { SubtitleExtractor } from '../lib/subtitles/extract';
import { convertToWebVtt } from '../lib/subtitles/webvtt';
import { tempDir } from '../test/support/instance';
import { addLibrary, sharedLibrary } from './library';
import { api, ffmpegPeak, machineLine, median, percentile, sayer, table, writeDoc } from './support';

const CUES = 1_500;
const CONVERSIONS = 200;
const REQUESTS = 300;
const VIDEO_MB = Number(process.env.BENCH_SUBTITLE_MB ?? 500);

const say = sayer('subtitles');

const stamp = (ms: number, sep: string) => {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${sep}${String(ms % 1000).padStart(3, '0')}`;
};

/** A two-hour film's subtitles (a cue every 4.7 s, or every `everyMs`): CUES cues of one or two lines with accents and italics. */
const srtText = (everyMs = 4_700) =>
  Array.from({ length: CUES }, (_, i) => {
    const start = i * everyMs;
    return `${i + 1}\r\n${stamp(start, ',')} --> ${stamp(start + Math.round(everyMs * 0.7), ',')}\r\n${i % 5 === 0 ? '<i>Déjà vu, café crème</i>' : `Réplique numéro ${i}`}\r\n${i % 2 ? 'et une deuxième ligne' : ''}\r\n`;
  }).join('\r\n');

const assText = () =>
  [
    '[Script Info]',
    'ScriptType: v4.00+',
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...Array.from({ length: CUES }, (_, i) => {
      const t = (ms: number) =>
        `${Math.floor(ms / 3_600_000)}:${stamp(ms, '.').slice(3, 11)}.${String(Math.floor((ms % 1000) / 10)).padStart(2, '0')}`;
      return `Dialogue: 0,${t(i * 4_700)},${t(i * 4_700 + 3_200)},Default,,0,0,0,,{\\an8\\c&H00FFFF&}Line ${i}{\\i1} with style{\\i0}\\Nand a second`;
    }),
  ].join('\n');

const timeEach = (n: number, fn: () => void) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return { p50: median(times), p99: percentile(times, 99) };
};

const getOnce = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; ms: number; etag: string }>((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - t0, etag: String(res.headers.etag ?? '') }));
    });
    req.on('error', reject);
    req.end();
  });

/** p50 of one request at a time (a player asks for one track, then revalidates it). */
const sequentialP50 = async (url: string, headers: Record<string, string> = {}) => {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await getOnce(url, headers);
    if (r.status >= 400) throw new Error(`${url}: ${r.status}`);
    times.push(r.ms);
  }
  return median(times);
};

export const runSubtitles = async () => {
  const srt = Buffer.from(srtText(), 'latin1');
  const ass = assText();
  const convertSrt = timeEach(CONVERSIONS, () => convertToWebVtt(decodeSubtitle(srt).text, 'srt', 1_500));
  const convertAss = timeEach(CONVERSIONS, () => convertToWebVtt(ass, 'ass'));
  say(
    `SRT ${CUES} cues (${(srt.length / 1024).toFixed(0)} KiB): p50 ${convertSrt.p50.toFixed(2)} ms; ASS: p50 ${convertAss.p50.toFixed(2)} ms`,
  );

  const dir = tempDir('bench-subtitles');
  const { base } = await sharedLibrary();
  try {
    // Through the stack: one movie with the SRT beside it.
    const folder = join(dir, 'library', 'Amélie (2001)');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'Amélie (2001).mkv'), Buffer.alloc(1024));
    writeFileSync(join(folder, 'Amélie (2001).fr.srt'), srt);
    const { entries } = await addLibrary(join(dir, 'library'), 'movie', 1);
    const url = (await api(base, 'GET', `/api/v1/movies/${entries[0].id}`, 200)).data.subtitles[0].url as string;
    const health = await sequentialP50(`${base}/api/v1/health`);
    const whole = await sequentialP50(url);
    const etag = (await getOnce(url)).etag;
    const revalidated = await sequentialP50(url, { 'If-None-Match': etag });
    say(
      `through the stack: health p50 ${health.toFixed(1)} ms, subtitle ${whole.toFixed(1)} ms, revalidated (304) ${revalidated.toFixed(1)} ms`,
    );

    // Extraction: a 720p Matroska file with two SubRip streams of CUES cues each.
    const srtPath = join(dir, 'film.srt');
    const seconds = Math.round((VIDEO_MB * 8) / 16);
    // The cues spread over the video, as a film's are over the film.
    writeFileSync(srtPath, srtText(Math.floor((seconds * 1000) / CUES)));
    const video = join(dir, 'film.mkv');
    say(`encoding ${seconds} s of 720p at 16 Mb/s (~${VIDEO_MB} MB)...`);
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1280x720:rate=25:duration=${seconds}`,
      '-i',
      srtPath,
      '-i',
      srtPath,
      '-map',
      '0',
      '-map',
      '1',
      '-map',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '16M',
      '-c:s',
      'srt',
      video,
    ]);
    const size = statSync(video).size;
    const extractor = new SubtitleExtractor({ ffmpeg: 'ffmpeg', cacheDir: join(dir, 'cache'), timeoutMs: 600_000 });
    const file = { mediaId: 'mv_bench', path: video, size, mtimeMs: statSync(video).mtimeMs };
    const t0 = performance.now();
    const { result, peakRss: peakMiB } = await ffmpegPeak(process.pid, () => extractor.extract(file, '0:1', ['0:1', '0:2'], 600_000));
    const extractMs = performance.now() - t0;
    if (result.state !== 'ready') throw new Error(`extraction: ${JSON.stringify(result)}`);
    const extracted = result.text.split('-->').length - 1;
    if (extracted !== CUES) throw new Error(`extraction gave ${extracted} cues of ${CUES}`);
    const t1 = performance.now();
    await extractor.extract(file, '0:2', [], 0);
    const cachedMs = performance.now() - t1;
    const mb = size / 1e6;
    say(
      `extraction of 2 streams from ${mb.toFixed(0)} MB: ${(extractMs / 1000).toFixed(1)} s (${(mb / (extractMs / 1000)).toFixed(0)} MB/s), ffmpeg peak ${peakMiB} MiB; the other stream then ${cachedMs.toFixed(1)} ms`,
    );

    writeDoc(
      'subtitles',
      [
        `${machineLine()}. The video file was just written, so it is read from the page cache: from a disk, extraction runs at the disk's speed.`,
        '',
        table(
          ['what', 'measured'],
          [
            [
              `convert a ${CUES}-cue SRT (${(srt.length / 1024).toFixed(0)} KiB, Windows-1252) to WebVTT with an offset, in process`,
              `p50 ${convertSrt.p50.toFixed(2)} ms, p99 ${convertSrt.p99.toFixed(2)} ms`,
            ],
            [
              `convert a ${CUES}-event ASS with overrides, in process`,
              `p50 ${convertAss.p50.toFixed(2)} ms, p99 ${convertAss.p99.toFixed(2)} ms`,
            ],
            [
              `GET the subtitle URL through the stack, one request at a time (${REQUESTS})`,
              `p50 ${whole.toFixed(1)} ms (health: ${health.toFixed(1)} ms)`,
            ],
            ['the same with If-None-Match (304)', `p50 ${revalidated.toFixed(1)} ms`],
            [
              `extract 2 SubRip streams from a ${mb.toFixed(0)} MB 720p Matroska file (one ffmpeg run)`,
              `${(extractMs / 1000).toFixed(1)} s, ${(mb / (extractMs / 1000)).toFixed(0)} MB/s; ffmpeg peak RSS ${peakMiB} MiB`,
            ],
            ['the second stream afterwards (cached)', `${cachedMs.toFixed(1)} ms`],
          ],
        ),
      ].join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
