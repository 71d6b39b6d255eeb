// Playback's parts against the real things: what a session's requests cost on the test run's
// DynamoDB Local (the session store's contract, capacity, idle end and DELETE, is
// test/contracts/sessions.ts, run in store-contracts.test.ts), the segment cache's bounds on real
// files, and the endpoints through the whole stack with files ffmpeg made (the answers, the
// playlist, segments ffprobe reads back, 404/400/422, not counted by the rate limit); then an
// instance of its own with a short idle time: an unasked session ends and its files go, and a
// restart removes what a killed service left. The browser's side: test/browser/play-anything.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { config } from '../../lib/config';
import { createDb, type Db } from '../../lib/db/client';
import { remuxPlan } from '../../lib/playback/plan';
import { SegmentCache, SessionEnded } from '../../lib/playback/segment-cache';
import { DynamoSessionStore, type SessionPlan } from '../../lib/playback/sessions';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { mediaOf, scan } from '../support/media';
import { ownTable } from '../support/own-table';
import { makePlaybackLibrary } from '../support/playback-media';
import { call, jsonBody, stack } from '../support/stack';
import { probeStreams } from '../support/ffmpeg';
import { hasFfmpeg, makeMp4 } from '../support/videos';
import { aSessionPlan } from '../contracts/sessions';

const skip = hasFfmpeg() || process.env.MLS_REQUIRE_BROWSER ? false : 'needs ffmpeg (apt-get install ffmpeg)';

/** A two-hour film's remux plan: keyframes 2-5 s apart (xorshift, the same every run), about 2,000 segments. */
const longPlan = (): SessionPlan => {
  const keyframes: [number, number][] = [];
  for (let t = 0, x = 0x9e3779b9; t < 7200;) {
    keyframes.push([t + 0.041708, t]);
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    t += 2 + (x % 3000) / 1000;
  }
  return { ...aSessionPlan('mv_long'), segments: remuxPlan({ durationS: 7200, startS: 0, frameS: 1 / 23.976, keyframes }) };
};

/** The database calls a client makes and the bytes they answer with (as sent: Content-Length). */
const wire = (db: Db) => {
  const tally = { calls: 0, bytes: 0 };
  db.raw.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      tally.calls++;
      tally.bytes += Number((out.response as { headers: Record<string, string | undefined> }).headers['content-length'] ?? 0);
      return out;
    },
    { step: 'deserialize' },
  );
  return { read: () => ({ ...tally }), reset: () => Object.assign(tally, { calls: 0, bytes: 0 }) };
};

describe('playback sessions in the table', () => {
  const table = ownTable('playback-sessions');

  it("costs a request of a two-hour film's player one write of a small item; its plan is read apart, once", async () => {
    const db = createDb({ ...config.db, tableName: table.name });
    const measured = wire(db);
    const store = new DynamoSessionStore(() => db);
    const long = longPlan();
    const session = await store.start('remux', 2, long, 60_000);
    assert.ok(session);
    measured.reset();
    await store.touch(session.id, 60_000);
    const touch = measured.read();
    measured.reset();
    assert.deepEqual(await store.plan(session.id), long);
    const read = measured.read();
    // Measured 2026-11-27: the slot item with the plan inside answered each touch with 176,728 bytes (2,057 segments).
    assert.equal(touch.calls, 1);
    assert.ok(touch.bytes < 1024, `a touch answers ${touch.bytes} bytes`);
    assert.ok(read.bytes > 100 * 1024, `the plan of ${long.segments.length} segments is ${read.bytes} bytes, read once per process`);
    process.stdout.write(
      `# ${long.segments.length} segments: a touch ${touch.bytes} bytes in ${touch.calls} call; the plan ${read.bytes} bytes\n`,
    );
    assert.equal(await store.end(session.id), true);
    db.raw.destroy();
  });
});

describe('the segment cache', () => {
  const id = (n: number) => `r${n}-${'0123456789abcdef'}`;
  const write = (bytes: number) => async (out: string) => writeFileSync(out, Buffer.alloc(bytes));

  it('keeps at most its segments per session, the least recently asked for going first', async () => {
    const cache = new SegmentCache({ dir: tempDir('segments'), perSession: 3, maxBytes: 1 << 30 });
    await cache.seen(id(0));
    for (let i = 0; i < 5; i++) await cache.segment(id(0), i, write(10));
    assert.deepEqual(
      readdirSync(cache.sessionDir(id(0)))
        .filter((n) => n.endsWith('.ts'))
        .sort(),
      ['2.ts', '3.ts', '4.ts'],
    );
    // Asked for again: made once, then served from the cache.
    let made = 0;
    await cache.segment(id(0), 3, async (out) => void (made++, writeFileSync(out, 'x')));
    assert.equal(made, 0);
  });

  it('counts the segments being made against the cap: the folder never holds more, not even while they are written', async () => {
    const cache = new SegmentCache({ dir: tempDir('segments'), perSession: 4, maxBytes: 1 << 30 });
    await cache.seen(id(5));
    let most = 0;
    const watched = async (out: string) => {
      writeFileSync(out, Buffer.alloc(10));
      await new Promise((r) => setTimeout(r, 20));
      most = Math.max(most, readdirSync(cache.sessionDir(id(5))).filter((n) => n.endsWith('.ts')).length);
    };
    for (let i = 0; i < 4; i++) await cache.segment(id(5), i, write(10));
    // Three at once, as a player's segment and the two made ahead of it.
    for (let i = 4; i < 16; i += 3) await Promise.all([i, i + 1, i + 2].map((n) => cache.segment(id(5), n, watched)));
    assert.ok(most <= 4, `${most} segments in the folder at once, cap 4`);
    assert.equal(readdirSync(cache.sessionDir(id(5))).filter((n) => n.endsWith('.ts')).length, 4);
  });

  it('makes nothing for a session that ended, and does not bring its folder back', async () => {
    const cache = new SegmentCache({ dir: tempDir('segments'), perSession: 4, maxBytes: 1 << 30 });
    await cache.seen(id(6));
    await cache.remove(id(6));
    let made = 0;
    await assert.rejects(
      cache.segment(id(6), 0, async (out) => void (made++, writeFileSync(out, 'x'))),
      SessionEnded,
    );
    assert.equal(made, 0);
    assert.equal(existsSync(cache.sessionDir(id(6))), false);
  });

  it('keeps the whole cache under its size, and two requests for one segment share one run', async () => {
    const cache = new SegmentCache({ dir: tempDir('segments'), perSession: 100, maxBytes: 250 });
    await cache.seen(id(1));
    await cache.seen(id(2));
    for (let i = 0; i < 3; i++) await cache.segment(id(1), i, write(100));
    await cache.segment(id(2), 0, write(100));
    assert.ok((await cache.bytes()) <= 250, `${await cache.bytes()} bytes kept`);
    let runs = 0;
    const slow = async (out: string) => {
      runs++;
      await new Promise((r) => setTimeout(r, 50));
      writeFileSync(out, 'y');
    };
    await Promise.all([cache.segment(id(2), 5, slow), cache.segment(id(2), 5, slow)]);
    assert.equal(runs, 1);
  });

  it('sweeps sessions idle for longer than the idle time (and everything at start), and gives space back on demand', async () => {
    const dir = tempDir('segments');
    const cache = new SegmentCache({ dir, perSession: 10, maxBytes: 1 << 30 });
    await cache.seen(id(3));
    await cache.segment(id(3), 0, write(10));
    await cache.seen(id(4));
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(dir, id(4), '.seen'), old, old);
    mkdirSync(join(dir, 'stray'));
    assert.deepEqual(await cache.sweep(60_000), [id(4)]);
    assert.deepEqual(readdirSync(dir), [id(3)]);
    assert.equal(await cache.clear(), 10);
    assert.deepEqual(await cache.sweep(0), [id(3)]);
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('playback through the stack', { skip }, () => {
  const ids = new Map<string, string>();
  const post = (id: string, body: unknown = {}) => call('POST', `/api/v1/playback/${id}`, jsonBody(body));

  before(async () => {
    const dir = tempDir('playback');
    makePlaybackLibrary(dir, { seconds: 8 });
    makeMp4(join(dir, 'Pb Plain Mp4 (2012).mp4'), { seconds: 4 });
    assert.equal((await scan({ path: dir, mediaType: 'movie' })).status, 'completed');
    for (const m of mediaOf((await call('GET', '/api/v1/movies?limit=100')).json.data))
      if (m.title.startsWith('Pb ')) ids.set(m.title, m.id);
  });

  it('answers direct for a file the client plays: the stream URL, no session', async () => {
    const answer = await post(ids.get('Pb Plain Mp4')!);
    assert.equal(answer.status, 200);
    const data = answer.json.data;
    assert.deepEqual(
      { method: data.method, sessionId: data.sessionId, reasons: data.reasons },
      { method: 'direct', sessionId: null, reasons: [] },
    );
    assert.match(data.url, /\/api\/v1\/stream\//);
    assert.equal(data.mimeType, 'video/mp4');
    // A client that names what it plays is believed: Matroska with AC-3 plays on a TV that says so.
    const tv = await post(ids.get('Pb Mkv Ac3')!, { client: { containers: ['matroska'], videoCodecs: ['h264'], audioCodecs: ['ac3'] } });
    assert.equal(tv.json.data.method, 'direct');
  });

  it('remuxes Matroska with AC-3: an HLS playlist of the whole film, segments of H.264 copied and AAC stereo', async () => {
    const answer = await post(ids.get('Pb Mkv Ac3')!);
    assert.equal(answer.status, 200);
    const data = answer.json.data;
    assert.equal(data.method, 'remux');
    assert.deepEqual(
      data.reasons.map((r: { code: string }) => r.code),
      ['container', 'audio-codec'],
    );
    assert.equal(data.mimeType, 'application/vnd.apple.mpegurl');
    const list = await call('GET', new URL(data.url).pathname);
    assert.equal(list.status, 200);
    assert.match(String(list.headers['content-type']), /mpegurl/);
    assert.equal(list.headers['ratelimit'], undefined, 'the playlist is not counted');
    assert.ok(answer.headers['ratelimit'] !== undefined, 'the POST is');
    const durations = [...list.text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    assert.ok(Math.abs(durations.reduce((a, b) => a + b, 0) - data.durationSeconds) < 0.1, 'the playlist covers the whole film');
    // A keyframe every 2 s (a few ms after each mark) and 2 s segments at the start: every keyframe, the last one too, opens one.
    assert.deepEqual(
      durations.map((d) => d.toFixed(1)),
      Array(Math.round(data.durationSeconds / 2)).fill('2.0'),
    );
    const base = new URL(data.url).pathname.replace(/index\.m3u8$/, '');
    const response = await fetch(`${stack.url}${base}segments/1.ts`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'video/mp2t');
    const file = join(tempDir('segment'), '1.ts');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const probed = probeStreams(file);
    assert.equal(probed.format.format_name, 'mpegts');
    assert.deepEqual(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort(), ['audio:aac', 'video:h264']);
    assert.equal(probed.streams.find((s) => s.codec_type === 'audio')?.channels, 2);
    assert.ok(
      Math.abs(Number(probed.format.duration) - durations[1]!) < 0.3,
      `segment 1 lasts ${probed.format.duration} s, listed ${durations[1]}`,
    );
    assert.equal((await call('GET', `${base}segments/${durations.length}.ts`)).status, 404, 'past the end');

    const folder = join(stack.dataDir, 'playback', data.sessionId);
    assert.ok(existsSync(folder));
    assert.equal((await call('DELETE', `/api/v1/playback/sessions/${data.sessionId}`)).status, 204);
    assert.ok(!existsSync(folder), 'its files went');
    const ended = await call('GET', new URL(data.url).pathname);
    assert.equal(ended.status, 404);
    assert.match(ended.json.detail, /ended/);
    assert.equal((await call('DELETE', `/api/v1/playback/sessions/${data.sessionId}`)).status, 404);
  });

  it('makes the segment where the player will start before it is asked for, and nothing before it', async () => {
    const data = (await post(ids.get('Pb Mkv Ac3')!, { startSeconds: 5 })).json.data;
    const list = await call('GET', new URL(data.url).pathname);
    let end = 0;
    const starts = [...list.text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => (end += Number(m[1])) - Number(m[1]));
    const index = starts.findLastIndex((s) => s <= 5);
    assert.ok(index > 0, `5 s falls past the first segment (starts ${starts.join(', ')})`);
    const folder = join(stack.dataDir, 'playback', data.sessionId);
    const made = () => (existsSync(folder) ? readdirSync(folder).filter((f) => /^\d+\.ts$/.test(f)) : []);
    await waitFor(`segment ${index} made unasked`, async () => made().includes(`${index}.ts`) || undefined, 30_000);
    assert.ok(
      made().every((f) => Number.parseInt(f, 10) >= index),
      `nothing before the start: ${made().join(', ')}`,
    );
    assert.equal((await call('DELETE', `/api/v1/playback/sessions/${data.sessionId}`)).status, 204);
  });

  it('stops what it makes ahead when the player seeks elsewhere, and makes a stopped segment again when asked', async () => {
    const data = (await post(ids.get('Pb Mkv Ac3')!)).json.data;
    const base = new URL(data.url).pathname.replace(/index\.m3u8$/, '');
    const count = [...(await call('GET', new URL(data.url).pathname)).text.matchAll(/#EXTINF/g)].length;
    assert.ok(count >= 4, `${count} segments: the seek must land past segment 2`);
    const folder = join(stack.dataDir, 'playback', data.sessionId);
    const made = () => readdirSync(folder).filter((f) => /^\d+\.ts$/.test(f));
    // Segment 0 answered, segment 2 is being made ahead of it (1 was made beside 0 at the start).
    assert.equal((await call('GET', `${base}segments/0.ts`)).status, 200);
    // A seek to the last segment: 2 is of no use now and stops, so the seek's segment has the cores.
    assert.equal((await call('GET', `${base}segments/${count - 1}.ts`)).status, 200);
    await new Promise((r) => setTimeout(r, 1_000)); // longer than a segment of this film takes
    assert.ok(!made().includes('2.ts'), `stopped: ${made().join(', ')}`);
    // Back again: made when asked.
    assert.equal((await call('GET', `${base}segments/2.ts`)).status, 200);
    assert.ok(made().includes('2.ts'));
    assert.equal((await call('DELETE', `/api/v1/playback/sessions/${data.sessionId}`)).status, 204);
  });

  it('copies the audio the client plays: a remux of Matroska with AAC carries that AAC as it is, its segments meeting exactly', async () => {
    const data = (await post(ids.get('Pb Mkv Aac')!)).json.data;
    assert.equal(data.method, 'remux');
    assert.deepEqual(
      data.reasons.map((r: { code: string }) => r.code),
      ['container'],
    );
    const base = new URL(data.url).pathname.replace(/index\.m3u8$/, '');
    const dir = tempDir('copied');
    const audioOf = async (index: number) => {
      const response = await fetch(`${stack.url}${base}segments/${index}.ts`);
      assert.equal(response.status, 200);
      const file = join(dir, `${index}.ts`);
      writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      const [stream] = JSON.parse(
        execFileSync(
          'ffprobe',
          ['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=codec_name,channels,sample_rate', '-of', 'json', file],
          { encoding: 'utf8' },
        ),
      ).streams;
      const packets = execFileSync(
        'ffprobe',
        ['-v', 'error', '-select_streams', 'a', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file],
        { encoding: 'utf8' },
      )
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(',').map(Number) as [number, number]);
      return { stream, first: packets[0]![0], end: packets.at(-1)![0] + packets.at(-1)![1] };
    };
    const [one, two] = [await audioOf(1), await audioOf(2)];
    // Encoded, it would be AAC stereo at 48 kHz: the source's mono at 44.1 kHz is its own packets.
    assert.deepEqual(one.stream, { codec_name: 'aac', channels: 1, sample_rate: '44100' });
    assert.deepEqual(two.stream, one.stream);
    // Each packet in one segment exactly: the audio of 1 ends where 2's begins.
    assert.ok(Math.abs(one.end - two.first) < 0.001, `segment 1's audio ends at ${one.end}, 2's begins at ${two.first}`);
    assert.equal((await call('DELETE', `/api/v1/playback/sessions/${data.sessionId}`)).status, 204);
  });

  it('plays the track asked for, else the default one', async () => {
    const id = ids.get('Pb Two Tracks')!;
    const chosen = (await post(id)).json.data;
    assert.equal(chosen.audioTrack, 1, 'the AC-3 track is marked default');
    const aac = (await post(id, { audioTrack: 0 })).json.data;
    assert.equal(aac.audioTrack, 0);
    assert.deepEqual(
      aac.reasons.map((r: { code: string }) => r.code),
      ['container'],
      'AAC plays: only the container changes',
    );
    for (const s of [chosen, aac]) await call('DELETE', `/api/v1/playback/sessions/${s.sessionId}`);
  });

  it("says a damaged file cannot be played, in words and without the server's paths", async () => {
    const answer = await post(ids.get('Pb Damaged')!);
    assert.equal(answer.status, 422);
    assert.equal(answer.json.type, '/problems/unplayable');
    assert.match(answer.json.detail, /cannot be played: /);
    assert.doesNotMatch(answer.json.detail, /\//, 'no path');
  });

  it('refuses bad input: 404 for an unknown id or a show, 400 for a malformed profile', async () => {
    assert.equal((await post('mv_doesnotexist')).status, 404);
    const bad = await post(ids.get('Pb Mkv Ac3')!, { client: { containers: 'mp4' } });
    assert.equal(bad.status, 400);
    assert.equal((await post(ids.get('Pb Mkv Ac3')!, { audioTrack: -1 })).status, 400);
    assert.equal((await call('GET', '/api/v1/playback/sessions/r0-0123456789abcdef/segments/x.ts')).status, 400);
  });
});

describe('a session nobody asks for ends by itself; a restart clears what a killed service left', { skip }, () => {
  let instance: Instance;
  const dataDir = tempDir('playback-idle');

  before(async () => {
    instance = await startInstance({ dataDir, env: { PLAYBACK_IDLE_SECONDS: '5' } });
  });
  after(async () => {
    await instance?.stop();
  });

  it('ends an unasked session after the idle time: its URLs answer 404 and its folder goes', async () => {
    const dir = tempDir('playback-idle-media');
    makePlaybackLibrary(dir, { seconds: 8 });
    assert.equal((await scan({ path: dir, mediaType: 'movie' }, instance.url)).status, 'completed');
    const id = mediaOf((await call('GET', '/api/v1/movies?limit=100', { base: instance.url })).json.data).find(
      (m) => m.title === 'Pb Avi Xvid',
    )!.id;
    const data = (await call('POST', `/api/v1/playback/${id}`, { ...jsonBody({}), base: instance.url })).json.data;
    assert.equal(data.method, 'transcode');
    const base = new URL(data.url).pathname.replace(/index\.m3u8$/, '');
    assert.equal((await call('GET', `${base}segments/0.ts`, { base: instance.url })).status, 200);
    const folder = join(dataDir, 'playback', data.sessionId);
    assert.ok(existsSync(folder));
    // Asking would keep it alive: nothing is asked until the idle time has passed.
    await waitFor('its folder to be swept', async () => (existsSync(folder) ? undefined : true), 30_000, 500);
    assert.equal((await call('GET', new URL(data.url).pathname, { base: instance.url })).status, 404);
  });

  it('removes at start the conversion files a stopped or killed service left', async () => {
    const left = join(dataDir, 'playback', 't1-00000000deadbeef');
    mkdirSync(left, { recursive: true });
    writeFileSync(join(left, '0.ts'), 'x');
    await instance.stop('SIGKILL');
    instance = await startInstance({ dataDir, env: { PLAYBACK_IDLE_SECONDS: '5' } });
    assert.ok(!existsSync(left));
  });
});

describe('a session goes on after the service restarts: its plan is in the table', { skip }, () => {
  let instance: Instance;
  const dataDir = tempDir('playback-restart');

  before(async () => {
    instance = await startInstance({ dataDir });
  });
  after(async () => {
    await instance?.stop();
  });

  it('serves the playlist and the segments of a session a killed process started', async () => {
    const dir = tempDir('playback-restart-media');
    makePlaybackLibrary(dir, { seconds: 8 });
    assert.equal((await scan({ path: dir, mediaType: 'movie' }, instance.url)).status, 'completed');
    const id = mediaOf((await call('GET', '/api/v1/movies?limit=100', { base: instance.url })).json.data).find(
      (m) => m.title === 'Pb Mkv Aac',
    )!.id;
    const data = (await call('POST', `/api/v1/playback/${id}`, { ...jsonBody({}), base: instance.url })).json.data;
    const base = new URL(data.url).pathname.replace(/index\.m3u8$/, '');
    const before = (await call('GET', new URL(data.url).pathname, { base: instance.url })).text;
    assert.equal((await call('GET', `${base}segments/0.ts`, { base: instance.url })).status, 200);
    await instance.stop('SIGKILL');
    instance = await startInstance({ dataDir });
    // This process never saw the session: it reads the plan from the table, once.
    assert.equal((await call('GET', new URL(data.url).pathname, { base: instance.url })).text, before, 'the same playlist');
    const response = await fetch(`${instance.url}${base}segments/2.ts`);
    assert.equal(response.status, 200);
    const file = join(tempDir('segment-after-restart'), '2.ts');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    assert.deepEqual(
      probeStreams(file)
        .streams.map((s) => `${s.codec_type}:${s.codec_name}`)
        .sort(),
      ['audio:aac', 'video:h264'],
    );
    assert.equal((await call('DELETE', `/api/v1/playback/sessions/${data.sessionId}`, { base: instance.url })).status, 204);
  });
});
