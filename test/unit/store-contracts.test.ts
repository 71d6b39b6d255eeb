// The store contracts (test/contracts/) run against the in-memory adapters: no stack, no
// database. The same contracts hold the DynamoDB adapters in test/integration/store-contracts.test.ts.
import { describe } from 'node:test';
import { MemoryManifestStore } from '../../lib/catalog/memory-manifest';
import { MemoryCatalogStore } from '../../lib/catalog/memory-store';
import { MemoryLibraryStore } from '../../lib/library/memory-store';
import { MemorySessionStore } from '../../lib/playback/memory-sessions';
import { MemoryTimingStore } from '../../lib/playback/memory-timing-store';
import { MemoryWatchStore } from '../../lib/watching/memory-store';
import { catalogContract } from '../contracts/catalog';
import { libraryContract } from '../contracts/library';
import { manifestContract } from '../contracts/manifest';
import { sessionContract } from '../contracts/sessions';
import { timingContract } from '../contracts/timing';
import { watchContract } from '../contracts/watch';
import { fakeClock } from '../support/fake-clock';

describe('CatalogStore contract: MemoryCatalogStore', () => catalogContract(new MemoryCatalogStore()));
describe('LibraryStore contract: MemoryLibraryStore', () => libraryContract(new MemoryLibraryStore()));
describe('ManifestStore contract: MemoryManifestStore', () => manifestContract(new MemoryManifestStore()));
describe('WatchStore contract: MemoryWatchStore', () => {
  const memory = new MemoryWatchStore();
  watchContract(memory, memory);
});
describe('SessionStore contract: MemorySessionStore', () => {
  const clock = fakeClock();
  sessionContract(new MemorySessionStore(clock.now), clock);
});
describe('TimingStore contract: MemoryTimingStore', () => timingContract(new MemoryTimingStore()));
