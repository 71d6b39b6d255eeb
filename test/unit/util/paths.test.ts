import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isInside, selfAndAncestors } from '../../../lib/util/paths';

describe('isInside', () => {
  const rows: [outer: string, inner: string, inside: boolean, why: string][] = [
    ['/media', '/media', true, 'a folder holds itself'],
    ['/media', '/media/films', true, 'a folder below'],
    ['/media', '/media/films/a/b', true, 'a folder further below'],
    ['/media', '/media2', false, 'a sibling that shares the start of the name'],
    ['/media', '/med', false, 'a shorter name'],
    ['/media/films', '/media', false, 'the folder above'],
    ['/', '/anything', true, 'the root holds everything'],
    ['/', '/', true, 'the root holds itself'],
    ['/media', '/media/.hidden', true, 'a dot folder below is below'],
  ];
  for (const [outer, inner, inside, why] of rows) {
    it(`${inner} is ${inside ? '' : 'not '}inside ${outer}: ${why}`, () => assert.equal(isInside(outer, inner), inside));
  }
});

describe('selfAndAncestors', () => {
  it('walks from the path up to the root, the path first', () =>
    assert.deepEqual([...selfAndAncestors('/a/b/c')], ['/a/b/c', '/a/b', '/a', '/']));

  it('gives the root once', () => assert.deepEqual([...selfAndAncestors('/')], ['/']));
});
