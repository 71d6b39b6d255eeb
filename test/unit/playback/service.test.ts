// PlaybackService on the in-memory adapters (catalogue, libraries, sessions, timings) with real
// files made by ffmpeg, their technical info read as a scan reads it, a real segment cache and
// real ffmpeg runs: what it answers, the sessions' capacity and idle end on a clock the test
// moves (the session store's rule), DELETE, a session another process started, and a file
// changed under a session. Skipped without ffmpeg. Through the whole stack:
// test/integration/playback.test.ts.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { MemoryCatalogStore } from '../../../lib/catalog/memory-store';
import { AppError } from '../../../lib/errors';
import { MemoryLibraryStore } from '../../../lib/library/memory-store';
import { probeFile } from '../../../lib/media/probe';
import { MemorySessionStore } from '../../../lib/playback/memory-sessions';
import { MemoryTimingStore } from '../../../lib/playback/memory-timing-store';
import { SegmentCache } from '../../../lib/playback/segment-cache';
import { PlaybackService, type PlaybackDeps, type PlaybackSettings } from '../../../lib/playback/service';
import { localMediaStorage } from '../../../lib/storage/local';
import { streamUrl } from '../../../lib/views/urls';
import { movie } from '../../contracts/catalog';
import { fakeClock } from '../../support/fake-clock';
import { aLibrary } from '../../support/library-fixture';
import { hasFfmpeg, makePlaybackLibrary } from '../../support/playback-media';
import { makeMp4 } from '../../support/videos';

const skip = hasFfmpeg() || process.env.MLS_REQUIRE_BROWSER ? false : 'needs ffmpeg (apt-get install ffmpeg)';
const ORIGIN = 'http://media.test';
const IDLE_MS = 60_000;

const isProblem = (status: number, code: string) => (err: unknown) => err instanceof AppError && err.status === status && err.code === code;

describe('PlaybackService', { skip }, () => {
  const root = mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), 'mls-playback-service-'));
  const media = join(root, 'films');
  const dataDir = join(root, 'data');
  const catalog = new MemoryCatalogStore();
  const libraries = new MemoryLibraryStore();
  // Shared by every service here, as the table is: each file's timing is read by ffprobe once.
  const timings = new MemoryTimingStore();
  const ids = new Map<string, string>();
  const idOf = (title: string) => ids.get(title)!;

  before(async () => {
    mkdirSync(media);
    mkdirSync(dataDir);
    // A film a browser plays as it is, one it plays once repackaged, and one whose video it cannot decode.
    makeMp4(join(media, 'Pb Direct (2011).mp4'), { seconds: 4, size: '160x120' });
    makePlaybackLibrary(media, { seconds: 6, size: '160x120', only: ['Pb Mkv Aac', 'Pb Avi Xvid'] });
    const library = aLibrary(undefined, { path: media });
    await libraries.create(library);
    for (const [title, file] of [
      ['Pb Direct', 'Pb Direct (2011).mp4'],
      ['Pb Mkv Aac', 'Pb Mkv Aac (2014).mkv'],
      ['Pb Avi Xvid', 'Pb Avi Xvid (2006).avi'],
    ] as const) {
      const { size, mtimeMs } = statSync(join(media, file));
      const item = movie(library.id, undefined, {
        title,
        files: [{ relPath: file, size, mtimeMs, part: null, tech: await probeFile(join(media, file)) }],
      });
      await catalog.put([item]);
      ids.set(title, item.id);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const settings: PlaybackSettings = {
    ffmpeg: 'ffmpeg',
    ffprobe: 'ffprobe',
    capacity: { remux: 1, transcode: 1 },
    idleMs: IDLE_MS,
    maxHeight: 1080,
    preset: 'ultrafast',
    segmentTimeoutMs: 30_000,
    niceness: 10,
  };

  /** A service over these files; its sessions its own unless given (another process shares them). */
  const setup = (changes: Partial<PlaybackDeps> = {}, settingChanges: Partial<PlaybackSettings> = {}) => {
    const clock = fakeClock();
    const deps: PlaybackDeps = {
      catalog,
      libraries,
      storage: localMediaStorage({ dataDir, limits: { maxEntries: 1_000, maxDepth: 8 } }),
      sessions: new MemorySessionStore(clock.now),
      timings,
      segments: new SegmentCache({ dir: join(dataDir, 'playback'), perSession: 8, maxBytes: 1 << 30 }),
      settings: { ...settings, ...settingChanges },
      log: pino({ level: 'silent' }),
      ...changes,
    };
    return { clock, deps, service: new PlaybackService(deps) };
  };

  it('sends a file the player plays as it is directly: no session', async () => {
    const { service, deps } = setup();
    const answer = await service.start({ mediaId: idOf('Pb Direct') }, ORIGIN);
    assert.deepEqual(
      [answer.method, answer.url, answer.mimeType, answer.sessionId, answer.reasons],
      ['direct', streamUrl(ORIGIN, idOf('Pb Direct')), 'video/mp4', null, []],
    );
    assert.ok(answer.durationSeconds && Math.abs(answer.durationSeconds - 4) < 0.5, `${answer.durationSeconds} s`);
    assert.equal(await deps.sessions.live('remux', IDLE_MS), 0);
    await assert.rejects(service.start({ mediaId: 'mv_nothing' }, ORIGIN), isProblem(404, 'not-found'));
  });

  it("converts one it cannot: a session with the whole film's playlist, the timing read once and kept, segments made by ffmpeg, ended by DELETE", async () => {
    const { service, deps } = setup();
    const id = idOf('Pb Mkv Aac');
    const answer = await service.start({ mediaId: id }, ORIGIN);
    assert.equal(answer.method, 'remux');
    assert.ok(answer.sessionId);
    assert.equal(answer.url, `${ORIGIN}/api/v1/playback/sessions/${answer.sessionId}/index.m3u8`);
    assert.deepEqual(
      answer.reasons.map((r) => r.code),
      ['container'],
    );
    const { size, mtimeMs } = statSync(join(media, 'Pb Mkv Aac (2014).mkv'));
    assert.ok(
      await deps.timings.get(id, 1, `${size.toString(16)}-${Math.trunc(mtimeMs).toString(16)}`),
      'the timing is kept for the next session',
    );

    const playlist = await service.playlist(answer.sessionId);
    const segments = playlist.split('\n').filter((l) => l.startsWith('segments/'));
    assert.ok(playlist.startsWith('#EXTM3U') && playlist.includes('#EXT-X-ENDLIST'), playlist);
    assert.deepEqual(
      segments,
      segments.map((_, i) => `segments/${i}.ts`),
    );
    assert.ok(segments.length >= 2, `${segments.length} segments of 6 s`);
    const first = await service.segment(answer.sessionId, 0);
    assert.ok(existsSync(first.path!) && first.size > 0 && first.contentType === 'video/mp2t');
    await assert.rejects(service.segment(answer.sessionId, segments.length), isProblem(404, 'not-found'));

    assert.equal(await service.end(answer.sessionId), true);
    await assert.rejects(service.playlist(answer.sessionId), isProblem(404, 'not-found'));
    assert.equal(existsSync(deps.segments!.sessionDir(answer.sessionId)), false, 'its files went');
    assert.equal(await service.end(answer.sessionId), false);
  });

  it('holds the capacity: a start past it is refused busy until a session idles out, and asking keeps one alive', async () => {
    const { service, clock } = setup();
    const first = await service.start({ mediaId: idOf('Pb Avi Xvid') }, ORIGIN);
    assert.equal(first.method, 'transcode');
    await assert.rejects(service.start({ mediaId: idOf('Pb Avi Xvid') }, ORIGIN), isProblem(503, 'playback-busy'));
    for (let i = 0; i < 3; i++) {
      clock.advance(IDLE_MS - 1_000);
      await service.playlist(first.sessionId!); // asked for: alive
    }
    await assert.rejects(
      service.start({ mediaId: idOf('Pb Avi Xvid') }, ORIGIN),
      isProblem(503, 'playback-busy'),
      'nearly three idle times old, but asked for',
    );
    clock.advance(IDLE_MS + 1);
    await assert.rejects(service.playlist(first.sessionId!), isProblem(404, 'not-found'), 'unasked for longer than the idle time: ended');
    const second = await service.start({ mediaId: idOf('Pb Avi Xvid') }, ORIGIN);
    assert.ok(second.sessionId && second.sessionId !== first.sessionId, 'its slot is free again');
    // Remuxes have slots of their own.
    const remux = await service.start({ mediaId: idOf('Pb Mkv Aac') }, ORIGIN);
    assert.equal(remux.method, 'remux');
    for (const s of [first, second, remux]) await service.end(s.sessionId!);
  });

  it('converts nothing where it cannot: no ffmpeg, the kind switched off, media in a bucket', async () => {
    const cases: Array<[string, ReturnType<typeof setup>]> = [
      ['ffmpeg is not installed', setup({}, { ffmpeg: null })],
      ['transcoding is off', setup({}, { capacity: { remux: 1, transcode: 0 } })],
      ['its media are in a bucket', setup({ segments: null })],
    ];
    for (const [why, { service }] of cases) {
      await assert.rejects(
        service.start({ mediaId: idOf('Pb Avi Xvid') }, ORIGIN),
        (err) => isProblem(501, 'conversion-unavailable')(err) && (err as Error).message.includes(why),
        why,
      );
      assert.equal((await service.start({ mediaId: idOf('Pb Direct') }, ORIGIN)).method, 'direct', `${why}: a direct play still is`);
    }
  });

  it('serves a session another process started, from the plan in the store', async () => {
    const here = setup();
    const answer = await here.service.start({ mediaId: idOf('Pb Mkv Aac') }, ORIGIN);
    const there = new PlaybackService({ ...here.deps });
    assert.equal(await there.playlist(answer.sessionId!), await here.service.playlist(answer.sessionId!));
    assert.ok((await there.segment(answer.sessionId!, 1)).size > 0);
    assert.equal(await there.end(answer.sessionId!), true);
    await assert.rejects(here.service.playlist(answer.sessionId!), isProblem(404, 'not-found'), 'ended for every process');
  });

  it('ends the use of a session whose file changed on disk since it started', async () => {
    const { service } = setup();
    const answer = await service.start({ mediaId: idOf('Pb Mkv Aac') }, ORIGIN);
    const file = join(media, 'Pb Mkv Aac (2014).mkv');
    const { atime, mtime } = statSync(file);
    try {
      utimesSync(file, atime, new Date(mtime.getTime() + 60_000));
      await assert.rejects(
        service.segment(answer.sessionId!, 1),
        (err) => isProblem(404, 'not-found')(err) && /changed on disk/.test((err as Error).message),
      );
    } finally {
      utimesSync(file, atime, mtime);
      await service.end(answer.sessionId!);
    }
  });
});
