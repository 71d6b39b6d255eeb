// What describing one batch of items shares: the provider, asked only while it accepts the
// key (a refused key is noted once and stops every later call of the scan), the NFO reader, and
// the tally of what was matched.
import type { ArtworkWanted } from '../../artwork/model';
import type { MatchLockStore } from '../../catalog/match-lock';
import type { CatalogStore } from '../../catalog/store';
import type { EnrichState } from '../../catalog/model';
import type { Log } from '../../log';
import { MAX_NFO_BYTES, parseNfo } from '../../metadata/nfo';
import { ProviderAuthError, type MetadataProvider } from '../../metadata/provider';
import type { MediaStorage } from '../../storage';
import type { CollectionKeeping } from './collections';

export interface EnrichDeps {
  catalog: CatalogStore;
  locks: MatchLockStore;
  storage: MediaStorage;
  /** Null when no provider may be asked (fetching off, no key). */
  provider: MetadataProvider | null;
  log: Log;
  /** Where the films' collections are kept; absent: not kept. */
  collections?: CollectionKeeping | undefined;
}

export interface EnrichTally {
  matched: number;
  unmatched: number;
  failed: number;
  /** The provider refused the key: nothing more is asked of it in this scan. */
  keyRefused: boolean;
}

export interface EnrichSession {
  tally: EnrichTally;
  /** Whether a provider can be asked now. */
  canAsk(): boolean;
  /** Runs a provider call; undefined when there is no provider or it refused the key. */
  ask<T>(call: (p: MetadataProvider) => Promise<T>): Promise<T | undefined>;
  /** The NFO at a library-relative path, parsed; undefined when there is none or it cannot be read (counted as failed). */
  readNfo(relPath: string | undefined): ReturnType<typeof readNfoAt>;
}

const readNfoAt = async (deps: EnrichDeps, root: string, tally: EnrichTally, relPath: string | undefined) => {
  if (!relPath) return undefined;
  const bytes = await deps.storage.readSmall(root, relPath, MAX_NFO_BYTES);
  if (!bytes) return undefined;
  const nfo = parseNfo(bytes);
  if (!nfo.ok) {
    tally.failed++;
    deps.log.warn({ file: relPath, reason: nfo.reason }, 'NFO file not readable; ignored');
    return undefined;
  }
  return nfo;
};

export const enrichSession = (deps: EnrichDeps, root: string, tally: EnrichTally): EnrichSession => {
  const provider = () => (tally.keyRefused ? null : deps.provider);
  return {
    tally,
    canAsk: () => provider() !== null,
    async ask(call) {
      const p = provider();
      if (!p) return undefined;
      try {
        return await call(p);
      } catch (err) {
        if (!(err instanceof ProviderAuthError)) throw err;
        if (!tally.keyRefused)
          deps.log.warn({ status: err.status }, 'the metadata provider refused the API key; the scan goes on without it');
        tally.keyRefused = true;
        return undefined;
      }
    },
    readNfo: (relPath) => readNfoAt(deps, root, tally, relPath),
  };
};

/** Where an item goes next: to the artwork phase when it wants pictures, to the details phase when described from a search hit alone, done when a provider was asked, else waiting for one. */
export const nextState = (wanted: ArtworkWanted, asked: boolean, brief = false): EnrichState =>
  Object.keys(wanted).length ? 'artwork' : brief ? 'details' : asked ? 'done' : 'local';
