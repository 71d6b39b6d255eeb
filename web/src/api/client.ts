// The service's API, typed by the types generated from its own OpenAPI document
// (infra/web-build.ts). Same origin: the page is served by the box it talks to.
import createClient, { createQuerySerializer } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export const api = createClient<paths>({ baseUrl: '' });

/** The profile this device watches as (ui/profiles.ts chooses it); `default` until it has. */
let profileId = 'default';
export const currentProfileId = () => profileId;
export const setProfileId = (id: string) => {
  profileId = id;
};

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** The operation when it answers for a profile (takes ?profileId=), else never. */
type ForProfile<Op> = Op extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? never
    : 'profileId' extends keyof NonNullable<Q>
      ? Op
      : never
  : never;
/** The API with only the operations that take ?profileId= (lists, details, search, watch state). */
type ProfilePaths = {
  [P in keyof paths as [ForProfile<paths[P][Method]>] extends [never] ? never : P]: {
    [K in keyof paths[P] as K extends Method ? ([ForProfile<paths[P][K]>] extends [never] ? never : K) : never]: paths[P][K];
  };
};

const query = createQuerySerializer();
/**
 * The API for what depends on who is watching: every request carries the device's profile
 * (one an operation names itself wins), so screens never add it; only operations that take it
 * can be called through it, so it is never sent where the service would refuse it.
 */
export const profileApi = createClient<ProfilePaths>({
  baseUrl: '',
  querySerializer: (q: Record<string, unknown>) => query({ profileId, ...q }),
});

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
export type UserData = components['schemas']['WsEvent_userdata_changed']['userData'];
export type Profile = operations['listProfiles']['responses'][200]['content']['application/json']['data'][number];
/** A row of Continue watching or Next up: a film, or an episode with its show as `media`. */
export type WatchEntry = operations['continueWatching']['responses'][200]['content']['application/json']['data'][number];
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
export const asApiError = (error: unknown, title: string) =>
  error instanceof ApiError ? error : new ApiError(0, title, String(error), null);

const problemOf = (error: unknown): Partial<Problem> => (error && typeof error === 'object' ? error : {});

/** The data of a successful answer, or an ApiError with the problem's title and detail. */
export const unwrap = async <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> => {
  let answer: Awaited<typeof call>;
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'The box cannot be reached', 'Check that it is on and on this network, then try again.', null);
  }
  const { data, error, response } = answer;
  // 204 No Content (a profile deleted) has no data to give: undefined is its whole answer.
  if (response.ok && (data !== undefined || response.status === 204)) return data as T;
  const problem = problemOf(error);
  const retry = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    problem.title ?? response.statusText,
    problem.detail ?? '',
    Number.isFinite(retry) && retry > 0 ? retry : null,
  );
};
