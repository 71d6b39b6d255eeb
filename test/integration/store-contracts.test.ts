// The store contracts (test/contracts/) run against the DynamoDB adapters on the test run's
// DynamoDB Local, each on a table of its own (test/support/own-table.ts), made before its tests
// and deleted after them. The same contracts run against the in-memory adapters without a stack
// in test/unit/store-contracts.test.ts. One adapter test at the end writes a library as older
// versions stored it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoManifestStore } from '../../lib/catalog/manifest';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { keys } from '../../lib/db/table';
import type { Library } from '../../lib/library/model';
import { DynamoLibraryStore } from '../../lib/library/store';
import { DynamoSessionStore } from '../../lib/playback/sessions';
import { DynamoTimingStore } from '../../lib/playback/timing-store';
import { DynamoProfileStore } from '../../lib/watching/profile-store';
import { DynamoWatchStore } from '../../lib/watching/store';
import { catalogContract } from '../contracts/catalog';
import { libraryContract } from '../contracts/library';
import { manifestContract } from '../contracts/manifest';
import { sessionContract } from '../contracts/sessions';
import { uid } from '../contracts/support';
import { timingContract } from '../contracts/timing';
import { watchContract } from '../contracts/watch';
import { fakeClock } from '../support/fake-clock';
import { ownTable } from '../support/own-table';

// Each on a table of its own, made before its tests and deleted after them.
describe('CatalogStore contract: DynamoCatalogStore', () => catalogContract(new DynamoCatalogStore(ownTable('catalog-contract').db)));
describe('LibraryStore contract: DynamoLibraryStore', () => libraryContract(new DynamoLibraryStore(ownTable('library-contract').db)));
describe('ManifestStore contract: DynamoManifestStore', () => manifestContract(new DynamoManifestStore(ownTable('manifest-contract').db)));
// Small parts, so the same contract holds when a manifest takes many items.
describe('ManifestStore contract: DynamoManifestStore in 2 KB parts', () =>
  manifestContract(new DynamoManifestStore(ownTable('manifest-contract-2kb').db, 2_000)));
describe('WatchStore contract: DynamoProfileStore and DynamoWatchStore', () => {
  const { db } = ownTable('watch-contract');
  watchContract(new DynamoProfileStore(db), new DynamoWatchStore(db));
});
describe('SessionStore contract: DynamoSessionStore', () => {
  const clock = fakeClock();
  sessionContract(new DynamoSessionStore(ownTable('session-contract').db, clock.now), clock);
});
describe('TimingStore contract: DynamoTimingStore', () => timingContract(new DynamoTimingStore(ownTable('timing-contract').db)));

// Data older versions left in the table, which no port method writes any more: the one place
// this file writes an item itself, with the table's own key helpers.
describe('DynamoLibraryStore: a library stored before status and schedules existed', () => {
  const table = ownTable('legacy-library');
  const store = new DynamoLibraryStore(table.db);
  /** A library as older versions wrote it: no status, scanIntervalHours, monitoring or nextScanAt. */
  const storeLegacy = async (lastScannedAt: string | null) => {
    const id = `lib_sc${uid()}`;
    const createdAt = '2025-03-01T10:00:00.000Z';
    const legacy = {
      id,
      name: `Legacy ${uid().slice(0, 6)}`,
      path: `/media/contract/${uid()}`,
      mediaType: 'movie' as const,
      createdAt,
      lastScannedAt,
      counts: { movies: 2, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 20 },
    };
    const { doc, tableName } = table.db();
    await doc.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.library(id), ...keys.librariesByAge(createdAt, id), entity: 'library', ...legacy },
      }),
    );
    return legacy;
  };
  const remove = (legacy: { id: string; path: string }) => store.remove({ id: legacy.id, path: legacy.path } as Library);

  it('reads back online since its creation, rescanned every 12 h from its last scan, monitored', async () => {
    const legacy = await storeLegacy('2025-03-02T08:30:00.000Z');
    try {
      const expected: Library = {
        ...legacy,
        status: { state: 'online', reason: null, since: legacy.createdAt },
        scanIntervalHours: 12,
        monitoring: true,
        nextScanAt: '2025-03-02T20:30:00.000Z',
      };
      assert.deepEqual(await store.get(legacy.id), expected);
      assert.deepEqual(await store.list(), [expected]);
    } finally {
      await remove(legacy);
    }
  });

  it('never scanned: its first scheduled scan is 12 h after its creation', async () => {
    const legacy = await storeLegacy(null);
    try {
      assert.equal((await store.get(legacy.id))?.nextScanAt, '2025-03-01T22:00:00.000Z');
    } finally {
      await remove(legacy);
    }
  });

  it('update and setStatus work on it, and what they leave out still reads with its defaults', async () => {
    const legacy = await storeLegacy('2025-03-02T08:30:00.000Z');
    try {
      const updated = await store.update(legacy.id, { monitoring: false });
      assert.deepEqual(
        [updated?.monitoring, updated?.scanIntervalHours, updated?.status.state, updated?.nextScanAt],
        [false, 12, 'online', '2025-03-02T20:30:00.000Z'],
      );
      const offline = { state: 'offline' as const, reason: 'The folder is missing', since: '2025-03-03T00:00:00.000Z' };
      assert.equal(await store.setStatus(legacy.id, offline), true, 'a library with no status stored takes one');
      assert.deepEqual((await store.get(legacy.id))?.status, offline);
    } finally {
      await remove(legacy);
    }
  });
});
