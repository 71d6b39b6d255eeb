// The pictures an item can have and what the artwork store keeps of each: the one place these
// shapes are declared (the catalogue's items carry them, the scan fills them in, the artwork
// endpoint serves them).
import type { Static } from '@sinclair/typebox';
import type { ArtworkKind as ArtworkKindSchema } from '../api/schemas';

export type ArtworkKind = Static<typeof ArtworkKindSchema>;

export interface StoredArtwork {
  /** Content hash of the source bytes: names the stored copy and its variants, and is the ETag's base. */
  etag: string;
  contentType: string;
  width: number;
  height: number;
  /** Where the bytes came from: a file next to the video (library-relative) or a provider image path. */
  source: 'local' | 'provider';
  from: string;
}

export type ArtworkSet = Partial<Record<ArtworkKind, StoredArtwork>>;

/** Where an item's artwork should come from: decided by the metadata phase, fetched by the artwork phase. */
export type ArtworkWanted = Partial<Record<ArtworkKind, Pick<StoredArtwork, 'source' | 'from'>>>;
