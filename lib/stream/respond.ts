// What a stream request gets, decided from the file and the request headers alone (RFC 9110):
// 304 for a current If-None-Match, 206 for one satisfiable range (the first, when several are
// asked for), 416 for none, 200 with the whole file otherwise (also when If-Range names an
// older version, or the Range header is malformed, which RFC 9110 says to ignore).
import parseRange from 'range-parser';
import { rangeNotSatisfiable } from '../errors';
import { ifNoneMatchHolds } from '../util/etag';
import type { StreamTarget } from './resolve';

export interface StreamRequest {
  method: 'GET' | 'HEAD';
  range?: string | undefined;
  ifRange?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: string | undefined;
}

export interface StreamAnswer {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  /** The bytes to send, inclusive; absent for 304. */
  bytes?: { start: number; end: number };
}

/** If-Range holds when it names this version: the strong ETag, or exactly the Last-Modified date. */
const ifRangeHolds = (header: string | undefined, target: StreamTarget) => {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === target.etag;
  return value === target.lastModified;
};

const RANGE_SPEC = /^\s*(?:(\d+)-(\d*)|-(\d+))\s*$/;

/** RFC 9110's byte-ranges-specifier: first-last (first <= last), first-, or -suffix, comma-separated. */
const wellFormed = (header: string) => {
  const specs = /^bytes=(.+)$/.exec(header.trim())?.[1];
  return (
    specs !== undefined &&
    specs.split(',').every((spec) => {
      const m = RANGE_SPEC.exec(spec);
      return m !== null && !(m[1] !== undefined && m[2] !== '' && Number(m[2]) < Number(m[1]));
    })
  );
};

export const answerStream = (target: StreamTarget, req: StreamRequest): StreamAnswer => {
  const headers: Record<string, string> = {
    'Content-Type': target.contentType,
    'Accept-Ranges': 'bytes',
    ETag: target.etag,
    'Last-Modified': target.lastModified,
    'Cache-Control': 'private, no-cache',
  };
  const notModified =
    req.ifNoneMatch !== undefined
      ? ifNoneMatchHolds(req.ifNoneMatch, target.etag)
      : req.ifModifiedSince !== undefined && Date.parse(req.ifModifiedSince) >= Date.parse(target.lastModified);
  if (notModified) return { status: 304, headers };

  const whole = (): StreamAnswer => ({
    status: 200,
    headers: { ...headers, 'Content-Length': String(target.size) },
    bytes: { start: 0, end: target.size - 1 },
  });
  if (req.range === undefined || !ifRangeHolds(req.ifRange, target)) return whole();
  // A suffix longer than the file means all of it (RFC 9110 14.1.2); range-parser calls it unsatisfiable.
  const suffix = /^bytes=\s*-(\d+)\s*$/.exec(req.range);
  const header = suffix && Number(suffix[1]) > target.size && target.size > 0 ? 'bytes=0-' : req.range;
  // Malformed (bytes=9-2, bytes=abc) or another unit: the header is ignored.
  if (!wellFormed(header)) return whole();
  const ranges = parseRange(target.size, header, { combine: true });
  if (ranges === -2 || (ranges !== -1 && ranges.type !== 'bytes')) return whole();
  if (ranges === -1 || ranges.length === 0) throw rangeNotSatisfiable(target.size);
  const { start, end } = ranges[0]!;
  return {
    status: 206,
    headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${target.size}`, 'Content-Length': String(end - start + 1) },
    bytes: { start, end },
  };
};
