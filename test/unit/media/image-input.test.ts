// How sharp's failures become ImageErrors: one type to catch, with a reason to tell them apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImageError, toImageError } from '../../../lib/media/image-input';

describe('toImageError', () => {
  // The messages sharp 0.35 (libvips 8.18) gives; an unknown one is still an ImageError.
  const rows: Array<[message: string, reason: ImageError['reason']]> = [
    ['Input buffer contains unsupported image format', 'not-an-image'],
    ['Input Buffer is empty', 'not-an-image'],
    ['Input image exceeds pixel limit', 'too-large'],
    ['Input image exceeds channel limit', 'too-large'],
    ['timeout: 12% complete', 'timeout'],
    ['VipsJpeg: premature end of JPEG image', 'corrupt'],
    ['something sharp has never said', 'corrupt'],
  ];
  for (const [message, reason] of rows)
    it(`reads "${message}" as ${reason}, keeping the original as the cause`, () => {
      const original = new Error(message);
      const error = toImageError(original);
      assert.ok(error instanceof ImageError);
      assert.deepEqual([error.name, error.reason, error.cause], ['ImageError', reason, original]);
    });

  it('passes an ImageError through unchanged', () => {
    const error = new ImageError('too-large', 'too big');
    assert.equal(toImageError(error), error);
  });
});
