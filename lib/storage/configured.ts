// The media storage this process uses, chosen by MEDIA_STORAGE.
import type { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { localMediaStorage } from './local';
import type { MediaStorage } from './media-storage';
import { s3Storage } from './s3';
import { s3Client } from './s3-client';

export type { LocatedFile, MediaStorage } from './media-storage';

let bucketClient: S3Client | undefined;
/** One client per process for the media bucket: the media and the artwork cache share it. */
export const mediaBucketClient = (): S3Client => (bucketClient ??= s3Client({ region: config.db.region, endpoint: config.s3.endpoint }));

export const configuredStorage = (): MediaStorage =>
  config.mediaStorage === 's3'
    ? s3Storage({ region: config.db.region, endpoint: config.s3.endpoint, bucket: config.s3.bucket }, mediaBucketClient())
    : localMediaStorage({ dataDir: config.dataDir, limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth } });
