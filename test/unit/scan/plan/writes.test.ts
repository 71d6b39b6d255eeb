// What must be written against the index: new and changed items, in the order the writer needs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogItem, IndexEntry } from '../../../../lib/catalog/model';
import { titleColors } from '../../../../lib/media/mesh-gradient';
import { desiredItems, type ItemsInput } from '../../../../lib/scan/plan/items';
import { planWrites } from '../../../../lib/scan/plan/writes';

const file = (relPath: string, size = 100, mtimeMs = 1) => ({ relPath, size, mtimeMs });
const itemsOf = (mediaType: ItemsInput['mediaType'], files: ItemsInput['files']) =>
  desiredItems({ libraryId: 'lib', mediaType, jobId: 'job2', now: 'T1', files }).items;
const indexOf = (items: Map<string, CatalogItem>): IndexEntry[] =>
  [...items.values()].map((i) => ({ id: i.id, entity: i.entity, addedAt: 'T0', ...(i.entity === 'tvshow' ? {} : { files: i.files }) }));
// Marks what went through `enrich`, so the test sees it was applied to each write.
const enrich = <T extends CatalogItem>(item: T): T => ({ ...item, enrich: 'local' });
const pathOf = (i: CatalogItem) => (i.entity === 'tvshow' ? `show:${i.title}` : i.files[0]!.relPath);

describe('scan plan: writes', () => {
  it('new items are added, shows first then path order, coloured by title and enriched', () => {
    const items = itemsOf('tvshow', [file('B Show/Season 1/B.S01E01.mkv'), file('A Show/Season 1/A.S01E01.mkv')]);
    const { writes, upToDateFiles } = planWrites(items, [], enrich);
    assert.deepEqual(
      writes.map((w) => [pathOf(w.item), w.change, w.files]),
      [
        ['show:A Show', 'added', 0],
        ['show:B Show', 'added', 0],
        ['A Show/Season 1/A.S01E01.mkv', 'added', 1],
        ['B Show/Season 1/B.S01E01.mkv', 'added', 1],
      ],
    );
    const show = writes[0]!.item;
    assert.deepEqual(show.entity === 'tvshow' && show.meshGradientColors, titleColors('A Show'));
    assert.deepEqual(
      writes.map((w) => w.item.enrich),
      ['local', 'local', 'local', 'local'],
    );
    assert.equal(upToDateFiles, 0);
  });

  it('a changed item is updated and keeps addedAt; an unchanged one and a known show are up to date', () => {
    const before = itemsOf('movie', [file('Heat (1995).mkv'), file('Alien (1979).mkv')]);
    const now = itemsOf('movie', [file('Heat (1995).mkv', 200), file('Alien (1979).mkv')]);
    const { writes, upToDateFiles } = planWrites(now, indexOf(before), enrich);
    assert.deepEqual(
      writes.map((w) => [pathOf(w.item), w.change, w.item.addedAt, w.item.lastChange, w.files]),
      [['Heat (1995).mkv', 'updated', 'T0', 'updated', 1]],
    );
    assert.equal(upToDateFiles, 1, 'Alien');
    // A show already in the index is not written again, whatever its episodes do.
    const tv = itemsOf('tvshow', [file('Show/Season 1/Show.S01E01.mkv')]);
    const showOnly = indexOf(tv).filter((e) => e.entity === 'tvshow');
    assert.deepEqual(
      planWrites(tv, showOnly, enrich).writes.map((w) => [w.item.entity, w.change]),
      [['episode', 'added']],
    );
  });

  it('a part number that changed is a change, even with the same paths, sizes and times', () => {
    const items = itemsOf('movie', [file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi')]);
    const index = indexOf(items).map((e) => ({ ...e, files: e.files!.map((f) => ({ ...f, part: null })) }));
    assert.deepEqual(
      planWrites(items, index, enrich).writes.map((w) => w.change),
      ['updated'],
    );
  });

  it('a double-episode file is counted once, written or up to date', () => {
    const double = itemsOf('tvshow', [file('Show/Season 1/Show.S01E01-E02.mkv')]);
    const fresh = planWrites(double, [], enrich);
    assert.deepEqual(
      fresh.writes.map((w) => [w.item.entity, w.files]),
      [
        ['tvshow', 0],
        ['episode', 1],
        ['episode', 0],
      ],
    );
    const again = planWrites(double, indexOf(double), enrich);
    assert.deepEqual({ writes: again.writes.length, upToDateFiles: again.upToDateFiles }, { writes: 0, upToDateFiles: 1 });
  });
});
