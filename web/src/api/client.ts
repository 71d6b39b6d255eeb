// The service's API, typed by the types generated from its own OpenAPI document
// (infra/web-build.ts). Same origin: the page is served by the box it talks to.
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export const api = createClient<paths>({ baseUrl: '' });

export type MediaEntry = components['schemas']['MediaEntry'];
export type Media = components['schemas']['Media'];
export type MovieDetail = components['schemas']['MovieDetail'];
export type ShowDetail = components['schemas']['ShowDetail'];
/** A provider record that may be a film or a show (a show's is shaped the same). */
export type MatchCandidate = operations['movieCandidates']['responses'][200]['content']['application/json']['data'][number];
export type SubtitleTrack = components['schemas']['SubtitleTrack'];
export type Library = components['schemas']['Library'];
export type ScanJob = components['schemas']['ScanJob'];
export type Settings = components['schemas']['Settings'];
export type SettingsPatch = components['schemas']['SettingsPatch'];
type Problem = components['schemas']['Problem'];

/** An answer that is not a success, as the service explains it (application/problem+json). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    /** Seconds to wait before trying again (429, 503), from Retry-After. */
    readonly retryAfter: number | null,
  ) {
    super(detail || title);
  }
}

/** Any failure as an ApiError, for a screen to show in words; `title` names what did not work. */
export const asApiError = (error: unknown, title: string) => (error instanceof ApiError ? error : new ApiError(0, title, String(error), null));

const problemOf = (error: unknown): Partial<Problem> => (error && typeof error === 'object' ? (error as Partial<Problem>) : {});

/** The data of a successful answer, or an ApiError with the problem's title and detail. */
export const unwrap = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
  let answer: Awaited<typeof call>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'The box cannot be reached', 'Check that it is on and on this network, then try again.', null);
  }
  const { data, error, response } = answer;
  if (response.ok && data !== undefined) return data;
  const problem = problemOf(error);
  const retry = Number(response.headers.get('retry-after'));
  throw new ApiError(response.status, problem.title ?? response.statusText, problem.detail ?? '', Number.isFinite(retry) && retry > 0 ? retry : null);
};
