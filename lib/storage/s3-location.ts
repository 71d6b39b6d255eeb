// A library root in a bucket, written `s3://bucket/prefix`: parsed, and put in one canonical
// form (no trailing or doubled slashes) so one place is one library.
import { pathNotUsable } from '../errors';

export interface S3Location {
  bucket: string;
  /** Without leading or trailing slash; '' for the whole bucket. */
  prefix: string;
}

// S3's own bucket naming rules (lowercase letters, digits, dots, hyphens; 3-63 characters).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const parseS3Location = (input: string): S3Location => {
  const match = /^s3:\/\/([^/]+)(\/.*)?$/.exec(input.trim());
  if (!match) throw pathNotUsable(input, 'is not an s3://bucket/prefix location (media storage is S3)');
  const bucket = match[1]!;
  if (!BUCKET.test(bucket)) throw pathNotUsable(input, `names an invalid bucket "${bucket}"`);
  const segments = (match[2] ?? '').split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) throw pathNotUsable(input, 'contains . or .. segments');
  if (input.includes('\0')) throw pathNotUsable(JSON.stringify(input), 'contains a NUL character');
  return { bucket, prefix: segments.join('/') };
};

export const formatS3Location = ({ bucket, prefix }: S3Location) => `s3://${bucket}${prefix ? `/${prefix}` : ''}`;

/** The key of a library-relative path. */
export const keyOf = (root: S3Location, relPath: string) => (root.prefix ? `${root.prefix}/${relPath}` : relPath);

/** `inner` relative to `outer` when inside it ('' for the same place), else undefined. */
export const s3RelativeTo = (outer: string, inner: string): string | undefined => {
  const a = parseS3Location(outer);
  const b = parseS3Location(inner);
  if (a.bucket !== b.bucket) return undefined;
  if (a.prefix === b.prefix) return '';
  if (a.prefix === '') return b.prefix;
  return b.prefix.startsWith(`${a.prefix}/`) ? b.prefix.slice(a.prefix.length + 1) : undefined;
};
