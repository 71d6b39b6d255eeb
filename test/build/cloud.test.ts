// The proof that the template's functions work: the artifact of `npm run package` run as Lambda
// runs it (test/support/cloud.ts: each zip in a code folder it cannot write, the layer on
// NODE_PATH, /tmp the only writable place, the template's environment), behind API Gateway's
// HTTP API event format, against DynamoDB Local, s3rver, the fake TMDB and the WebSocket
// management API of serverless-offline (an instance of our own, which also owns the WebSocket
// connections, as API Gateway does). The Jellyfin door's functions too, at /jellyfin/<area>/...:
// logging in, browsing, direct play by redirect, a progress report, and 501 for a conversion.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startCloud, filesBelow, type Cloud } from '../support/cloud';
import { FakeCloudWatchLogs, type FakeCloudWatchLogsServer } from '../support/fake-cloudwatch-logs';
import type { JsonService } from '../support/fake-aws-json';
import { FakeSsm } from '../support/fake-ssm';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { allPages, scan } from '../support/media';
import { packaged } from '../support/packaged';
import { S3RVER_CREDENTIALS, startS3, type LocalS3 } from '../support/s3';
import { call, jsonBody } from '../support/stack';
import { hasFfmpeg, makeMp4 } from '../support/videos';
import { WsClient } from '../support/ws';

const BUCKET = 'media';
const KEY = 'cloud-shaped-tmdb-key-0042';
const LOG_GROUP = '/aws/lambda/media-library-prod';
const HEAT = Buffer.from(Array.from({ length: 400_000 }, (_, i) => (i * 31 + (i >> 8)) & 0xff));

let s3: LocalS3;
let tmdb: FakeTmdbServer;
let cloudWatch: FakeCloudWatchLogsServer;
let ssm: JsonService;
let instance: Instance;
let cloud: Cloud;
let events: WsClient;
let alien: Buffer;
const api = (method: string, path: string, opts: Parameters<typeof call>[2] = {}) => call(method, path, { ...opts, base: cloud.url });

before(async () => {
  const fake = new FakeTmdb({ keys: [KEY] });
  fake.addMovie({ id: 949, title: 'Heat', releaseDate: '1995-12-15', overview: 'A bank robbery goes wrong.', genres: ['Crime'] });
  fake.addMovie({ id: 348, title: 'Alien', releaseDate: '1979-05-25', overview: 'In space no one can hear you scream.' });
  tmdb = await fake.start();
  // No local CloudWatch Logs server exists: our fake speaks its API, and receives every line the
  // functions write, as Lambda delivers them to the stack's log group.
  const logs = new FakeCloudWatchLogs();
  cloudWatch = await logs.start();
  // Nor a local SSM: the key is a SecureString parameter of the name the template gives.
  ssm = await new FakeSsm().putSecureString('/media-library/prod/tmdb-api-key', KEY).start();

  const videos = tempDir('cloud-videos');
  alien = hasFfmpeg() ? readFileSync(makeMp4(join(videos, 'alien.mp4'), { seconds: 2 })) : Buffer.from('not a video');
  s3 = await startS3([BUCKET]);
  await Promise.all([s3.put(BUCKET, 'films/Heat (1995)/Heat (1995).mkv', HEAT), s3.put(BUCKET, 'films/Alien (1979).mp4', alien)]);

  const [pkg] = await Promise.all([
    packaged(),
    startInstance({
      env: {
        MEDIA_STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        MEDIA_BUCKET: BUCKET,
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      },
    }).then((i) => (instance = i)),
  ]);
  const state = instance.state();
  cloud = await startCloud({
    packageDir: pkg,
    root: tempDir('cloud'),
    // What the deploy would have made: the instance's table, the bucket, the WebSocket API.
    resources: { MediaTable: instance.tableName, MediaBucket: BUCKET, WebsocketsApi: 'offline' },
    endpoints: {
      DYNAMODB_ENDPOINT: state.dynamodbEndpoint,
      S3_ENDPOINT: s3.endpoint,
      WS_MANAGEMENT_ENDPOINT: state.offlineWebsocket.replace('ws', 'http'),
      TMDB_API_BASE_URL: tmdb.apiBaseUrl,
      TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl,
      CLOUDWATCH_LOGS_ENDPOINT: cloudWatch.url,
      SSM_ENDPOINT: ssm.url,
    },
    credentials: S3RVER_CREDENTIALS,
    onLog: ({ functionName, stream, line, time }) => logs.append(LOG_GROUP, `${functionName}/${stream}`, [line], time),
  });
  // A client of the WebSocket API (offline's, as API Gateway's in AWS), registered in the table.
  events = await WsClient.open(`${instance.url.replace('http', 'ws')}/ws`);
});

after(async () => {
  await events?.close();
  await cloud?.stop();
  await instance?.stop();
  await s3?.close();
  await tmdb?.close();
  await cloudWatch?.close();
  await ssm?.close();
});

/** The JSON records the functions logged, with their function. */
const records = () =>
  cloud.logs.flatMap(({ functionName, line }) => {
    if (!line.startsWith('{')) return [];
    try {
      return [{ functionName, ...JSON.parse(line) }];
    } catch {
      return [];
    }
  });

describe('the packaged functions, run as Lambda runs them', () => {
  it('answer health through the HTTP API event format', async () => {
    const res = await api('GET', '/api/v1/health');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.status, 'ok');
  });

  it('take the TMDB key from its SSM parameter, and show only its hint', async () => {
    assert.ok(
      cloud.functions.every(
        (f) => f.environment.TMDB_API_KEY_PARAMETER === '/media-library/prod/tmdb-api-key' && !('TMDB_API_KEY' in f.environment),
      ),
    );
    const res = await api('GET', '/api/v1/settings');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data.metadata, {
      tmdbApiKeySet: true,
      tmdbApiKeyHint: '****0042',
      tmdbApiKeySource: 'environment',
      language: res.json.data.metadata.language,
    });
    assert.ok(!res.text.includes(KEY));
  });

  let jobId: string;
  it('scan a bucket prefix through the scan worker, invoked asynchronously, with metadata from TMDB', async () => {
    const job = await scan({ path: `s3://${BUCKET}/films`, mediaType: 'movie' }, cloud.url);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    jobId = job.jobId;
    const movies = await allPages('/api/v1/movies', cloud.url);
    assert.deepEqual(movies.map((m) => m.title).sort(), ['Alien', 'Heat']);
    const heat = movies.find((m) => m.title === 'Heat')!;
    const detail = (await api('GET', `/api/v1/movies/${heat.id}`)).json.data;
    assert.equal(detail.media.overview, 'A bank robbery goes wrong.');
    assert.equal(detail.metadata.tmdbId, 949);
    assert.ok(detail.media.posterUrl, 'a poster from TMDB');
    assert.equal(detail.media.meshGradientColors?.length, 4, 'poster colours by sharp from the layer');
    const workers = new Set(
      records()
        .filter((r) => r.functionName.endsWith('-scanWorker'))
        .map((r) => r.functionName),
    );
    assert.deepEqual([...workers], ['media-library-prod-scanWorker']);
  });

  it('read technical info with mediainfo.js from the layer', { skip: !hasFfmpeg() && 'ffmpeg makes the video' }, async () => {
    const [alienItem] = (await allPages('/api/v1/movies', cloud.url)).filter((m) => m.title === 'Alien');
    const detail = (await api('GET', `/api/v1/movies/${alienItem.id}`)).json.data;
    assert.equal(detail.file.video?.codec, 'h264', JSON.stringify(detail.file));
    assert.ok(detail.file.durationSeconds > 1.5);
  });

  it("sent the scan's events through the WebSocket management API", async () => {
    const progress = await events.next((m) => m.type === 'scan:progress' && m.jobId === jobId);
    assert.ok(progress.phase);
    const complete = await events.next((m) => m.type === 'scan:complete' && m.jobId === jobId);
    assert.deepEqual(
      { added: complete.summary.added, removed: complete.summary.removed, failed: complete.summary.failed },
      { added: 2, removed: 0, failed: 0 },
    );
  });

  it('serve a poster variant, resized by the function and kept in the bucket', async () => {
    const heat = (await allPages('/api/v1/movies', cloud.url)).find((m) => m.title === 'Heat')!;
    const url = new URL(heat.posterUrl);
    const res = await api('GET', `${url.pathname}${url.search}&w=160`, { headers: { accept: 'image/avif,image/webp,*/*' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'image/webp');
    const bytes = await fetch(`${cloud.url}${url.pathname}${url.search}&w=160`, { headers: { accept: 'image/webp' } }).then(async (r) =>
      Buffer.from(await r.arrayBuffer()),
    );
    assert.equal((await sharp(bytes).metadata()).width, 160);
    const listed = await s3.list(BUCKET, '.cache/artwork/');
    assert.ok(
      listed.some((key) => key.includes('w160')),
      `the variant in the bucket: ${listed.join(', ')}`,
    );
  });

  it('stream by a redirect to a presigned URL that the bucket answers with ranges', async () => {
    const heat = (await allPages('/api/v1/movies', cloud.url)).find((m) => m.title === 'Heat')!;
    const res = await api('GET', `/api/v1/stream/${heat.id}`);
    assert.equal(res.status, 307, res.text);
    const location = String(res.headers.location);
    assert.ok(location.startsWith(s3.endpoint), location);
    const part = await fetch(location, { headers: { range: 'bytes=1000-1999' } });
    assert.equal(part.status, 206);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), HEAT.subarray(1000, 2000));
  });

  it('search the catalogue', async () => {
    const res = await api('GET', '/api/v1/search?query=alein');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.json.data.map((h: any) => h.media.title),
      ['Alien'],
    );
  });

  it('see a write at once in the other functions: progress, then details, the list, Continue watching and search; a mark, then details', async () => {
    const heat = (await allPages('/api/v1/movies', cloud.url)).find((m) => m.title === 'Heat')!.id as string;
    const data = async (method: string, path: string, body?: unknown) => {
      const res = await api(method, path, body === undefined ? {} : jsonBody(body));
      assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
      return res.json.data;
    };
    // Two reports a moment apart, to the same warm function: each is written before its answer.
    await data('PUT', `/api/v1/progress/${heat}`, { positionSeconds: 1800, durationSeconds: 6000 });
    await data('PUT', `/api/v1/progress/${heat}`, { positionSeconds: 3000, durationSeconds: 6000 });
    const [detail, listed, continuing, hits] = await Promise.all([
      data('GET', `/api/v1/movies/${heat}`),
      data('GET', '/api/v1/movies'),
      data('GET', '/api/v1/continue'),
      data('GET', '/api/v1/search?query=heat'),
    ]);
    assert.equal(detail.userData.positionSeconds, 3000, 'details');
    assert.equal(listed.find((e: any) => e.id === heat).userData.positionSeconds, 3000, 'the list');
    assert.equal(continuing.find((e: any) => e.id === heat)?.userData.positionSeconds, 3000, 'Continue watching');
    assert.equal(hits.find((e: any) => e.id === heat).userData.positionSeconds, 3000, 'search');
    await data('POST', `/api/v1/played/${heat}`);
    const marked = await data('GET', `/api/v1/movies/${heat}`);
    assert.deepEqual([marked.userData.played, marked.userData.positionSeconds], [true, 0]);
    await data('DELETE', `/api/v1/played/${heat}`);
  });

  it("handle the WebSocket API's event format for $connect, $default and $disconnect", async () => {
    const base = JSON.parse(readFileSync(join(import.meta.dirname, '../../events/wsConnect.json'), 'utf8'));
    const connectionId = 'cloudShaped0=';
    const withId = (e: any) => ({ ...e, requestContext: { ...e.requestContext, connectionId } });
    const connected = await cloud.invoke('media-library-prod-wsConnect', withId(base));
    assert.equal(connected.payload.statusCode, 200, JSON.stringify(connected.payload));
    const message = JSON.parse(readFileSync(join(import.meta.dirname, '../../events/wsMessage.json'), 'utf8'));
    const answered = await cloud.invoke('media-library-prod-wsMessage', withId(message));
    assert.equal(answered.failed, false, JSON.stringify(answered.payload));
    const disconnect = JSON.parse(readFileSync(join(import.meta.dirname, '../../events/wsDisconnect.json'), 'utf8'));
    const gone = await cloud.invoke('media-library-prod-wsDisconnect', withId(disconnect));
    assert.equal(gone.payload.statusCode, 200, JSON.stringify(gone.payload));
  });

  it("read the functions' logs from CloudWatch Logs, newest first, filtered", async () => {
    assert.ok(
      cloud.functions.every((f) => f.environment.LOG_GROUP === LOG_GROUP),
      'the template names the group to every function',
    );
    const res = await api('GET', '/api/v1/logs?level=info&q=scan%20completed&limit=5');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.json.data.map((r: any) => [r.msg, r.jobId]),
      [['scan completed', jobId]],
    );
    const recent = (await api('GET', '/api/v1/logs?limit=20')).json.data;
    assert.equal(recent.length, 20);
    const times = recent.map((r: any) => Date.parse(r.time));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    assert.ok(!JSON.stringify(recent).includes(KEY), 'the key is never in a log');
  });

  // The Jellyfin door's functions behind their `{proxy+}` routes, as an app reaches them at
  // /jellyfin/<area>/<Jellyfin path>: the library scanned above, the films in the bucket.
  describe("the Jellyfin door's functions", () => {
    let token: string;
    let guids: Map<string, string>;
    let ids: Map<string, string>;
    const door = (method: string, path: string, body?: unknown) =>
      api(method, path, {
        headers: { 'x-emby-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    /** What an app that plays H.264/AAC in MP4 sends, converting to HLS otherwise. */
    const mp4Profile = {
      DirectPlayProfiles: [{ Type: 'Video', Container: 'mp4', VideoCodec: 'h264', AudioCodec: 'aac' }],
      TranscodingProfiles: [
        { Type: 'Video', Container: 'ts', VideoCodec: 'h264', AudioCodec: 'aac', Protocol: 'hls', Context: 'Streaming' },
      ],
    };

    before(async () => {
      ids = new Map((await allPages('/api/v1/movies', cloud.url)).map((m) => [m.title as string, m.id as string]));
    });

    it('log a profile in by name, and answer a token', async () => {
      const res = await api('POST', '/jellyfin/system/Users/AuthenticateByName', {
        headers: {
          'content-type': 'application/json',
          authorization: 'MediaBrowser Client="Cloud Test", Device="d", DeviceId="cloud-dev", Version="1"',
        },
        body: JSON.stringify({ Username: 'Household', Pw: '' }),
      });
      assert.equal(res.status, 200, res.text);
      assert.match(res.json.AccessToken, /^\w{16,}$/u);
      assert.equal(res.json.User.Name, 'Household');
      token = res.json.AccessToken;
    });

    it("browse the bucket's library: its view, then its films", async () => {
      const views = await door('GET', '/jellyfin/library/UserViews');
      assert.equal(views.status, 200, views.text);
      assert.deepEqual(
        views.json.Items.map((v: any) => v.CollectionType),
        ['movies'],
      );
      const items = await door('GET', `/jellyfin/library/Items?parentId=${views.json.Items[0].Id}&recursive=true&includeItemTypes=Movie`);
      assert.equal(items.status, 200, items.text);
      guids = new Map(items.json.Items.map((i: any) => [i.Name as string, i.Id as string]));
      assert.deepEqual([...guids.keys()].sort(), ['Alien', 'Heat']);
      assert.ok([...guids.values()].every((id) => /^[0-9a-f]{32}$/u.test(id)));
    });

    it(
      'play an H.264/AAC MP4 directly, its stream URL a redirect to a presigned URL the bucket answers with ranges',
      {
        skip: !hasFfmpeg() && 'ffmpeg makes the video',
      },
      async () => {
        const guid = guids.get('Alien')!;
        const info = await door('POST', `/jellyfin/playback/Items/${guid}/PlaybackInfo`, { DeviceProfile: mp4Profile, StartTimeTicks: 0 });
        assert.equal(info.status, 200, info.text);
        const [source] = info.json.MediaSources;
        assert.equal(source.SupportsDirectPlay, true, info.text);
        assert.equal(source.TranscodingUrl, undefined);
        assert.equal(source.Size, alien.length);
        // As the apps build it, without a token: a player fetches it as a plain URL.
        const res = await api('GET', `/jellyfin/playback/Videos/${guid}/stream.${source.Container}?static=true&mediaSourceId=${source.Id}`);
        assert.equal(res.status, 307, res.text);
        const location = String(res.headers.location);
        assert.ok(location.startsWith(s3.endpoint), location);
        const part = await fetch(location, { headers: { range: 'bytes=100-299' } });
        assert.equal(part.status, 206);
        assert.deepEqual(Buffer.from(await part.arrayBuffer()), alien.subarray(100, 300));
      },
    );

    it("take a progress report that our own API's Continue watching shows at once", async () => {
      const res = await door('POST', '/jellyfin/playback/Sessions/Playing/Progress', {
        ItemId: guids.get('Alien'),
        // Half of a 2 s film: past the minimum, short of played. Without ffmpeg the film's length is unknown, and it is kept as it is.
        PositionTicks: 10_000_000,
      });
      assert.equal(res.status, 204, res.text);
      const continuing = await api('GET', '/api/v1/continue');
      assert.equal(continuing.status, 200, continuing.text);
      assert.equal(continuing.json.data.find((e: any) => e.id === ids.get('Alien'))?.userData.positionSeconds, 1, continuing.text);
    });

    it('answer a PlaybackInfo that needs a conversion as our own API does: 501, conversions being home-only, in a short text', async () => {
      // Heat's bytes are no video: the scan read no streams, so any player needs it converted.
      const own = await api('POST', `/api/v1/playback/${ids.get('Heat')}`, jsonBody({}));
      assert.equal(own.status, 501, own.text);
      assert.match(own.json.type, /conversion-unavailable$/u);
      const res = await door('POST', `/jellyfin/playback/Items/${guids.get('Heat')}/PlaybackInfo`, { DeviceProfile: mp4Profile });
      assert.equal(res.status, 501, res.text);
      assert.match(String(res.headers['content-type']), /^text\/plain/u);
      assert.equal(res.text, own.json.detail);
    });
  });

  it('wrote nothing but to the bucket and the table: every /tmp empty, no DATA_DIR, no warning logged but the two 501s', async () => {
    await cloud.idle();
    for (const dir of cloud.tmpDirs()) assert.deepEqual(filesBelow(dir), [], dir);
    for (const fn of cloud.functions) assert.ok(!existsSync(join(fn.codeDir, 'data')), `${fn.name} made no DATA_DIR`);
    // A 501 is logged as a failed request, like every 5xx: the two conversions asked for above
    // (our API's and the door's) are the only ones allowed.
    const refused = (r: any) => r.status === 501 && r.err?.code === 'conversion-unavailable';
    const troubles = records().filter((r) => ['warn', 'error', 'fatal'].includes(r.level));
    assert.deepEqual(
      troubles.filter(refused).map((r) => r.functionName),
      ['media-library-prod-playback', 'media-library-prod-jellyfinPlayback'],
    );
    assert.deepEqual(
      troubles.filter((r) => !refused(r)),
      [],
    );
    assert.ok(records().length > 10, 'the functions logged JSON lines to stdout');
  });
});
