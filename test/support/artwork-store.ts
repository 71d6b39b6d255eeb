// What every artwork store adapter must do alike (the disk's and the bucket's), and bytes that
// pass for images: the stores sniff the first bytes only.
import assert from 'node:assert/strict';
import { sourceKey, variantKeyOf, type ArtworkStore } from '../../lib/artwork/store';

export const jpegLike = (size: number, fill: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, fill)]);
export const pngLike = (size: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 7)]);

/** A source and a variant of item `mediaId` put and read back with their types; keys never put read as nothing. */
export const assertRoundTrip = async (store: ArtworkStore, mediaId = 'mv_a') => {
  const jpeg = jpegLike(1000, 1);
  const png = pngLike(500);
  const variant = variantKeyOf(mediaId, 'poster', 'e1', { width: 160, format: 'png' });
  await store.put(sourceKey(mediaId, 'poster', 'e1'), jpeg, 'image/jpeg');
  await store.put(variant, png, 'image/png');
  assert.deepEqual(await store.get(sourceKey(mediaId, 'poster', 'e1')), { bytes: jpeg, contentType: 'image/jpeg' });
  assert.deepEqual(await store.get(variant), { bytes: png, contentType: 'image/png' });
  assert.equal(await store.get(sourceKey(mediaId, 'poster', 'e2')), undefined);
  assert.equal(await store.get(sourceKey('mv_never', 'still', 'e1')), undefined);
};
