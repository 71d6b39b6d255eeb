// Media in an S3 bucket (a cloud deploy, or any S3-API server): a root is `s3://bucket/prefix`,
// discovery lists the keys below it, and a stream is a presigned GET that S3 serves with
// ranges itself, so video bytes never pass through a Lambda.
import { GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { pathNotUsable } from '../errors';
import { IGNORE_MARKER, ignoreReason, isSidecarFile, isVideoFile } from '../naming';
import { ascending } from '../util/order';
import type { DiscoveredFile } from './discover';
import type { LocatedFile, MediaStorage } from './media-storage';
import { s3Client, s3StatusOf as statusOf, type S3ClientOptions } from './s3-client';
import { formatS3Location, keyOf, parseS3Location, s3RelativeTo, type S3Location } from './s3-location';

export interface S3StorageOptions extends S3ClientOptions {
  /** When set, every library must live in this bucket: the service reads no other. */
  bucket?: string | undefined;
}

const byPath = (a: DiscoveredFile, b: DiscoveredFile) => ascending(a.relPath, b.relPath);

export const s3Storage = (options: S3StorageOptions, client: S3Client = s3Client(options)): MediaStorage => {
  const location = (input: string): S3Location => {
    const parsed = parseS3Location(input);
    if (options.bucket && parsed.bucket !== options.bucket) throw pathNotUsable(input, `is not in the media bucket ${options.bucket}`);
    return parsed;
  };

  const listKeys = async function* (root: S3Location, signal?: AbortSignal) {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: root.bucket, Prefix: root.prefix ? `${root.prefix}/` : undefined, ContinuationToken: token }),
        { abortSignal: signal },
      );
      for (const object of page.Contents ?? []) yield object;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  };

  return {
    kind: 's3',

    async canonicalRoot(input) {
      const root = location(input);
      try {
        await client.send(new HeadBucketCommand({ Bucket: root.bucket }));
        // Buckets have no folders: a prefix exists when some object lies below it.
        const probe = await client.send(
          new ListObjectsV2Command({ Bucket: root.bucket, Prefix: root.prefix ? `${root.prefix}/` : undefined, MaxKeys: 1 }),
        );
        if (root.prefix && !probe.KeyCount) throw pathNotUsable(input, 'does not exist (no object below it)');
      } catch (err) {
        if ((err as { status?: number }).status === 422) throw err;
        const status = statusOf(err);
        if (status === 404) throw pathNotUsable(input, 'names a bucket that does not exist');
        if (status === 403) throw pathNotUsable(input, 'cannot be read by the service (access denied)');
        throw pathNotUsable(input, `cannot be reached (${(err as Error).name}${status ? ` ${status}` : ''})`);
      }
      return formatS3Location(root);
    },

    relativeTo: s3RelativeTo,

    async probeRoot(input) {
      const root = location(input);
      try {
        const probe = await client.send(
          new ListObjectsV2Command({ Bucket: root.bucket, Prefix: root.prefix ? `${root.prefix}/` : undefined, MaxKeys: 1 }),
        );
        return { state: 'present', empty: !probe.KeyCount };
      } catch (err) {
        const status = statusOf(err);
        if (status === 404) return { state: 'missing', reason: `The bucket of ${input} does not exist` };
        if (status === 403) return { state: 'unreadable', reason: `${input} cannot be read (access denied)` };
        // Not the root's fault (the network, S3 itself): the scan fails as a dependency would.
        throw err;
      }
    },

    async discover(input, signal) {
      const root = location(input);
      const strip = root.prefix ? root.prefix.length + 1 : 0;
      const found: DiscoveredFile[] = [];
      const sidecars: DiscoveredFile[] = [];
      const ignoredFolders: string[] = [];
      for await (const object of listKeys(root, signal)) {
        const relPath = object.Key!.slice(strip);
        if (relPath.endsWith(`/${IGNORE_MARKER}`) || relPath === IGNORE_MARKER)
          ignoredFolders.push(relPath.slice(0, -IGNORE_MARKER.length));
        if (!relPath || relPath.endsWith('/') || ignoreReason(relPath) !== undefined) continue;
        const file = { relPath, size: object.Size ?? 0, mtimeMs: object.LastModified?.getTime() ?? 0 };
        if (isSidecarFile(relPath)) sidecars.push(file);
        if (isVideoFile(relPath)) found.push(file);
      }
      // The marker rule of local folders: everything below a folder holding `.ignore` is skipped.
      const visible = (relPath: string) => !ignoredFolders.some((folder) => relPath.startsWith(folder));
      return {
        files: found.filter((f) => visible(f.relPath)).sort(byPath),
        sidecars: sidecars.filter((f) => visible(f.relPath)).sort(byPath),
        // A listing either answers whole or fails: no part of it goes unseen.
        unreadable: [],
      };
    },

    async locate(input, relPath) {
      const root = location(input);
      if (relPath.split('/').some((s) => s === '..' || s === '.' || s === '')) return undefined;
      const key = keyOf(root, relPath);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: root.bucket, Key: key }));
        return {
          object: { bucket: root.bucket, key },
          size: head.ContentLength ?? 0,
          mtimeMs: head.LastModified?.getTime() ?? 0,
        } satisfies LocatedFile;
      } catch (err) {
        if (statusOf(err) === 404 || statusOf(err) === 403) return undefined;
        throw err;
      }
    },

    async byteSource(input, relPath) {
      const located = await this.locate(input, relPath);
      if (!located?.object) return undefined;
      const { bucket, key } = located.object;
      // Each read is one ranged GET: a probe asks for a few ranges of the file, never all of it.
      return {
        size: located.size,
        read: async (offset: number, length: number) => {
          const end = Math.min(located.size, offset + length) - 1;
          if (end < offset) return new Uint8Array(0);
          const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${offset}-${end}` }));
          return out.Body!.transformToByteArray();
        },
        close: async () => undefined,
      };
    },

    async readRange(file, start, end) {
      if (!file.object) throw new Error('not an object in a bucket');
      if (end < start) return Buffer.alloc(0);
      const out = await client.send(
        new GetObjectCommand({ Bucket: file.object.bucket, Key: file.object.key, Range: `bytes=${start}-${end}` }),
      );
      return Buffer.from(await out.Body!.transformToByteArray());
    },

    async readSmall(input, relPath, maxBytes) {
      const located = await this.locate(input, relPath);
      if (!located?.object || located.size > maxBytes) return undefined;
      const out = await client.send(new GetObjectCommand({ Bucket: located.object.bucket, Key: located.object.key }));
      return Buffer.from(await out.Body!.transformToByteArray());
    },

    async signedUrl(file, { contentType, expiresInSeconds }) {
      if (!file.object) throw new Error('not an object in a bucket');
      const command = new GetObjectCommand({ Bucket: file.object.bucket, Key: file.object.key, ResponseContentType: contentType });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },
  };
};
