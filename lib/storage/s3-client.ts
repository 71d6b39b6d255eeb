// The S3 client of a media bucket (AWS, or another S3-API server with path-style addressing),
// and the HTTP status an SDK error carries: shared by the media storage and the artwork cache.
import { S3Client } from '@aws-sdk/client-s3';

export interface S3ClientOptions {
  region: string;
  /** An S3-API server other than AWS's (s3rver, MinIO); path-style addressing then. */
  endpoint?: string | undefined;
}

export const s3Client = ({ region, endpoint }: S3ClientOptions): S3Client =>
  new S3Client({ region, ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });

export const s3StatusOf = (err: unknown): number | undefined =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
