// The service's own URLs handed to clients, absolute from the address the client used.
import type { ArtworkKind, StoredArtwork } from '../artwork/model';

export const streamUrl = (origin: string, mediaId: string) => `${origin}/api/v1/stream/${encodeURIComponent(mediaId)}`;

export const subtitleUrl = (origin: string, mediaId: string, trackId: string) =>
  `${origin}/api/v1/subtitles/${encodeURIComponent(mediaId)}/${encodeURIComponent(trackId)}`;

/** The artwork endpoint's URL for a stored picture; `v` changes with the picture, so clients may cache it for good. */
export const artworkUrl = (origin: string, id: string, kind: ArtworkKind, art: StoredArtwork | undefined): string | null =>
  art ? `${origin}/api/v1/artwork/${encodeURIComponent(id)}/${kind}?v=${art.etag}` : null;
