// The bounded walk on real folders: symbolic links of every kind (a loop, to the parent and to
// /, into the root, out of it once and twice, into a fence, broken), folders that cannot be
// read, both limits, aborting, and the event loop staying free during a folder of 20,000 files.
import assert from 'node:assert/strict';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { PROJECT_DIR } from '../../../infra/project';
import { walk, WalkLimitError, type WalkOptions, type WalkSkipReason } from '../../../lib/storage/walk';

const NO_LIMITS = { maxEntries: 1_000_000, maxDepth: 64 };
const videos = (relPath: string) => relPath.endsWith('.mkv');

/** Creates empty files (and their folders) below base. */
const touch = (base: string, ...relPaths: string[]) => {
  for (const relPath of relPaths) {
    mkdirSync(dirname(join(base, relPath)), { recursive: true });
    writeFileSync(join(base, relPath), '');
  }
};

/** Creates symbolic links below base: `{ 'lib/up': '..' }` makes lib/up point to `..`. */
const link = (base: string, links: Record<string, string>) => {
  for (const [at, target] of Object.entries(links)) {
    mkdirSync(dirname(join(base, at)), { recursive: true });
    symlinkSync(target, join(base, at));
  }
};

/** Walks and also returns what was left out, in the order reported. */
const walkWithSkips = async (root: string, options: Partial<WalkOptions> = {}) => {
  const skips: string[] = [];
  const files = await walk(root, {
    limits: NO_LIMITS,
    keepFile: videos,
    onSkip: (relPath: string, reason: WalkSkipReason) => skips.push(`${relPath}: ${reason}`),
    ...options,
  });
  return { files, skips };
};

/** Root reads a folder whatever its mode: the walk runs as nobody, in a process of its own. */
const walkAsNobody = (root: string) => {
  const script = `
    process.setgid(65534); process.setuid(65534);
    const { walk } = await import(${JSON.stringify(join(PROJECT_DIR, 'lib/storage/walk.ts'))});
    const skips = [];
    const files = await walk(${JSON.stringify(root)}, { limits: ${JSON.stringify(NO_LIMITS)}, keepFile: (p) => p.endsWith('.mkv'), onSkip: (rel, why) => skips.push(rel + ': ' + why) });
    console.log(JSON.stringify({ files, skips }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_DIR,
    env: { ...process.env, TSX_DISABLE_CACHE: '1' },
    encoding: 'utf8',
  });
  return JSON.parse(out) as { files: string[]; skips: string[] };
};

describe('walking a folder tree', () => {
  let base: string;
  before(() => {
    base = realpathSync(mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), 'mls-walk-')));
    chmodSync(base, 0o755); // for the walk that runs as nobody
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  describe('symbolic links', () => {
    let root: string;
    before(() => {
      root = join(base, 'links', 'lib');
      const at = join(base, 'links');
      touch(at, 'lib/a.mkv', 'lib/Show/S01/e1.mkv', 'lib/Show/notes.txt', 'lib/cache/c.mkv');
      touch(at, 'outside/o.mkv', 'outside/deep/d.mkv', 'big/b.mkv', 'big/small/s.mkv', 'big2/b2.mkv', 'big2/sub/x.mkv', 'data/x.mkv');
      link(at, {
        'lib/loop': '.',
        'lib/up': '..',
        'lib/slash': '/',
        'lib/again': 'Show',
        'lib/ext1': '../outside',
        'lib/ext2': join(at, 'outside'),
        'lib/proc': '/proc',
        'lib/data': '../data',
        'lib/broken': '../missing',
        'lib/movie-link.mkv': '../outside/o.mkv',
        // Decided in path order: the smaller tree first, then the one holding it ...
        'lib/a-small': '../big/small',
        'lib/b-big': '../big',
        // ... and the bigger tree first, then one inside it.
        'lib/c-big2': '../big2',
        'lib/d-sub': '../big2/sub',
        'outside/back': '../lib',
      });
    });
    const fences = () => ['/proc', join(base, 'links', 'data'), join(base, 'links', 'lib', 'cache')];

    it('follows each outside folder once, under the first link name, and nothing already walked', async () => {
      const { files, skips } = await walkWithSkips(root, { fences: fences() });
      assert.deepEqual(files, [
        'Show/S01/e1.mkv',
        'a-small/s.mkv',
        'a.mkv',
        'b-big/b.mkv',
        'c-big2/b2.mkv',
        'c-big2/sub/x.mkv',
        'ext1/deep/d.mkv',
        'ext1/o.mkv',
        'movie-link.mkv',
      ]);
      assert.deepEqual(skips, [
        // The root's own tree, then the links met there.
        'again: inside-root',
        'cache: fenced',
        'd-sub: walked',
        'data: fenced',
        'ext2: walked',
        'loop: inside-root',
        'proc: fenced',
        'slash: holds-root',
        'up: holds-root',
        // The followed trees, then the links met there.
        'b-big/small: walked',
        'ext1/back: inside-root',
      ]);
    });

    it('asks skipDir about real folders by their path and about links by their target', async () => {
      const asked: string[] = [];
      const { files } = await walkWithSkips(root, {
        fences: fences(),
        skipDir: (relPath, absPath) => {
          asked.push(`${relPath} ${absPath}`);
          return relPath === 'ext1' || relPath === 'Show';
        },
      });
      assert.ok(asked.includes(`Show ${join(root, 'Show')}`));
      assert.ok(asked.includes(`ext1 ${join(base, 'links', 'outside')}`));
      // ext1 was left out, so the same folder is walked through ext2.
      assert.ok(files.includes('ext2/o.mkv') && !files.some((f) => f.startsWith('ext1/') || f.startsWith('Show/')));
    });

    it('names a tree after the first of its links in path order, whatever order they are met in', async () => {
      const at = join(base, 'many-links');
      touch(at, 'shared/s.mkv', 'lib/a/deep/deeper/.keep');
      // Met first (fewer folders to read on the way), but last in path order.
      link(at, { 'lib/z/link': '../../shared' });
      const names = Array.from({ length: 12 }, (_, i) => `link-${String(i + 1).padStart(2, '0')}`);
      for (const name of names.toReversed()) link(at, { [`lib/a/deep/deeper/${name}`]: '../../../../shared' });
      const { files, skips } = await walkWithSkips(join(at, 'lib'));
      assert.deepEqual(files, ['a/deep/deeper/link-01/s.mkv']);
      assert.deepEqual(skips, [...names.slice(1).map((name) => `a/deep/deeper/${name}: walked`), 'z/link: walked']);
    });

    it('walks from a root given through a link, naming files as below the real root', async () => {
      link(base, { 'links/lib-link': 'lib' });
      const { files } = await walkWithSkips(join(base, 'links', 'lib-link'), { fences: fences() });
      assert.ok(files.includes('a.mkv') && files.includes('ext1/o.mkv'));
    });
  });

  describe('folders that cannot be read', () => {
    it('leaves out a folder that vanished before it was read', async () => {
      const root = join(base, 'vanishing');
      touch(root, 'kept.mkv', 'gone/lost.mkv');
      const { files, skips } = await walkWithSkips(root, {
        skipDir: (_relPath, absPath) => {
          rmSync(absPath, { recursive: true });
          return false;
        },
      });
      assert.deepEqual(files, ['kept.mkv']);
      assert.deepEqual(skips, ['gone: unreadable']);
    });

    it('leaves out a folder without permissions', async () => {
      const root = join(base, 'locked');
      touch(root, 'kept.mkv', 'private/secret.mkv');
      chmodSync(join(root, 'private'), 0o000);
      try {
        assert.deepEqual(process.getuid?.() === 0 ? walkAsNobody(root) : await walkWithSkips(root), {
          files: ['kept.mkv'],
          skips: ['private: unreadable'],
        });
      } finally {
        chmodSync(join(root, 'private'), 0o755);
      }
    });

    it('fails when the root itself cannot be read, rather than finding nothing', async () => {
      await assert.rejects(walk(join(base, 'no-such-folder'), { limits: NO_LIMITS, keepFile: videos }), { code: 'ENOENT' });
      touch(base, 'a-file');
      await assert.rejects(walk(join(base, 'a-file'), { limits: NO_LIMITS, keepFile: videos }), { code: 'ENOTDIR' });
    });
  });

  describe('limits', () => {
    let root: string;
    before(() => {
      root = join(base, 'limits', 'lib');
      // 6 entries: a.mkv, b.txt, d1, linked in the root; d2 in d1; f.mkv in d2; then x.mkv in the linked folder.
      touch(join(base, 'limits'), 'lib/a.mkv', 'lib/b.txt', 'lib/d1/d2/f.mkv', 'elsewhere/x.mkv');
      link(join(base, 'limits'), { 'lib/linked': '../elsewhere' });
    });
    const limited = (maxEntries: number, maxDepth: number) => walk(root, { limits: { maxEntries, maxDepth }, keepFile: videos });

    it('walks a tree within both limits', async () => {
      assert.deepEqual(await limited(7, 2), ['a.mkv', 'd1/d2/f.mkv', 'linked/x.mkv']);
    });

    it('stops past the number of entries, saying where', async () => {
      await assert.rejects(limited(6, 2), (err: unknown) => {
        assert.ok(err instanceof WalkLimitError);
        assert.equal(err.limit, 'entries');
        assert.equal(err.value, 6);
        assert.match(err.message, /more than 6 entries.*"linked"/);
        return true;
      });
    });

    it('stops below the depth, counting a followed link as a level', async () => {
      await assert.rejects(limited(100, 1), (err: unknown) => {
        assert.ok(err instanceof WalkLimitError);
        assert.equal(err.limit, 'depth');
        assert.equal(err.value, 1);
        assert.match(err.message, /deeper than 1 folders.*"d1\/d2"/);
        return true;
      });
      const deepLink = join(base, 'limits', 'deep-link');
      touch(deepLink, 'one/x.mkv');
      link(join(base, 'limits'), { 'deep-link/one/two': '../../elsewhere' });
      assert.deepEqual(await walk(deepLink, { limits: { maxEntries: 100, maxDepth: 2 }, keepFile: videos }), [
        'one/two/x.mkv',
        'one/x.mkv',
      ]);
      await assert.rejects(walk(deepLink, { limits: { maxEntries: 100, maxDepth: 1 }, keepFile: videos }), {
        name: 'WalkLimitError',
        limit: 'depth',
      });
    });
  });

  describe('a folder of 20,000 files', () => {
    let root: string;
    before(() => {
      root = join(base, 'wide');
      mkdirSync(root);
      // Hard links to one empty file: as many files, made many times faster than by writing each.
      writeFileSync(join(base, 'empty'), '');
      for (let i = 0; i < 20_000; i++) linkSync(join(base, 'empty'), join(root, `episode ${i}.mkv`));
    });

    /**
     * The most files the walk looked at within one turn of the event loop, and how many turns it
     * took: counted, not timed, so a loaded machine cannot fail it. A turn's work is what keeps
     * requests waiting; the walk's share is 2,000 entries.
     */
    const perTurn = async (keep: (relPath: string) => boolean) => {
      let inTurn = 0;
      let most = 0;
      let turns = 0;
      let walking = true;
      const tick = () => {
        most = Math.max(most, inTurn);
        inTurn = 0;
        turns++;
        if (walking) setImmediate(tick);
      };
      setImmediate(tick);
      try {
        const files = await walk(root, { limits: NO_LIMITS, keepFile: (relPath) => (inTurn++, keep(relPath)) });
        assert.equal(files.length, 20_000);
      } finally {
        walking = false;
      }
      return { most: Math.max(most, inTurn), turns };
    };

    it('leaves the event loop free to answer requests while it is read', async () => {
      const { most, turns } = await perTurn(videos);
      assert.ok(most <= 2_000, `${most} files were looked at in one turn of the event loop`);
      assert.ok(turns >= 10, `the walk took ${turns} turns`);
    });

    it('leaves it free even when deciding which files to keep is slow', async () => {
      // 5 µs a file: 100 ms for the folder in one go.
      const slowly = (relPath: string) => {
        for (const until = performance.now() + 0.005; performance.now() < until;);
        return videos(relPath);
      };
      const { most } = await perTurn(slowly);
      assert.ok(most <= 2_000, `${most} files were looked at in one turn of the event loop`);
    });

    it('stops when aborted, before or during the walk', async () => {
      await assert.rejects(walk(root, { limits: NO_LIMITS, keepFile: videos, signal: AbortSignal.abort() }), { name: 'AbortError' });
      const controller = new AbortController();
      let asked = 0;
      const abortAtTheHundredth = (relPath: string) => {
        if (++asked === 100) controller.abort(new Error('scan cancelled'));
        return videos(relPath);
      };
      await assert.rejects(walk(root, { limits: NO_LIMITS, keepFile: abortAtTheHundredth, signal: controller.signal }), {
        message: 'scan cancelled',
      });
      // The turn under way ends the batch it started, and nothing more is read.
      assert.ok(asked <= 2000, `${asked} files were looked at`);
    });
  });
});
