// Film collections kept as their films are described (lib/scan/enrich/collections.ts), with the
// stores and the provider in memory: asked once per collection however many films and batches
// name it, not again while the kept copy is current, again once it is old or when asked to.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CollectionStore, StoredCollection } from '../../../../lib/catalog/collections';
import type { MovieItem } from '../../../../lib/catalog/model';
import type { Log } from '../../../../lib/log';
import {
  COLLECTION_TTL_SECONDS,
  ProviderAuthError,
  type CollectionDetails,
  type MetadataProvider,
} from '../../../../lib/metadata/provider';
import { keepCollections, type CollectionKeeping, type CollectionsSeen } from '../../../../lib/scan/enrich/collections';
import { enrichSession, type EnrichDeps, type EnrichTally } from '../../../../lib/scan/enrich/session';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const quiet = { warn: () => undefined, info: () => undefined } as unknown as Log;

const GODFATHER: CollectionDetails = {
  id: 230,
  name: 'The Godfather Collection',
  overview: 'The Corleones.',
  posterPath: null,
  backdropPath: null,
  parts: [{ tmdbId: 238, title: 'The Godfather', releaseDate: '1972-03-14', year: 1972 }],
};

const film = (id: string, collection: { id: number; name: string } | null) =>
  ({ id, entity: 'movie', metadata: { collection } }) as unknown as MovieItem;

/** A provider that knows the Godfather collection and counts what it is asked. */
const provider = (answer: (id: number) => Promise<CollectionDetails | null> = async (id) => (id === 230 ? GODFATHER : null)) => {
  const asked: number[] = [];
  const p = { collectionDetails: async (id: number) => (asked.push(id), answer(id)) } as unknown as MetadataProvider;
  return { p, asked };
};

const memoryStore = (initial: StoredCollection[] = []) => {
  const rows = new Map(initial.map((c) => [c.id, c]));
  const store: CollectionStore = {
    getMany: async (ids) => new Map(ids.flatMap((id) => (rows.has(id) ? [[id, rows.get(id)!] as const] : []))),
    put: async (c) => void rows.set(c.id, c),
  };
  return { store, rows };
};

const setUp = (p: MetadataProvider | null, store: CollectionStore, over: Partial<CollectionKeeping> = {}) => {
  const tally: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: false };
  const deps = { provider: p, log: quiet, collections: { store, clock: () => NOW, ...over } } as unknown as EnrichDeps & {
    collections: CollectionKeeping;
  };
  return { deps, session: enrichSession(deps, '/lib', tally), tally };
};

const storedAt = (iso: string): StoredCollection => ({ ...GODFATHER, name: 'Old name', artwork: {}, fetchedAt: iso });

describe('keeping film collections', () => {
  it('asks once per collection for two films of it and for a second batch running beside the first', async () => {
    // Prepare
    const { p, asked } = provider();
    const { store, rows } = memoryStore();
    const { deps, session } = setUp(p, store);
    const seen: CollectionsSeen = new Map();

    // Act
    await Promise.all([
      keepCollections(deps, session, '/lib', [film('a', { id: 230, name: 'x' }), film('b', { id: 230, name: 'x' }), film('c', null)], seen),
      keepCollections(deps, session, '/lib', [film('d', { id: 230, name: 'x' })], seen),
    ]);

    // Assess
    assert.deepEqual(asked, [230]);
    assert.deepEqual(rows.get(230), { ...GODFATHER, artwork: {}, fetchedAt: new Date(NOW).toISOString() });
  });

  it('does not ask for a copy younger than the TTL, and asks again for an older one or when told to', async () => {
    const fresh = new Date(NOW - (COLLECTION_TTL_SECONDS - 60) * 1000).toISOString();
    const old = new Date(NOW - (COLLECTION_TTL_SECONDS + 60) * 1000).toISOString();
    const films = [film('a', { id: 230, name: 'x' })];

    const current = provider();
    const kept = memoryStore([storedAt(fresh)]);
    const one = setUp(current.p, kept.store);
    await keepCollections(one.deps, one.session, '/lib', films);
    assert.deepEqual(current.asked, []);
    assert.equal(kept.rows.get(230)!.name, 'Old name');

    const stale = provider();
    const aged = memoryStore([storedAt(old)]);
    const two = setUp(stale.p, aged.store);
    await keepCollections(two.deps, two.session, '/lib', films);
    assert.deepEqual(stale.asked, [230]);
    assert.equal(aged.rows.get(230)!.name, 'The Godfather Collection');

    const forced = provider();
    const again = memoryStore([storedAt(fresh)]);
    const three = setUp(forced.p, again.store, { refetch: true });
    await keepCollections(three.deps, three.session, '/lib', films);
    assert.deepEqual(forced.asked, [230]);
  });

  it('stores nothing for an id the provider does not know, one it fails for, or without a provider', async () => {
    const films = [film('a', { id: 404, name: 'An NFO typo' })];
    const unknown = provider();
    const { store, rows } = memoryStore();
    const one = setUp(unknown.p, store);
    await keepCollections(one.deps, one.session, '/lib', films);
    assert.deepEqual([unknown.asked, rows.size], [[404], 0]);

    const failing = provider(async () => {
      throw new Error('TMDB is down');
    });
    const two = setUp(failing.p, store);
    await keepCollections(two.deps, two.session, '/lib', films);
    assert.equal(rows.size, 0, 'left for a later scan, the batch goes on');

    const three = setUp(null, store);
    await keepCollections(three.deps, three.session, '/lib', films);
    assert.equal(rows.size, 0);
  });

  it('notes a refused key as the session does and asks nothing more', async () => {
    const refusing = provider(async () => {
      throw new ProviderAuthError('refused');
    });
    const { store, rows } = memoryStore();
    const { deps, session, tally } = setUp(refusing.p, store);

    await keepCollections(deps, session, '/lib', [film('a', { id: 230, name: 'x' })]);
    await keepCollections(deps, session, '/lib', [film('b', { id: 231, name: 'y' })]);

    assert.deepEqual([refusing.asked, rows.size, tally.keyRefused], [[230], 0, true]);
  });
});
