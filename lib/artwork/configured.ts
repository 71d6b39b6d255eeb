// The artwork store this process uses, built on first use (a function that never serves or
// stores artwork never touches the disk or the bucket for it). At home cached artwork lives in
// DATA_DIR/artwork next to the database and the logs; with MEDIA_STORAGE=s3 under a prefix of
// the media bucket, since a Lambda's disk is an ephemeral /tmp of one instance.
import { join } from 'node:path';
import { config } from '../config';
import { mediaBucketClient } from '../storage';
import type { ArtworkDeps } from './service';
import { bucketArtworkStore, localArtworkStore, type ArtworkStore } from './store';

export { bucketArtworkStore, localArtworkStore, sourceKey, variantKeyOf, type ArtworkStore, type StoredBytes } from './store';

/** Under the media bucket: hidden from scans of a library at the bucket's root. */
export const ARTWORK_PREFIX = '.cache/artwork';

let store: ArtworkStore | undefined;

const configuredStore = (): ArtworkStore => {
  if (config.mediaStorage !== 's3' || !config.s3.bucket) return localArtworkStore(join(config.dataDir, 'artwork'));
  return bucketArtworkStore(mediaBucketClient(), { bucket: config.s3.bucket, prefix: ARTWORK_PREFIX });
};

export const artworkStore = (): ArtworkStore => (store ??= configuredStore());

/** Only with artwork in the bucket, the one store that presigns: answers too large for a Lambda response (or all, ARTWORK_REDIRECT_ABOVE_BYTES=0). */
export const artworkRedirect = (): ArtworkDeps['redirect'] =>
  config.mediaStorage === 's3' && config.s3.bucket
    ? { urlSeconds: config.s3.artworkUrlSeconds, aboveBytes: config.s3.artworkRedirectAboveBytes }
    : undefined;
