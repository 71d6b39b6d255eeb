import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DiskStatusView, HealthView } from '../api/schemas';
import { config } from '../config';
import type { Db } from '../db/client';
import { keys } from '../db/table';
import { diskSpace, lowSpaceBelow, type LowSpaceLimits } from '../util/disk-space';

/**
 * True when the database answers a read; any failure, including a timeout, means down. A
 * database that is gone refuses at once; the timeout is for one that hangs, and is the other
 * requests' own (lib/db/client.ts), so a busy box is not reported down by health alone.
 */
export const probeDatabase = async (db: Db): Promise<boolean> => {
  try {
    await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.healthProbe() }), {
      abortSignal: AbortSignal.timeout(3_000),
    });
    return true;
  } catch {
    return false;
  }
};

/** The disk holding the data folder: where it is, when it is low, the reserve kept on it (0: none). */
export interface DataDisk {
  dir: string;
  limits: LowSpaceLimits;
  reserveBytes: number;
}

/** The handlers' data disk: a reserve is kept only by the runner that owns the embedded database. */
export const dataDisk = (): DataDisk => ({
  dir: config.dataDir,
  limits: config.disk.lowBelow,
  reserveBytes: config.disk.databaseDir ? config.disk.reserveBytes : 0,
});

/** Undefined where there is no such folder (the cloud). */
export const diskStatus = ({ dir, limits, reserveBytes }: DataDisk): DiskStatusView | undefined => {
  const space = diskSpace(dir, reserveBytes);
  if (!space) return undefined;
  const lowBelowBytes = lowSpaceBelow(space.totalBytes, limits);
  return { path: dir, ...space, lowBelowBytes, state: space.freeBytes < lowBelowBytes ? 'low' : 'ok' };
};

const MiB = 1024 * 1024;
const size = (bytes: number) => (bytes >= 10 * 1024 * MiB ? `${(bytes / (1024 * MiB)).toFixed(0)} GiB` : `${(bytes / MiB).toFixed(1)} MiB`);

/** What a person should read about the state: why it is degraded, if it is. */
export const reasonsOf = (databaseUp: boolean, disk: DiskStatusView | undefined): HealthView['reasons'] => [
  ...(databaseUp ? [] : [{ code: 'database-down' as const, message: 'The database does not answer: nothing can be read or saved until it is back' }]),
  ...(disk?.state === 'low'
    ? [{
        code: 'disk-low' as const,
        message: `Only ${size(disk.freeBytes)} free on the disk holding ${disk.path} (low below ${size(disk.lowBelowBytes)}): scans pause and changes may not be saved until some space is freed`,
      }]
    : []),
];

/** The service's state as health and `system:status` tell it. */
export const systemStatus = async (db: Db, disk: DataDisk) => {
  const up = await probeDatabase(db);
  const status = diskStatus(disk);
  const reasons = reasonsOf(up, status);
  return { status: reasons.length ? ('degraded' as const) : ('ok' as const), database: up ? ('ok' as const) : ('down' as const), ...(status ? { disk: status } : {}), reasons };
};

export const health = async (db: Db, version: string, startedAt: number, disk: DataDisk, now = Date.now()): Promise<HealthView> => ({
  ...(await systemStatus(db, disk)),
  version,
  uptimeSeconds: Math.max(0, Math.floor((now - startedAt) / 1000)),
});
