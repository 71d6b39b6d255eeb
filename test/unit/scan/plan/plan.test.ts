// The scan plan, pure: what files on disk and the library's index call for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogItem, IndexEntry } from '../../../../lib/catalog/model';
import { countsOf, planScan, type PlanInput } from '../../../../lib/scan/plan';

const file = (relPath: string, size = 100, mtimeMs = 1) => ({ relPath, size, mtimeMs });
const base = (over: Partial<PlanInput>): PlanInput => ({
  libraryId: 'lib',
  mediaType: 'movie',
  jobId: 'job1',
  now: '2026-11-22T00:00:00.000Z',
  scope: '',
  files: [],
  index: [],
  ...over,
});
/** The index as it would be after the plan's writes (what gsi2 projects). */
const indexOf = (items: CatalogItem[]): IndexEntry[] =>
  items.map((i) => ({
    id: i.id,
    entity: i.entity,
    addedAt: i.addedAt,
    lastJob: i.lastJob,
    lastChange: i.lastChange,
    ...(i.entity === 'tvshow' ? {} : { files: i.files }),
    ...(i.entity === 'episode' ? { showId: i.showId, seasonNumber: i.seasonNumber } : {}),
  }));

describe('scan plan', () => {
  const movies = [
    file('Heat (1995).mkv'),
    file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi'),
    file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi'),
    file('- .mkv'),
  ];

  it('one item per movie, stacked parts in order, unreadable names counted as failed', () => {
    const plan = planScan(base({ files: movies }));
    assert.equal(plan.writes.length, 2);
    const killBill = plan.writes.find((w) => w.item.entity === 'movie' && w.item.title === 'Kill Bill')!.item as any;
    assert.deepEqual(
      killBill.files.map((f: any) => f.part),
      [1, 2],
    );
    assert.equal(
      plan.writes.reduce((n, w) => n + w.files, 0),
      3,
    );
    assert.deepEqual(
      plan.failed.map((f) => f.relPath),
      ['- .mkv'],
    );
    assert.deepEqual(countsOf(plan.index), {
      movies: 2,
      tvShows: 0,
      seasons: 0,
      episodes: 0,
      totalSizeBytes: 300,
      totalDurationSeconds: 0,
    });
  });

  it('the same files against the index it produced: nothing to write, nothing to remove', () => {
    const first = planScan(base({ files: movies }));
    const again = planScan(base({ files: movies, jobId: 'job2', index: indexOf(first.writes.map((w) => w.item)) }));
    assert.deepEqual(
      { writes: again.writes.length, removals: again.removals.length, unchanged: again.unchangedFiles },
      { writes: 0, removals: 0, unchanged: 3 },
    );
    assert.deepEqual(again.carried, { added: 0, updated: 0, moved: 0 });
    assert.deepEqual(countsOf(again.index), countsOf(first.index));
  });

  it('a resumed job counts what its earlier run wrote instead of writing it again', () => {
    const first = planScan(base({ files: movies }));
    const resumed = planScan(base({ files: movies, index: indexOf(first.writes.slice(0, 1).map((w) => w.item)) }));
    assert.equal(resumed.writes.length, 1);
    assert.deepEqual(resumed.carried, { added: 1, updated: 0, moved: 0 });
  });

  it('a changed file is an update that keeps addedAt; a vanished one is a removal, only within the scanned folder', () => {
    const first = planScan(base({ files: [...movies, file('Sub/Alien (1979).mkv')] }));
    const index = indexOf(first.writes.map((w) => w.item)).map((e) => ({ ...e, addedAt: '2020-01-01T00:00:00.000Z' }));
    const next = planScan(base({ files: [file('Heat (1995).mkv', 200), file('Sub/Alien (1979).mkv')], index, jobId: 'job2' }));
    assert.deepEqual(
      next.writes.map((w) => [w.item.entity === 'movie' && w.item.title, w.change, w.item.addedAt]),
      [['Heat', 'updated', '2020-01-01T00:00:00.000Z']],
    );
    assert.equal(next.removals.length, 1, 'Kill Bill');
    const scoped = planScan(base({ files: [file('Sub/Alien (1979).mkv')], index, scope: 'Sub', jobId: 'job3' }));
    assert.deepEqual(
      { writes: scoped.writes.length, removals: scoped.removals.length },
      { writes: 0, removals: 0 },
      'files outside Sub are not touched',
    );
  });

  it('TV: shows first, a double episode under both numbers, specials in season 0, and an emptied show removed', () => {
    const files = [
      file('Show (2008)/Season 01/Show.S01E01-E02.mkv'),
      file('Show (2008)/Specials/Show.S00E01.mkv'),
      file('Other/Season 1/Other.S01E01.mkv'),
    ];
    const plan = planScan(base({ mediaType: 'tvshow', files }));
    assert.deepEqual(
      plan.writes.slice(0, 2).map((w) => w.item.entity),
      ['tvshow', 'tvshow'],
    );
    const episodes = plan.writes.filter((w) => w.item.entity === 'episode').map((w) => w.item as any);
    assert.deepEqual(episodes.map((e) => `${e.seasonNumber}x${e.episodeNumber}`).sort(), ['0x1', '1x1', '1x1', '1x2']);
    assert.equal(
      plan.writes.reduce((n, w) => n + w.files, 0),
      3,
      'the double episode file counted once',
    );
    assert.deepEqual(countsOf(plan.index), {
      movies: 0,
      tvShows: 2,
      seasons: 3,
      episodes: 4,
      totalSizeBytes: 300,
      totalDurationSeconds: 0,
    });

    const index = indexOf(plan.writes.map((w) => w.item));
    const later = planScan(base({ mediaType: 'tvshow', files: files.slice(0, 2), index, jobId: 'job2' }));
    assert.deepEqual(
      later.removals.map((e) => e.entity),
      ['episode', 'tvshow'],
    );
    assert.equal(countsOf(later.index).tvShows, 1);
  });

  it('does not read the names of unchanged files again', () => {
    // An entry whose file is unchanged is kept under its id, whatever the name would parse to now.
    const index: IndexEntry[] = [
      { id: 'mv_kept', entity: 'movie', addedAt: 'then', files: [{ relPath: 'Heat (1995).mkv', size: 100, mtimeMs: 1, part: null }] },
    ];
    const plan = planScan(base({ files: [file('Heat (1995).mkv')], index }));
    assert.deepEqual(
      { writes: plan.writes.length, removals: plan.removals.length, unchanged: plan.unchangedFiles },
      { writes: 0, removals: 0, unchanged: 1 },
    );
    assert.equal(countsOf(plan.index).movies, 1);
  });

  it('a stacked movie that gains a part is written with all its parts', () => {
    const two = [file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi'), file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi')];
    const first = planScan(base({ files: two }));
    const three = planScan(
      base({
        files: [...two, file('Kill Bill (2003)/Kill Bill (2003) - cd3.avi')],
        index: indexOf(first.writes.map((w) => w.item)),
        jobId: 'job2',
      }),
    );
    assert.equal(three.writes.length, 1);
    assert.deepEqual(
      (three.writes[0]!.item as any).files.map((f: any) => f.part),
      [1, 2, 3],
    );
    assert.equal(three.writes[0]!.change, 'updated');
    assert.equal(three.writes[0]!.files + three.unchangedFiles, 3);
  });

  it('a double episode file is kept whole or rewritten whole', () => {
    const files = [file('Show/Season 1/Show.S01E01-E02.mkv')];
    const first = planScan(base({ mediaType: 'tvshow', files }));
    const index = indexOf(first.writes.map((w) => w.item));
    assert.equal(planScan(base({ mediaType: 'tvshow', files, index, jobId: 'job2' })).writes.length, 0);
    const changed = planScan(base({ mediaType: 'tvshow', files: [file('Show/Season 1/Show.S01E01-E02.mkv', 999)], index, jobId: 'job2' }));
    assert.deepEqual(
      changed.writes.map((w) => w.change),
      ['updated', 'updated'],
    );
    assert.equal(
      changed.writes.reduce((n, w) => n + w.files, 0),
      1,
    );
  });

  it('finds the NFO and artwork beside each item, and where its enrichment starts', () => {
    const files = [file('Heat (1995)/Heat (1995).mkv'), file('Loose/Alien (1979).mkv'), file('Loose/Brazil (1985).mkv')];
    const sidecars = [
      'Heat (1995)/movie.nfo',
      'Heat (1995)/poster.jpg',
      'Heat (1995)/fanart.jpg',
      'Loose/poster.jpg',
      'Loose/Alien (1979)-poster.png',
    ].map((p) => file(p));
    const byTitle = (plan: ReturnType<typeof planScan>) => new Map(plan.writes.map((w) => [(w.item as any).title, w.item as any]));
    const offline = byTitle(planScan(base({ files, sidecars, providerOn: false })));
    assert.deepEqual(offline.get('Heat').local, {
      nfo: 'Heat (1995)/movie.nfo',
      poster: 'Heat (1995)/poster.jpg',
      backdrop: 'Heat (1995)/fanart.jpg',
    });
    // A folder of several movies: its poster.jpg belongs to none of them, their own files do.
    assert.deepEqual(offline.get('Alien').local, { poster: 'Loose/Alien (1979)-poster.png' });
    assert.deepEqual(offline.get('Brazil').local, {});
    assert.deepEqual(
      [offline.get('Heat').enrich, offline.get('Alien').enrich, offline.get('Brazil').enrich],
      ['metadata', 'artwork', 'local'],
    );
    const online = byTitle(planScan(base({ files, sidecars, providerOn: true })));
    assert.deepEqual(
      [...online.values()].map((i) => i.enrich),
      ['metadata', 'metadata', 'metadata'],
    );
    assert.ok(
      planScan(base({ files, sidecars })).index.every((e) => e.enrich !== undefined),
      'the index carries the state',
    );
  });

  it('a show takes tvshow.nfo and its artwork from its own folder, an episode its NFO and still', () => {
    const files = [file('Show (2005)/Season 1/Show - S01E01.mkv')];
    const sidecars = [
      'Show (2005)/tvshow.nfo',
      'Show (2005)/folder.jpg',
      'Show (2005)/Season 1/Show - S01E01.nfo',
      'Show (2005)/Season 1/Show - S01E01-thumb.jpg',
    ].map((p) => file(p));
    const plan = planScan(base({ mediaType: 'tvshow', files, sidecars }));
    const [show, episode] = plan.writes.map((w) => w.item as any);
    assert.deepEqual(show.local, { nfo: 'Show (2005)/tvshow.nfo', poster: 'Show (2005)/folder.jpg' });
    assert.deepEqual(episode.local, {
      nfo: 'Show (2005)/Season 1/Show - S01E01.nfo',
      still: 'Show (2005)/Season 1/Show - S01E01-thumb.jpg',
    });
  });

  it('an unchanged item whose NFO or artwork files changed is handed back with its new local files', () => {
    const files = [file('Heat (1995)/Heat (1995).mkv'), file('Alien (1979)/Alien (1979).mkv')];
    const first = planScan(base({ files, sidecars: [file('Heat (1995)/poster.jpg', 10, 1)] }));
    const index = indexOf(first.writes.map((w) => w.item)).map((e, i) => ({ ...e, localStamp: (first.writes[i]!.item as any).localStamp }));
    const same = planScan(base({ files, index, jobId: 'job2', sidecars: [file('Heat (1995)/poster.jpg', 10, 1)] }));
    assert.deepEqual({ writes: same.writes.length, sidecarChanges: same.sidecarChanges }, { writes: 0, sidecarChanges: [] });
    // A poster edited, an NFO added next to the other movie.
    const changed = planScan(
      base({ files, index, jobId: 'job3', sidecars: [file('Heat (1995)/poster.jpg', 10, 2), file('Alien (1979)/movie.nfo')] }),
    );
    assert.equal(changed.writes.length, 0, 'the videos are unchanged: nothing is parsed or written');
    assert.deepEqual(
      changed.sidecarChanges.map((r) => r.local).sort((a, b) => Object.keys(a)[0]!.localeCompare(Object.keys(b)[0]!)),
      [{ nfo: 'Alien (1979)/movie.nfo' }, { poster: 'Heat (1995)/poster.jpg' }],
    );
    // A scan of one folder judges only what it can see.
    const scopedScan = planScan(base({ files: [files[0]!], index, jobId: 'job4', scope: 'Heat (1995)', sidecars: [] }));
    assert.deepEqual(
      scopedScan.sidecarChanges.map((r) => r.local),
      [{}],
      'the poster is gone',
    );
  });

  it('a resume that finds one episode of a double-episode file written writes the other', () => {
    const tv = base({ mediaType: 'tvshow', files: [file('Show/Season 1/Show.S01E01-E02.mkv')] });
    const full = planScan(tv);
    // Stopped after the show and the first episode; no manifest, so the index may be partial.
    const resumed = planScan({ ...tv, index: full.index.slice(0, 2), partialIndex: true });
    assert.deepEqual(
      resumed.writes.map((w) => w.item.id),
      [full.index[2]!.id],
    );
    assert.equal(resumed.index.length, 3);
    assert.deepEqual(resumed.carried, { added: 2, updated: 0, moved: 0 });
  });

  it('a folder that could not be read keeps its items; one that is gone loses them', () => {
    const files = [file('Locked/Heat (1995).mkv'), file('Open/Alien (1979).mkv')];
    const first = planScan(base({ files }));
    const again = planScan(base({ jobId: 'job2', files: [], index: first.index, unreadable: ['Locked'] }));
    assert.deepEqual(
      again.removals.map((e) => e.files![0]!.relPath),
      ['Open/Alien (1979).mkv'],
    );
  });
});
