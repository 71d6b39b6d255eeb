// Where the media files live, behind one port: folders on this machine (a home box) or a
// bucket (a cloud deploy). Libraries, scans and streams speak only to this interface; a
// library's `path` is whatever the adapter calls a root (an absolute folder, `s3://bucket/prefix`).
import type { ClosableByteSource } from './byte-source';
import type { DiscoveredTree } from './discover';

/** A file of a library as it is now, checked to be there and inside its library's root. */
export interface LocatedFile {
  size: number;
  mtimeMs: number;
  /** Local storage: the canonical path on disk (symlinks resolved). */
  path?: string;
  /** Object storage: where the object is. */
  object?: { bucket: string; key: string };
}

/**
 * What a library's root looks like right now. A root that is gone, cannot be read, or is empty
 * (an unmounted disk leaves its empty mount point) may be offline rather than emptied.
 */
export type RootProbe = { state: 'present'; empty: boolean } | { state: 'missing' | 'unreadable'; reason: string };

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** The canonical form of a library location a user typed, or a 422 problem saying why not. */
  canonicalRoot(input: string): Promise<string>;
  /** `inner` relative to `outer` ('' when the same, `/`-separated) when inside it, else undefined. */
  relativeTo(outer: string, inner: string): string | undefined;
  /** Whether a library's root is there and readable, and whether it holds anything; never throws for the root's own faults. */
  probeRoot(root: string): Promise<RootProbe>;
  /** Every video file below a root that the naming rules keep, and the NFO and image files beside them, in path order. */
  discover(root: string, signal?: AbortSignal): Promise<DiscoveredTree>;
  /** Random access to a file's bytes (media probing reads a few ranges of it); undefined when gone. */
  byteSource(root: string, relPath: string): Promise<ClosableByteSource | undefined>;
  /** A small file of a library (an NFO, a local image), at most `maxBytes`; undefined when gone or larger. */
  readSmall(root: string, relPath: string, maxBytes: number): Promise<Buffer | undefined>;
  /** The file behind a library-relative path, or undefined when it is gone or leads outside the root. */
  locate(root: string, relPath: string): Promise<LocatedFile | undefined>;
  /** Bytes `start` to `end` (inclusive) of a located file: fewer when it has shrunk since. */
  readRange(file: LocatedFile, start: number, end: number): Promise<Buffer>;
  /**
   * A short-lived URL that serves the file's bytes with ranges by itself (a presigned URL);
   * undefined where the service sends the bytes.
   */
  signedUrl?(file: LocatedFile, options: { contentType: string; expiresInSeconds: number }): Promise<string>;
}
