// Where artwork bytes live: each item's stored source images (a poster copied from the
// provider or from the user's folder) and the variants rendered from them on demand. The
// port is three calls; the keys are built here and only here, so no caller can name a path.
//
// Layout (the same key is an object key in a bucket and a relative path on disk):
//   <mediaId>/<kind>-<etag>/source               the stored source, as it was validated
//   <mediaId>/<kind>-<etag>/<variantKey>         e.g. poster-w320-r1.webp
// A new source has a new etag, hence a new folder: its variants can never be mistaken for
// the old one's, and removeAll(mediaId) drops everything an item ever had.
//
// Two adapters: files under DATA_DIR/artwork at home, and objects under a prefix of the media
// bucket in the cloud (MEDIA_STORAGE=s3), where a Lambda has no disk that lasts. The bucket
// keeps the content type as the object's Content-Type; the disk sniffs it from the bytes. Only
// the bucket can hand out a URL that serves its bytes without the service (a presigned GET).
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isId } from '../api/schemas/common';
import { diskFull } from '../errors';
import { isNoSpace } from '../util/disk-space';
import { writeWhole } from '../util/write-whole';
import { s3StatusOf } from '../storage/s3-client';
import type { ArtworkKind } from './model';
import { sniffImage, variantKey, type ImageFormat, type OutputFormat } from './variants';

export interface StoredBytes {
  bytes: Buffer;
  contentType: string;
}

export interface ArtworkStore {
  /** Stores the bytes under the key, replacing what was there; never visible half-written. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes and the content type they were put with, or undefined when the key holds nothing. */
  get(key: string): Promise<StoredBytes | undefined>;
  /** Everything stored for one item (sources and variants); nothing stored is not an error. */
  removeAll(mediaId: string): Promise<void>;
  /**
   * Gives back the space of every rendered variant and stray temporary file (variants are
   * rendered again when asked for; sources stay): the bytes freed. Only where space can run out.
   */
  dropVariants?(): Promise<number>;
  /**
   * A URL anyone may GET for `expiresInSeconds`, serving the key's bytes with the content type
   * they were put with, or undefined when the key holds nothing. Only where the bytes can be
   * served without this service (a bucket); absent on the disk.
   */
  presignedUrl?(key: string, expiresInSeconds: number): Promise<string | undefined>;
}

/**
 * Everything stored for these items. Called after the items themselves are gone: a removal cut
 * short leaves unused files in the cache, never an item whose pictures are missing.
 */
export const removeArtworkOf = async (store: ArtworkStore | undefined, mediaIds: readonly string[]): Promise<void> => {
  if (!store) return;
  await Promise.all(mediaIds.map((id) => store.removeAll(id)));
};

/** A key or key part that could name something outside the store: a bug in the caller, never user input. */
export class ArtworkKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

// ---- keys ----------------------------------------------------------------------------------
/** A content hash, hex or base64url: it names a folder and goes into an ETag as it is. */
const ETAG = /^[A-Za-z0-9_-]{1,128}$/;
const KINDS: readonly ArtworkKind[] = ['poster', 'backdrop', 'still'];
/** A whole key: segments of safe characters, none empty, none starting with a dot ('.', '..', temp files). */
const KEY = /^[A-Za-z0-9_-]{1,128}(\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}){1,4}$/;

const checkMediaId = (mediaId: string) => {
  // Catalogue ids: the route's own shape (lib/api/schemas/common.ts), checked again here.
  if (!isId(mediaId)) throw new ArtworkKeyError(`Not a media id: ${JSON.stringify(mediaId)}`);
  return mediaId;
};

const folderOf = (mediaId: string, kind: ArtworkKind, etag: string) => {
  checkMediaId(mediaId);
  if (!KINDS.includes(kind)) throw new ArtworkKeyError(`Not an artwork kind: ${JSON.stringify(kind)}`);
  if (!ETAG.test(etag)) throw new ArtworkKeyError(`Not an artwork etag: ${JSON.stringify(etag)}`);
  return `${mediaId}/${kind}-${etag}`;
};

/** The stored source of an item's poster, backdrop or still. */
export const sourceKey = (mediaId: string, kind: ArtworkKind, etag: string): string => `${folderOf(mediaId, kind, etag)}/source`;

export interface VariantSpec {
  /** A snapped width (snapWidth), or null for the original size. */
  width: number | null;
  format: OutputFormat;
}

/** A variant rendered from that source (its file name is variants.ts's variantKey). */
export const variantKeyOf = (mediaId: string, kind: ArtworkKind, etag: string, variant: VariantSpec): string =>
  `${folderOf(mediaId, kind, etag)}/${variantKey(kind, variant.width, variant.format)}`;

const checkKey = (key: string) => {
  if (!KEY.test(key)) throw new ArtworkKeyError(`Not an artwork key: ${JSON.stringify(key)}`);
  return key;
};

const CONTENT_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** Both adapters keep images only, under the type their bytes show: what get answers is then always what put was given. */
const checkImage = (key: string, bytes: Buffer, contentType: string) => {
  const format = sniffImage(bytes);
  if (!format || CONTENT_TYPES[format] !== contentType) {
    throw new Error(
      `The artwork store keeps images under their own type: ${key} was given ${contentType} for ${format ?? 'bytes that are no image'}`,
    );
  }
};

// ---- the local-disk adapter ------------------------------------------------------------------

/**
 * The store as files under `root` (the service passes DATA_DIR/artwork). A file holds the
 * image bytes only, so the cache can be looked at with any image viewer; its content type is
 * read back from the bytes' signature. That is why put accepts images only, and only under
 * the type their bytes show: what get answers is then always what put was given.
 *
 * Writes go to a temporary file in the same folder, are flushed to disk, then renamed over
 * the key: a reader sees the old file or the whole new one, and a crash (even a power cut)
 * leaves at most a stray temporary file, whose name no key can have, never half an image
 * under a key. Two writers of one key both write whole files; the last rename wins.
 */
export const localArtworkStore = (root: string): ArtworkStore => {
  const base = resolve(root);

  const pathOf = (key: string) => {
    const path = resolve(base, checkKey(key));
    // The key pattern already rules out '..' and absolute paths; this holds even if it changes.
    const rel = relative(base, path);
    if (!rel || rel.startsWith('..') || rel.split(sep).includes('..')) throw new ArtworkKeyError(`Key escapes the store: ${key}`);
    return path;
  };

  return {
    async put(key, bytes, contentType) {
      const path = pathOf(key);
      checkImage(key, bytes, contentType);
      try {
        await mkdir(dirname(path), { recursive: true });
        await writeWhole(path, bytes);
      } catch (error) {
        throw isNoSpace(error) ? diskFull(base) : error;
      }
    },

    async get(key) {
      let bytes: Buffer;
      try {
        bytes = await readFile(pathOf(key));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
        throw error;
      }
      const format = sniffImage(bytes);
      return { bytes, contentType: format ? CONTENT_TYPES[format] : 'application/octet-stream' };
    },

    async removeAll(mediaId) {
      await rm(join(base, checkMediaId(mediaId)), { recursive: true, force: true });
    },

    async dropVariants() {
      let freed = 0;
      const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
      for (const item of await list(base)) {
        for (const folder of await list(join(base, item))) {
          for (const name of await list(join(base, item, folder))) {
            if (name === 'source') continue;
            const path = join(base, item, folder, name);
            const size = await stat(path).then(
              (s) => s.size,
              () => 0,
            );
            await rm(path, { force: true });
            freed += size;
          }
        }
      }
      return freed;
    },
  };
};

// ---- the bucket adapter ----------------------------------------------------------------------
export interface BucketOptions {
  bucket: string;
  /**
   * Where the keys go in the bucket. It starts with a dot, so a library at the bucket's root
   * never walks into it (hidden folders are skipped by the naming rules).
   */
  prefix: string;
}

const isMissing = (error: unknown) => {
  const name = (error as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound' || s3StatusOf(error) === 404;
};

/**
 * The store as objects `<prefix>/<key>` of the media bucket. A PUT replaces an object whole, so
 * a reader sees the old bytes or the new ones; the Content-Type is the one put was given.
 */
export const bucketArtworkStore = (client: S3Client, { bucket, prefix }: BucketOptions): ArtworkStore => {
  const objectKey = (key: string) => `${prefix}/${checkKey(key)}`;
  return {
    async put(key, bytes, contentType) {
      checkImage(key, bytes, contentType);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: bytes, ContentType: contentType }));
    },

    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        const bytes = Buffer.from(await object.Body!.transformToByteArray());
        return { bytes, contentType: object.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async presignedUrl(key, expiresInSeconds) {
      const Key = objectKey(key);
      try {
        // A URL of a missing object would be a 404 from S3 that the caller could not fall back from.
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      // A key names its bytes for good (a content hash, the variant, the render version), so
      // whoever fetched them may keep them as long as the URL stays valid.
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key,
        ResponseCacheControl: `private, max-age=${expiresInSeconds}, immutable`,
      });
      return getSignedUrl(client, command, { expiresIn: expiresInSeconds });
    },

    async removeAll(mediaId) {
      const folder = `${prefix}/${checkMediaId(mediaId)}/`;
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: folder, ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
};
