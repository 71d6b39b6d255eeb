import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hslToHex, titleColors } from '../../../lib/media/mesh-gradient';

describe('title colours', () => {
  it('are four #rrggbb colours, the same for the same title however it is written', () => {
    fc.assert(
      fc.property(fc.string(), (title) => {
        const colours = titleColors(title);
        assert.equal(colours.length, 4);
        for (const c of colours) assert.match(c, /^#[0-9a-f]{6}$/);
        assert.deepEqual(titleColors(title.normalize('NFD')), colours);
        assert.deepEqual(titleColors(` ${title.toUpperCase()} `), titleColors(title.toLowerCase()));
      }),
    );
  });

  it('differ between titles', () => {
    const seen = new Set(['Inception', 'Heat', 'Amélie', 'The Dark Knight', 'Alien', 'Aliens'].map((t) => titleColors(t).join()));
    assert.equal(seen.size, 6);
  });

  it('converts HSL exactly at the primaries', () => {
    assert.equal(hslToHex(0, 1, 0.5), '#ff0000');
    assert.equal(hslToHex(120, 1, 0.5), '#00ff00');
    assert.equal(hslToHex(240, 1, 0.5), '#0000ff');
    assert.equal(hslToHex(0, 0, 1), '#ffffff');
  });
});
