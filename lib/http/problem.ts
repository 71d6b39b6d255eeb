// Renders RFC 9457 problem+json. The HTTP stack's problemDetails() and the local front door
// both render through here, so every error body in the service has one shape.
import { AppError, internal } from '../errors';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  requestId: string;
  errors?: { field: string; message: string }[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
export const problemType = (code: string) => `/problems/${code}`;

/** Typed errors keep their detail; anything else becomes a bare 500 that reveals nothing. */
export const toProblem = (err: unknown, instance: string, requestId: string): ProblemBody => {
  const e = err instanceof AppError ? err : internal();
  return {
    type: problemType(e.code),
    title: e.title,
    status: e.status,
    detail: e.message,
    instance,
    requestId,
    ...(e.fields?.length ? { errors: e.fields } : {}),
  };
};

/** Headers some problems carry besides their body. */
export const problemHeaders = (err: unknown): Record<string, string> => {
  const headers: Record<string, string> = { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store' };
  if (err instanceof AppError) {
    const extra = err as AppError & { retryAfterSeconds?: number; allowed?: string[]; contentRange?: string };
    if (extra.retryAfterSeconds !== undefined) headers['Retry-After'] = String(extra.retryAfterSeconds);
    if (extra.allowed) headers['Allow'] = extra.allowed.join(', ');
    if (extra.contentRange) headers['Content-Range'] = extra.contentRange;
  }
  return headers;
};
