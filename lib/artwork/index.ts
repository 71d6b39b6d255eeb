// The artwork store this process uses, built on first use (a function that never serves or
// stores artwork never touches the disk for it). Cached artwork lives in DATA_DIR/artwork
// next to the database and the logs. With MEDIA_STORAGE=s3 it will live in the media bucket
// instead, once the S3 adapter exists (see store.ts); until then every process uses the disk.
import { join } from 'node:path';
import { config } from '../config';
import { localArtworkStore, type ArtworkStore } from './store';

export { localArtworkStore, sourceKey, variantKeyOf, type ArtworkStore, type StoredBytes } from './store';

let store: ArtworkStore | undefined;

export const artworkStore = (): ArtworkStore => (store ??= localArtworkStore(join(config.dataDir, 'artwork')));
