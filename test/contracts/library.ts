// The LibraryStore contract: what every adapter of the libraries does (test/contracts/support.ts
// says how contracts run).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Library, LibraryCounts } from '../../lib/library/model';
import type { LibraryStore } from '../../lib/library/store';
import { aLibrary as libraryFixture } from '../support/library-fixture';
import { isProblem, uid } from './support';

/** A contract's store is its own and starts empty (test/contracts/support.ts). */
export const libraryContract = (store: LibraryStore) => {
  const aLibrary = (createdAt?: string, path = `/media/contract/${uid()}`) => libraryFixture(createdAt, { path });

  it('creates a library and reads it back whole, by id and in the list', async () => {
    const library: Library = {
      ...aLibrary(),
      name: 'Filmé "quoted"',
      path: `/media/contract/${uid()}/with space/ünï`,
      mediaType: 'tvshow',
    };
    try {
      await store.create(library);
      assert.deepEqual(await store.get(library.id), library);
      assert.deepEqual(await store.list(), [library]);
      assert.equal(await store.get(`lib_sc${uid()}`), undefined);
    } finally {
      await store.remove(library);
    }
  });

  it('marks a library as being removed: no longer listed, kept by id and with its path taken, its heartbeat moving', async () => {
    const library = aLibrary();
    try {
      await store.create(library);
      const marked = await store.markRemoving(library.id, '2026-01-01T00:00:00.000Z');
      assert.deepEqual(marked?.removing, { since: '2026-01-01T00:00:00.000Z', heartbeatAt: '2026-01-01T00:00:00.000Z' });
      // A second mark (a second DELETE) keeps the first.
      assert.equal((await store.markRemoving(library.id, '2026-01-02T00:00:00.000Z'))?.removing?.since, '2026-01-01T00:00:00.000Z');
      assert.deepEqual(await store.list(), []);
      assert.deepEqual(
        (await store.removing()).map((l) => l.id),
        [library.id],
      );
      assert.equal(await store.beatRemoval(library.id, '2026-01-03T00:00:00.000Z'), true);
      assert.deepEqual((await store.get(library.id))?.removing, {
        since: '2026-01-01T00:00:00.000Z',
        heartbeatAt: '2026-01-03T00:00:00.000Z',
      });
      await assert.rejects(store.create({ ...aLibrary(), path: library.path }), isProblem(409, 'library-exists'));
      assert.equal(await store.markRemoving(`lib_sc${uid()}`, '2026-01-01T00:00:00.000Z'), undefined);
    } finally {
      await store.remove(library);
    }
    assert.equal(await store.beatRemoval(library.id, '2026-01-04T00:00:00.000Z'), false);
    assert.deepEqual(await store.removing(), []);
  });

  it('refuses a second library for a path with 409 library-exists, and the refused one leaves nothing', async () => {
    const first = aLibrary();
    const second = { ...aLibrary(), path: first.path };
    try {
      await store.create(first);
      await assert.rejects(store.create(second), isProblem(409, 'library-exists'));
      assert.equal(await store.get(second.id), undefined);
      assert.deepEqual(await store.list(), [first]);
      assert.deepEqual(await store.get(first.id), first, 'the first is untouched');
      // The refused create kept neither its id nor anything else: it goes through on a free path.
      const moved = { ...second, path: `${first.path}-other` };
      await store.create(moved);
      assert.deepEqual(await store.get(second.id), moved);
      await store.remove(moved);
    } finally {
      await store.remove(first);
    }
  });

  it('lets exactly one of several racing creates of a path win', async () => {
    const path = `/media/contract/${uid()}`;
    const racers = Array.from({ length: 5 }, () => aLibrary(undefined, path));
    try {
      const results = await Promise.allSettled(racers.map((l) => store.create(l)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'one winner');
      for (const r of results) if (r.status === 'rejected') isProblem(409, 'library-exists')(r.reason);
      const winner = racers[results.findIndex((r) => r.status === 'fulfilled')]!;
      assert.deepEqual(await store.list(), [winner]);
    } finally {
      for (const l of racers) await store.remove(l);
    }
  });

  it('lists libraries oldest first', async () => {
    // Created newest first, so the list's order cannot come from the order of writes.
    const libs = ['1993-01-01T00:00:00.000Z', '1991-06-01T00:00:00.000Z', '1992-03-03T00:00:00.000Z', '1991-06-01T00:00:00.001Z'].map((t) =>
      aLibrary(t),
    );
    try {
      for (const l of libs) await store.create(l);
      const listed = await store.list();
      assert.deepEqual(
        listed.map((l) => l.createdAt),
        ['1991-06-01T00:00:00.000Z', '1991-06-01T00:00:00.001Z', '1992-03-03T00:00:00.000Z', '1993-01-01T00:00:00.000Z'],
      );
      assert.deepEqual(listed, [libs[1], libs[3], libs[2], libs[0]], 'each library whole, once');
    } finally {
      for (const l of libs) await store.remove(l);
    }
  });

  it('recordScan stores the counts and the time, and changes nothing else', async () => {
    const library = aLibrary();
    const counts: LibraryCounts = {
      movies: 3,
      tvShows: 0,
      seasons: 0,
      episodes: 0,
      totalSizeBytes: 12_000_000_001,
      totalDurationSeconds: 5_400.5,
    };
    try {
      await store.create(library);
      await store.recordScan(library.id, counts, '2026-11-22T12:00:00.000Z');
      const expected: Library = { ...library, counts, lastScannedAt: '2026-11-22T12:00:00.000Z' };
      assert.deepEqual(await store.get(library.id), expected);
      assert.deepEqual(await store.list(), [expected]);
      // A later scan replaces the counts whole (a count it does not give is gone).
      const later: LibraryCounts = { movies: 2, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 8 };
      await store.recordScan(library.id, later, '2026-11-23T12:00:00.000Z');
      assert.deepEqual(await store.get(library.id), { ...library, counts: later, lastScannedAt: '2026-11-23T12:00:00.000Z' });
    } finally {
      await store.remove(library);
    }
  });

  it('recordScan on a deleted or unknown library is no error and brings nothing back', async () => {
    const library = aLibrary();
    const counts: LibraryCounts = { movies: 1, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 1 };
    await store.create(library);
    await store.remove(library);
    await store.recordScan(library.id, counts, '2026-11-22T12:00:00.000Z');
    assert.equal(await store.get(library.id), undefined);
    assert.deepEqual(await store.list(), []);

    const unknown = `lib_sc${uid()}`;
    await store.recordScan(unknown, counts, '2026-11-22T12:00:00.000Z');
    assert.equal(await store.get(unknown), undefined);
    // Nothing half-made holds the deleted library's path either.
    const again = { ...aLibrary(), path: library.path };
    await store.create(again);
    await store.remove(again);
  });

  it('update changes only the given fields and returns the library; an unknown id gives undefined', async () => {
    const library = aLibrary();
    const other = aLibrary(new Date(Date.parse(library.createdAt) + 1_000).toISOString());
    try {
      await store.create(library);
      await store.create(other);
      const renamed = await store.update(library.id, { name: 'Renamed ünï "quoted"' });
      const expected: Library = { ...library, name: 'Renamed ünï "quoted"' };
      assert.deepEqual(renamed, expected);
      assert.deepEqual(await store.get(library.id), expected);
      // Upkeep fields, several at once, a null among them; a field given as undefined is left alone.
      const schedule = await store.update(library.id, { scanIntervalHours: 0, monitoring: false, nextScanAt: null, name: undefined });
      const scheduled: Library = { ...expected, scanIntervalHours: 0, monitoring: false, nextScanAt: null };
      assert.deepEqual(schedule, scheduled);
      assert.deepEqual(await store.get(library.id), scheduled);
      const next = await store.update(library.id, { scanIntervalHours: 6, nextScanAt: '2026-11-22T18:00:00.000Z' });
      assert.deepEqual(next, { ...scheduled, scanIntervalHours: 6, nextScanAt: '2026-11-22T18:00:00.000Z' });
      assert.deepEqual(await store.list(), [next, other]);
      // No change at all: the library as it is.
      assert.deepEqual(await store.update(library.id, {}), next);
      assert.deepEqual(await store.get(other.id), other, 'another library is untouched');

      const unknown = `lib_sc${uid()}`;
      assert.equal(await store.update(unknown, { name: 'Ghost' }), undefined);
      assert.equal(await store.update(unknown, {}), undefined);
      assert.equal(await store.get(unknown), undefined, 'an update creates nothing');
    } finally {
      await store.remove(library);
      await store.remove(other);
    }
  });

  it('update of a deleted library gives undefined and brings nothing back', async () => {
    const library = aLibrary();
    await store.create(library);
    await store.remove(library);
    assert.equal(await store.update(library.id, { monitoring: false }), undefined);
    assert.equal(await store.get(library.id), undefined);
    assert.deepEqual(await store.list(), []);
  });

  it('setStatus tells whether the state or its reason changed; the same again, or an unknown library, is false', async () => {
    const library = aLibrary();
    try {
      await store.create(library);
      assert.equal(
        await store.setStatus(library.id, { state: 'online', reason: null, since: '2026-11-22T00:00:00.000Z' }),
        false,
        'online as created',
      );
      assert.deepEqual((await store.get(library.id))?.status, library.status, 'a refused status changes nothing, not even since');

      const offline = { state: 'offline' as const, reason: 'The folder is missing', since: '2026-11-22T01:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, offline), true);
      assert.deepEqual(await store.get(library.id), { ...library, status: offline });
      assert.equal(await store.setStatus(library.id, { ...offline, since: '2026-11-22T02:00:00.000Z' }), false);
      assert.deepEqual((await store.get(library.id))?.status, offline, 'since stays the time of the change');

      const otherReason = { state: 'offline' as const, reason: 'The folder cannot be read', since: '2026-11-22T03:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, otherReason), true, 'another reason is a change');
      const online = { state: 'online' as const, reason: null, since: '2026-11-22T04:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, online), true);
      assert.equal(await store.setStatus(library.id, { ...online, since: '2026-11-22T05:00:00.000Z' }), false);
      // Online with a note (the folder cannot be watched), then the note gone.
      const noted = { state: 'online' as const, reason: 'The folder cannot be watched', since: '2026-11-22T06:00:00.000Z' };
      assert.equal(await store.setStatus(library.id, noted), true);
      // The same reason in another state is a change too.
      assert.equal(await store.setStatus(library.id, { ...noted, state: 'offline', since: '2026-11-22T06:30:00.000Z' }), true);
      assert.equal(await store.setStatus(library.id, online), true);
      assert.deepEqual(await store.get(library.id), { ...library, status: online }, 'only the status changed');

      // Two racing the same change: one tells.
      const results = await Promise.all(Array.from({ length: 4 }, () => store.setStatus(library.id, offline)));
      assert.equal(results.filter(Boolean).length, 1);

      const unknown = `lib_sc${uid()}`;
      assert.equal(await store.setStatus(unknown, offline), false);
      assert.equal(await store.get(unknown), undefined, 'setStatus creates nothing');
    } finally {
      await store.remove(library);
    }
  });

  it('recordScan stores nextScanAt when given one (null too), and without one leaves it alone', async () => {
    const library = { ...aLibrary(), nextScanAt: '2026-11-22T12:00:00.000Z' };
    const counts: LibraryCounts = { movies: 1, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 10 };
    try {
      await store.create(library);
      await store.recordScan(library.id, counts, '2026-11-22T13:00:00.000Z');
      assert.deepEqual(
        await store.get(library.id),
        { ...library, counts, lastScannedAt: '2026-11-22T13:00:00.000Z' },
        'a scan of one folder: the schedule stays',
      );
      await store.recordScan(library.id, counts, '2026-11-22T14:00:00.000Z', '2026-11-23T02:00:00.000Z');
      const scheduled: Library = { ...library, counts, lastScannedAt: '2026-11-22T14:00:00.000Z', nextScanAt: '2026-11-23T02:00:00.000Z' };
      assert.deepEqual(await store.get(library.id), scheduled);
      assert.deepEqual(await store.list(), [scheduled]);
      await store.recordScan(library.id, counts, '2026-11-22T15:00:00.000Z', null);
      assert.deepEqual(
        await store.get(library.id),
        { ...scheduled, lastScannedAt: '2026-11-22T15:00:00.000Z', nextScanAt: null },
        'no schedule',
      );
    } finally {
      await store.remove(library);
    }
  });

  it('remove deletes the library and frees its path for a new one', async () => {
    const library = aLibrary();
    const next = { ...aLibrary(), path: library.path };
    try {
      await store.create(library);
      await store.remove(library);
      assert.equal(await store.get(library.id), undefined);
      assert.deepEqual(await store.list(), []);
      await store.create(next);
      assert.deepEqual(await store.get(next.id), next);
      assert.deepEqual(await store.list(), [next]);
      // The freed path is taken again by the new library.
      await assert.rejects(store.create({ ...aLibrary(), path: library.path }), isProblem(409, 'library-exists'));
    } finally {
      await store.remove(next);
    }
  });
};
