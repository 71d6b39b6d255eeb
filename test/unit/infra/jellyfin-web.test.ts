// The Jellyfin door's port serving a build of Jellyfin's web client (a stand-in folder here):
// `/` and `/web` lead to `/web/`, which is the build's index.html and not one more redirect (the
// routes' form of a path drops its trailing slash, which had `/web/` redirect to itself); files
// are served from inside the folder only, and API paths still reach the door's routes.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createJellyfinDoor, type JellyfinDoor } from '../../../infra/gateway/jellyfin-door';
import { rootLogger } from '../../../lib/log';
import { tempDir } from '../../support/instance';

describe("the Jellyfin door's web client", () => {
  let door: JellyfinDoor;
  let base: string;
  const root = tempDir('jellyfin-web');
  const webDir = join(root, 'web');

  before(async () => {
    mkdirSync(webDir);
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>stand-in</title>');
    writeFileSync(join(webDir, 'main.bundle.js'), 'void 0;');
    writeFileSync(join(root, 'secret.txt'), 'not served');
    // Nothing listens at the handlers' address: no request here may reach it but the API path, which the door answers 503 before it is ready.
    door = createJellyfinDoor({ httpTarget: 'http://127.0.0.1:9', wsTarget: 'ws://127.0.0.1:9', log: rootLogger, webDir });
    await new Promise<void>((resolve) => door.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(door.server.address() as AddressInfo).port}`;
  });

  after(() => door.close());

  const get = (path: string) => fetch(`${base}${path}`, { redirect: 'manual' });

  it('leads / and /web to /web/, which is the index page', async () => {
    for (const path of ['/', '/web']) {
      const res = await get(path);
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), '/web/', path);
    }
    const index = await get('/web/');
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-type') ?? '', /^text\/html/u);
    assert.match(await index.text(), /stand-in/u);
    const bundle = await get('/web/main.bundle.js');
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/u);
  });

  it('serves nothing from outside the folder, and leaves API paths to the routes', async () => {
    for (const path of ['/web/%2e%2e/secret.txt', '/web/..%2fsecret.txt', '/web/missing.js'])
      assert.equal((await get(path)).status, 404, path);
    assert.equal((await get('/System/Info/Public')).status, 503, 'the routes, not yet ready');
  });
});
