// Every operation of the contract, once. Handlers validate against these definitions, the
// OpenAPI document is rendered from them, and the catch-all route answers 404/405/501 from
// them, so the docs, the routing and the behaviour cannot drift apart.
import { Type } from '@sinclair/typebox';
import { catalogOperations } from './catalog-operations';
import { libraryOperations } from './library-operations';
import { matchingOperations } from './matching-operations';
import { mediaOperations, streamOperations } from './media-operations';
import { op, type OperationDef } from './operation-def';
import * as S from './schemas';
import { watchingOperations } from './watching-operations';

export type { HttpMethod, OperationDef } from './operation-def';

const movieMatching = matchingOperations('movie');
const showMatching = matchingOperations('tvshow');

export const operations = {
  ...catalogOperations,
  ...streamOperations,
  ...libraryOperations,
  getSettings: op({
    id: 'getSettings',
    method: 'GET',
    path: '/api/v1/settings',
    tag: 'settings',
    counted: true,
    handler: 'functions/settings/get.handler',
    summary: 'Settings (the TMDB key itself is never returned)',
    success: { status: 200, description: 'Settings', schema: S.Settings },
  }),
  patchSettings: op({
    id: 'patchSettings',
    method: 'PATCH',
    path: '/api/v1/settings',
    tag: 'settings',
    counted: true,
    handler: 'functions/settings/patch.handler',
    summary: 'Update part of the settings',
    description: 'A partial settings object; `metadata.tmdbApiKey` sets the key (null removes it). Unknown keys or wrong types: 400.',
    body: S.SettingsPatch,
    bodyRequired: true,
    success: { status: 200, description: 'Settings after the update', schema: S.Settings },
  }),
  listLogs: op({
    id: 'listLogs',
    method: 'GET',
    path: '/api/v1/logs',
    tag: 'logs',
    counted: true,
    handler: 'functions/logs/list.handler',
    summary: 'Recent log records, newest first, secrets redacted',
    query: S.LogsQuery,
    success: { status: 200, description: 'Log records', schema: Type.Array(S.LogRecord), list: true },
  }),
  health: op({
    id: 'health',
    method: 'GET',
    path: '/api/v1/health',
    tag: 'health',
    counted: false,
    handler: 'functions/health/get.handler',
    summary: 'Service health; 503 with the same body when the database is down',
    description:
      '`status` is `degraded` when the database is down (then the answer is 503) or when the disk holding the data folder is low on space (`disk.state` `low`, still 200: every read works, writes that find no room answer 507). `reasons` says why in words. The same state is pushed as `system:status` on /ws when it changes.',
    success: { status: 200, description: 'Healthy or degraded by a low disk (503 when the database is down)', schema: S.Health },
  }),
  ...mediaOperations,
  movieCandidates: movieMatching.candidates,
  matchMovie: movieMatching.match,
  unmatchMovie: movieMatching.unmatch,
  refreshMovie: movieMatching.refresh,
  showCandidates: showMatching.candidates,
  matchShow: showMatching.match,
  unmatchShow: showMatching.unmatch,
  refreshShow: showMatching.refresh,
  providerImage: op({
    id: 'providerImage',
    method: 'GET',
    path: '/api/v1/provider-images/{file}',
    tag: 'matching',
    counted: false,
    handler: 'functions/matching/api.providerImage',
    summary: "A candidate's poster, fetched from the provider by the service",
    description:
      "The poster a candidate's `posterUrl` names, 185 px wide, fetched from the provider's image host by the service (a browser on the LAN may not reach it, and no key ever appears in a URL) and kept for a while in memory. `Cache-Control: public, max-age=86400`. 404 when the provider has no such image; 409 `provider-not-configured` or 424 `provider-unavailable` as for candidates. Not counted by the rate limit.",
    params: S.ProviderImageParams,
    errors: [404, 409, 424],
    success: { status: 200, description: 'The image (image/jpeg or image/png)', contentType: 'image/jpeg' },
  }),
  ...watchingOperations,
  docsPage: op({
    id: 'docsPage',
    method: 'GET',
    path: '/api/docs',
    tag: 'docs',
    counted: false,
    handler: 'functions/docs/get.page',
    summary: 'Interactive API documentation (works offline)',
    success: { status: 200, description: 'HTML page', contentType: 'text/html' },
  }),
  docsJson: op({
    id: 'docsJson',
    method: 'GET',
    path: '/api/docs.json',
    tag: 'docs',
    counted: false,
    handler: 'functions/docs/get.json',
    summary: 'This OpenAPI document',
    success: { status: 200, description: 'OpenAPI 3.1 document', contentType: 'application/json' },
  }),
  docsAsset: op({
    id: 'docsAsset',
    method: 'GET',
    path: '/api/docs/{asset}',
    tag: 'docs',
    counted: false,
    handler: 'functions/docs/get.asset',
    undocumented: true,
    summary: 'Assets of the docs page',
    params: Type.Object({ asset: Type.String({ pattern: '^[A-Za-z0-9._-]+$' }) }),
    errors: [404],
    success: { status: 200, description: 'A static asset' },
  }),
} as const satisfies Record<string, OperationDef>;

export type OperationId = keyof typeof operations;
export const allOperations: OperationDef[] = Object.values(operations);
