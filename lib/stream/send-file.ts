// The internal redirect between a stream handler and the local front door (nginx's
// X-Accel-Redirect, the local twin of a presigned S3 URL): the handler answers with status
// and headers and names the file and byte range in this header; the front door strips it
// and sends those bytes itself. Only the handlers, behind the front door on loopback, can set it.
import type { LocalStreamTarget } from './resolve';

export const SEND_FILE_HEADER = 'X-Send-File';

/** How long the front door may serve ranges of a stream URL on the handler's word. */
export const GRANT_SECONDS = 60;

/**
 * serverless-offline's HTTP server (hapi) applies a request's Range to any 200 answer itself
 * and turns an ignored Range into its own 416; the front door hands the header over under
 * this name so that only the handler reads it.
 */
export const FORWARDED_RANGE_HEADER = 'x-front-door-range';

export interface SendFile {
  path: string;
  /** Inclusive byte range. */
  start: number;
  end: number;
  /** A HEAD request: headers only. */
  head: boolean;
  /**
   * The handler's grant, like a presigned URL's: for this long, further range requests for
   * the same URL from the same origin may be answered by the front door from this target
   * (while the file keeps its size and mtime) without asking the handler again.
   */
  grant?: { target: LocalStreamTarget; seconds: number };
}

export const parseSendFile = (value: string): SendFile | undefined => {
  try {
    const v = JSON.parse(value) as Partial<SendFile>;
    if (typeof v.path !== 'string' || !Number.isInteger(v.start) || !Number.isInteger(v.end) || typeof v.head !== 'boolean')
      return undefined;
    if (v.grant !== undefined && (typeof v.grant.target?.path !== 'string' || typeof v.grant.seconds !== 'number')) return undefined;
    return v as SendFile;
  } catch {
    return undefined;
  }
};
