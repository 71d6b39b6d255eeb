// Moves and renames keep identity: the plan pairs an item whose files are gone with a new one
// whose files have the same sizes and times (lib/scan/plan/moves.ts), and later scans map the
// new path's id back to the kept one (lib/scan/plan/aliases.ts). Through planScan, pure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { episodeId, movieId, showId } from '../../../../lib/catalog/ids';
import type { CatalogItem, EpisodeItem, IndexEntry, MovieItem, ShowItem } from '../../../../lib/catalog/model';
import { planScan, type Plan, type PlanInput } from '../../../../lib/scan/plan';

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
const LONG_AGO = '2020-01-01T00:00:00.000Z';
/** The plan's index as a finished scan long ago left it, its enrichment done. */
const settled = (plan: Plan, enrich: IndexEntry['enrich'] = 'done'): IndexEntry[] =>
  plan.index.map((e) => ({ ...e, addedAt: LONG_AGO, lastChange: 'added' as const, ...(enrich ? { enrich } : {}) }));
/** A later scan's plan (another job, another day). */
const rescan = (over: Partial<PlanInput>) => planScan(base({ jobId: 'job2', now: '2026-12-01T00:00:00.000Z', ...over }));
const summary = (plan: Plan) => plan.writes.map((w) => ({ id: w.item.id, change: w.change, renamed: w.renamed ?? false }));
const pathsOf = (item: CatalogItem) => (item.entity === 'tvshow' ? [] : item.files.map((f) => f.relPath));
const ids = (entries: readonly { id: string }[]) => entries.map((e) => e.id).sort();
const assertNoDuplicateIds = (plan: Plan) =>
  assert.equal(new Set(plan.index.map((e) => e.id)).size, plan.index.length, 'an id twice in the index');

describe('scan plan: moved movies', () => {
  const heat = file('Heat (1995)/Heat (1995).mkv', 1_000, 11);

  it('a movie folder moved into Archive/ is one item that moved: same id and addedAt, its new path key, no removal, its enrichment kept', () => {
    const first = planScan(base({ files: [heat] }));
    const index = settled(first);
    const [old] = index;
    const moved = rescan({ files: [file('Archive/Heat (1995)/Heat (1995).mkv', 1_000, 11)], index, providerOn: true });
    assert.deepEqual(summary(moved), [{ id: old!.id, change: 'moved', renamed: false }]);
    assert.deepEqual(moved.removals, []);
    const item = moved.writes[0]!.item as MovieItem;
    assert.equal(item.addedAt, LONG_AGO);
    assert.equal(item.lastChange, 'moved');
    assert.equal(item.lastJob, 'job2');
    assert.equal(item.pathKey, movieId('lib', 'Archive/Heat (1995)/heat (1995)'), 'the id its new path gives');
    assert.deepEqual(pathsOf(item), ['Archive/Heat (1995)/Heat (1995).mkv']);
    assert.equal(item.enrich, 'done', 'a move does not send it back through enrichment (even with a provider)');
    assert.deepEqual(moved.index, [
      {
        id: old!.id,
        entity: 'movie',
        addedAt: LONG_AGO,
        lastJob: 'job2',
        lastChange: 'moved',
        enrich: 'done',
        pathKey: item.pathKey,
        files: item.files,
      },
    ]);
    assert.deepEqual(moved.carried, { added: 0, updated: 0, moved: 0 });
  });

  it('a file renamed in place within its folder keeps its id and is not renamed (same title and year)', () => {
    const index = settled(planScan(base({ files: [file('Heat (1995)/Heat.1995.1080p.BluRay.mkv', 1_000, 11)] })));
    const renamed = rescan({ files: [heat], index });
    assert.deepEqual(summary(renamed), [{ id: index[0]!.id, change: 'moved', renamed: false }]);
    assert.deepEqual(renamed.removals, []);
    assert.equal(renamed.writes[0]!.item.enrich, 'done');
  });

  it('a stack renamed in place (cd1/cd2 to part1/part2) keeps its id: the same item under other names', () => {
    const cds = [file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi', 700, 5), file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi', 650, 6)];
    const index = settled(planScan(base({ files: cds })));
    const parts = [
      file('Kill Bill (2003)/Kill Bill (2003) - part1.avi', 700, 5),
      file('Kill Bill (2003)/Kill Bill (2003) - part2.avi', 650, 6),
    ];
    const plan = rescan({ files: parts, index, providerOn: true });
    assert.deepEqual(summary(plan), [{ id: index[0]!.id, change: 'moved', renamed: false }]);
    assert.deepEqual(
      pathsOf(plan.writes[0]!.item),
      parts.map((f) => f.relPath),
    );
    assert.equal(plan.writes[0]!.item.enrich, 'done');
    assert.deepEqual(plan.removals, []);
  });

  it('a year fixed in the name is a rename: same id, the new year, and back to metadata when a provider can be asked', () => {
    const index = settled(planScan(base({ files: [file('Heat (1996).mkv', 1_000, 11)] })));
    const fixed = rescan({ files: [file('Heat (1995).mkv', 1_000, 11)], index, providerOn: true });
    assert.deepEqual(summary(fixed), [{ id: index[0]!.id, change: 'moved', renamed: true }]);
    const item = fixed.writes[0]!.item as MovieItem;
    assert.deepEqual([item.title, item.year, item.addedAt, item.enrich], ['Heat', 1995, LONG_AGO, 'metadata']);
    assert.deepEqual(fixed.removals, []);
    // Without a provider it waits for a scan that has one.
    assert.equal(rescan({ files: [file('Heat (1995).mkv', 1_000, 11)], index }).writes[0]!.item.enrich, 'local');
  });

  it('a stacked movie moved keeps its id with both parts in order', () => {
    const cds = [file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi', 650, 6), file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi', 700, 5)];
    const index = settled(planScan(base({ files: cds })));
    const moved = rescan({ files: cds.map((f) => ({ ...f, relPath: `Archive/${f.relPath}` })), index });
    assert.deepEqual(summary(moved), [{ id: index[0]!.id, change: 'moved', renamed: false }]);
    const item = moved.writes[0]!.item as MovieItem;
    assert.deepEqual(
      item.files.map((f) => [f.part, f.relPath]),
      [
        [1, 'Archive/Kill Bill (2003)/Kill Bill (2003) - cd1.avi'],
        [2, 'Archive/Kill Bill (2003)/Kill Bill (2003) - cd2.avi'],
      ],
    );
    assert.equal(moved.writes[0]!.files, 2);
    assert.deepEqual(moved.removals, []);
  });

  it('a rescan after a move writes nothing, and neither does a resume of the moving job', () => {
    const index = settled(planScan(base({ files: [heat] })));
    const files = [file('Archive/Heat (1995)/Heat (1995).mkv', 1_000, 11)];
    const moved = rescan({ files, index });
    const again = rescan({ files, index: moved.index, jobId: 'job3' });
    assert.deepEqual(
      { writes: again.writes.length, removals: again.removals.length, unchanged: again.unchangedFiles },
      { writes: 0, removals: 0, unchanged: 1 },
    );
    assert.deepEqual(again.index, moved.index);
    const resumed = rescan({ files, index: moved.index, partialIndex: true });
    assert.deepEqual(
      { writes: resumed.writes.length, removals: resumed.removals.length, carried: resumed.carried },
      { writes: 0, removals: 0, carried: { added: 0, updated: 0, moved: 1 } },
    );
  });

  it('a moved movie changed later is updated under its kept id', () => {
    const index = settled(planScan(base({ files: [heat] })));
    const moved = rescan({ files: [file('Archive/Heat (1995)/Heat (1995).mkv', 1_000, 11)], index });
    const changed = rescan({ files: [file('Archive/Heat (1995)/Heat (1995).mkv', 2_000, 12)], index: moved.index, jobId: 'job3' });
    assert.deepEqual(summary(changed), [{ id: index[0]!.id, change: 'updated', renamed: false }]);
    assert.equal(changed.writes[0]!.item.addedAt, LONG_AGO);
    assert.equal(changed.writes[0]!.item.pathKey, moved.writes[0]!.item.pathKey, 'the path key goes on');
    assert.deepEqual(changed.removals, []);
  });

  it('a moved movie that later gains a part stays one item', () => {
    const cds = [file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi', 700, 5), file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi', 650, 6)];
    const index = settled(planScan(base({ files: cds })));
    const archived = cds.map((f) => ({ ...f, relPath: `Archive/${f.relPath}` }));
    const moved = rescan({ files: archived, index });
    const grown = rescan({
      files: [...archived, file('Archive/Kill Bill (2003)/Kill Bill (2003) - cd3.avi', 600, 7)],
      index: moved.index,
      jobId: 'job3',
    });
    assert.deepEqual(summary(grown), [{ id: index[0]!.id, change: 'updated', renamed: false }]);
    assert.deepEqual(
      (grown.writes[0]!.item as MovieItem).files.map((f) => f.part),
      [1, 2, 3],
    );
    assert.deepEqual(grown.removals, []);
    assert.deepEqual(ids(grown.index), [index[0]!.id]);
  });

  it("a new file at a moved item's old path is a new item with an id of its own, the same on every scan", () => {
    const index = settled(planScan(base({ files: [heat] })));
    const oldId = index[0]!.id;
    assert.equal(oldId, movieId('lib', 'Heat (1995)/heat (1995)'), 'the id the old path gives');
    const archived = file('Archive/Heat (1995)/Heat (1995).mkv', 1_000, 11);
    const moved = rescan({ files: [archived], index });
    const newcomer = file('Heat (1995)/Heat (1995).mkv', 3_000, 40);
    const next = rescan({ files: [archived, newcomer], index: moved.index, jobId: 'job3' });
    assert.equal(next.writes.length, 1);
    const added = next.writes[0]!;
    assert.equal(added.change, 'added');
    assert.notEqual(added.item.id, oldId, "not the moved item's id");
    assert.deepEqual(pathsOf(added.item), [newcomer.relPath]);
    assert.equal(added.item.pathKey, oldId, 'the id its path gives, mapped to its own');
    assert.deepEqual(next.removals, []);
    assert.deepEqual(ids(next.index), [oldId, added.item.id].sort());
    assertNoDuplicateIds(next);
    // A resume of that scan finds the same id; a later scan keeps both as they are.
    assert.equal(rescan({ files: [archived, newcomer], index: moved.index, jobId: 'job3' }).writes[0]!.item.id, added.item.id);
    const later = rescan({ files: [archived, newcomer], index: next.index, jobId: 'job4' });
    assert.deepEqual({ writes: later.writes.length, removals: later.removals.length }, { writes: 0, removals: 0 });
  });

  it('a movie moved away and back again keeps its id and takes no displaced one', () => {
    const index = settled(planScan(base({ files: [heat] })));
    const away = rescan({ files: [file('Archive/Heat (1995)/Heat (1995).mkv', 1_000, 11)], index });
    const back = rescan({ files: [heat], index: away.index, jobId: 'job3' });
    assert.deepEqual(summary(back), [{ id: index[0]!.id, change: 'moved', renamed: false }]);
    assert.deepEqual(back.removals, []);
    const after = rescan({ files: [heat], index: back.index, jobId: 'job4' });
    assert.deepEqual(
      { writes: after.writes.length, removals: after.removals.length, ids: ids(after.index) },
      { writes: 0, removals: 0, ids: [index[0]!.id] },
    );
  });

  describe('several gone with the same sizes and times', () => {
    // A restore that stamped one time on every file: only the name can tell which moved where.
    const twins = [file('A (2001)/A (2001).mkv', 500, 9), file('B (2002)/B (2002).mkv', 500, 9)];
    const index = settled(planScan(base({ files: twins })));
    const idOf = (title: string) => index.find((e) => e.files![0]!.relPath.startsWith(title))!.id;

    it('a new name matching neither pairs with none: an added item and two removals', () => {
      const plan = rescan({ files: [file('C (2003)/C (2003).mkv', 500, 9)], index });
      assert.deepEqual(
        plan.writes.map((w) => w.change),
        ['added'],
      );
      assert.ok(!ids(index).includes(plan.writes[0]!.item.id));
      assert.deepEqual(ids(plan.removals), [idOf('A'), idOf('B')].sort());
      assertNoDuplicateIds(plan);
    });

    it('a new name matching one pairs with that one only', () => {
      const plan = rescan({ files: [file('Archive/B (2002)/B (2002).mkv', 500, 9)], index });
      assert.deepEqual(summary(plan), [{ id: idOf('B'), change: 'moved', renamed: false }]);
      assert.deepEqual(ids(plan.removals), [idOf('A')]);
    });

    it('one moved by name and another new: the other twin is not taken for the new one, whatever the path order', () => {
      for (const folder of ['Archive', 'X']) {
        const plan = rescan({ files: [file(`${folder}/A (2001)/A (2001).mkv`, 500, 9), file('C (2003)/C (2003).mkv', 500, 9)], index });
        const byTitle = new Map(plan.writes.map((w) => [(w.item as MovieItem).title, w]));
        assert.equal(byTitle.get('A')!.item.id, idOf('A'), folder);
        assert.equal(byTitle.get('A')!.change, 'moved', folder);
        assert.equal(byTitle.get('C')!.change, 'added', folder);
        assert.ok(!ids(index).includes(byTitle.get('C')!.item.id), `${folder}: C takes no twin's id`);
        assert.deepEqual(ids(plan.removals), [idOf('B')], folder);
      }
    });

    it('both moved: each pairs by its name', () => {
      const plan = rescan({ files: twins.map((f) => ({ ...f, relPath: `Archive/${f.relPath}` })), index });
      assert.deepEqual(
        plan.writes.map((w) => [(w.item as MovieItem).title, w.item.id, w.change]),
        [
          ['A', idOf('A'), 'moved'],
          ['B', idOf('B'), 'moved'],
        ],
      );
      assert.deepEqual(plan.removals, []);
    });
  });

  it('a resumed move halfway pairs the rest: no duplicate id, nothing removed', () => {
    const titles = ['Alien (1979)', 'Brazil (1985)', 'Heat (1995)', 'Se7en (1995)'];
    const before = titles.map((t, i) => file(`${t}/${t}.mkv`, 1_000 + i, 20 + i));
    const index = settled(planScan(base({ files: before })));
    const after = before.map((f) => ({ ...f, relPath: `Archive/${f.relPath}` }));
    const full = rescan({ files: after, index });
    assert.deepEqual(
      full.writes.map((w) => w.change),
      ['moved', 'moved', 'moved', 'moved'],
    );
    // The job stopped after writing two of its moves: the index holds those and the others' old entries.
    const written = new Set(full.writes.slice(0, 2).map((w) => w.item.id));
    const halfway = [...index.filter((e) => !written.has(e.id)), ...full.index.filter((e) => written.has(e.id))];
    const resumed = rescan({ files: after, index: halfway, partialIndex: true });
    assert.deepEqual(summary(resumed), summary(full).slice(2));
    assert.deepEqual(resumed.removals, []);
    assert.deepEqual(resumed.carried, { added: 0, updated: 0, moved: 2 });
    assertNoDuplicateIds(resumed);
    assert.deepEqual(ids(resumed.index), ids(index));
    assert.deepEqual(
      new Map(resumed.index.map((e) => [e.id, e])),
      new Map(full.index.map((e) => [e.id, e])),
      'the same index as the run that was not stopped',
    );
  });
});

describe('scan plan: moved movies and their local files', () => {
  const withNfo = (dir: string) => ({
    files: [file(`${dir}Heat (1995)/Heat (1995).mkv`, 1_000, 11)],
    sidecars: [file(`${dir}Heat (1995)/movie.nfo`, 10, 3), file(`${dir}Heat (1995)/poster.jpg`, 10, 4)],
  });
  const first = planScan(base(withNfo('')));
  const index = first.index.map((e) => ({ ...e, addedAt: LONG_AGO, enrich: 'done' as const }));

  it('moved with its NFO and artwork alongside: not renamed, its enrichment kept, its local files at their new paths', () => {
    assert.ok(index[0]!.localStamp, 'the index knows its local files');
    const moved = rescan({ ...withNfo('Archive/'), index, providerOn: true });
    assert.deepEqual(summary(moved), [{ id: index[0]!.id, change: 'moved', renamed: false }]);
    const item = moved.writes[0]!.item;
    assert.equal(item.enrich, 'done');
    assert.deepEqual(item.local, { nfo: 'Archive/Heat (1995)/movie.nfo', poster: 'Archive/Heat (1995)/poster.jpg' });
    assert.deepEqual(moved.sidecarChanges, []);
    assert.deepEqual(moved.removals, []);
  });

  it('moved without its NFO: renamed, so its metadata is looked up again', () => {
    const { files } = withNfo('Archive/');
    const moved = rescan({ files, sidecars: [file('Archive/Heat (1995)/poster.jpg', 10, 4)], index, providerOn: true });
    assert.deepEqual(summary(moved), [{ id: index[0]!.id, change: 'moved', renamed: true }]);
    assert.equal(moved.writes[0]!.item.enrich, 'metadata');
    assert.deepEqual(moved.writes[0]!.item.local, { poster: 'Archive/Heat (1995)/poster.jpg' });
    assert.equal(moved.writes[0]!.item.addedAt, LONG_AGO);
  });

  it('moved with an edited NFO: renamed', () => {
    const moved = rescan({
      files: withNfo('Archive/').files,
      sidecars: [file('Archive/Heat (1995)/movie.nfo', 10, 99), file('Archive/Heat (1995)/poster.jpg', 10, 4)],
      index,
    });
    assert.deepEqual(summary(moved), [{ id: index[0]!.id, change: 'moved', renamed: true }]);
    assert.equal(moved.writes[0]!.item.enrich, 'metadata', 'an NFO to read');
  });
});

describe('scan plan: moved episodes and shows', () => {
  const tv = (over: Partial<PlanInput>) => base({ mediaType: 'tvshow', ...over });
  const episodes = (plan: Plan) =>
    plan.writes.filter((w) => w.item.entity === 'episode').map((w) => ({ ...w, item: w.item as EpisodeItem }));

  it('an episode moved to another season folder keeps its id, its show and its numbers', () => {
    const files = [file('Show/Season 1/Show - S01E01.mkv', 300, 1), file('Show/Season 1/Show - S02E01.mkv', 301, 2)];
    const index = settled(planScan(tv({ files })));
    const misfiled = index.find((e) => e.files?.[0]?.relPath.endsWith('S02E01.mkv'))!;
    const moved = rescan({ mediaType: 'tvshow', files: [files[0]!, file('Show/Season 2/Show - S02E01.mkv', 301, 2)], index });
    assert.deepEqual(summary(moved), [{ id: misfiled.id, change: 'moved', renamed: false }]);
    const item = moved.writes[0]!.item as EpisodeItem;
    assert.deepEqual([item.showId, item.seasonNumber, item.episodeNumber, item.addedAt], [misfiled.showId, 2, 1, LONG_AGO]);
    assert.equal(item.pathKey, episodeId('lib', 'Show/Season 2/Show - S02E01.mkv', 2, 1));
    assert.deepEqual(moved.removals, []);
    assertNoDuplicateIds(moved);
  });

  it('a double-episode file moved keeps both ids, each with its own number', () => {
    const double = file('Show/Season 1/Show - S01E02E03.mkv', 900, 8);
    const index = settled(planScan(tv({ files: [file('Show/Season 1/Show - S01E01.mkv', 300, 1), double] })));
    const old = (n: number) => episodeId('lib', double.relPath, 1, n);
    assert.ok(index.some((e) => e.id === old(2)) && index.some((e) => e.id === old(3)));
    const newPath = 'Show/Season 01/Show - S01E02E03.mkv';
    const moved = rescan({ mediaType: 'tvshow', files: [file('Show/Season 1/Show - S01E01.mkv', 300, 1), file(newPath, 900, 8)], index });
    assert.deepEqual(
      episodes(moved)
        .map((w) => [w.item.id, w.item.episodeNumber, w.change, w.renamed, w.item.pathKey])
        .sort((a, b) => Number(a[1]) - Number(b[1])),
      [
        [old(2), 2, 'moved', false, episodeId('lib', newPath, 1, 2)],
        [old(3), 3, 'moved', false, episodeId('lib', newPath, 1, 3)],
      ],
    );
    assert.equal(
      moved.writes.reduce((n, w) => n + w.files, 0),
      1,
      'the file counted once',
    );
    assert.deepEqual(moved.removals, []);
    // A later scan of the moved file writes nothing.
    const again = rescan({
      mediaType: 'tvshow',
      files: [file('Show/Season 1/Show - S01E01.mkv', 300, 1), file(newPath, 900, 8)],
      index: moved.index,
      jobId: 'job3',
    });
    assert.deepEqual({ writes: again.writes.length, removals: again.removals.length }, { writes: 0, removals: 0 });
  });

  describe('a show folder renamed ("Doctor Who" to "Doctor Who (2005)")', () => {
    const before = [
      file('Doctor Who/Season 1/Doctor Who - S01E01.mkv', 401, 1),
      file('Doctor Who/Season 1/Doctor Who - S01E02.mkv', 402, 2),
    ];
    const after = before.map((f) => ({ ...f, relPath: f.relPath.replace('Doctor Who/', 'Doctor Who (2005)/') }));
    const index = settled(planScan(tv({ files: before })));
    const oldShow = index.find((e) => e.entity === 'tvshow')!;
    const newShowId = showId('lib', 'doctor who\u00002005');

    it('the show keeps its id (moved, renamed) and its episodes point at it; nothing is removed', () => {
      assert.notEqual(oldShow.id, newShowId);
      const plan = rescan({ mediaType: 'tvshow', files: after, index, providerOn: true });
      const show = plan.writes.find((w) => w.item.entity === 'tvshow')!;
      assert.deepEqual(
        {
          id: show.item.id,
          change: show.change,
          renamed: show.renamed,
          pathKey: show.item.pathKey,
          addedAt: show.item.addedAt,
          lastChange: show.item.lastChange,
        },
        { id: oldShow.id, change: 'moved', renamed: true, pathKey: newShowId, addedAt: LONG_AGO, lastChange: 'moved' },
      );
      assert.deepEqual([(show.item as ShowItem).title, (show.item as ShowItem).year], ['Doctor Who', 2005]);
      assert.equal(plan.writes[0], show, 'the show is written first');
      const eps = episodes(plan);
      assert.deepEqual(
        eps.map((w) => [w.change, w.renamed, w.item.showId]),
        [
          ['moved', false, oldShow.id],
          ['moved', false, oldShow.id],
        ],
      );
      assert.deepEqual(ids(eps.map((w) => w.item)), ids(index.filter((e) => e.entity === 'episode')));
      assert.deepEqual(plan.removals, []);
      assertNoDuplicateIds(plan);
      assert.ok(plan.index.filter((e) => e.entity === 'episode').every((e) => e.showId === oldShow.id));
    });

    it('a later scan writes nothing; a new episode in the new folder joins the kept show', () => {
      const moved = rescan({ mediaType: 'tvshow', files: after, index });
      const again = rescan({ mediaType: 'tvshow', files: after, index: moved.index, jobId: 'job3' });
      assert.deepEqual({ writes: again.writes.length, removals: again.removals.length }, { writes: 0, removals: 0 });
      const grown = rescan({
        mediaType: 'tvshow',
        files: [...after, file('Doctor Who (2005)/Season 1/Doctor Who - S01E03.mkv', 403, 3)],
        index: moved.index,
        jobId: 'job3',
      });
      assert.deepEqual(
        grown.writes.map((w) => [w.item.entity, w.change]),
        [['episode', 'added']],
      );
      assert.equal((grown.writes[0]!.item as EpisodeItem).showId, oldShow.id);
      assert.deepEqual(grown.removals, []);
      assert.equal(grown.index.filter((e) => e.entity === 'tvshow').length, 1);
    });

    it('a resume after the show and one episode were written pairs the other episode with the same show', () => {
      const full = rescan({ mediaType: 'tvshow', files: after, index });
      const [showWrite, firstEpisode] = full.writes;
      const written = new Set([showWrite!.item.id, firstEpisode!.item.id]);
      const halfway = [...index.filter((e) => !written.has(e.id)), ...full.index.filter((e) => written.has(e.id))];
      const resumed = rescan({ mediaType: 'tvshow', files: after, index: halfway, partialIndex: true });
      assert.deepEqual(summary(resumed), summary(full).slice(2));
      assert.equal((resumed.writes[0]!.item as EpisodeItem).showId, oldShow.id);
      assert.deepEqual(resumed.removals, []);
      assert.deepEqual(resumed.carried, { added: 0, updated: 0, moved: 2 });
      assertNoDuplicateIds(resumed);
      assert.deepEqual(new Map(resumed.index.map((e) => [e.id, e])), new Map(full.index.map((e) => [e.id, e])));
    });

    it('a resume after the show alone was written pairs both episodes with it', () => {
      const full = rescan({ mediaType: 'tvshow', files: after, index });
      const shown = full.index.find((e) => e.entity === 'tvshow')!;
      const halfway = [...index.filter((e) => e.entity !== 'tvshow'), shown];
      const resumed = rescan({ mediaType: 'tvshow', files: after, index: halfway, partialIndex: true });
      assert.deepEqual(summary(resumed), summary(full).slice(1));
      assert.deepEqual(resumed.removals, []);
      assertNoDuplicateIds(resumed);
      assert.deepEqual(new Map(resumed.index.map((e) => [e.id, e])), new Map(full.index.map((e) => [e.id, e])));
    });
  });

  it('a show whose episodes only partly moved keeps its id; the new folder is a new show', () => {
    const before = [file('Show/Season 1/Show - S01E01.mkv', 301, 1), file('Show/Season 1/Show - S01E02.mkv', 302, 2)];
    const index = settled(planScan(tv({ files: before })));
    const oldShow = index.find((e) => e.entity === 'tvshow')!;
    const plan = rescan({ mediaType: 'tvshow', files: [before[0]!, file('Show (2010)/Season 1/Show - S01E02.mkv', 302, 2)], index });
    const show = plan.writes.find((w) => w.item.entity === 'tvshow')!;
    assert.equal(show.change, 'added');
    assert.notEqual(show.item.id, oldShow.id);
    const [episode] = episodes(plan);
    assert.deepEqual([episode!.change, episode!.item.showId], ['moved', show.item.id]);
    assert.deepEqual(plan.removals, []);
    assertNoDuplicateIds(plan);
  });
});
