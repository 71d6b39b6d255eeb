// Watch state through the stack: profiles, the progress rules, played marks, Continue watching
// and Next up (rollover, specials, finished shows, episodes in progress), profiles kept apart,
// state kept across a rescan, a move and a restart and dropped with its item or its profile,
// `userdata:changed` on /ws, and a player's reports under a low rate limit. An instance of its
// own (it restarts it); the files are empty stand-ins, so durations come with the reports.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS, config } from '../../lib/config';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { createDb } from '../../lib/db/client';
import { rootLogger } from '../../lib/log';
import { DEFAULT_THRESHOLDS } from '../../lib/watching/rules';
import { WatchingService } from '../../lib/watching/service';
import { DynamoProfileStore } from '../../lib/watching/profile-store';
import { DynamoWatchStore } from '../../lib/watching/store';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';
import { WsClient } from '../support/ws';

const dataDir = tempDir('watching-data');
const movies = tempDir('watching-movies');
const shows = tempDir('watching-shows');
let instance: Instance;

const api = (method: string, path: string, body?: unknown) =>
  call(method, path, { ...(body === undefined ? {} : jsonBody(body)), base: instance.url });
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await api(method, path, body);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json?.data;
};
const progress = (id: string, positionSeconds: number, profile = 'default', durationSeconds = 6000) =>
  ok('PUT', `/api/v1/progress/${id}?profileId=${profile}`, { positionSeconds, durationSeconds });
const ids = new Map<string, string>();
const idOf = (name: string) => {
  const id = ids.get(name);
  assert.ok(id, `${name} among ${[...ids.keys()].join(', ')}`);
  return id;
};
const learnIds = async () => {
  for (const m of await allPages('/api/v1/movies', instance.url)) ids.set(m.title, m.id);
  for (const s of await allPages('/api/v1/tvshows', instance.url)) {
    ids.set(s.title, s.id);
    const show = await ok('GET', `/api/v1/tvshows/${s.id}`);
    for (const season of show.seasons) for (const e of season.episodes) ids.set(`${s.title} ${e.seasonNumber}x${e.episodeNumber}`, e.id);
  }
};
const entries = async (path: string, profile = 'default') => (await ok('GET', `${path}?profileId=${profile}`)) as any[];
const labels = (list: any[]) =>
  list.map((e) => (e.episode ? `${e.media.title} ${e.episode.seasonNumber}x${e.episode.episodeNumber}` : e.media.title));
const start = async () => {
  instance = await startInstance({ dataDir, env: { TMDB_API_KEY: '' } });
};
const rescan = async () => {
  for (const [path, mediaType] of [
    [movies, 'movie'],
    [shows, 'tvshow'],
  ] as const) {
    const job = await scan({ path, mediaType }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
  }
};

before(async () => {
  await start();
  makeTree(movies, ['Alpha (2001).mkv', 'Beta (2002).mkv', 'Gamma (2003).mkv'], 4096);
  makeTree(
    shows,
    [
      'Show A/Season 1/Show A S01E01.mkv',
      'Show A/Season 1/Show A S01E02.mkv',
      'Show A/Season 2/Show A S02E01.mkv',
      'Show A/Season 2/Show A S02E02.mkv',
      'Show A/Specials/Show A S00E01.mkv',
      'Show B/Season 1/Show B S01E01.mkv',
      'Show B/Season 1/Show B S01E02.mkv',
    ],
    4096,
  );
  await rescan();
  await learnIds();
});
after(async () => {
  await instance?.stop();
});

describe('watch state', () => {
  let ada: string;

  it('has the household profile always, and others by unique names', async () => {
    assert.deepEqual(
      (await ok('GET', '/api/v1/profiles')).map((p: any) => [p.id, p.name]),
      [['default', 'Household']],
    );
    const created = await api('POST', '/api/v1/profiles', { name: 'Ada' });
    assert.equal(created.status, 201);
    ada = created.json.data.id;
    assert.equal((await api('POST', '/api/v1/profiles', { name: ' ada ' })).status, 409, 'names are compared without case');
    assert.equal((await api('POST', '/api/v1/profiles', { name: 'household' })).json.type, '/problems/name-taken');
    assert.equal((await api('POST', '/api/v1/profiles', { name: '' })).status, 400);
    assert.equal((await api('DELETE', '/api/v1/profiles/default')).status, 409);
    assert.equal((await api('GET', '/api/v1/continue?profileId=nobody')).status, 404);
    assert.equal((await api('PUT', `/api/v1/progress/${idOf('Alpha')}?profileId=nobody`, { positionSeconds: 1 })).status, 404);
    const renamed = await ok('PATCH', '/api/v1/profiles/default', { name: 'The Smiths' });
    assert.equal(renamed.name, 'The Smiths');
    assert.equal((await api('POST', '/api/v1/profiles', { name: 'Household' })).status, 201, 'the old name is free again');
    assert.deepEqual(
      (await ok('GET', '/api/v1/profiles')).map((p: any) => p.name),
      ['The Smiths', 'Ada', 'Household'],
    );
  });

  it('keeps a position between the thresholds, nothing before, and marks played past the end, once per viewing', async () => {
    const alpha = idOf('Alpha');
    assert.equal((await progress(alpha, 120)).positionSeconds, 0, '2 % keeps nothing');
    assert.deepEqual(labels(await entries('/api/v1/continue')), []);
    const middle = await progress(alpha, 3000);
    assert.deepEqual([middle.positionSeconds, middle.progress, middle.played], [3000, 0.5, false]);
    assert.deepEqual(labels(await entries('/api/v1/continue')), ['Alpha']);
    const detail = await ok('GET', `/api/v1/movies/${alpha}`);
    assert.equal(detail.userData.positionSeconds, 3000);
    const listed = (await ok('GET', '/api/v1/movies?limit=100')).find((e: any) => e.id === alpha);
    assert.equal(listed.userData.positionSeconds, 3000, 'list entries carry it');
    const hit = (await ok('GET', '/api/v1/search?query=alpha')).find((e: any) => e.id === alpha);
    assert.equal(hit.userData.progress, 0.5, 'search hits too');

    // Reports within a second of the last write are answered at once and written once the second
    // is over (or when a list is read): that timing is test/unit/watching/service.test.ts's.
    const end = await progress(alpha, 5500);
    assert.deepEqual([end.positionSeconds, end.played, end.playCount], [0, true, 1]);
    await progress(alpha, 5700);
    assert.equal((await progress(alpha, 5990)).playCount, 1, 'one viewing, one play');
    assert.deepEqual(labels(await entries('/api/v1/continue')), []);

    // The thresholds are the settings'.
    await ok('PATCH', '/api/v1/settings', { preferences: { playback: { playedAtPercent: 99 } } });
    // The service reads them again once a second old (that rule on a fake clock: the unit test).
    await new Promise((r) => setTimeout(r, 1_100));
    const gamma = idOf('Gamma');
    assert.equal((await progress(gamma, 5700)).positionSeconds, 5700, '95 % is not the end at 99 %');
    await ok('PATCH', '/api/v1/settings', { preferences: { playback: { playedAtPercent: 90 } } });
    assert.deepEqual((await ok('GET', '/api/v1/settings')).preferences.playback, { resumeMinPercent: 5, playedAtPercent: 90 });
  });

  it('writes a report over what another process wrote meanwhile, not over what it wrote last', async () => {
    // Another process on the same table (a second container in the cloud), which marks the film played.
    const db = createDb({
      ...config.db,
      tableName: instance.tableName,
      endpoint: instance.state().dynamodbEndpoint,
      localCredentials: LOCAL_CREDENTIALS,
    });
    const elsewhere = new WatchingService({
      profiles: new DynamoProfileStore(() => db),
      store: new DynamoWatchStore(() => db),
      catalog: new DynamoCatalogStore(() => db),
      thresholds: async () => DEFAULT_THRESHOLDS,
      events: { emit: async () => undefined }, // nobody listens to that process
      log: rootLogger,
    });
    const beta = idOf('Beta');
    await progress(beta, 3000);
    const marked = await elsewhere.markPlayed('default', beta);
    assert.deepEqual([marked.played, marked.playCount, marked.positionSeconds], [true, 1, 0]);
    // On a home box the report is answered from what the service knows and written behind the
    // answer (within a second of the last write: when the list below is read); the write notices
    // the mark and applies the report to it. A list waits for it.
    await progress(beta, 3300);
    await entries('/api/v1/continue');
    const stored = (await ok('GET', `/api/v1/movies/${beta}`)).userData;
    assert.deepEqual([stored.played, stored.playCount, stored.positionSeconds], [true, 1, 3300], 'the mark made elsewhere is kept');
    // And the other way (a process that writes before it answers, as a Lambda does): its next
    // report reads the unmarking the service did since.
    await ok('DELETE', `/api/v1/played/${beta}`);
    const there = await elsewhere.progress('default', beta, 3900, 6000);
    assert.deepEqual([there.played, there.playCount, there.positionSeconds], [false, 0, 3900]);
    await ok('DELETE', `/api/v1/played/${beta}`);
  });

  it('rolls Next up over into the next season, leaves specials out, and drops a finished show', async () => {
    await ok('POST', `/api/v1/played/${idOf('Show A 1x1')}`);
    assert.deepEqual(labels(await entries('/api/v1/next-up')), ['Show A 1x2']);
    await ok('POST', `/api/v1/played/${idOf('Show A 1x2')}`);
    await ok('POST', `/api/v1/played/${idOf('Show A 0x1')}`);
    assert.deepEqual(labels(await entries('/api/v1/next-up')), ['Show A 2x1'], 'season 2 next; the special played changes nothing');

    // An episode in progress is in Continue watching, not repeated in Next up.
    await progress(idOf('Show A 2x1'), 1000, 'default', 2400);
    assert.ok(labels(await entries('/api/v1/continue')).includes('Show A 2x1'));
    assert.deepEqual(labels(await entries('/api/v1/next-up')), []);

    // A whole show marked played: finished, out of Next up, its details say so.
    const marked = await ok('POST', `/api/v1/played/${idOf('Show B')}`);
    assert.equal(marked.played, true);
    const showB = await ok('GET', `/api/v1/tvshows/${idOf('Show B')}`);
    assert.deepEqual(showB.userData, { playedEpisodes: 2, totalEpisodes: 2, played: true, favorite: false });
    assert.ok(showB.seasons[0].episodes.every((e: any) => e.userData.played));
    assert.ok(!labels(await entries('/api/v1/next-up')).some((l) => l.startsWith('Show B')));
    const showInList = (await ok('GET', '/api/v1/tvshows')).find((e: any) => e.id === idOf('Show B'));
    assert.deepEqual([showInList.userData.played, showInList.userData.progress], [true, 1]);
    await ok('DELETE', `/api/v1/played/${idOf('Show B 1x2')}`);
    assert.deepEqual(labels(await entries('/api/v1/next-up')), ['Show B 1x2'], 'unplayed: next again');
  });

  it('keeps profiles apart', async () => {
    assert.deepEqual(labels(await entries('/api/v1/continue', ada)), []);
    assert.deepEqual(labels(await entries('/api/v1/next-up', ada)), []);
    await progress(idOf('Beta'), 2000, ada);
    assert.deepEqual(labels(await entries('/api/v1/continue', ada)), ['Beta']);
    assert.ok(!labels(await entries('/api/v1/continue')).includes('Beta'));
    assert.equal((await ok('GET', `/api/v1/movies/${idOf('Beta')}?profileId=${ada}`)).userData.positionSeconds, 2000);
    assert.equal((await ok('GET', `/api/v1/movies/${idOf('Beta')}`)).userData.positionSeconds, 0);
  });

  it('says so on /ws', async () => {
    const ws = await WsClient.open(`${instance.url.replace('http', 'ws')}/ws`);
    try {
      await progress(idOf('Gamma'), 3100);
      const event = await ws.next((m) => m.type === 'userdata:changed' && m.mediaId === idOf('Gamma'));
      assert.deepEqual([event.profileId, event.userData.positionSeconds], ['default', 3100]);
      assert.ok(event.timestamp);
    } finally {
      await ws.close();
    }
  });

  it('keeps state across a rescan, a move and a restart', async () => {
    const gamma = idOf('Gamma');
    mkdirSync(join(movies, 'Films'), { recursive: true });
    renameSync(join(movies, 'Gamma (2003).mkv'), join(movies, 'Films', 'Gamma (2003).mkv'));
    await rescan();
    assert.equal((await ok('GET', `/api/v1/movies/${gamma}`)).userData.positionSeconds, 3100, 'moved, same item, same state');
    await instance.stop();
    await start();
    assert.ok(labels(await entries('/api/v1/continue')).includes('Gamma'));
    assert.deepEqual(labels(await entries('/api/v1/next-up')), ['Show B 1x2']);
  });

  it('keeps state while a library is offline, and after it is back', async () => {
    const away = `${movies}-away`;
    renameSync(movies, away);
    try {
      const job = await scan({ path: movies, mediaType: 'movie' }, instance.url).catch((err: Error) => ({
        status: 'refused',
        error: err.message,
      }));
      assert.notEqual(job.status, 'completed', 'the folder is gone: nothing is removed');
    } finally {
      renameSync(away, movies);
    }
    await rescan();
    assert.equal((await ok('GET', `/api/v1/movies/${idOf('Gamma')}`)).userData.positionSeconds, 3100);
  });

  it('drops the state of an item gone for good, and all of a deleted profile', async () => {
    const beta = idOf('Beta');
    const file = join(movies, 'Beta (2002).mkv');
    rmSync(file);
    await rescan();
    makeTree(dirname(file), ['Beta (2002).mkv'], 4096);
    await rescan();
    await learnIds();
    assert.equal(idOf('Beta'), beta, 'the same file again is the same item');
    assert.equal((await ok('GET', `/api/v1/movies/${beta}?profileId=${ada}`)).userData.positionSeconds, 0, 'its state went with it');

    await progress(idOf('Alpha'), 2500, ada);
    assert.equal((await api('DELETE', `/api/v1/profiles/${ada}`)).status, 204);
    assert.equal((await api('GET', `/api/v1/continue?profileId=${ada}`)).status, 404);
    const db = createDb({
      ...config.db,
      tableName: instance.tableName,
      endpoint: instance.state().dynamodbEndpoint,
      localCredentials: LOCAL_CREDENTIALS,
    });
    const left = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `userdata#${ada}` },
      }),
    );
    assert.equal(left.Count, 0, 'nothing of the profile is left in the table');
  });
});

describe("a player's reports under a low rate limit", () => {
  let limited: Instance;
  before(async () => {
    limited = await startInstance({ env: { RATE_LIMIT_MAX: '40', TMDB_API_KEY: '' } });
  });
  after(async () => {
    await limited?.stop();
  });

  it('answers 60 reports in a row while the limit refuses other requests', async () => {
    const root = tempDir('watching-limited');
    makeTree(root, ['Delta (2004).mkv'], 4096);
    assert.equal((await scan({ path: root, mediaType: 'movie' }, limited.url)).status, 'completed');
    const [delta] = await allPages('/api/v1/movies', limited.url);
    for (let i = 0; i < 60; i++) {
      const res = await call('PUT', `/api/v1/progress/${delta.id}`, {
        ...jsonBody({ positionSeconds: 600 + i * 10, durationSeconds: 6000 }),
        base: limited.url,
      });
      assert.equal(res.status, 200, `report ${i}: ${res.status} ${res.text}`);
    }
    let refused = false;
    for (let i = 0; i < 40 && !refused; i++) refused = (await call('GET', '/api/v1/continue', { base: limited.url })).status === 429;
    assert.ok(refused, 'the limit (40) is below the 60 reports indeed');
  });
});
