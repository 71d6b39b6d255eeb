// The scan's artwork phase for a batch of items: each wanted picture (a local file beside the
// video, else the provider's) is fetched once, checked to be a real image of sane size, kept in
// the artwork store under its content hash, and a poster gives the item its mesh-gradient
// colours. Browsing then needs neither the provider nor the internet. A picture that cannot be
// fetched or read is counted as failed; the item keeps what it had.
import { createHash } from 'node:crypto';
import type { ArtworkKind, CatalogItem, StoredArtwork } from '../catalog/model';
import type { DynamoCatalogStore } from '../catalog/store';
import { eachLimited } from '../each-limited';
import type { Log } from '../log';
import { openImage } from '../media/image-input';
import type { Colors } from '../media/mesh-gradient';
import { posterColors } from '../media/poster-colors';
import type { MetadataProvider } from '../metadata/provider';
import type { MediaStorage } from '../storage';
import { sourceKey, type ArtworkStore } from './store';
import { sniffImage } from './variants';

export interface CollectDeps {
  catalog: DynamoCatalogStore;
  storage: MediaStorage;
  provider: MetadataProvider | null;
  artworks: ArtworkStore;
  log: Log;
  /** Colours from posters (settings: features.meshGradients). */
  meshGradients: boolean;
}

export interface ArtworkTally {
  stored: number;
  failed: number;
}

/** Local artwork larger than this is not a poster. */
const MAX_LOCAL_BYTES = 20 * 1024 * 1024;
// Provider sizes: big enough for a TV screen, far smaller than the originals.
const PROVIDER_SIZE: Record<ArtworkKind, string> = { poster: 'w780', backdrop: 'w1280', still: 'w300' };
const CONCURRENCY = 4;

const fetchBytes = async (deps: CollectDeps, root: string, kind: ArtworkKind, want: Pick<StoredArtwork, 'source' | 'from'>) => {
  if (want.source === 'local') return deps.storage.readSmall(root, want.from, MAX_LOCAL_BYTES);
  if (!deps.provider) return undefined;
  return (await deps.provider.fetchImage(want.from, PROVIDER_SIZE[kind]))?.bytes;
};

/** Stores one picture; its record for the item. Throws when the bytes are not a usable image. */
const keep = async (deps: CollectDeps, itemId: string, kind: ArtworkKind, want: Pick<StoredArtwork, 'source' | 'from'>, bytes: Buffer): Promise<StoredArtwork> => {
  const format = sniffImage(bytes);
  if (!format) throw new Error('not an image');
  // Reading the header checks the size limit before anything is decoded.
  const { width, height } = await openImage(bytes, { timeoutSeconds: 10 }).metadata();
  if (!width || !height) throw new Error('an image without dimensions');
  const etag = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
  const contentType = `image/${format}`;
  await deps.artworks.put(sourceKey(itemId, kind, etag), bytes, contentType);
  return { etag, contentType, width, height, source: want.source, from: want.from };
};

/** The items with their pictures stored (not written: the caller writes them, as for metadata). */
export const collectArtwork = async (deps: CollectDeps, root: string, ids: string[], tally: ArtworkTally): Promise<CatalogItem[]> => {
  const items = await deps.catalog.getMany(ids);
  const collected: CatalogItem[] = [];
  await eachLimited(items, CONCURRENCY, async (item) => {
    const artwork = { ...item.artwork };
    let colors: { meshGradientColors: Colors; colorsFrom: string } | undefined;
    for (const [kind, want] of Object.entries(item.artworkWanted ?? {}) as [ArtworkKind, Pick<StoredArtwork, 'source' | 'from'>][]) {
      const have = artwork[kind];
      if (have && have.source === want.source && have.from === want.from) continue;
      try {
        const bytes = await fetchBytes(deps, root, kind, want);
        if (!bytes) continue; // gone since the scan saw it, or no provider: the next scan tries again
        const stored = await keep(deps, item.id, kind, want, bytes);
        artwork[kind] = stored;
        tally.stored++;
        if (kind === 'poster' && deps.meshGradients) colors = { meshGradientColors: await posterColors(bytes), colorsFrom: stored.etag };
      } catch (err) {
        tally.failed++;
        deps.log.warn({ err, itemId: item.id, kind, source: want.source, from: want.from }, 'artwork not usable; skipped');
      }
    }
    // Done once the provider has been asked; else the item waits for a scan that can ask it.
    collected.push({ ...item, artwork, ...(colors && item.entity !== 'episode' ? colors : {}), enrich: item.providerAsked ? 'done' : 'local' } as CatalogItem);
  });
  return collected;
};
