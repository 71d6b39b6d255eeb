// Discovery tells which folders it could not read, so a scan removes nothing below them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROJECT_DIR } from '../../../infra/project';
import { discoverTree, statAll } from '../../../lib/storage/discover';

const NO_LIMITS = { maxEntries: 1_000_000, maxDepth: 64 };

/** As root every folder is readable: the walk runs as nobody, as a service without rights to a folder would. */
const discoverAsNobody = (root: string) => {
  const script = `
    process.setgid(65534); process.setuid(65534);
    const { discoverTree } = await import(${JSON.stringify(join(PROJECT_DIR, 'lib/storage/discover.ts'))});
    const tree = await discoverTree(${JSON.stringify(root)}, { limits: ${JSON.stringify(NO_LIMITS)} });
    console.log(JSON.stringify({ files: tree.files.map((f) => f.relPath), unreadable: tree.unreadable }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_DIR,
    env: { ...process.env, TSX_DISABLE_CACHE: '1' },
    encoding: 'utf8',
  });
  return JSON.parse(out) as { files: string[]; unreadable: string[] };
};

describe('discovery: folders that cannot be read', () => {
  const base = mkdtempSync(join(tmpdir(), 'discover-'));
  after(() => rmSync(base, { recursive: true, force: true }));

  it('lists them beside the files it found', async () => {
    const root = join(base, 'lib');
    for (const rel of ['Heat (1995)/Heat (1995).mkv', 'Private/Alien (1979)/Alien (1979).mkv']) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), 'x');
    }
    chmodSync(join(base), 0o755);
    chmodSync(join(root, 'Private'), 0o000);
    try {
      const found =
        process.getuid?.() === 0
          ? discoverAsNobody(root)
          : await discoverTree(root, { limits: NO_LIMITS }).then((t) => ({
              files: t.files.map((f) => f.relPath),
              unreadable: t.unreadable,
            }));
      assert.deepEqual(found, { files: ['Heat (1995)/Heat (1995).mkv'], unreadable: ['Private'] });
    } finally {
      chmodSync(join(root, 'Private'), 0o755);
    }
  });

  it('lists none when every folder was read', async () => {
    const root = join(base, 'open');
    mkdirSync(join(root, 'Heat (1995)'), { recursive: true });
    writeFileSync(join(root, 'Heat (1995)', 'Heat (1995).mkv'), 'x');
    assert.deepEqual((await discoverTree(root, { limits: NO_LIMITS })).unreadable, []);
  });
});

describe('statAll', () => {
  const base = mkdtempSync(join(tmpdir(), 'stat-all-'));
  after(() => rmSync(base, { recursive: true, force: true }));

  it('answers in path order with sizes, leaving out vanished files, folders and a file met again under another path', async () => {
    // Prepare: 300 files (more than are stated at once), a hard link to one of them, a folder.
    const names = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, '0')}.mkv`);
    names.forEach((name, i) => writeFileSync(join(base, name), 'x'.repeat(i % 7)));
    linkSync(join(base, 'f010.mkv'), join(base, 'g-link.mkv'));
    mkdirSync(join(base, 'folder.mkv'));
    // Act
    const found = await statAll(base, [...names, 'gone.mkv', 'g-link.mkv', 'folder.mkv']);
    // Assess
    assert.deepEqual(
      found.map(({ relPath, size }) => ({ relPath, size })),
      names.map((relPath, i) => ({ relPath, size: i % 7 })),
    );
  });
});
