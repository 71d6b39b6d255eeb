// The API documents itself from the same schemas that validate requests: the page works
// with no internet, the document lints clean, and a client generated from it is typed
// correctly and talks to the running service.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { allOperations } from '../../lib/api/operations';
import { PROJECT_DIR } from '../../infra/project';
import { call, stack } from '../support/stack';

describe('docs', () => {
  it('serves an interactive page whose every asset comes from the service itself', async () => {
    const page = await call('GET', '/api/docs');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(refs.length >= 4, refs.join());
    for (const ref of refs) {
      assert.match(ref, /^\/api\/docs\//, `${ref} must be served locally`);
      const asset = await call('GET', ref);
      assert.equal(asset.status, 200, ref);
      assert.ok(asset.text.length > 0, ref);
    }
    const bundle = await call('GET', '/api/docs/swagger-ui-bundle.js');
    assert.match(String(bundle.headers['content-type']), /javascript/);
    assert.ok(bundle.headers.etag);
    assert.equal(
      (await call('GET', '/api/docs/swagger-ui-bundle.js', { headers: { 'if-none-match': String(bundle.headers.etag) } })).status,
      304,
    );
    assert.equal((await call('GET', '/api/docs/..%2Fpackage.json')).status, 400);
    assert.equal((await call('GET', '/api/docs/secret.txt')).status, 404);
  });

  it('documents every operation of the contract', async () => {
    const doc = (await call('GET', '/api/docs.json')).json;
    assert.equal(doc.openapi, '3.1.0');
    for (const op of allOperations.filter((o) => !o.undocumented)) {
      const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
      assert.ok(documented, `${op.method} ${op.path}`);
      assert.equal(documented.operationId, op.id);
    }
    assert.ok(doc.components.schemas.Media.properties.meshGradientColors);
    // Lists and search answer one entry shape; a search hit adds what it matched.
    const entries = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema.properties.data;
    for (const path of ['/api/v1/movies', '/api/v1/tvshows'])
      assert.deepEqual(entries(path), { type: 'array', items: { $ref: '#/components/schemas/MediaEntry' } }, path);
    assert.deepEqual(entries('/api/v1/search'), { type: 'array', items: { $ref: '#/components/schemas/SearchHit' } });
    assert.deepEqual(doc.components.schemas.SearchHit.allOf[0], { $ref: '#/components/schemas/MediaEntry' });
    assert.deepEqual(Object.keys(doc.components.schemas.SearchHit.allOf[1].properties), ['matchedOn', 'matchedText']);
    // No empty component section (an empty securitySchemes shows an "Authorize" button that does nothing).
    for (const [section, value] of Object.entries(doc.components))
      assert.ok(Object.keys(value as object).length > 0, `components.${section} is empty`);
    // Every code the service sends, over HTTP or as a job's error, is in the catalogue.
    for (const code of [
      'library-gone',
      'path-not-found',
      'path-outside-library',
      'worker-unavailable',
      'dependency-unavailable',
      'internal',
      'gateway-timeout',
    ]) {
      assert.ok(doc['x-problem-types'][`/problems/${code}`], code);
    }
    assert.deepEqual(doc['x-problem-types']['/problems/library-gone'].sentIn, ['job']);
    const wsEvents = doc.paths['/ws'].get.responses['101'].content['application/json'].schema.oneOf;
    assert.ok(wsEvents.some((e: { $ref: string }) => e.$ref === '#/components/schemas/WsEvent_scan_progress'));
  });

  it('lints clean', async () => {
    const source = (await call('GET', '/api/docs.json')).text;
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // A box on the LAN has no authentication: the origin rules protect it (see the description).
        'security-defined': 'off',
        // GET /ws answers 101 Switching Protocols; every other operation's success comes from the
        // registry, whose type requires one.
        'operation-2xx-response': 'off',
      },
    });
    const problems = await lintFromString({ source, absoluteRef: 'docs.json', config });
    const report = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    assert.deepEqual(report, []);
  });

  it('generates a typed client that calls the running service', async () => {
    const doc = (await call('GET', '/api/docs.json')).json;
    const dir = join(PROJECT_DIR, 'test/.generated');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
    writeFileSync(
      join(dir, 'client.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './api';

const api = createClient<paths>({ baseUrl: process.argv[2] });
const health = await api.GET('/api/v1/health');
const search = () => api.GET('/api/v1/search', { params: { query: { query: 'a' } } });
const patched = await api.PATCH('/api/v1/settings', { body: { features: { autoResumeScans: true } } });
const logs = await api.GET('/api/v1/logs', { params: { query: { level: 'info', limit: 3 } } });
const bad = await api.PATCH('/api/v1/settings', {
  // @ts-expect-error the generated types know features.artwork is a boolean
  body: { features: { artwork: 'yes' } },
});
const status: 'ok' | 'degraded' | undefined = health.data?.data.status;
// Search hits and list entries are one shape: one function renders both.
type Entry = NonNullable<Awaited<ReturnType<typeof movies>>['data']>['data'][number];
const label = (entry: Entry) => entry.type + ':' + entry.media.title + ':' + String(entry.id === entry.media.id);
const movies = () => api.GET('/api/v1/movies', { params: { query: { limit: 1 } } });
const shows = await api.GET('/api/v1/tvshows', { params: { query: { limit: 1 } } });
const hits = (await search()).data?.data ?? [];
const matched: Array<'title' | 'originalTitle' | 'alternativeTitle' | 'person'> = hits.map((hit) => hit.matchedOn);
const labels = [...((await movies()).data?.data ?? []), ...(shows.data?.data ?? []), ...hits].map(label);
const theme: 'system' | 'light' | 'dark' | undefined = patched.data?.data.preferences.theme;
const resume: boolean | undefined = patched.data?.data.features.autoResumeScans;
console.log(JSON.stringify({ status, resume, themed: typeof theme, logs: logs.data?.data.length, badStatus: bad.response.status, badType: bad.error?.type, labelled: labels.every((l) => l.endsWith(':true')), matched: matched.every((m) => ['title', 'originalTitle', 'alternativeTitle', 'person'].includes(m)) }));
`,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          skipLibCheck: true,
          types: ['node'],
        },
        files: ['client.ts', 'api.d.ts'],
      }),
    );
    // Other test files assert the rest of the settings; this one only touches autoResumeScans.
    // Type-checks (the @ts-expect-error line fails the build if the types were loose) ...
    execFileSync(process.execPath, [join(PROJECT_DIR, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: PROJECT_DIR, stdio: 'pipe' });
    // ... and runs against the service.
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'client.ts'), stack.url], {
      cwd: PROJECT_DIR,
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(out), {
      status: 'ok',
      resume: true,
      themed: 'string',
      logs: 3,
      badStatus: 400,
      badType: '/problems/invalid-request',
      labelled: true,
      matched: true,
    });
  });
});
