// The docs page and its Swagger UI assets, served by the service itself (from the
// swagger-ui-dist package) so the page works on a LAN with no internet.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

// Resolved from the working directory: the project locally, /var/task in Lambda.
const distDir = () => dirname(createRequire(join(process.cwd(), 'noop.js')).resolve('swagger-ui-dist/package.json'));

export interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

const cache = new Map<string, Asset>();
const etagOf = (body: Buffer | string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;

export const DOCS_INIT = `window.onload = () => {
  window.ui = SwaggerUIBundle({
    url: '/api/docs.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

// Ours, not the package's: the script that points Swagger UI at this service's document.
const GENERATED: Record<string, Asset> = {
  'init.js': { body: Buffer.from(DOCS_INIT), contentType: 'text/javascript; charset=utf-8', etag: etagOf(DOCS_INIT) },
};

export const docsAsset = async (name: string): Promise<Asset | undefined> => {
  if (Object.hasOwn(GENERATED, name)) return GENERATED[name];
  const contentType = ASSETS[name];
  if (!contentType) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    const body = await readFile(join(distDir(), name));
    cache.set(name, (asset = { body, contentType, etag: etagOf(body) }));
  }
  return asset;
};

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Media library API</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="stylesheet" href="/api/docs/index.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
  <script src="/api/docs/init.js" charset="UTF-8"></script>
</body>
</html>
`;
