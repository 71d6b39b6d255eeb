// The artwork delivery part of `npm run bench` (`tsx bench/run.ts artwork-delivery` alone): with
// the artwork cache in the media bucket (MEDIA_STORAGE=s3, s3rver standing in for S3), a wall of
// 40 posters as a browser loads it (bench/poster-wall.ts), from an instance that answers the
// bytes itself (the default for images of this size) and one that redirects to presigned URLs
// of the stored variants (ARTWORK_REDIRECT_ABOVE_BYTES=0), both up at once and taking turns. Cold: every variant rendered
// and stored on its first request (the variants are deleted from the bucket before each cold
// wall); warm: every variant stored, no browser cache.
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { rmSync } from 'node:fs';
import { startInstance, tempDir, type Instance } from '../test/support/instance';
import { allPages, scan } from '../test/support/media';
import { detailedQuadrants, paintedJpeg, seededRandom, type QuadrantColours, type Rgb } from '../test/support/posters';
import { S3RVER_CREDENTIALS, startS3, type LocalS3 } from '../test/support/s3';
import { loadWall, type WallLoad } from './poster-wall';
import { machineLine, median, percentile, writeDoc } from './support';

const FILMS = 40;
const WIDTH = 320;
const RUNS = Number(process.env.BENCH_WALL_RUNS ?? 7);
const MODES = ['function', 'redirect'] as const;
type Mode = (typeof MODES)[number];
type State = 'cold' | 'warm';
const ARTWORK_PREFIX = '.cache/artwork/';

const say = (line: string) => process.stdout.write(`[artwork-delivery] ${line}\n`);

/** A distinct 500x750 poster per film: four colours of its own, title stripes, soft light and grain, like a photographed one. */
const poster = (seed: number) => {
  const next = seededRandom(seed * 7919);
  const colour = (): Rgb => [next() * 255, next() * 255, next() * 255];
  const flat = detailedQuadrants([colour(), colour(), colour(), colour()] as QuadrantColours);
  const shaded = (x: number, y: number): Rgb => {
    const light = 0.65 + 0.35 * Math.sin(x / (60 + seed)) * Math.cos(y / (90 + seed));
    const [r, g, b] = flat(x, y);
    return [r * light, g * light, b * light];
  };
  return paintedJpeg(shaded, { noise: 18, seed });
};

const filmName = (i: number) => `Poster Wall ${String(i + 1).padStart(2, '0')} (${1960 + i})`;

/** The same 40 films with their posters in a bucket of each mode, so neither instance sees the other's variants. */
const fillBuckets = async (s3: LocalS3) => {
  let posterBytes = 0;
  for (let i = 0; i < FILMS; i++) {
    const jpeg = await poster(i + 1);
    posterBytes += jpeg.length;
    for (const bucket of MODES) {
      await s3.put(bucket, `movies/${filmName(i)}/${filmName(i)}.mkv`, Buffer.from(`film ${i}`));
      await s3.put(bucket, `movies/${filmName(i)}/poster.jpg`, jpeg);
    }
  }
  return posterBytes;
};

const artworkObjects = async (client: S3Client, bucket: string) => {
  const objects: { key: string; size: number }[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: ARTWORK_PREFIX, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) objects.push({ key: o.Key, size: o.Size ?? 0 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
};

const isVariant = (key: string) => !key.endsWith('/source');

/** Every rendered variant out of the bucket, the stored sources kept: the next wall renders all of them again. */
const dropVariants = async (client: S3Client, bucket: string) => {
  const variants = (await artworkObjects(client, bucket)).filter((o) => isVariant(o.key));
  if (variants.length) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: variants.map((o) => ({ Key: o.key })), Quiet: true } }));
};

const startMode = (mode: Mode, s3: LocalS3) =>
  startInstance({
    env: {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      MEDIA_BUCKET: mode,
      ARTWORK_REDIRECT_ABOVE_BYTES: mode === 'redirect' ? '0' : String(4 * 1024 * 1024),
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      TMDB_API_KEY: '',
      RATE_LIMIT_MAX: '1000000000',
    },
  });

/** The wall's URLs as a client builds them: each film's posterUrl (with its `v`) at the wall's width. */
const wallUrls = async (instance: Instance, bucket: Mode) => {
  const job = await scan({ path: `s3://${bucket}/movies`, mediaType: 'movie' }, instance.url);
  if (job.status !== 'completed') throw new Error(`scan of ${bucket}: ${job.status} ${JSON.stringify(job.error)}`);
  const movies = await allPages('/api/v1/movies', instance.url);
  const urls = movies.flatMap((m) => (m.posterUrl ? [`${m.posterUrl}&w=${WIDTH}`] : []));
  if (urls.length !== FILMS) throw new Error(`${bucket}: ${urls.length} of ${FILMS} films have a poster`);
  return urls;
};

const isWebp = (head: Buffer) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP';

/** Every image arrived whole as WebP, by the path its mode promises: bytes from the service, or one 302 then bytes from the bucket. */
const check = (wall: WallLoad, mode: Mode, apiOrigin: string) => {
  for (const image of wall.images) {
    const statuses = image.hops.map((h) => h.status).join(' -> ');
    const expected = mode === 'function' ? '200' : '302 -> 200';
    if (statuses !== expected) throw new Error(`${mode}: an image answered ${statuses}, expected ${expected}`);
    if (image.contentType !== 'image/webp' || !isWebp(image.head)) throw new Error(`${mode}: an image came as ${image.contentType}`);
    if (mode === 'redirect' && image.hops[1]!.origin === apiOrigin) throw new Error('redirect: the bytes came from the service');
  }
};

interface Sample {
  totals: number[];
  perImage: number[];
  /** Image body bytes in the function's answers, per wall. */
  functionBytes: number[];
  /** Body bytes from the bucket's origin, per wall. */
  bucketBytes: number[];
}

const emptySample = (): Sample => ({ totals: [], perImage: [], functionBytes: [], bucketBytes: [] });

const record = (sample: Sample, wall: WallLoad, apiOrigin: string) => {
  const hops = wall.images.flatMap((i) => i.hops);
  sample.totals.push(wall.totalMs);
  sample.perImage.push(...wall.images.map((i) => i.ms));
  sample.functionBytes.push(hops.filter((h) => h.origin === apiOrigin).reduce((n, h) => n + h.bytes, 0));
  sample.bucketBytes.push(hops.filter((h) => h.origin !== apiOrigin).reduce((n, h) => n + h.bytes, 0));
};

/** What a Lambda response carries for these bytes: base64, 4 characters per 3 bytes. */
const base64Size = (bytes: number) => 4 * Math.ceil(bytes / 3);
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const ms = (value: number) => value.toFixed(0);

export const runArtworkDelivery = async () => {
  // Everything this part writes (the bucket's folder, both instances' data) lives here and goes at the end.
  const scratch = tempDir('bench-artwork');
  const previousTmp = process.env.MLS_TEST_TMP;
  process.env.MLS_TEST_TMP = scratch;
  const s3 = await startS3([...MODES]);
  const instances: Partial<Record<Mode, Instance>> = {};
  try {
    say(`painting ${FILMS} posters and putting them in both buckets`);
    const posterBytes = await fillBuckets(s3);
    say('starting one instance per mode and scanning its bucket');
    for (const mode of MODES) instances[mode] = await startMode(mode, s3);
    const urls = { function: await wallUrls(instances.function!, 'function'), redirect: await wallUrls(instances.redirect!, 'redirect') };

    const samples: Record<Mode, Record<State, Sample>> = {
      function: { cold: emptySample(), warm: emptySample() },
      redirect: { cold: emptySample(), warm: emptySample() },
    };
    const wall = async (mode: Mode, state: State | 'warm-up') => {
      const instance = instances[mode]!;
      if (state !== 'warm') await dropVariants(s3.client, mode);
      const load = await loadWall(urls[mode]);
      check(load, mode, instance.url);
      if (state !== 'warm-up') record(samples[mode][state], load, instance.url);
      return load;
    };
    // The first walls load the handler, sharp and the SDK in each instance: not what is measured.
    for (const mode of MODES) {
      await wall(mode, 'warm-up');
      await wall(mode, 'warm-up');
    }
    for (let run = 0; run < RUNS; run++) {
      // The modes take turns, each starting first every other run, so both see the same machine.
      const order = run % 2 === 0 ? MODES : [...MODES].reverse();
      for (const mode of order) {
        const cold = await wall(mode, 'cold');
        const warm = await wall(mode, 'warm');
        say(`run ${run + 1} ${mode}: cold ${ms(cold.totalMs)} ms, warm ${ms(warm.totalMs)} ms`);
      }
    }

    const objects = await artworkObjects(s3.client, 'function');
    const variantBytes = objects.filter((o) => isVariant(o.key)).reduce((n, o) => n + o.size, 0);
    const sourceBytes = objects.filter((o) => !isVariant(o.key)).reduce((n, o) => n + o.size, 0);
    // What the function reads from the bucket per wall, from the objects' sizes: a cold wall reads
    // each source (and writes each variant) in both modes; a warm one reads the variants only
    // when it answers them itself (a redirect asks for their heads).
    const readFromBucket: Record<Mode, Record<State, number>> = {
      function: { cold: sourceBytes, warm: variantBytes },
      redirect: { cold: sourceBytes, warm: 0 },
    };
    const rows = MODES.flatMap((mode) =>
      (['cold', 'warm'] as const).map((state) => {
        const s = samples[mode][state];
        const inAnswers = median(s.functionBytes);
        return `| ${mode} | ${state} | ${ms(median(s.totals))} | ${ms(Math.min(...s.totals))}-${ms(Math.max(...s.totals))} | ${ms(percentile(s.perImage, 50))} | ${ms(percentile(s.perImage, 95))} | ${kb(inAnswers)} (${kb(base64Size(inAnswers))} as base64) | ${kb(readFromBucket[mode][state])} | ${kb(median(s.bucketBytes))} | ${mode === 'function' ? FILMS : `${FILMS} + ${FILMS}`} |`;
      }),
    );
    const section = [
      `${machineLine()}. ${FILMS} films in a bucket (s3rver in its own process), each with its own ${kb(posterBytes / FILMS)} 500x750 JPEG poster; the wall asks for all ${FILMS} posterUrls at w=${WIDTH} with \`Accept: ${'image/avif,image/webp,*/*'}\` (WebP answered, ${kb(variantBytes / FILMS)} each), at most 6 connections per origin, redirects followed, fresh connections and no cache per wall. ${RUNS} walls per row after two unmeasured ones, the two instances taking turns; per-image times pooled over all walls of a row, from the image's first request getting a connection to its last byte.`,
      '',
      '| mode | state | wall total ms (median) | range ms | per image p50 ms | p95 ms | image bytes in the function\'s answers per wall | read by the function from the bucket per wall | bytes from the bucket\'s URL per wall | requests (service + bucket URL) |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
    process.stdout.write(`\n${section}\n`);
    try {
      writeDoc('artwork-delivery', section);
    } catch (error) {
      say(`not written to docs/benchmarks.md: ${(error as Error).message}`);
    }
  } finally {
    for (const instance of Object.values(instances)) await instance?.stop();
    await s3.close();
    if (previousTmp === undefined) delete process.env.MLS_TEST_TMP;
    else process.env.MLS_TEST_TMP = previousTmp;
    rmSync(scratch, { recursive: true, force: true });
  }
};
