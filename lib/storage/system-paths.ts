// Folders that are not media storage: the kernel's windows onto processes and devices
// (/proc, /sys, /dev and every other pseudo filesystem mounted on this machine), the
// system's runtime state (/run) and the service's own data folder. A library may not be one
// of them, nor be inside one; the walk of a library never enters them ("fences").
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { isInside } from '../util/paths';

/** Fenced whether or not they are mounted (or exist): the names are fixed on Linux and mean the same elsewhere. */
const FIXED_FENCES = ['/proc', '/sys', '/dev', '/run'];

/**
 * Filesystem types that hold no files a person put there. `autofs` is left out on purpose:
 * systemd automounts and autofs maps sit exactly where a NAS share appears (the share is
 * mounted on top when first read), so fencing it would forbid the storage a library is for.
 */
const PSEUDO_FILESYSTEMS = new Set([
  'proc',
  'sysfs',
  'devtmpfs',
  'devfs',
  'devpts',
  'cgroup',
  'cgroup2',
  'cpuset',
  'securityfs',
  'selinuxfs',
  'smackfs',
  'debugfs',
  'tracefs',
  'pstore',
  'bpf',
  'configfs',
  'fusectl',
  'fuse.lxcfs',
  'mqueue',
  'hugetlbfs',
  'binfmt_misc',
  'efivarfs',
  'rpc_pipefs',
  'nfsd',
  'nsfs',
  'binder',
  'resctrl',
  'xenfs',
]);

/** tmpfs also holds people's files (/tmp, a RAM disk for transcodes); it is the system's only below these. */
const SYSTEM_TMPFS_PARENTS = ['/run', '/dev', '/sys'];

const DATA_DIR_INSIDE = "is inside the service's data folder (DATA_DIR)";
const DATA_DIR_HELD = "holds the service's data folder (DATA_DIR)";

/** What each fenced mount point is, as the last `systemFences` read it: only for the wording of reasons. */
const fenceTypes = new Map<string, string>();

interface Mount {
  mountPoint: string;
  fsType: string;
}

/**
 * Canonical folders a library may not be inside and a walk must not enter: the fixed system
 * folders, every pseudo filesystem mounted here, and the service's data folder.
 * `mountInfo` is the text of /proc/self/mountinfo (read from there when not given).
 */
export const systemFences = (options: { dataDir: string; mountInfo?: string }): string[] => {
  const fences = new Set(FIXED_FENCES);
  fenceTypes.clear();
  for (const { mountPoint, fsType } of visibleMounts(parseMountInfo(options.mountInfo ?? readMountInfo()))) {
    if (!isSystemFilesystem(mountPoint, fsType)) continue;
    fences.add(mountPoint);
    fenceTypes.set(mountPoint, fsType);
  }
  fences.add(canonicalIfExists(options.dataDir));
  return [...fences];
};

/** Why a canonical absolute path cannot be a library root or scan path, or undefined when it can. */
export const systemPathReason = (canonical: string, fences: readonly string[], dataDir: string): string | undefined => {
  const path = resolve(canonical);
  if (path === '/') return 'is the root of the filesystem';
  const data = canonicalIfExists(dataDir);
  if (isInside(data, path)) return DATA_DIR_INSIDE;
  const fence = innermostFenceHolding(path, fences, data);
  if (fence !== undefined) return `is inside ${fence}, ${describeFence(fence)}`;
  // Holding a pseudo mount is fine (the walk leaves it out); holding the data folder would scan the service's own files.
  if (isInside(path, data)) return DATA_DIR_HELD;
  return undefined;
};

const innermostFenceHolding = (path: string, fences: readonly string[], data: string) =>
  fences
    .map((fence) => resolve(fence))
    .filter((fence) => fence !== data && isInside(fence, path))
    .sort((a, b) => b.length - a.length)[0];

const describeFence = (fence: string) => {
  const fsType = fenceTypes.get(fence);
  return fsType === undefined ? 'a system folder' : `a system filesystem (${fsType})`;
};

const isSystemFilesystem = (mountPoint: string, fsType: string) =>
  PSEUDO_FILESYSTEMS.has(fsType) || (fsType === 'tmpfs' && SYSTEM_TMPFS_PARENTS.some((parent) => isInside(parent, mountPoint)));

/** Empty where there is no such file (not Linux): the fixed names and the data folder are enough there. */
const readMountInfo = (): string => {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return '';
  }
};

/**
 * One mount per line: `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw`.
 * Field 5 is the mount point; a variable number of optional fields ends with a lone `-`,
 * and the filesystem type comes right after it (see proc(5)).
 */
const parseMountInfo = (text: string): Mount[] =>
  text.split('\n').flatMap((line) => {
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    if (fields.length < 5 || separator < 0 || separator + 1 >= fields.length) return [];
    const mountPoint = unescapeMountField(fields[4]!);
    return mountPoint.startsWith('/') ? [{ mountPoint, fsType: unescapeMountField(fields[separator + 1]!) }] : [];
  });

/** The kernel writes space, tab, newline and backslash as octal escapes (`\040`); everything else is as is. */
const unescapeMountField = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_escape, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));

/** Where two mounts share a mount point, the later one covers the earlier: only it can be seen. */
const visibleMounts = (mounts: Mount[]): Mount[] => [...new Map(mounts.map((mount) => [mount.mountPoint, mount])).values()];

const canonicalIfExists = (path: string) => {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
};
