// Artwork through the stack: items with stored artwork are put straight into the catalogue
// and their source images into the stack's artwork store (DATA_DIR/artwork), then fetched
// over HTTP and decoded again with sharp: sizes, formats, validators, caching and problems.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { localArtworkStore, sourceKey, variantKeyOf } from '../../lib/artwork/store';
import type { StoredArtwork } from '../../lib/artwork/model';
import type { EpisodeItem, MovieItem } from '../../lib/catalog/model';
import { catalogStore } from '../../lib/deps';
import { waitFor } from '../support/instance';
import { call, stack } from '../support/stack';

/** A GET with the body as bytes (the helper in support/stack reads text). */
const fetchBytes = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, any>; body: Buffer }>((resolve, reject) => {
    const req = request(new URL(path, stack.url), { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

const image = (width: number, height: number, format: 'jpeg' | 'png') =>
  sharp({ create: { width, height, channels: 3, background: { r: 180, g: 40, b: 60 } } })
    [format]()
    .toBuffer();

const etagOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

const stored = (bytes: Buffer, contentType: string, width: number, height: number): StoredArtwork => ({
  etag: etagOf(bytes),
  contentType,
  width,
  height,
  source: 'provider',
  from: '/poster.jpg',
});

const uniq = () => randomUUID().replaceAll('-', '');
// Long ago, so these items sort last in the recent lists other test files read.
const LONG_AGO = '2000-01-01T00:00:00.000Z';
const stamp = (id: string) => ({
  id,
  libraryId: `lib_art${uniq()}`,
  addedAt: LONG_AGO,
  updatedAt: LONG_AGO,
  lastJob: 'job_art',
  lastChange: 'added' as const,
});
const movie = (id: string, title: string, artwork?: MovieItem['artwork']): MovieItem => ({
  ...stamp(id),
  entity: 'movie',
  title,
  originalTitle: null,
  year: 2001,
  overview: null,
  genres: [],
  rating: null,
  meshGradientColors: ['#112233', '#445566', '#778899', '#aabbcc'],
  tmdbId: null,
  files: [{ relPath: `${title} (2001).mkv`, size: 1, mtimeMs: 1, part: null }],
  ...(artwork ? { artwork } : {}),
});

describe('artwork', () => {
  const store = localArtworkStore(join(stack.dataDir, 'artwork'));
  const ids = { poster: `mv_art${uniq()}`, bare: `mv_art${uniq()}`, corrupt: `mv_art${uniq()}`, episode: `ep_art${uniq()}` };
  let poster: Buffer;
  let art: StoredArtwork;
  let url: string;

  before(async () => {
    poster = await image(500, 750, 'jpeg');
    art = stored(poster, 'image/jpeg', 500, 750);
    const still = await image(640, 360, 'png');
    const stillArt = stored(still, 'image/png', 640, 360);
    // A JPEG signature over bytes that are not one: passes the store's check, fails to render.
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x42)]);
    const corruptArt = stored(corrupt, 'image/jpeg', 500, 750);
    const episode: EpisodeItem = {
      ...stamp(ids.episode),
      entity: 'episode',
      showId: `tv_art${uniq()}`,
      seasonNumber: 1,
      episodeNumber: 2,
      title: null,
      overview: null,
      airDate: null,
      files: [{ relPath: 'Show/Season 1/Show S01E02.mkv', size: 1, mtimeMs: 1, part: null }],
      artwork: { still: stillArt },
    };
    await catalogStore.put([
      movie(ids.poster, 'Zzartwork Fixture', { poster: art }),
      movie(ids.bare, 'Zzartwork Bare'),
      movie(ids.corrupt, 'Zzartwork Corrupt', { poster: corruptArt }),
      episode,
    ]);
    await store.put(sourceKey(ids.poster, 'poster', art.etag), poster, 'image/jpeg');
    await store.put(sourceKey(ids.episode, 'still', stillArt.etag), still, 'image/png');
    await store.put(sourceKey(ids.corrupt, 'poster', corruptArt.etag), corrupt, 'image/jpeg');
    url = `/api/v1/artwork/${ids.poster}/poster`;
  });

  after(async () => {
    await catalogStore.remove(Object.values(ids));
    for (const id of Object.values(ids)) await store.removeAll(id);
  });

  it('sends the poster at its own size and format, with a strong ETag and a day of caching, not counted by the rate limit', async () => {
    const res = await fetchBytes(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'image/jpeg');
    const meta = await sharp(res.body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 500, 750]);
    assert.equal(res.headers.etag, `"${art.etag}-poster-original-r1.jpg"`);
    assert.equal(res.headers['cache-control'], 'public, max-age=86400');
    assert.match(res.headers.vary, /\bAccept\b/);
    assert.equal(res.headers['content-length'], String(res.body.length));
    assert.equal(res.headers.ratelimit, undefined);
  });

  it('snaps a requested width up to the next rendered size, keeping the aspect ratio', async () => {
    for (const [w, width, height] of [
      [300, 320, 480],
      [1, 160, 240],
      [480, 480, 720],
    ] as const) {
      const res = await fetchBytes(`${url}?w=${w}`);
      assert.equal(res.status, 200, `w=${w}`);
      const meta = await sharp(res.body).metadata();
      assert.deepEqual([meta.width, meta.height], [width, height], `w=${w}`);
      assert.equal(res.headers.etag, `"${art.etag}-poster-w${width}-r1.jpg"`);
    }
    // Wider than the source: its own size, the same variant as no width at all.
    const wide = await fetchBytes(`${url}?w=4000`);
    assert.equal((await sharp(wide.body).metadata()).width, 500);
    assert.equal(wide.headers.etag, `"${art.etag}-poster-original-r1.jpg"`);
  });

  it('sends WebP or AVIF to a client that names them, and JPEG to one that accepts anything', async () => {
    const webp = await fetchBytes(`${url}?w=300`, { Accept: 'image/webp,*/*;q=0.8' });
    assert.equal(webp.headers['content-type'], 'image/webp');
    assert.deepEqual(Object.values((({ format, width }) => ({ format, width }))(await sharp(webp.body).metadata())), ['webp', 320]);
    assert.equal(webp.headers.etag, `"${art.etag}-poster-w320-r1.webp"`);

    const avif = await fetchBytes(`${url}?w=300`, { Accept: 'image/avif' });
    assert.equal(avif.status, 200);
    assert.equal(avif.headers['content-type'], 'image/avif');
    assert.equal(avif.body.subarray(4, 12).toString('latin1'), 'ftypavif');
    assert.equal((await sharp(avif.body).metadata()).width, 320);

    const chrome = await fetchBytes(url, { Accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8' });
    assert.equal(chrome.headers['content-type'], 'image/webp');
    const any = await fetchBytes(url, { Accept: '*/*' });
    assert.equal(any.headers['content-type'], 'image/jpeg');
  });

  it('answers 304 with no body to If-None-Match with the ETag, and the image to another ETag', async () => {
    const first = await fetchBytes(`${url}?w=160`, { Accept: 'image/webp' });
    const again = await fetchBytes(`${url}?w=160`, { Accept: 'image/webp', 'If-None-Match': first.headers.etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal(again.headers['cache-control'], 'public, max-age=86400');
    assert.equal((await fetchBytes(`${url}?w=160`, { Accept: 'image/webp', 'If-None-Match': `"x", W/${first.headers.etag}` })).status, 304);
    // The same ETag for another format is another representation: the bytes are sent.
    const jpeg = await fetchBytes(`${url}?w=160`, { 'If-None-Match': first.headers.etag });
    assert.equal(jpeg.status, 200);
    assert.equal(jpeg.headers['content-type'], 'image/jpeg');
  });

  it('lets a URL carrying the current version be cached for a year, immutable; an old version for a day', async () => {
    const current = await fetchBytes(`${url}?w=300&v=${art.etag}`);
    assert.equal(current.status, 200);
    assert.equal(current.headers['cache-control'], 'public, max-age=31536000, immutable');
    const old = await fetchBytes(`${url}?w=300&v=0123456789abcdef`);
    assert.equal(old.headers['cache-control'], 'public, max-age=86400');
    assert.equal(old.headers.etag, current.headers.etag);
  });

  it('renders a variant once and serves it from the store afterwards', async () => {
    // Prepare
    const key = variantKeyOf(ids.poster, 'poster', art.etag, { width: 480, format: 'png' });
    const onDisk = join(stack.dataDir, 'artwork', key);
    assert.equal(existsSync(onDisk), false);
    // Act
    const first = await fetchBytes(`${url}?w=400`, { Accept: 'image/png' });
    // Assess
    assert.equal(first.headers.etag, `"${art.etag}-poster-w480-r1.png"`);
    assert.ok(existsSync(onDisk), 'the variant is stored');
    assert.deepEqual((await store.get(key))?.bytes, first.body);
    // Replace the stored variant with other bytes: a second request sends those, not a new render.
    const marker = await sharp({ create: { width: 7, height: 9, channels: 3, background: '#00ff00' } })
      .png()
      .toBuffer();
    await store.put(key, marker, 'image/png');
    const second = await fetchBytes(`${url}?w=400`, { Accept: 'image/png' });
    assert.equal(second.status, 200);
    assert.ok(second.body.equals(marker), 'served from the store');
    // w=481 snaps to 780, wider than the 500-pixel source: the original size, a file of its own.
    const wider = await fetchBytes(`${url}?w=481`, { Accept: 'image/png' });
    assert.equal(wider.headers.etag, `"${art.etag}-poster-original-r1.png"`);
    assert.ok(existsSync(join(stack.dataDir, 'artwork', variantKeyOf(ids.poster, 'poster', art.etag, { width: null, format: 'png' }))));
  });

  it('serves an episode its still, and a PNG source as PNG to a client that accepts anything', async () => {
    const res = await fetchBytes(`/api/v1/artwork/${ids.episode}/still?w=300`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'image/png');
    const meta = await sharp(res.body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 320, 180]);
  });

  it('answers 404 problems for an unknown id, a kind the item cannot have and an item without artwork', async () => {
    const cases: Array<[path: string, detail: RegExp]> = [
      [`/api/v1/artwork/mv_nothing${uniq()}/poster`, /^Media mv_nothing\w+ was not found$/],
      [`/api/v1/artwork/${ids.poster}/still`, /has no still: movies and TV shows have a poster and a backdrop only/],
      [`/api/v1/artwork/${ids.episode}/poster`, /has no poster: episodes have a still only/],
      [`/api/v1/artwork/${ids.poster}/backdrop`, /^The backdrop of mv_art\w+ was not found$/],
      [`/api/v1/artwork/${ids.bare}/poster`, /^The poster of mv_art\w+ was not found$/],
    ];
    for (const [path, detail] of cases) {
      const res = await call('GET', path);
      assert.equal(res.status, 404, path);
      assert.equal(res.headers['content-type'], 'application/problem+json');
      assert.equal(res.json.type, '/problems/not-found');
      assert.match(res.json.detail, detail);
    }
  });

  it('answers 400 for an unknown kind, a bad width or an unknown parameter', async () => {
    const cases: Array<[path: string, field: string]> = [
      [`/api/v1/artwork/${ids.poster}/cover`, 'params.kind'],
      [`${url}?w=0`, 'query.w'],
      [`${url}?w=4001`, 'query.w'],
      [`${url}?w=wide`, 'query.w'],
      [`${url}?w=1.5`, 'query.w'],
      [`${url}?v=`, 'query.v'],
      [`${url}?size=300`, 'query.size'],
      ['/api/v1/artwork/mv.x/poster', 'params.mediaId'],
    ];
    for (const [path, field] of cases) {
      const res = await call('GET', path);
      assert.equal(res.status, 400, path);
      assert.equal(res.json.type, '/problems/invalid-request', path);
      assert.ok(
        res.json.errors.some((e: { field: string }) => e.field === field),
        `${path}: ${JSON.stringify(res.json.errors)}`,
      );
    }
  });

  it('answers 404 with a clear detail when the stored source is gone, and still serves variants rendered before', async () => {
    // Prepare: a variant rendered while the source was there, then the source deleted.
    const before = await fetchBytes(`${url}?w=480`);
    assert.equal(before.status, 200);
    rmSync(join(stack.dataDir, 'artwork', sourceKey(ids.poster, 'poster', art.etag)));
    // Act
    const gone = await call('GET', `${url}?w=160&v=${art.etag}`, { headers: { accept: 'image/avif' } });
    const kept = await fetchBytes(`${url}?w=480`);
    // Assess
    assert.equal(gone.status, 404);
    assert.equal(gone.json.type, '/problems/not-found');
    assert.match(gone.json.detail, /^The poster of mv_art\w+ is no longer in the artwork cache; a rescan of its library stores it again$/);
    assert.equal(kept.status, 200);
    assert.ok(kept.body.equals(before.body));
  });

  it('answers a bare 500 when a stored source cannot be rendered', async () => {
    const res = await call('GET', `/api/v1/artwork/${ids.corrupt}/poster?w=300`);
    assert.equal(res.status, 500);
    assert.equal(res.json.type, '/problems/internal');
    assert.equal(res.json.detail, 'An unexpected error occurred');
    // The operator learns what went wrong from the log, with the item and the reason.
    const record = await waitFor(
      'the render failure in the log',
      async () => {
        const logs = await call('GET', `/api/v1/logs?level=error&q=${ids.corrupt}&limit=5`);
        return logs.json.data.find((r: any) => r.msg === 'stored artwork could not be rendered');
      },
      15_000,
      200,
    );
    assert.deepEqual([record.mediaId, record.kind, record.requestId], [ids.corrupt, 'poster', res.json.requestId]);
    assert.match(record.reason, /^(corrupt|not-an-image)$/);
  });
});
