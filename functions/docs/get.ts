// The docs domain: the interactive page, the OpenAPI document, and the page's assets.
import { operations } from '../../lib/api/operations';
import { buildOpenApi } from '../../lib/api/openapi';
import { config } from '../../lib/config';
import { DOCS_PAGE, docsAsset } from '../../lib/docs/assets';
import { notFound } from '../../lib/errors';
import { http } from '../../lib/http/stack';
import { raw } from '../../lib/http/reply';

let document: string | undefined;

export const page = http(operations.docsPage, async () =>
  raw(200, DOCS_PAGE, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' }),
);

export const json = http(operations.docsJson, async () =>
  raw(200, (document ??= JSON.stringify(buildOpenApi(config.version))), {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-cache',
  }),
);

export const asset = http(operations.docsAsset, async ({ params, event }) => {
  const found = await docsAsset(params.asset);
  if (!found) throw notFound(`Docs asset ${params.asset}`);
  const headers = { 'Content-Type': found.contentType, ETag: found.etag, 'Cache-Control': 'public, max-age=86400' };
  if (event.headers?.['if-none-match'] === found.etag) return raw(304, '', headers);
  const text = found.contentType.startsWith('text/');
  return raw(200, text ? found.body.toString('utf8') : found.body, headers);
});
