// The artwork store's keys and its local-disk adapter: round trips, atomic replacement
// (readers racing a writer see one whole file or the other), and keys that would leave the
// store's folder refused. The adapter's tests use a temporary folder of their own.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ArtworkKeyError, localArtworkStore, sourceKey, variantKeyOf } from '../../../lib/artwork/store';
import type { ArtworkKind } from '../../../lib/artwork/model';
import { assertRoundTrip, jpegLike, pngLike } from '../../support/artwork-store';

const scratch = mkdtempSync(join(tmpdir(), 'mls-artwork-store-'));
let n = 0;
const freshRoot = () => join(scratch, `root${n++}`);

describe('artwork keys', () => {
  it('name a source and its variants in one folder per item, kind and etag', () => {
    // Act
    const source = sourceKey('mv_abc-1', 'poster', 'f00d');
    const variant = variantKeyOf('mv_abc-1', 'poster', 'f00d', { width: 320, format: 'webp' });
    const original = variantKeyOf('ep_x', 'still', 'AbC_-9', { width: null, format: 'jpeg' });
    // Assess
    assert.deepEqual(
      [source, variant, original],
      ['mv_abc-1/poster-f00d/source', 'mv_abc-1/poster-f00d/poster-w320-r1.webp', 'ep_x/still-AbC_-9/still-original-r1.jpg'],
    );
  });

  const refused: Array<[label: string, build: () => string]> = [
    ['a media id with ..', () => sourceKey('..', 'poster', 'e1')],
    ['a media id with a slash', () => sourceKey('mv/../../etc', 'poster', 'e1')],
    ['an empty media id', () => sourceKey('', 'poster', 'e1')],
    ['a media id with a dot', () => sourceKey('mv.x', 'poster', 'e1')],
    ['an absolute media id', () => sourceKey('/etc', 'poster', 'e1')],
    ['a media id with a backslash', () => sourceKey('mv\\..\\x', 'poster', 'e1')],
    ['a media id with a NUL', () => sourceKey('mv\u0000x', 'poster', 'e1')],
    ['an etag with a slash', () => sourceKey('mv_a', 'poster', '../../x')],
    ['an etag with a dot', () => variantKeyOf('mv_a', 'poster', 'a.b', { width: 160, format: 'png' })],
    ['an unknown kind', () => sourceKey('mv_a', '../x' as ArtworkKind, 'e1')],
  ];
  for (const [label, build] of refused) it(`refuses ${label}`, () => assert.throws(build, ArtworkKeyError));
});

describe('localArtworkStore', () => {
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('gives back what was put, with its content type, and nothing for a key never put', async () => {
    await assertRoundTrip(localArtworkStore(freshRoot()));
  });

  it('keeps files where the keys say, as plain image files, with no temporary file left over', async () => {
    // Prepare
    const root = freshRoot();
    const store = localArtworkStore(root);
    // Act
    await store.put(sourceKey('mv_a', 'backdrop', 'e1'), jpegLike(100, 1), 'image/jpeg');
    await store.put(sourceKey('mv_a', 'backdrop', 'e1'), jpegLike(200, 2), 'image/jpeg');
    // Assess
    assert.deepEqual(readdirSync(join(root, 'mv_a', 'backdrop-e1')), ['source']);
    assert.deepEqual((await store.get(sourceKey('mv_a', 'backdrop', 'e1')))?.bytes, jpegLike(200, 2));
  });

  it('replaces a file atomically: readers racing the writer see the old or the new bytes whole, never a part', async () => {
    // Prepare: two large, different files under one key.
    const store = localArtworkStore(freshRoot());
    const key = variantKeyOf('mv_race', 'poster', 'e1', { width: 1280, format: 'jpeg' });
    const a = jpegLike(4 * 1024 * 1024, 0xaa);
    const b = jpegLike(3 * 1024 * 1024 + 17, 0xbb);
    await store.put(key, a, 'image/jpeg');
    // Act: write them in turn while reading as fast as possible.
    let writing = true;
    const seen = { a: 0, b: 0 };
    const reader = (async () => {
      while (writing) {
        const got = await store.get(key);
        assert.ok(got, 'the key is never missing while it is being replaced');
        if (got.bytes.equals(a)) seen.a++;
        else if (got.bytes.equals(b)) seen.b++;
        else assert.fail(`read ${got.bytes.length} bytes that are neither file whole`);
      }
    })();
    for (let i = 0; i < 20; i++) await store.put(key, i % 2 ? a : b, 'image/jpeg');
    writing = false;
    await reader;
    // Assess
    assert.ok(seen.a + seen.b > 0);
  });

  it('never serves what a crash left behind: a temporary file has a name no key can have', async () => {
    // Prepare: a half-written temporary file, as a crash between write and rename leaves it.
    const root = freshRoot();
    const store = localArtworkStore(root);
    const folder = join(root, 'mv_crash', 'poster-e1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '.0123456789ab.tmp'), Buffer.from([0xff, 0xd8, 0xff]));
    // Act, Assess
    assert.equal(await store.get(sourceKey('mv_crash', 'poster', 'e1')), undefined);
    await assert.rejects(store.get('mv_crash/poster-e1/.0123456789ab.tmp'), ArtworkKeyError);
  });

  it("removes a failed write's temporary file and leaves the key as it was", async () => {
    // Prepare: a folder where the file should go, so the rename fails.
    const root = freshRoot();
    const store = localArtworkStore(root);
    const key = sourceKey('mv_fail', 'poster', 'e1');
    mkdirSync(join(root, key, 'inside'), { recursive: true });
    // Act
    await assert.rejects(store.put(key, jpegLike(100, 1), 'image/jpeg'));
    // Assess
    assert.deepEqual(readdirSync(join(root, 'mv_fail', 'poster-e1')), ['source']);
  });

  it('refuses keys that would leave its folder, and touches nothing outside it', async () => {
    // Prepare: a file next to the store's folder.
    const root = freshRoot();
    const store = localArtworkStore(root);
    mkdirSync(root, { recursive: true });
    const outside = join(root, '..', `outside-${n}.jpg`);
    writeFileSync(outside, jpegLike(10, 1));
    const escaping = [
      '../outside.jpg',
      `mv_a/../../outside-${n}.jpg`,
      '/etc/passwd',
      'mv_a/..',
      'mv_a/./x',
      'mv_a',
      '',
      'mv_a//x',
      'mv_a/x\\..\\..\\y',
      'mv_a/x\u0000',
    ];
    // Act, Assess
    for (const key of escaping) {
      await assert.rejects(store.get(key), ArtworkKeyError, `get ${JSON.stringify(key)}`);
      await assert.rejects(store.put(key, jpegLike(10, 2), 'image/jpeg'), ArtworkKeyError, `put ${JSON.stringify(key)}`);
    }
    for (const mediaId of ['..', '.', '', '../x', '/', 'a/b'])
      await assert.rejects(store.removeAll(mediaId), ArtworkKeyError, `removeAll ${mediaId}`);
    assert.ok(existsSync(outside));
    assert.ok(existsSync(root));
  });

  it('stores images only, under the type their bytes show', async () => {
    const store = localArtworkStore(freshRoot());
    const key = sourceKey('mv_type', 'poster', 'e1');
    await assert.rejects(store.put(key, Buffer.from('<html>not an image</html>'), 'image/jpeg'), /no image/);
    await assert.rejects(store.put(key, pngLike(100), 'image/jpeg'), /given image\/jpeg for png/);
    assert.equal(await store.get(key), undefined);
  });

  it('removes everything of one item and nothing of another; removing nothing is fine', async () => {
    // Prepare
    const store = localArtworkStore(freshRoot());
    await store.put(sourceKey('mv_gone', 'poster', 'e1'), jpegLike(10, 1), 'image/jpeg');
    await store.put(variantKeyOf('mv_gone', 'poster', 'e1', { width: 160, format: 'jpeg' }), jpegLike(10, 2), 'image/jpeg');
    await store.put(sourceKey('mv_kept', 'poster', 'e1'), jpegLike(10, 3), 'image/jpeg');
    // Act
    await store.removeAll('mv_gone');
    await store.removeAll('mv_never_stored');
    // Assess
    assert.equal(await store.get(sourceKey('mv_gone', 'poster', 'e1')), undefined);
    assert.equal(await store.get(variantKeyOf('mv_gone', 'poster', 'e1', { width: 160, format: 'jpeg' })), undefined);
    assert.deepEqual((await store.get(sourceKey('mv_kept', 'poster', 'e1')))?.bytes, jpegLike(10, 3));
  });
});
