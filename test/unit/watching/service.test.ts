// WatchingService on the in-memory adapters (lib/watching/memory-store.ts, lib/catalog/memory-store.ts),
// with a clock the tests move and node's mock timers for the write that waits out the coalescing
// second: the timing rules (reports written right behind their answer, one write a second, the
// thresholds read again after a second, a show's "last watched" moved every ten minutes) are
// checked without sleeping. The same service through the whole stack: test/integration/watching.test.ts.
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import pino from 'pino';
import { MemoryCatalogStore } from '../../../lib/catalog/memory-store';
import { AppError } from '../../../lib/errors';
import type { OutgoingEvent } from '../../../lib/events/sink';
import { MemoryWatchStore } from '../../../lib/watching/memory-store';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../../lib/watching/rules';
import { WatchingService } from '../../../lib/watching/service';
import { episode, movie, show } from '../../contracts/catalog';
import { fakeClock } from '../../support/fake-clock';

const ORIGIN = 'http://media.test';
const silent = pino({ level: 'silent' });

const isProblem = (status: number, code: string) => (err: unknown) => err instanceof AppError && err.status === status && err.code === code;

/** Everything the microtasks queued so far have done: the in-memory stores answer without I/O. */
const drain = () => new Promise((resolve) => setImmediate(resolve));

/** A catalogue of two films and two shows (A: two seasons and a special; B: one season). */
const aCatalogue = async () => {
  const catalog = new MemoryCatalogStore();
  const library = 'lib_watching';
  const [alpha, beta, gamma] = ['Alpha', 'Beta', 'Gamma'].map((title) => movie(library, undefined, { title }));
  const [a, b] = ['Show A', 'Show B'].map((title) => show(library, undefined, { title }));
  const episodes = [
    ...[
      [1, 1],
      [1, 2],
      [2, 1],
      [2, 2],
      [0, 1],
    ].map(([s, e]) => episode(library, a!.id, s!, e!)),
    ...[
      [1, 1],
      [1, 2],
    ].map(([s, e]) => episode(library, b!.id, s!, e!)),
  ];
  await catalog.put([alpha!, beta!, gamma!, a!, b!, ...episodes]);
  const ids = new Map<string, string>([
    ['Alpha', alpha!.id],
    ['Beta', beta!.id],
    ['Gamma', gamma!.id],
    ['Show A', a!.id],
    ['Show B', b!.id],
  ]);
  for (const e of episodes) ids.set(`${e.showId === a!.id ? 'Show A' : 'Show B'} ${e.seasonNumber}x${e.episodeNumber}`, e.id);
  return { catalog, idOf: (name: string) => ids.get(name)! };
};

/** A service over fresh stores; `sharedProcess` as on a home box (reports written behind their answers). */
const setup = async ({ sharedProcess = false } = {}) => {
  const clock = fakeClock(Date.UTC(2026, 0, 1, 20));
  const store = new MemoryWatchStore();
  const { catalog, idOf } = await aCatalogue();
  const events: OutgoingEvent[] = [];
  const settings: { thresholds: Thresholds } = { thresholds: DEFAULT_THRESHOLDS };
  const deps = {
    profiles: store,
    store,
    catalog,
    thresholds: async () => settings.thresholds,
    events: { emit: async (event: OutgoingEvent) => void events.push(event) },
    log: silent,
    clock: clock.now,
  };
  const service = new WatchingService({ ...deps, sharedProcess });
  /** Another process on the same stores (a Lambda, or a second container), writing each report before it answers. */
  const elsewhere = () => new WatchingService({ ...deps, events: { emit: async () => undefined } });
  const stored = async (name: string, profile = 'default') => (await store.state(profile, idOf(name)))?.positionSeconds;
  const positions = () => events.flatMap((e) => (e.type === 'userdata:changed' ? [e.userData.positionSeconds] : []));
  return { clock, store, service, elsewhere, settings, idOf, stored, positions, events };
};

/** The clock and node's timers moved together: the coalescing write's timer fires when the clock says it is due. */
const timeOf = (t: TestContext, clock: { advance: (ms: number) => void }) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  return async (ms: number) => {
    clock.advance(ms);
    t.mock.timers.tick(ms);
    await drain();
  };
};

type Entry = { media: { title: string }; episode?: { seasonNumber: number; episodeNumber: number } };
const labels = (list: Entry[]) =>
  list.map((e) => (e.episode ? `${e.media.title} ${e.episode.seasonNumber}x${e.episode.episodeNumber}` : e.media.title));

describe('WatchingService', () => {
  it('writes each report before it answers where it is one of many (a Lambda), after the rules: nothing before 5 %, played past 90 %, once per viewing', async () => {
    const { service, idOf, stored } = await setup();
    const alpha = idOf('Alpha');
    assert.equal((await service.progress('default', alpha, 120, 6000)).positionSeconds, 0, '2 % keeps nothing');
    const middle = await service.progress('default', alpha, 3000, 6000);
    assert.deepEqual([middle.positionSeconds, middle.progress, middle.played], [3000, 0.5, false]);
    assert.equal(await stored('Alpha'), 3000, 'written before the answer');
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), ['Alpha']);
    const end = await service.progress('default', alpha, 5500, 6000);
    assert.deepEqual([end.positionSeconds, end.played, end.playCount], [0, true, 1]);
    assert.equal((await service.progress('default', alpha, 5990, 6000)).playCount, 1, 'one viewing, one play');
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), []);
    await assert.rejects(service.progress('nobody', alpha, 10, 6000), isProblem(404, 'not-found'));
    await assert.rejects(service.progress('default', idOf('Show A'), 10, 6000), isProblem(404, 'not-found'), 'a show is not played itself');
  });

  it("reads the settings' thresholds again once they are a second old, not before", async () => {
    const { service, settings, idOf, clock } = await setup();
    assert.equal((await service.progress('default', idOf('Alpha'), 3000, 6000)).positionSeconds, 3000); // thresholds read now
    settings.thresholds = { ...DEFAULT_THRESHOLDS, playedAtPercent: 99 };
    clock.advance(999);
    assert.equal((await service.progress('default', idOf('Beta'), 5700, 6000)).played, true, '95 % is the end at 90 %, still kept');
    clock.advance(1);
    const gamma = await service.progress('default', idOf('Gamma'), 5700, 6000);
    assert.deepEqual([gamma.positionSeconds, gamma.played], [5700, false], '95 % is not the end at 99 %');
  });

  it('answers a report at once on a home box and writes it right behind; reports within a second of the last write are written once, when the second is over', async (t) => {
    const { service, idOf, stored, positions, clock } = await setup({ sharedProcess: true });
    const advance = timeOf(t, clock);
    const alpha = idOf('Alpha');
    assert.equal((await service.progress('default', alpha, 1000, 6000)).positionSeconds, 1000);
    await drain();
    assert.equal(await stored('Alpha'), 1000, "an item's first report here is written at once");
    await advance(300);
    assert.equal((await service.progress('default', alpha, 1300, 6000)).positionSeconds, 1300, 'answered at once');
    await advance(300);
    assert.equal((await service.progress('default', alpha, 1600, 6000)).positionSeconds, 1600);
    await advance(399);
    assert.equal(await stored('Alpha'), 1000, 'within the second: not written');
    assert.deepEqual((await service.userData('default', [alpha])).get(alpha)?.positionSeconds, 1600, 'though every reader here sees it');
    await advance(1);
    assert.equal(await stored('Alpha'), 1600, 'the second over: the newest report written');
    assert.deepEqual(positions(), [1000, 1600], 'one write for the two reports within the second');

    // A list read within the next second writes what is pending first, and lists it.
    await advance(200);
    await service.progress('default', alpha, 2000, 6000);
    assert.equal(await stored('Alpha'), 1600);
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), ['Alpha']);
    assert.equal(await stored('Alpha'), 2000, 'written for the list, before its second is over');
    await advance(1_000);
    assert.deepEqual(positions(), [1000, 1600, 2000], 'and not written again when its timer comes');
  });

  it('writes a report over what another process wrote meanwhile, not over what it wrote last', async (t) => {
    const { service, elsewhere, idOf, store, clock } = await setup({ sharedProcess: true });
    const advance = timeOf(t, clock);
    const there = elsewhere();
    const beta = idOf('Beta');
    await service.progress('default', beta, 3000, 6000);
    await drain();
    const marked = await there.markPlayed('default', beta);
    assert.deepEqual([marked.played, marked.playCount, marked.positionSeconds], [true, 1, 0]);
    await advance(1_100);
    // Answered from what this process knows; the write finds the mark and applies the report to it.
    await service.progress('default', beta, 3300, 6000);
    await service.continueWatching('default', 10, ORIGIN);
    const state = await store.state('default', beta);
    assert.deepEqual([state?.played, state?.playCount, state?.positionSeconds], [true, 1, 3300], 'the mark made elsewhere is kept');
    // And the other way: a process that writes before it answers reads the unmarking made here.
    await service.markUnplayed('default', beta);
    const after = await there.progress('default', beta, 3900, 6000);
    assert.deepEqual([after.played, after.playCount, after.positionSeconds], [false, 0, 3900]);
  });

  it("moves a show's last watched at most every ten minutes while its episodes are reported", async () => {
    const { service, store, idOf, clock } = await setup();
    const lastWatched = async () => (await store.titleStates('default')).shows.get(idOf('Show A'))?.lastPlayedAt;
    const started = new Date(clock.now()).toISOString();
    await service.progress('default', idOf('Show A 1x1'), 1000, 2400);
    assert.equal(await lastWatched(), started, 'an episode started: the show is being watched');
    clock.advance(5 * 60_000);
    await service.progress('default', idOf('Show A 1x1'), 1300, 2400);
    assert.equal(await lastWatched(), started, 'five minutes on: not moved');
    clock.advance(5 * 60_000 + 1);
    await service.progress('default', idOf('Show A 1x1'), 1600, 2400);
    assert.equal(await lastWatched(), new Date(clock.now()).toISOString(), 'past ten minutes: moved');
  });

  it('rolls Next up over into the next season, leaves specials out, keeps an episode in progress in Continue watching, and drops a finished show', async () => {
    const { service, idOf, clock } = await setup();
    const nextUp = async () => labels(await service.nextUp('default', 10, ORIGIN));
    const mark = async (name: string) => {
      clock.advance(1_000);
      return service.markPlayed('default', idOf(name));
    };
    await mark('Show A 1x1');
    assert.deepEqual(await nextUp(), ['Show A 1x2']);
    await mark('Show A 1x2');
    await mark('Show A 0x1');
    assert.deepEqual(await nextUp(), ['Show A 2x1'], 'season 2 next; the special played changes nothing');
    await service.progress('default', idOf('Show A 2x1'), 1000, 2400);
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), ['Show A 2x1']);
    assert.deepEqual(await nextUp(), [], 'in progress: in Continue watching, not in Next up');

    const showB = await mark('Show B');
    assert.deepEqual([showB.played, showB.progress], [true, 1], 'a whole show marked played');
    assert.deepEqual(await nextUp(), []);
    const listed = await service.withUserData('default', [
      { id: idOf('Show B'), type: 'tvshow' },
      { id: idOf('Show A'), type: 'tvshow' },
    ]);
    assert.deepEqual(
      listed.map((e) => [e.userData.played, e.userData.progress]),
      [
        [true, 1],
        [false, 0.6],
      ],
      "a show's share of episodes played",
    );
    await service.markUnplayed('default', idOf('Show B 1x2'));
    assert.deepEqual(await nextUp(), ['Show B 1x2'], 'unplayed: next again');
  });

  it('keeps the household always and other profiles by unique names, and each profile its own state', async () => {
    const { service, idOf, stored, clock } = await setup();
    assert.deepEqual(
      (await service.profiles()).map((p) => [p.id, p.name]),
      [['default', 'Household']],
    );
    clock.advance(1_000); // profiles are listed in the order they were created
    const ada = await service.createProfile(' Ada ');
    assert.equal(ada.name, 'Ada');
    await assert.rejects(service.createProfile('ada'), isProblem(409, 'name-taken'));
    await assert.rejects(service.createProfile('household'), isProblem(409, 'name-taken'), "the household's name while it has it");
    await assert.rejects(service.createProfile('  '), isProblem(400, 'invalid-request'));
    await assert.rejects(service.deleteProfile('default'), isProblem(409, 'default-profile'));
    await service.renameProfile('default', 'The Smiths');
    clock.advance(1_000);
    assert.equal((await service.createProfile('Household')).name, 'Household', 'the old name is free again');
    assert.deepEqual(
      (await service.profiles()).map((p) => p.name),
      ['The Smiths', 'Ada', 'Household'],
    );

    await service.progress(ada.id, idOf('Beta'), 2000, 6000);
    assert.deepEqual([await stored('Beta', ada.id), await stored('Beta')], [2000, undefined]);
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), []);
    await service.deleteProfile(ada.id);
    await assert.rejects(service.continueWatching(ada.id, 10, ORIGIN), isProblem(404, 'not-found'));
    assert.equal(await stored('Beta', ada.id), undefined, 'its state went with it');
  });

  it("keeps each profile's film and show states on a home box: lists, filters and sorts see a report before it is written; items gone are forgotten", async (t) => {
    const { service, idOf, stored, clock } = await setup({ sharedProcess: true });
    const advance = timeOf(t, clock);
    const [alpha, beta] = [idOf('Alpha'), idOf('Beta')];
    await service.markPlayed('default', beta);
    const list = async () =>
      (
        await service.withUserData('default', [
          { id: alpha, type: 'movie' },
          { id: beta, type: 'movie' },
        ])
      ).map((e) => [e.userData.positionSeconds, e.userData.played]);
    assert.deepEqual(await list(), [
      [0, false],
      [0, true],
    ]);
    await service.progress('default', alpha, 1200, 6000);
    await drain();
    await advance(100);
    await service.progress('default', alpha, 1500, 6000);
    assert.equal(await stored('Alpha'), 1200, 'not written yet');
    assert.deepEqual(await list(), [
      [1500, false],
      [0, true],
    ]);
    const watched = await service.watchedTitles('default');
    assert.deepEqual(watched.get(alpha), { played: false, lastPlayedAt: new Date(clock.now()).toISOString(), favorite: false });
    assert.equal(watched.get(beta)?.played, true);

    await service.forget([alpha, beta]);
    assert.deepEqual(await list(), [
      [0, false],
      [0, false],
    ]);
    assert.equal((await service.watchedTitles('default')).size, 0);
    await advance(1_000);
    assert.equal(await stored('Beta'), undefined);
  });

  it('marks a film, an episode and a show a favourite apart from what was watched: reports and marks keep it, no row gains it, each profile its own', async () => {
    const { service, store, idOf, events } = await setup();
    const [alpha, showB, episode] = [idOf('Alpha'), idOf('Show B'), idOf('Show A 1x2')];
    const liked = await service.markFavorite('default', alpha, true);
    assert.deepEqual([liked.favorite, liked.positionSeconds, liked.played, liked.lastPlayedAt], [true, 0, false, null]);
    assert.equal((await store.state('default', alpha))?.favorite, true, 'written before the answer');
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), [], 'a favourite is nothing to resume');
    assert.equal((await service.progress('default', alpha, 3000, 6000)).favorite, true, 'a report keeps it');
    assert.deepEqual(labels(await service.continueWatching('default', 10, ORIGIN)), ['Alpha']);
    assert.equal((await service.markPlayed('default', alpha)).favorite, true, 'a played mark keeps it');
    assert.deepEqual((await service.markUnplayed('default', alpha)).favorite, true);
    assert.equal((await service.markFavorite('default', alpha, true)).playCount, 0, 'marking it again changes nothing');

    // A show: its own favourite, not its episodes'; it is not being watched for it.
    const show = await service.markFavorite('default', showB, true);
    assert.deepEqual([show.favorite, show.played, show.progress], [true, false, 0]);
    assert.deepEqual(labels(await service.nextUp('default', 10, ORIGIN)), []);
    const marked = await service.markPlayed('default', showB);
    assert.deepEqual([marked.favorite, marked.played], [true, true], 'every episode played, the show still a favourite');
    const detail = await service.showDetailUserData('default', showB, [idOf('Show B 1x1'), idOf('Show B 1x2')]);
    assert.deepEqual(detail.show, { playedEpisodes: 2, totalEpisodes: 2, played: true, favorite: true });
    assert.ok([...detail.episodes.values()].every((e) => e.played && !e.favorite));

    // An episode: its Next up row says so.
    assert.equal((await service.markFavorite('default', episode, true)).favorite, true);
    assert.deepEqual(labels(await service.nextUp('default', 10, ORIGIN)), [], 'a favourite episode starts no show');
    await service.markPlayed('default', idOf('Show A 1x1'));
    const [next] = await service.nextUp('default', 10, ORIGIN);
    assert.deepEqual([labels([next!]), next!.userData.favorite], [['Show A 1x2'], true]);

    const listed = await service.withUserData('default', [
      { id: alpha, type: 'movie' },
      { id: idOf('Beta'), type: 'movie' },
      { id: showB, type: 'tvshow' },
      { id: idOf('Show A'), type: 'tvshow' },
      { id: episode, type: 'episode' },
    ]);
    assert.deepEqual(
      listed.map((e) => e.userData.favorite),
      [true, false, true, false, true],
    );
    const watched = await service.watchedTitles('default');
    assert.deepEqual(
      [watched.get(alpha)?.favorite, watched.get(showB)?.favorite, watched.get(idOf('Show A'))?.favorite],
      [true, true, false],
    );
    assert.ok(
      events.some((e) => e.type === 'userdata:changed' && e.mediaId === showB && e.userData.favorite),
      'said on /ws',
    );

    const ada = await service.createProfile('Ada');
    assert.equal(
      (await service.withUserData(ada.id, [{ id: alpha, type: 'movie' }]))[0]!.userData.favorite,
      false,
      "another profile's own",
    );
    assert.deepEqual((await service.markFavorite('default', showB, false)).favorite, false);
    assert.deepEqual((await service.markFavorite('default', alpha, false)).favorite, false);
    assert.equal((await service.watchedTitles('default')).get(alpha)?.favorite, false);
    await assert.rejects(service.markFavorite('nobody', alpha, true), isProblem(404, 'not-found'));
    await assert.rejects(service.markFavorite('default', 'mv_unknown', true), isProblem(404, 'not-found'));
  });

  it("writes a favourite over a report not written yet on a home box, lists see it at once, and it moves no show's last watched", async (t) => {
    const { service, store, idOf, clock } = await setup({ sharedProcess: true });
    const advance = timeOf(t, clock);
    const [alpha, pilot, showA] = [idOf('Alpha'), idOf('Show A 1x1'), idOf('Show A')];
    await service.progress('default', alpha, 1000, 6000);
    await drain();
    await advance(300);
    await service.progress('default', alpha, 1300, 6000); // pending: within the second
    const liked = await service.markFavorite('default', alpha, true);
    assert.deepEqual([liked.positionSeconds, liked.favorite], [1300, true], 'the position answered is kept');
    const stored = await store.state('default', alpha);
    assert.deepEqual([stored?.positionSeconds, stored?.favorite], [1300, true]);
    await advance(1_000);
    assert.deepEqual((await store.state('default', alpha))?.favorite, true, 'no report written after it takes it away');
    assert.equal((await service.progress('default', alpha, 1600, 6000)).favorite, true);

    // The pilot watched, then the next episode: the show's last watched is the next one's.
    await service.progress('default', pilot, 1000, 2400);
    await advance(11 * 60_000);
    const later = new Date(clock.now()).toISOString();
    await service.progress('default', idOf('Show A 2x1'), 1000, 2400);
    await advance(11 * 60_000);
    await service.markFavorite('default', pilot, true);
    assert.equal(
      (await store.titleStates('default')).shows.get(showA)?.lastPlayedAt,
      later,
      "the pilot's older time is not the show's again",
    );

    // Kept states: lists, filters and the show's details read them without the store.
    await service.markFavorite('default', showA, true);
    await service.markPlayed('default', idOf('Show A 1x2'));
    const listed = await service.withUserData('default', [
      { id: alpha, type: 'movie' },
      { id: showA, type: 'tvshow' },
    ]);
    assert.deepEqual(
      listed.map((e) => [e.userData.favorite, e.userData.progress]),
      [
        [true, 0.2667],
        [true, 0.2],
      ],
    );
    assert.equal((await service.watchedTitles('default')).get(showA)?.favorite, true, 'kept through a mark of an episode');
    assert.equal((await service.showDetailUserData('default', showA, [pilot])).show.favorite, true);
  });
});
