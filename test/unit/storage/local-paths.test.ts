// The folder checks behind 422 answers, including a folder the service may not read. Tests
// run as root here, and root reads everything, so that case runs in a child process that
// drops to the unprivileged `nobody` user first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { usableDirectory, within } from '../../../lib/storage/local-paths';
import { PROJECT_DIR } from '../../../infra/project';

const rejects = (path: string, reason: RegExp) =>
  assert.rejects(usableDirectory(path), (err: any) => err.status === 422 && err.code === 'path-not-usable' && reason.test(err.message));

describe('usable directories', () => {
  const root = mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), 'mls-paths-'));
  chmodSync(root, 0o755);
  after(() => rmSync(root, { recursive: true, force: true }));

  it('gives the canonical path of a readable folder', async () => {
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    assert.equal(await usableDirectory(join(root, 'link') + '/'), join(root, 'real'));
    assert.equal(await usableDirectory(join(root, 'real', '..', 'real')), join(root, 'real'));
  });

  it('says why a path cannot be used', async () => {
    writeFileSync(join(root, 'file'), '');
    symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
    symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
    await rejects('relative/path', /not an absolute path/);
    await rejects(join(root, 'missing'), /does not exist/);
    await rejects(join(root, 'file'), /not a directory/);
    await rejects(join(root, 'loop-a'), /symbolic link loop/);
  });

  it('refuses a folder the service cannot read', { skip: process.getuid?.() !== 0 && 'needs root to drop to nobody' }, () => {
    const locked = join(root, 'locked');
    mkdirSync(locked, { mode: 0o700 });
    const script = `
      process.setgid(65534); process.setuid(65534);
      const { usableDirectory } = await import(${JSON.stringify(join(PROJECT_DIR, 'lib/storage/local-paths.ts'))});
      try { await usableDirectory(${JSON.stringify(locked)}); console.log('accepted'); }
      catch (err) { console.log(err.status + ' ' + err.message); }`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_DIR,
      env: { ...process.env, TSX_DISABLE_CACHE: '1' },
      encoding: 'utf8',
    });
    assert.match(out.trim(), /^422 .*cannot be read by the service$/);
  });

  it('tells whether one folder is inside another', () => {
    assert.equal(within('/m', '/m'), '');
    assert.equal(within('/m', '/m/a/b'), 'a/b');
    assert.equal(within('/m', '/mx'), undefined);
    assert.equal(within('/m/a', '/m'), undefined);
    assert.equal(within('/m', '/m/..foo'), '..foo');
  });
});
