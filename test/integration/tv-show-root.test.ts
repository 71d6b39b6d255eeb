// A TV library whose root is one show's own folder ("Some Show (2019)" added as the library,
// not a folder of shows): its season folders and loose episode files are that one show, named
// after the root, with the root's picture as its poster; a rescan changes nothing.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { tempDir } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';

const EPISODES = [
  { path: 'Season 1/Some.Show.S01E01.mkv', season: 1, episode: 1 },
  { path: 'Season 1/Some.Show.S01E02.mkv', season: 1, episode: 2 },
  { path: 'Some.Show.S02E01.mkv', season: 2, episode: 1 }, // loose at the root
];

describe("a TV library whose root is a show's own folder", () => {
  const root = join(tempDir('tv-show-root'), 'Some Show (2019)');
  let library: any;
  let job: any;

  before(async () => {
    makeTree(
      root,
      EPISODES.map((e) => e.path),
    );
    writeFileSync(
      join(root, 'poster.jpg'),
      await sharp({ create: { width: 60, height: 90, channels: 3, background: '#446688' } })
        .jpeg()
        .toBuffer(),
    );
    const created = await call('POST', '/api/v1/library', jsonBody({ name: 'Some Show', path: root, mediaType: 'tvshow' }));
    assert.equal(created.status, 201, created.text);
    library = created.json.data;
    job = await scan({ path: root, mediaType: 'tvshow', libraryId: library.id });
  });

  // The list has no library filter: other test files' shows share the stack, so ours is found by
  // its title, and the detail's file paths (library-relative) show it is this library's.
  const someShows = async () => (await allPages('/api/v1/tvshows')).filter((s: any) => s.title === 'Some Show');
  const detailOf = async (id: string) => (await call('GET', `/api/v1/tvshows/${id}`)).json.data;

  it('finds one show, named and dated after the root folder, and nothing else', async () => {
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepStrictEqual(
      { discovered: job.counts.discovered, added: job.counts.added, failed: job.counts.failed },
      { discovered: 3, added: 4, failed: 0 }, // one show and three episodes
    );
    const stats = (await call('GET', `/api/v1/library/${library.id}`)).json.data.stats;
    assert.deepStrictEqual(
      { tvShows: stats.tvShows, seasons: stats.seasons, episodes: stats.episodes },
      { tvShows: 1, seasons: 2, episodes: 3 },
    );
    assert.deepStrictEqual(
      (await someShows()).map((s: any) => ({ title: s.title, year: s.year })),
      [{ title: 'Some Show', year: 2019 }],
    );
  });

  it('lists seasons 1 and 2 holding exactly the three files, the loose one in season 2', async () => {
    const [show] = await someShows();
    const detail = await detailOf(show.id);
    assert.deepStrictEqual({ title: detail.media.title, year: detail.media.year }, { title: 'Some Show', year: 2019 });
    assert.deepStrictEqual(
      detail.seasons.map((s: any) => ({ seasonNumber: s.seasonNumber, name: s.name, episodeCount: s.episodeCount })),
      [
        { seasonNumber: 1, name: 'Season 1', episodeCount: 2 },
        { seasonNumber: 2, name: 'Season 2', episodeCount: 1 },
      ],
    );
    const episodes = detail.seasons.flatMap((s: any) =>
      s.episodes.map((e: any) => ({ path: e.file.path, season: e.seasonNumber, episode: e.episodeNumber })),
    );
    assert.deepStrictEqual(episodes, EPISODES);
  });

  it("takes the picture at the root as the show's poster", async () => {
    const [show] = await someShows();
    const { media } = await detailOf(show.id);
    assert.ok(media.posterUrl, 'the show has a poster');
    const url = new URL(media.posterUrl);
    const res = await call('GET', `${url.pathname}${url.search}`);
    assert.deepStrictEqual([res.status, res.headers['content-type']], [200, 'image/jpeg']);
  });

  it('a rescan changes nothing', async () => {
    const [first] = await someShows();
    const again = await scan({ path: root, mediaType: 'tvshow', libraryId: library.id });
    assert.deepStrictEqual(
      {
        status: again.status,
        added: again.counts.added,
        updated: again.counts.updated,
        moved: again.counts.moved,
        removed: again.counts.removed,
        failed: again.counts.failed,
      },
      { status: 'completed', added: 0, updated: 0, moved: 0, removed: 0, failed: 0 },
    );
    assert.deepStrictEqual(
      (await someShows()).map((s: any) => [s.id, s.title, s.year]),
      [[first.id, 'Some Show', 2019]],
    );
  });
});
