// Artwork: each wanted picture (a local file beside the video, else the provider's) fetched
// once, checked to be a real image of sane size, kept in the artwork store under its content
// hash; a poster gives the item its mesh-gradient colours. Browsing then needs neither the
// provider nor the internet. A picture that cannot be fetched or read is counted as failed;
// the item keeps what it had.
import { createHash } from 'node:crypto';
import type { ArtworkKind, StoredArtwork } from '../../artwork/model';
import { sourceKey, type ArtworkStore } from '../../artwork/store';
import { sniffImage } from '../../artwork/variants';
import type { CatalogItem, IndexEntry } from '../../catalog/model';
import { isDiskFull } from '../../errors';
import { eachLimited } from '../../util/pool';
import { openImage } from '../../media/image-input';
import type { Colors } from '../../media/mesh-gradient';
import { posterColors } from '../../media/poster-colors';
import type { Log } from '../../log';
import type { MetadataProvider } from '../../metadata/provider';
import type { MediaStorage } from '../../storage';
import type { ScanContext } from '../context';
import { recordEnrichment, type Planned } from './plan';

const ARTWORK_CHUNK = 20;
const CONCURRENCY = 4;
/** Local artwork larger than this is not a poster. */
const MAX_LOCAL_BYTES = 20 * 1024 * 1024;
// Provider sizes: big enough for a TV screen, far smaller than the originals.
const PROVIDER_SIZE: Record<ArtworkKind, string> = { poster: 'w780', backdrop: 'w1280', still: 'w300' };

type Wanted = Pick<StoredArtwork, 'source' | 'from'>;

/** What storing an item's pictures needs: the scan's, or a fixed match's (lib/matching). */
export interface Collecting {
  storage: MediaStorage;
  /** The library's root, which local pictures are relative to. */
  root: string;
  artworks: ArtworkStore;
  /** Null when no provider may be asked, or it refused the key. */
  provider: MetadataProvider | null;
  meshGradients: boolean;
  log: Log;
  tally: { stored: number; failed: number };
}

const fetchBytes = async (c: Collecting, kind: ArtworkKind, want: Wanted) => {
  if (want.source === 'local') return c.storage.readSmall(c.root, want.from, MAX_LOCAL_BYTES);
  if (!c.provider) return undefined;
  return (await c.provider.fetchImage(want.from, PROVIDER_SIZE[kind]))?.bytes;
};

/** Stores one picture; its record for the item. Throws when the bytes are not a usable image. */
const keep = async (c: Collecting, itemId: string, kind: ArtworkKind, want: Wanted, bytes: Buffer): Promise<StoredArtwork> => {
  const format = sniffImage(bytes);
  if (!format) throw new Error('not an image');
  // Reading the header checks the size limit before anything is decoded.
  const { width, height } = await openImage(bytes, { timeoutSeconds: 10 }).metadata();
  if (!width || !height) throw new Error('an image without dimensions');
  const etag = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
  const contentType = `image/${format}`;
  await c.artworks.put(sourceKey(itemId, kind, etag), bytes, contentType);
  return { etag, contentType, width, height, source: want.source, from: want.from };
};

/**
 * One picture fetched and stored under its owner's id (an item's, a film collection's): its
 * record, or undefined when no bytes came (gone, or no provider). Throws when they are not an image.
 */
export const fetchPicture = async (c: Collecting, ownerId: string, kind: ArtworkKind, want: Wanted): Promise<StoredArtwork | undefined> => {
  const bytes = await fetchBytes(c, kind, want);
  return bytes ? keep(c, ownerId, kind, want, bytes) : undefined;
};

/** The item with its pictures stored (not written: the caller writes it). */
export const collectArtwork = async (c: Collecting, item: CatalogItem): Promise<CatalogItem> => {
  const artwork = { ...item.artwork };
  let colors: { meshGradientColors: Colors; colorsFrom: string } | undefined;
  for (const [kind, want] of Object.entries(item.artworkWanted ?? {}) as [ArtworkKind, Wanted][]) {
    const have = artwork[kind];
    if (have && have.source === want.source && have.from === want.from) continue;
    try {
      const bytes = await fetchBytes(c, kind, want);
      if (!bytes) continue; // gone since the scan saw it, or no provider: the next scan tries again
      const stored = await keep(c, item.id, kind, want, bytes);
      artwork[kind] = stored;
      c.tally.stored++;
      if (kind === 'poster' && c.meshGradients) colors = { meshGradientColors: await posterColors(bytes), colorsFrom: stored.etag };
    } catch (err) {
      // No room for it is no fault of the picture: the scan pauses and this item is done again.
      if (isDiskFull(err)) throw err;
      c.tally.failed++;
      c.log.warn({ err, itemId: item.id, kind, source: want.source, from: want.from }, 'artwork not usable; skipped');
    }
  }
  // Done once the provider has been asked (its details may still be to come); else the item waits for a scan that can ask it.
  const enrich = !item.providerAsked ? 'local' : item.entity !== 'episode' && item.metadata?.brief ? 'details' : 'done';
  return { ...item, artwork, ...(colors && item.entity !== 'episode' ? colors : {}), enrich };
};

/** What a scan's phases store pictures with; undefined when artwork is off. */
export const scanCollecting = (ctx: ScanContext, keyRefused: boolean): Collecting | undefined =>
  ctx.enrichment.artwork && ctx.artworks
    ? {
        storage: ctx.storage,
        root: ctx.library.path,
        artworks: ctx.artworks,
        provider: keyRefused ? null : ctx.enrichment.provider,
        meshGradients: ctx.enrichment.meshGradients,
        log: ctx.log,
        tally: { stored: 0, failed: 0 },
      }
    : undefined;

/** The items with their wanted pictures stored, CONCURRENCY at a time, in their order. */
export const collectAll = async (c: Collecting, items: CatalogItem[]): Promise<CatalogItem[]> => {
  const collected = new Map<string, CatalogItem>();
  await eachLimited(items, CONCURRENCY, async (item) => void collected.set(item.id, await collectArtwork(c, item)));
  return items.map((i) => collected.get(i.id)!);
};

/** False when the slice ended first. */
export const artwork = async (ctx: ScanContext, planned: Planned, { keyRefused }: { keyRefused: boolean }): Promise<boolean> => {
  const { counts } = ctx;
  const c = scanCollecting(ctx, keyRefused);
  const work: IndexEntry[] = c ? [...planned.entries.values()].filter((e) => e.enrich === 'artwork') : [];
  await ctx.step({ phase: 'artwork', processed: 0, total: work.length, counts }, { persist: work.length > 0 });
  return ctx.inSteps(work, ARTWORK_CHUNK, async (chunk, done) => {
    const before = { ...c!.tally };
    const collected = await collectAll(c!, await ctx.catalog.getMany(chunk.map((e) => e.id)));
    await ctx.catalog.put(collected, { quiet: true });
    recordEnrichment(planned, collected);
    counts.artwork += c!.tally.stored - before.stored;
    counts.failed += c!.tally.failed - before.failed;
    await ctx.step({ phase: 'artwork', processed: done, total: work.length, counts, after: chunk.at(-1)!.id });
  });
};
