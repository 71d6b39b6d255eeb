// The contract of the ProfileStore and WatchStore ports: what every adapter of watch state does (test/contracts/support.ts says
// how contracts run). Profiles are the household's and those the tests create (each removes its
// own); states are written under profiles of the tests' own, so lists are asserted whole.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { NOTHING } from '../../lib/watching/rules';
import {
  DEFAULT_PROFILE,
  NameTaken,
  StaleState,
  type Placement,
  type Profile,
  type ShowSummary,
  type StoredState,
} from '../../lib/watching/model';
import type { ProfileStore, WatchStore } from '../../lib/watching/watch-store';
import { longAgo, uid } from './support';

const aProfile = (name: string, seconds = 0): Profile => ({ id: `pf_${uid().slice(0, 16)}`, name, createdAt: longAgo(seconds) });

const film = (mediaId = `mv_wc${uid()}`, fields: Partial<StoredState> = {}): StoredState => ({
  ...NOTHING,
  mediaId,
  placement: { entity: 'movie' },
  ...fields,
});

const episodeOf = (showId: string, seasonNumber: number, episodeNumber: number, fields: Partial<StoredState> = {}): StoredState => ({
  ...NOTHING,
  mediaId: `ep_wc${uid()}`,
  placement: { entity: 'episode', showId, seasonNumber, episodeNumber } satisfies Placement,
  ...fields,
});

/** A position kept, watched `seconds` after the base: in progress. */
const watching = (seconds: number, positionSeconds = 600): Partial<StoredState> => ({
  positionSeconds,
  durationSeconds: 6000,
  lastPlayedAt: longAgo(seconds),
});
const played: Partial<StoredState> = { played: true, playCount: 1, counted: true, lastPlayedAt: longAgo(50) };

/** A state as read back: what was written, with a rev. */
const withoutRev = ({ rev, ...state }: StoredState) => {
  assert.equal(typeof rev, 'string', `${state.mediaId} has a rev`);
  return state;
};

const summary = (playedEpisodes: number, totalEpisodes: number, nextEpisodeId: string | null): ShowSummary => ({
  playedEpisodes,
  totalEpisodes,
  nextEpisodeId,
});

/** A contract's store is its own and starts empty (test/contracts/support.ts). */
export const watchContract = (profiles: ProfileStore, store: WatchStore) => {
  /** Runs `body` with a profile of its own, removed after it with all its state. */
  const withProfile = async (body: (profileId: string) => Promise<void>) => {
    const profile = aProfile(`Contract ${uid()}`);
    await profiles.save(profile);
    try {
      await body(profile.id);
    } finally {
      await profiles.removeProfile(profile);
    }
  };

  it('always has the household, first; others oldest first, each whole', async () => {
    assert.deepEqual(await profiles.profiles(), [DEFAULT_PROFILE]);
    assert.equal(await profiles.profile(DEFAULT_PROFILE.id), DEFAULT_PROFILE, 'the household itself while it is not stored');
    // Saved newest first, so the order cannot come from the order of writes.
    const [c, a, b] = [aProfile('Carol', 30), aProfile('Ada "the first" ünï', 10), aProfile('Bob', 20)];
    try {
      for (const p of [c, a, b]) await profiles.save(p);
      assert.deepEqual(await profiles.profiles(), [DEFAULT_PROFILE, a, b, c]);
      assert.deepEqual(await profiles.profile(a.id), a);
      assert.equal(await profiles.profile(`pf_${uid().slice(0, 16)}`), undefined);
    } finally {
      for (const p of [a, b, c]) await profiles.removeProfile(p);
    }
    assert.deepEqual(await profiles.profiles(), [DEFAULT_PROFILE]);
  });

  it('holds each name once, compared without case, and frees a name when its profile is renamed or removed', async () => {
    const ada = aProfile('Ada', 1);
    const bob = aProfile('Bob', 3);
    let current = ada;
    try {
      await profiles.save(ada);
      assert.equal(await profiles.nameHeld('ADA'), true);
      const rival = aProfile('ADA', 2);
      await assert.rejects(profiles.save(rival), NameTaken);
      assert.equal(await profiles.profile(rival.id), undefined, 'a refused profile leaves nothing');
      assert.deepEqual(await profiles.profiles(), [DEFAULT_PROFILE, ada]);

      // Renamed: the new name is held, the old one free; a change of case only keeps the name.
      const renamed = { ...ada, name: 'Augusta' };
      await profiles.save(renamed, ada);
      current = renamed;
      assert.deepEqual([await profiles.nameHeld('ada'), await profiles.nameHeld('augusta')], [false, true]);
      const recased = { ...renamed, name: 'AUGUSTA' };
      await profiles.save(recased, renamed);
      current = recased;
      assert.deepEqual(await profiles.profile(ada.id), recased);
      assert.equal(await profiles.nameHeld('Augusta'), true);

      // A rename onto a held name is refused whole: the profile keeps its name, and the name its holder.
      await profiles.save(bob);
      await assert.rejects(profiles.save({ ...bob, name: 'augusta' }, bob), NameTaken);
      assert.deepEqual(await profiles.profile(bob.id), bob);
      assert.deepEqual([await profiles.nameHeld('Bob'), await profiles.nameHeld('Augusta')], [true, true]);
      await profiles.removeProfile(bob);
      assert.equal(await profiles.nameHeld('Bob'), false, 'removed: its name is free');
      assert.deepEqual(await profiles.profiles(), [DEFAULT_PROFILE, recased]);
    } finally {
      await profiles.removeProfile(current);
      await profiles.removeProfile(bob);
    }
  });

  it("keeps the household's first name unheld until it is renamed, then stores it and holds the new name", async () => {
    assert.equal(await profiles.nameHeld(DEFAULT_PROFILE.name), false);
    const renamed = { ...DEFAULT_PROFILE, name: 'The Smiths' };
    try {
      await profiles.save(renamed, DEFAULT_PROFILE);
      assert.deepEqual(await profiles.profile(DEFAULT_PROFILE.id), renamed);
      assert.deepEqual(await profiles.profiles(), [renamed], 'listed once, stored');
      assert.deepEqual([await profiles.nameHeld('the smiths'), await profiles.nameHeld(DEFAULT_PROFILE.name)], [true, false]);
    } finally {
      await profiles.removeProfile(renamed);
    }
    assert.equal(await profiles.profile(DEFAULT_PROFILE.id), DEFAULT_PROFILE);
  });

  it('writes a state expecting the rev it was read with, and refuses one written over since', async () => {
    await withProfile(async (profileId) => {
      const state = film(undefined, watching(1));
      const first = await store.put(profileId, state, null);
      const read = await store.state(profileId, state.mediaId);
      assert.deepEqual(read, { ...state, rev: first }, 'whole, with its rev');
      await assert.rejects(store.put(profileId, state, null), StaleState, 'none expected, one there');
      const second = await store.put(profileId, { ...state, positionSeconds: 700 }, first);
      assert.notEqual(second, first);
      await assert.rejects(store.put(profileId, { ...state, positionSeconds: 800 }, first), StaleState, 'an old rev');
      assert.equal((await store.state(profileId, state.mediaId))?.positionSeconds, 700, 'the refused write changed nothing');
      // putMany writes whatever came between, and moves the rev on.
      await store.putMany(profileId, [{ ...state, positionSeconds: 900 }]);
      await assert.rejects(store.put(profileId, state, second), StaleState);
      const now = await store.state(profileId, state.mediaId);
      assert.equal(now?.positionSeconds, 900);
      assert.equal(await store.state(profileId, `mv_wc${uid()}`), undefined);
      assert.equal(await store.state(`pf_${uid().slice(0, 16)}`, state.mediaId), undefined, "another profile's state is its own");
    });
  });

  it('reads many states at once past 100 ids, leaving out those with none', async () => {
    await withProfile(async (profileId) => {
      const states = Array.from({ length: 130 }, (_, i) => film(undefined, watching(i)));
      await store.putMany(profileId, states);
      const missing = Array.from({ length: 5 }, () => `mv_wc${uid()}`);
      const found = await store.states(profileId, [...missing, ...states.map((s) => s.mediaId), states[0]!.mediaId]);
      assert.deepEqual([...found.keys()].sort(), states.map((s) => s.mediaId).sort());
      for (const s of states) assert.deepEqual(withoutRev(found.get(s.mediaId)!), s);
      assert.deepEqual(await store.states(profileId, []), new Map());
    });
  });

  it('lists films and episodes with a position kept, most recently watched first, up to the limit', async () => {
    await withProfile(async (profileId) => {
      const showId = `tv_wc${uid()}`;
      const [old, recent, newest] = [film(undefined, watching(10)), film(undefined, watching(30)), episodeOf(showId, 1, 2, watching(40))];
      const done = film(undefined, played);
      const early = film(undefined, { durationSeconds: 6000, lastPlayedAt: longAgo(60) }); // no position kept
      await store.putMany(profileId, [old, recent, newest, done, early]);
      const ids = async (limit: number) => (await store.inProgress(profileId, limit)).map((s) => s.mediaId);
      assert.deepEqual(
        await ids(10),
        [newest, recent, old].map((s) => s.mediaId),
      );
      assert.deepEqual(
        await ids(2),
        [newest, recent].map((s) => s.mediaId),
      );
      assert.deepEqual(withoutRev((await store.inProgress(profileId, 1))[0]!), newest, 'each whole');
      // Finished: it leaves the list.
      await store.putMany(profileId, [{ ...recent, ...played, positionSeconds: 0 }]);
      assert.deepEqual(
        await ids(10),
        [newest, old].map((s) => s.mediaId),
      );
    });
  });

  it("lists a show's played episodes by season, then episode number, as numbers", async () => {
    await withProfile(async (profileId) => {
      const showId = `tv_wc${uid()}`;
      const eps = [
        [1, 20],
        [10, 1],
        [0, 1],
        [2, 1],
        [1, 100],
        [1, 2],
      ].map(([s, e]) => episodeOf(showId, s!, e!, played));
      const unplayed = episodeOf(showId, 1, 1, watching(5));
      const elsewhere = episodeOf(`tv_wc${uid()}`, 1, 1, played);
      await store.putMany(profileId, [...eps, unplayed, elsewhere, film(undefined, played)]);
      const listed = await store.playedEpisodes(profileId, showId);
      assert.deepEqual(
        listed.map((e) => `${e.seasonNumber}x${e.episodeNumber}`),
        ['0x1', '1x2', '1x20', '1x100', '2x1', '10x1'],
      );
      assert.deepEqual(
        listed.map((e) => e.id),
        [2, 5, 0, 4, 3, 1].map((i) => eps[i]!.mediaId),
      );
      // Unmarked: gone from the list.
      await store.putMany(profileId, [{ ...eps[2]!, played: false }]);
      assert.equal((await store.playedEpisodes(profileId, showId)).length, 5);
      assert.deepEqual(await store.playedEpisodes(profileId, `tv_wc${uid()}`), []);
    });
  });

  it("keeps a show's item: its summary (kept when none is given), when it was last watched, and its episodes in progress", async () => {
    await withProfile(async (profileId) => {
      const [a, b, c, d] = Array.from({ length: 4 }, () => `tv_wc${uid()}`);
      await store.saveShow(profileId, a!, longAgo(10), summary(1, 8, 'ep_a2'));
      await store.saveShow(profileId, b!, longAgo(30), summary(2, 2, null)); // finished
      await store.saveShow(profileId, c!, longAgo(20), summary(3, 9, 'ep_c4'));
      await store.saveShow(profileId, d!, longAgo(40)); // watched, no mark yet: no summary
      assert.deepEqual(
        await store.nextEpisodes(profileId, 10),
        [
          { showId: c, episodeId: 'ep_c4' },
          { showId: a, episodeId: 'ep_a2' },
        ],
        'most recently watched first; finished and unmarked shows left out',
      );
      assert.deepEqual(await store.nextEpisodes(profileId, 1), [{ showId: c, episodeId: 'ep_c4' }]);
      assert.deepEqual(
        await store.showStates(profileId, [a!, b!, d!, `tv_wc${uid()}`]),
        new Map([
          [a!, { summary: summary(1, 8, 'ep_a2'), lastPlayedAt: longAgo(10), favorite: false }],
          [b!, { summary: summary(2, 2, null), lastPlayedAt: longAgo(30), favorite: false }],
          [d!, { summary: undefined, lastPlayedAt: longAgo(40), favorite: false }],
        ]),
        'each show with an item; none for a show never watched',
      );

      // Watched again without a summary: the summary stays, the order follows.
      await store.saveShow(profileId, a!, longAgo(50));
      assert.deepEqual(
        (await store.nextEpisodes(profileId, 10)).map((n) => n.showId),
        [a, c],
      );
      assert.deepEqual((await store.showStates(profileId, [a!])).get(a!)?.summary, summary(1, 8, 'ep_a2'));

      // The next episode in progress is in Continue watching, not Next up; until it is not.
      await store.saveShow(profileId, a!, longAgo(51), undefined, { add: 'ep_a2' });
      await store.saveShow(profileId, a!, longAgo(52), undefined, { add: 'ep_a5' });
      assert.deepEqual(
        (await store.nextEpisodes(profileId, 10)).map((n) => n.showId),
        [c],
      );
      await store.saveShow(profileId, a!, longAgo(53), undefined, { remove: 'ep_a2' });
      assert.deepEqual(
        (await store.nextEpisodes(profileId, 10)).map((n) => n.showId),
        [a, c],
      );
      await store.saveShow(profileId, c!, longAgo(54), undefined, { add: 'ep_c4' });
      await store.saveShow(profileId, c!, longAgo(55), summary(4, 9, 'ep_c5'), 'clear');
      assert.deepEqual(await store.nextEpisodes(profileId, 10), [
        { showId: c, episodeId: 'ep_c5' },
        { showId: a, episodeId: 'ep_a2' },
      ]);
    });
  });

  it("keeps a favourite on a film's or an episode's state and on a show's item, apart from all else, on no index", async () => {
    await withProfile(async (profileId) => {
      const [watched, loved] = [`tv_wc${uid()}`, `tv_wc${uid()}`];
      const [liked, likedInProgress] = [film(undefined, { favorite: true }), film(undefined, { ...watching(3), favorite: true })];
      const likedEpisode = episodeOf(watched, 1, 1, { favorite: true });
      await store.putMany(profileId, [liked, likedInProgress, likedEpisode]);
      assert.deepEqual(withoutRev((await store.state(profileId, liked.mediaId))!), liked, 'read back whole');
      assert.deepEqual(
        (await store.inProgress(profileId, 10)).map((s) => s.mediaId),
        [likedInProgress.mediaId],
        'a favourite alone is not in progress',
      );
      assert.deepEqual(await store.playedEpisodes(profileId, watched), [], 'nor played');

      await store.saveShow(profileId, watched, longAgo(10), summary(1, 4, 'ep_w2'));
      assert.deepEqual(await store.favoriteShow(profileId, watched, true), {
        summary: summary(1, 4, 'ep_w2'),
        lastPlayedAt: longAgo(10),
        favorite: true,
      });
      // A show only marked a favourite has an item, with no summary and no time, and is not being watched.
      assert.deepEqual(await store.favoriteShow(profileId, loved, true), { summary: undefined, lastPlayedAt: null, favorite: true });
      assert.deepEqual(await store.nextEpisodes(profileId, 10), [{ showId: watched, episodeId: 'ep_w2' }]);
      // Watched again, its summary counted again: still a favourite.
      await store.saveShow(profileId, watched, longAgo(11), summary(2, 4, 'ep_w3'), 'clear');
      const states = await store.titleStates(profileId);
      assert.deepEqual(
        states.shows,
        new Map([
          [watched, { summary: summary(2, 4, 'ep_w3'), lastPlayedAt: longAgo(11), favorite: true }],
          [loved, { summary: undefined, lastPlayedAt: null, favorite: true }],
        ]),
      );
      assert.deepEqual(
        [...states.films.values()].map((f) => [f.mediaId, f.favorite]).sort(),
        [
          [liked.mediaId, true],
          [likedInProgress.mediaId, true],
        ].sort(),
      );
      assert.deepEqual(await store.favoriteShow(profileId, watched, false), {
        summary: summary(2, 4, 'ep_w3'),
        lastPlayedAt: longAgo(11),
        favorite: false,
      });
      // By id: a batch read answers in no particular order.
      const shows = await store.showStates(profileId, [watched, loved]);
      assert.deepEqual([shows.get(watched)?.favorite, shows.get(loved)?.favorite], [false, true]);
      await store.removeItems([profileId], [loved]);
      assert.deepEqual([...(await store.showStates(profileId, [watched, loved])).keys()], [watched], 'gone for good with its item');
    });
  });

  it("gives each film's state and each show's item, and no episode's", async () => {
    await withProfile(async (profileId) => {
      const [showId, bare] = [`tv_wc${uid()}`, `tv_wc${uid()}`];
      const films = [film(undefined, watching(5)), film(undefined, played)];
      await store.putMany(profileId, [...films, episodeOf(showId, 1, 1, played), episodeOf(showId, 1, 2, watching(6))]);
      await store.saveShow(profileId, showId, longAgo(7), summary(1, 2, 'ep_next'));
      await store.saveShow(profileId, bare, longAgo(8));
      const states = await store.titleStates(profileId);
      assert.deepEqual([...states.films.keys()].sort(), films.map((f) => f.mediaId).sort());
      for (const f of films) assert.deepEqual(withoutRev(states.films.get(f.mediaId)!), f);
      assert.deepEqual(
        states.shows,
        new Map([
          [showId, { summary: summary(1, 2, 'ep_next'), lastPlayedAt: longAgo(7), favorite: false }],
          [bare, { summary: undefined, lastPlayedAt: longAgo(8), favorite: false }],
        ]),
      );
      const none = await store.titleStates(`pf_${uid().slice(0, 16)}`);
      assert.deepEqual([none.films.size, none.shows.size], [0, 0]);
    });
  });

  it("removes the given profiles' state of items gone for good, shows' items too, and nothing else", async () => {
    await withProfile(async (ada) => {
      await withProfile(async (bob) => {
        const showId = `tv_wc${uid()}`;
        const [gone, kept, goneEpisode] = [
          film(undefined, watching(1)),
          film(undefined, watching(2)),
          episodeOf(showId, 1, 1, watching(3)),
        ];
        for (const p of [ada, bob]) {
          await store.putMany(p, [gone, kept, goneEpisode]);
          await store.saveShow(p, showId, longAgo(4), summary(0, 1, null));
        }
        await store.removeItems([ada], [gone.mediaId, goneEpisode.mediaId, showId, `mv_wc${uid()}`]);
        await store.removeItems([ada], []);
        assert.deepEqual(
          [
            ...(
              await store.states(
                ada,
                [gone, kept, goneEpisode].map((s) => s.mediaId),
              )
            ).keys(),
          ],
          [kept.mediaId],
        );
        assert.deepEqual(await store.showStates(ada, [showId]), new Map());
        assert.deepEqual((await store.titleStates(ada)).shows, new Map());
        assert.equal(
          (
            await store.states(
              bob,
              [gone, kept, goneEpisode].map((s) => s.mediaId),
            )
          ).size,
          3,
          'a profile not named keeps its state',
        );
        assert.equal((await store.showStates(bob, [showId])).size, 1);
      });
    });
  });

  it("removes a profile with its name and every state it had, and no other profile's", async () => {
    const [ada, bob] = [aProfile('Ada', 1), aProfile('Bob', 2)];
    const showId = `tv_wc${uid()}`;
    const states = [film(undefined, watching(1)), episodeOf(showId, 1, 1, played)];
    try {
      for (const p of [ada, bob]) {
        await profiles.save(p);
        await store.putMany(p.id, states);
        await store.saveShow(p.id, showId, longAgo(3), summary(1, 3, 'ep_x'));
      }
      await profiles.removeProfile(ada);
      assert.equal(await profiles.profile(ada.id), undefined);
      assert.equal(await profiles.nameHeld('Ada'), false);
      assert.deepEqual(await profiles.profiles(), [DEFAULT_PROFILE, bob]);
      assert.equal(
        (
          await store.states(
            ada.id,
            states.map((s) => s.mediaId),
          )
        ).size,
        0,
      );
      assert.deepEqual(
        [await store.inProgress(ada.id, 10), await store.nextEpisodes(ada.id, 10), await store.playedEpisodes(ada.id, showId)],
        [[], [], []],
      );
      assert.equal(
        (
          await store.states(
            bob.id,
            states.map((s) => s.mediaId),
          )
        ).size,
        2,
      );
      assert.deepEqual(await store.nextEpisodes(bob.id, 10), [{ showId, episodeId: 'ep_x' }]);
    } finally {
      await profiles.removeProfile(ada);
      await profiles.removeProfile(bob);
    }
  });
};
