// The SessionStore contract: what every adapter of conversion sessions does
// (test/contracts/support.ts says how contracts run). The idle time is a rule of the store's:
// its clock is the test's, moved by hand (test/support/fake-clock.ts), so nothing waits.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SessionPlan, SessionStore } from '../../lib/playback/sessions';
import type { FakeClock } from '../support/fake-clock';

/** A session's plan as the playback service makes one (a copied video, a converted audio track). */
export const aSessionPlan = (mediaId = 'mv_a'): SessionPlan => ({
  mediaId,
  part: 1,
  version: '1-1',
  audioTrack: 0,
  video: 'copy',
  audio: 'convert',
  maxHeight: 1080,
  prerollS: 0,
  segments: [
    { start: 0, end: 6, videoEnd: 5.9 },
    { start: 6, end: 9 },
  ],
  input: '/films/A (2001).mkv',
});

/** A contract's store is its own and starts empty (test/contracts/support.ts); `clock` is the one it reads. */
export const sessionContract = (sessions: SessionStore, clock: FakeClock) => {
  it('gives each of racing starts its own slot, never more than the capacity', async () => {
    const started = await Promise.all(Array.from({ length: 5 }, () => sessions.start('transcode', 2, aSessionPlan(), 60_000)));
    const got = started.filter((s) => s !== undefined);
    assert.equal(got.length, 2);
    assert.deepEqual(got.map((s) => s.slot).sort(), [0, 1]);
    assert.equal(await sessions.live('transcode', 60_000), 2);
    // Remuxes are counted apart.
    const remux = await sessions.start('remux', 1, aSessionPlan(), 60_000);
    assert.ok(remux);
    assert.equal(await sessions.live('remux', 60_000), 1);
    for (const s of [...got, remux]) assert.equal(await sessions.end(s.id), true);
    assert.deepEqual([await sessions.live('transcode', 60_000), await sessions.live('remux', 60_000)], [0, 0]);
  });

  it('keeps a session alive while asked for, ends one left unasked for the idle time, and frees its slot', async () => {
    const first = await sessions.start('transcode', 1, aSessionPlan('mv_first'), 400);
    assert.ok(first);
    const touched = await sessions.touch(first.id, 400);
    assert.equal(touched?.id, first.id);
    assert.deepEqual(await sessions.plan(first.id), aSessionPlan('mv_first'), 'the plan comes back whole');
    assert.equal(await sessions.start('transcode', 1, aSessionPlan(), 400), undefined, 'the one slot is taken');
    clock.advance(600);
    assert.equal(await sessions.touch(first.id, 400), undefined, 'ended by itself');
    const second = await sessions.start('transcode', 1, aSessionPlan('mv_second'), 400);
    assert.ok(second, 'the slot is free again');
    assert.notEqual(second.id, first.id);
    assert.equal(await sessions.touch(first.id, 400), undefined, 'the old id never comes back');
    assert.equal(await sessions.plan(first.id), undefined, "the ended session's plan went when its slot was claimed again");
    assert.equal(await sessions.end(second.id), true);
    assert.equal(await sessions.plan(second.id), undefined, 'and with its DELETE');
    assert.equal(await sessions.end(second.id), false);
    assert.equal(await sessions.touch('t0-nothexnothexnoth', 400), undefined);
  });

  it('counts the idle time from the last request: each one resets it', async () => {
    const started = await sessions.start('remux', 2, aSessionPlan(), 1_000);
    assert.ok(started);
    assert.deepEqual([started.createdAt, started.lastSeenAt], [clock.now(), clock.now()]);
    for (let i = 0; i < 3; i++) {
      clock.advance(900);
      const slot = await sessions.touch(started.id, 1_000);
      assert.deepEqual(
        slot,
        { id: started.id, kind: 'remux', slot: started.slot, createdAt: started.createdAt, lastSeenAt: clock.now() },
        `asked again after 0.9 s (${i + 1})`,
      );
    }
    assert.equal(await sessions.live('remux', 1_000), 1, '2.7 s old, asked for 0 s ago: live');
    clock.advance(1_000);
    assert.equal(await sessions.live('remux', 1_000), 1, 'exactly the idle time: still live');
    clock.advance(1);
    assert.equal(await sessions.live('remux', 1_000), 0, 'idle past it: not counted');
    assert.equal(await sessions.touch(started.id, 1_000), undefined);
    // A slot held by another live session is never taken; an idle one is, from the first slot.
    const [a, b] = [
      await sessions.start('remux', 2, aSessionPlan('mv_a'), 1_000),
      await sessions.start('remux', 2, aSessionPlan('mv_b'), 1_000),
    ];
    assert.deepEqual([a?.slot, b?.slot].sort(), [0, 1]);
    assert.equal(await sessions.start('remux', 2, aSessionPlan(), 1_000), undefined);
    for (const s of [a!, b!]) assert.equal(await sessions.end(s.id), true);
  });

  it('gives a plan back as it started, with the parts it has and none it does not', async () => {
    const withAll: SessionPlan = {
      ...aSessionPlan('mv_all'),
      audioTrack: null,
      video: 'none',
      audio: 'copy',
      audioFrameS: 0.032,
      prerollS: 1.5,
      input: '/films/Été "quoted" (2001)/ünï.mkv',
    };
    const [a, b] = [
      await sessions.start('transcode', 2, withAll, 60_000),
      await sessions.start('transcode', 2, aSessionPlan('mv_bare'), 60_000),
    ];
    assert.ok(a && b);
    assert.deepEqual(await sessions.plan(a.id), withAll);
    const bare = await sessions.plan(b.id);
    assert.deepEqual(bare, aSessionPlan('mv_bare'));
    assert.ok(bare && !('audioFrameS' in bare), 'no audioFrameS where none was given');
    assert.deepEqual([await sessions.plan('t9-0123456789abcdef'), await sessions.plan('not an id')], [undefined, undefined]);
    assert.deepEqual([await sessions.end('not an id'), await sessions.end('t9-0123456789abcdef')], [false, false]);
    for (const s of [a, b]) assert.equal(await sessions.end(s.id), true);
  });
};
