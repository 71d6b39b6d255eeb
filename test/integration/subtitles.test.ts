// Subtitles through the stack: files beside a real video and a stream inside it, listed in the
// movie's details with language and flags, served as WebVTT by id; a rescan notices one added
// or removed; nothing but a listed subtitle can be read. The video is a Matroska file made by
// ffmpeg with a SubRip stream (test/support/videos.ts); without ffmpeg the stream's part is
// skipped, except in CI (MLS_REQUIRE_BROWSER), which installs it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { tempDir } from '../support/instance';
import { makeTree, mediaOf, scan } from '../support/media';
import { call, stack } from '../support/stack';
import { hasFfmpeg, makeMkv } from '../support/videos';

const noFfmpeg = !hasFfmpeg() && !process.env.MLS_REQUIRE_BROWSER ? 'needs ffmpeg (apt-get install ffmpeg)' : false;

const FOLDER = 'Amélie (2001)';
const VIDEO = `${FOLDER}/Amélie (2001).mkv`;

/** Windows-1252: é is 0xE9, and ’ is 0x92, which Latin-1 would read as a control character. */
const cp1252 = (text: string) => Buffer.from([...text].map((c) => (c === '’' ? 0x92 : c.charCodeAt(0))));

const FRENCH =
  '1\r\n00:00:01,000 --> 00:00:02,500\r\nC’est un café à Montmartre.\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n<i>Amélie</i>\r\n';
const FORCED =
  '\uFEFF1\n00:00:05,000 --> 00:00:06,000\nOnly the sign on the wall\n\nnot a cue at all\n\n3\n00:00:07,000 --> 00:00:08,000\nStill read after a broken one\n';
const COMMENTARY = [
  '[Script Info]',
  'ScriptType: v4.00+',
  '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize',
  'Style: Default,Arial,20',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\an8\\c&H00FFFF&}We shot this{\\i1} in Paris{\\i0}\\Nin the spring',
].join('\n');

const get = (path: string, headers: Record<string, string> = {}) =>
  call('GET', new URL(path, stack.url).pathname + new URL(path, stack.url).search, { headers });

describe('subtitles', () => {
  const root = tempDir('subtitles');
  let movieId: string;
  let tracks: any[];
  const byLabel = (label: string) => {
    const t = tracks.find((x) => x.label === label);
    assert.ok(t, `a track labelled ${label} in ${JSON.stringify(tracks.map((x) => x.label))}`);
    return t;
  };
  const details = async () => (await call('GET', `/api/v1/movies/${movieId}`)).json.data;

  before(async () => {
    mkdirSync(join(root, FOLDER, 'Subs'), { recursive: true });
    if (hasFfmpeg()) makeMkv(join(root, VIDEO));
    else makeTree(root, [VIDEO]);
    writeFileSync(join(root, FOLDER, 'Amélie (2001).fr.srt'), cp1252(FRENCH));
    writeFileSync(join(root, FOLDER, 'Amélie (2001).en.forced.srt'), FORCED.replaceAll('\n', '\r\n'));
    writeFileSync(join(root, FOLDER, 'Subs', 'Commentary.en.ass'), COMMENTARY);
    writeFileSync(join(root, FOLDER, 'Amélie (2001).es.sup'), Buffer.from('PG not really a picture'));
    // "Привет" in Windows-1251, which the name's language picks.
    writeFileSync(
      join(root, FOLDER, 'Amélie (2001).rus.srt'),
      Buffer.concat([Buffer.from('1\n00:00:01,000 --> 00:00:02,000\n'), Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2])]),
    );
    writeFileSync(join(root, FOLDER, 'notes.txt'), 'not a subtitle');
    // A subtitle name that leads out of the library: listed by name, never read.
    const outside = join(tempDir('subtitles-outside'), 'secret.srt');
    writeFileSync(outside, '1\n00:00:01,000 --> 00:00:02,000\nsecret\n');
    symlinkSync(outside, join(root, FOLDER, 'Amélie (2001).it.srt'));
    const job = await scan({ path: root, mediaType: 'movie' });
    assert.equal(job.status, 'completed');
    movieId = mediaOf((await call('GET', '/api/v1/movies?limit=100')).json.data).find((m: any) => m.title === 'Amélie').id;
    tracks = (await details()).subtitles;
  });

  it('lists the files beside the movie and in Subs/ with language names and flags: forced first, then by language', () => {
    const external = tracks.filter((t) => t.source === 'external');
    assert.deepEqual(
      external.map((t) => [t.label, t.language, t.format, t.forced, t.default, t.hearingImpaired, t.url !== null]),
      [
        ['English (forced)', 'en', 'srt', true, false, false, true],
        ['English (Commentary)', 'en', 'ass', false, false, false, true],
        ['French', 'fr', 'srt', false, false, false, true],
        ['Italian', 'it', 'srt', false, false, false, true],
        ['Russian', 'ru', 'srt', false, false, false, true],
        ['Spanish', 'es', 'pgs', false, false, false, false],
      ],
    );
    for (const t of external) {
      assert.match(t.id, /^ext-[A-Za-z0-9_-]+$/);
      if (t.url) assert.equal(new URL(t.url).pathname, `/api/v1/subtitles/${movieId}/${t.id}`);
    }
  });

  it('serves a Windows-1252 SRT (and a Windows-1251 one) as UTF-8 WebVTT, with its headers, not counted by the rate limit', async () => {
    const res = await get(byLabel('French').url);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'text/vtt; charset=utf-8');
    assert.match(String(res.headers.etag), /^"[0-9a-f]+-[0-9a-f]+-0-r1"$/);
    assert.equal(res.headers['cache-control'], 'private, no-cache');
    assert.equal(res.headers.ratelimit, undefined);
    assert.equal(
      res.text,
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nC’est un café à Montmartre.\n\n00:00:03.000 --> 00:00:04.000\n<i>Amélie</i>\n\n',
    );
    assert.equal(
      (await get(byLabel('Russian').url)).text,
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nПривет\n\n',
      'a Russian file in its own code page',
    );
  });

  it('reads a BOM and CRLF, skips a broken cue and keeps the rest; ASS styling goes, \\N and italics stay', async () => {
    const forced = await get(byLabel('English (forced)').url);
    assert.equal(
      forced.text,
      'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nOnly the sign on the wall\n\n00:00:07.000 --> 00:00:08.000\nStill read after a broken one\n\n',
    );
    const commentary = await get(byLabel('English (Commentary)').url);
    assert.equal(commentary.text, 'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nWe shot this<i> in Paris</i>\nin the spring\n\n');
  });

  it('shifts every cue by offsetMs, each offset its own ETag; If-None-Match gives 304', async () => {
    const url = byLabel('French').url;
    const later = await get(`${url}?offsetMs=1500`);
    assert.match(later.text, /^WEBVTT\n\n00:00:02\.500 --> 00:00:04\.000\n/);
    const earlier = await get(`${url}?offsetMs=-2000`);
    assert.match(earlier.text, /^WEBVTT\n\n00:00:00\.000 --> 00:00:00\.500\nC’est/, 'a cue shifted before 0 keeps what is left');
    assert.notEqual(later.headers.etag, earlier.headers.etag);
    const again = await get(`${url}?offsetMs=1500`, { 'If-None-Match': String(later.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const bad = await get(`${url}?offsetMs=soon`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json.type.endsWith('/invalid-request'), true);
  });

  it('says 404, with the reason, for unknown ids, a picture track, a show, and a path that is not a listed subtitle', async () => {
    const unknownTrack = await get(`/api/v1/subtitles/${movieId}/ext-nothere`);
    assert.equal(unknownTrack.status, 404);
    assert.equal(unknownTrack.headers['content-type'], 'application/problem+json');
    assert.equal((await get(`/api/v1/subtitles/mv_nothere/ext-x`)).status, 404);
    const picture = await get(`/api/v1/subtitles/${movieId}/${byLabel('Spanish').id}`);
    assert.equal(picture.status, 404);
    assert.match(picture.json.detail, /pgs file, which holds pictures/);
    // Ids only: a path, or the id the video's own path would have, reaches nothing.
    assert.equal((await get(`/api/v1/subtitles/${movieId}/..%2F..%2Fetc%2Fpasswd`)).status, 400);
    const { createHash } = await import('node:crypto');
    for (const path of [VIDEO, `${FOLDER}/notes.txt`]) {
      const id = `ext-${createHash('sha256').update(path).digest('base64url').slice(0, 12)}`;
      assert.equal((await get(`/api/v1/subtitles/${movieId}/${id}`)).status, 404, path);
    }
  });

  it('never reads a subtitle name that leads out of the library', async () => {
    const res = await get(byLabel('Italian').url);
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.text, /secret/);
  });

  it('embedded streams are listed from the probe and served, extracted once into DATA_DIR', { skip: noFfmpeg }, async () => {
    const german = tracks.find((t) => t.source === 'embedded');
    assert.deepEqual(
      { ...german, url: undefined },
      {
        id: 'emb-0',
        source: 'embedded',
        format: 'srt',
        language: 'de',
        label: 'German',
        forced: false,
        default: false,
        hearingImpaired: false,
        url: undefined,
      },
    );
    assert.ok(german.url);
    const res = await get(german.url);
    assert.equal(res.status, 200, res.text);
    // The times of the file's own timeline: muxing shifted every stream by the audio's priming (23 ms).
    assert.match(res.text, /^WEBVTT\n\n00:00:00\.5\d\d --> 00:00:01\.5\d\d\nHallo\n\n00:00:01\.8\d\d --> 00:00:02\.8\d\d\nWelt\n\n$/);
    const cached = join(stack.dataDir, 'subtitles', movieId);
    assert.ok(existsSync(cached), 'kept under DATA_DIR/subtitles');
    const versions = readdirSync(cached);
    assert.equal(versions.length, 1);
    assert.ok(readdirSync(join(cached, versions[0]!)).includes('0_3.vtt'), 'stream 3 (after the video and two audio streams)');
    const shifted = await get(`${german.url}?offsetMs=1000`);
    assert.match(shifted.text, /00:00:01\.5\d\d --> 00:00:02\.5\d\d\nHallo/);
    const revalidated = await get(german.url, { 'If-None-Match': String(res.headers.etag) });
    assert.equal(revalidated.status, 304);
  });

  it("an episode's subtitles carry its file name, beside it or in a folder named after it in Subs/", async () => {
    const shows = tempDir('subtitles-tv');
    makeTree(shows, ['Dark (2017)/Season 1/Dark.S01E01.mkv', 'Dark (2017)/Season 1/Dark.S01E02.mkv'], 1024);
    writeFileSync(join(shows, 'Dark (2017)/Season 1/Dark.S01E01.de.srt'), '1\n00:00:01,000 --> 00:00:02,000\nWo ist Mikkel?\n');
    writeFileSync(join(shows, 'Dark (2017)/Season 1/Dark.S01E02.de.srt'), '1\n00:00:01,000 --> 00:00:02,000\nZweite Folge\n');
    mkdirSync(join(shows, 'Dark (2017)/Season 1/Subs/Dark.S01E02'), { recursive: true });
    writeFileSync(join(shows, 'Dark (2017)/Season 1/Subs/Dark.S01E02/3_English.srt'), '1\n00:00:01,000 --> 00:00:02,000\nSecond episode\n');
    const job = await scan({ path: shows, mediaType: 'tvshow' });
    assert.equal(job.status, 'completed');
    const show = mediaOf((await call('GET', '/api/v1/tvshows?limit=100')).json.data).find((m: any) => m.title === 'Dark');
    const [e1, e2] = (await call('GET', `/api/v1/tvshows/${show.id}`)).json.data.seasons[0].episodes;
    assert.deepEqual(
      e1.subtitles.map((t: any) => t.label),
      ['German'],
    );
    assert.deepEqual(
      e2.subtitles.map((t: any) => t.label),
      ['English', 'German'],
    );
    assert.equal((await get(e2.subtitles[0].url)).text, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nSecond episode\n\n');
    assert.equal((await get(e1.subtitles[0].url)).text, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nWo ist Mikkel?\n\n');
  });

  it('a rescan notices a subtitle added and one removed; a file gone before the rescan is 404 with the reason', async () => {
    const french = byLabel('French');
    rmSync(join(root, FOLDER, 'Amélie (2001).fr.srt'));
    const gone = await get(french.url);
    assert.equal(gone.status, 404);
    assert.match(gone.json.detail, /no longer there; a rescan/);
    writeFileSync(join(root, FOLDER, 'Amélie (2001).pt-BR.sdh.srt'), '1\n00:00:01,000 --> 00:00:02,000\nOlá\n');
    const job = await scan({ path: root, mediaType: 'movie' });
    assert.equal(job.status, 'completed');
    assert.equal(job.counts.updated, 1, 'the movie, updated for its subtitles');
    tracks = (await details()).subtitles;
    assert.equal(
      tracks.some((t: any) => t.label === 'French'),
      false,
    );
    const portuguese = byLabel('Brazilian Portuguese (SDH)');
    assert.deepEqual([portuguese.language, portuguese.hearingImpaired], ['pt-BR', true]);
    assert.equal((await get(portuguese.url)).text, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOlá\n\n');
    assert.equal((await get(french.url)).status, 404);
  });
});
