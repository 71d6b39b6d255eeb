// The media storage this process uses, chosen by MEDIA_STORAGE.
import { config } from '../config';
import { localMediaStorage } from './local';
import type { MediaStorage } from './media-storage';
import { s3Storage } from './s3';

export type { LocatedFile, MediaStorage } from './media-storage';

export const configuredStorage = (): MediaStorage =>
  config.mediaStorage === 's3'
    ? s3Storage({ region: config.db.region, endpoint: config.s3.endpoint, bucket: config.s3.bucket })
    : localMediaStorage({ dataDir: config.dataDir, limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth } });
