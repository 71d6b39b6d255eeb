// Discovery on a real folder tree: what a scan would index, and what it must skip.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { config } from '../../lib/config';
import { discover } from '../../lib/storage/discover';
import { tempDir } from '../support/instance';

const BOUNDS = { limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth } };

const tree = (files: Record<string, number>) => {
  const root = tempDir('tree');
  for (const [rel, size] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), '');
    truncateSync(join(root, rel), size); // sparse: sizes without the bytes
  }
  return root;
};

describe('discover', () => {
  it('finds the videos a user means and skips samples, extras, hidden files and .ignore folders', async () => {
    const root = tree({
      'Inception (2010)/Inception (2010).mkv': 4_000_000_000,
      'Inception (2010)/Inception (2010)-sample.mkv': 50_000_000,
      'Inception (2010)/extras/Making of.mkv': 300_000_000,
      'Inception (2010)/poster.jpg': 200_000,
      'Inception (2010)/Inception (2010).nfo': 2_000,
      'Amélie (2001).MP4': 1_500_000_000,
      'Kill Bill (2003)/Kill Bill (2003) - cd1.avi': 700_000_000,
      'Kill Bill (2003)/Kill Bill (2003) - cd2.avi': 700_000_000,
      '.hidden/Secret (2020).mkv': 1_000,
      'Old Stuff/.ignore': 0,
      'Old Stuff/Skip Me (1999).mkv': 1_000,
      'Inception (2010)/Inception (2010)-trailer.mkv': 1_000,
      'Kill Bill (2003)/Featurettes/Behind the scenes.mkv': 1_000,
      'Kill Bill (2003)/@eaDir/thumb.mkv': 1_000,
      '.DS_Store': 10,
    });
    const found = await discover(root, BOUNDS);
    assert.deepEqual(
      found.map((f) => [f.relPath, f.size]),
      [
        ['Amélie (2001).MP4', 1_500_000_000],
        ['Inception (2010)/Inception (2010).mkv', 4_000_000_000],
        ['Kill Bill (2003)/Kill Bill (2003) - cd1.avi', 700_000_000],
        ['Kill Bill (2003)/Kill Bill (2003) - cd2.avi', 700_000_000],
      ],
    );
  });

  it('reports the modification time a rescan compares', async () => {
    const root = tree({ 'A (2000).mkv': 10 });
    utimesSync(join(root, 'A (2000).mkv'), new Date('2020-01-01T00:00:00Z'), new Date('2021-06-01T12:00:00Z'));
    const [file] = await discover(root, BOUNDS);
    assert.equal(file!.mtimeMs, Date.parse('2021-06-01T12:00:00Z'));
  });

  it('follows a symlinked folder, survives a symlink loop, and lists each file once', async () => {
    const root = tree({ 'Movies/B (2001).mkv': 10, 'Elsewhere/C (2002).mkv': 10 });
    symlinkSync(join(root, 'Elsewhere'), join(root, 'Movies', 'Linked'));
    symlinkSync(root, join(root, 'Movies', 'Loop'));
    const found = (await discover(join(root, 'Movies'), BOUNDS)).map((f) => f.relPath);
    // Each file once, under its first path in order, however many ways the links reach it.
    assert.deepEqual(found, ['B (2001).mkv', 'Linked/C (2002).mkv']);
  });

  it('answers an empty list for an empty folder', async () => {
    assert.deepEqual(await discover(tempDir('empty'), BOUNDS), []);
  });
});
