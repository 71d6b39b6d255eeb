// Which folders may never be a library: the mount table's pseudo filesystems (read from a
// sample with escapes, optional fields and mounts over mounts), the fixed system folders and
// the service's data folder, and the reason given for each.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemFences, systemPathReason } from '../../../lib/storage/system-paths';

const MOUNT_INFO = [
  '22 27 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw',
  '23 27 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw',
  '24 27 0:6 / /dev rw,nosuid,relatime shared:3 - devtmpfs udev rw,size=8067548k,mode=755',
  '27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '30 24 0:27 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw',
  '31 27 0:28 / /run rw,nosuid,nodev,noexec shared:5 - tmpfs tmpfs rw,size=1615364k,mode=755',
  '32 31 0:29 / /run/user/1000 rw,nosuid,nodev,relatime shared:6 - tmpfs tmpfs rw,uid=1000,gid=1000',
  '33 27 0:30 / /tmp rw,nosuid,nodev shared:7 - tmpfs tmpfs rw',
  '34 27 0:31 / /srv/media\\040box/proc rw,relatime master:8 - proc proc rw',
  '35 27 0:32 / /var/lib/nfs/rpc_pipefs rw,relatime shared:9 - rpc_pipefs sunrpc rw',
  // A systemd automount: autofs first, the share mounted over it once read.
  '36 27 0:33 / /mnt/nas rw,relatime shared:10 - autofs systemd-1 rw,fd=46,pgrp=1',
  '37 36 0:34 / /mnt/nas rw,relatime shared:11 - nfs4 nas:/media rw,vers=4.2',
  '38 27 0:35 / /srv/tab\\011and\\134slash rw,relatime - debugfs debugfs rw',
  '39 27 0:36 / /mnt/ram rw,relatime - tmpfs tmpfs rw,size=4g',
  // A pseudo filesystem mounted over a real one hides it.
  '40 27 8:17 / /mnt/covered rw,relatime - ext4 /dev/sdb1 rw',
  '41 40 0:37 / /mnt/covered rw,relatime - proc proc rw',
  'not a mount line',
  '',
].join('\n');

describe('system folders', () => {
  let base: string;
  let dataDir: string;
  before(() => {
    base = realpathSync(mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), 'mls-system-paths-')));
    dataDir = join(base, 'service', 'data');
    mkdirSync(dataDir, { recursive: true });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('fences the fixed folders, the pseudo filesystems of the mount table and the data folder', () => {
    assert.deepEqual(systemFences({ dataDir, mountInfo: MOUNT_INFO }), [
      '/proc',
      '/sys',
      '/dev',
      '/run',
      '/dev/shm',
      '/run/user/1000',
      '/srv/media box/proc',
      '/var/lib/nfs/rpc_pipefs',
      '/srv/tab\tand\\slash',
      '/mnt/covered',
      dataDir,
    ]);
  });

  it('does with the fixed folders where there is no mount table, and names the data folder by its real path', () => {
    symlinkSync(dataDir, join(base, 'data-link'));
    assert.deepEqual(systemFences({ dataDir: join(base, 'data-link'), mountInfo: '' }), ['/proc', '/sys', '/dev', '/run', dataDir]);
    assert.deepEqual(systemFences({ dataDir: join(base, 'not-yet'), mountInfo: '' }).at(-1), join(base, 'not-yet'));
  });

  it('reads the mount table of this machine', () => {
    const fences = systemFences({ dataDir });
    for (const fence of ['/proc', '/sys', '/dev', '/run', dataDir]) assert.ok(fences.includes(fence), fence);
    assert.equal(new Set(fences).size, fences.length);
  });

  it('says why a folder cannot be a library', () => {
    const fences = systemFences({ dataDir, mountInfo: MOUNT_INFO });
    const reason = (path: string) => systemPathReason(path, fences, dataDir);
    assert.equal(reason('/'), 'is the root of the filesystem');
    assert.equal(reason('/proc'), 'is inside /proc, a system filesystem (proc)');
    assert.equal(reason('/proc/1/root'), 'is inside /proc, a system filesystem (proc)');
    assert.equal(reason('/run/user/1000/gvfs'), 'is inside /run/user/1000, a system filesystem (tmpfs)');
    assert.equal(reason('/srv/media box/proc/self'), 'is inside /srv/media box/proc, a system filesystem (proc)');
    assert.equal(reason(join(dataDir, 'db')), "is inside the service's data folder (DATA_DIR)");
    assert.equal(reason(dataDir), "is inside the service's data folder (DATA_DIR)");
    assert.equal(reason(base), "holds the service's data folder (DATA_DIR)");
    // Without a mount table there is no type to name.
    assert.equal(systemPathReason('/dev/x', systemFences({ dataDir, mountInfo: '' }), dataDir), 'is inside /dev, a system folder');
  });

  it('accepts ordinary folders, tmpfs outside the system folders and folders holding a pseudo filesystem', () => {
    const fences = systemFences({ dataDir, mountInfo: MOUNT_INFO });
    for (const path of ['/tmp/media', '/mnt/ram', '/mnt/nas/Movies', '/srv', '/srv/media box', join(base, 'service', 'media')])
      assert.equal(systemPathReason(path, fences, dataDir), undefined, path);
  });
});
