import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DiskStatusView, HealthView } from '../api/schemas';
import { config } from '../config';
import type { Db } from '../db/client';
import { keys } from '../db/table';
import { diskSpace, lowSpaceBelow, type LowSpaceLimits } from '../util/disk-space';
import { within } from '../util/within';

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

/** In a shared process, a probe this young is the answer; one older is made again behind the readers ... */
const PROBE_FRESH_MS = 1_000;
/** ... waited for this long (a database that is gone refuses at once), then answered from the last ... */
const PROBE_WAIT_MS = 50;
/** ... unless the last is older than this (a database that hangs is not reported up for long). */
const PROBE_STALE_MS = 5_000;

/**
 * The database's state as the handlers tell it. In a Lambda each call probes; in a shared process
 * (lib/runtime.ts) the last probe answers while a new one runs behind it at most once a second,
 * so health neither adds a read per request nor waits behind a scan's writes.
 */
export class DatabaseProbe {
  private last: { up: boolean; at: number } | undefined;
  private running: Promise<boolean> | undefined;

  constructor(
    private readonly probe: () => Promise<boolean>,
    private readonly shared: boolean,
    private readonly clock: () => number = Date.now,
  ) {}

  private start(): Promise<boolean> {
    return (this.running ??= this.probe().then((up) => {
      this.last = { up, at: this.clock() };
      this.running = undefined;
      return up;
    }));
  }

  async up(): Promise<boolean> {
    if (!this.shared || !this.last) return this.start();
    const age = this.clock() - this.last.at;
    if (age < PROBE_FRESH_MS) return this.last.up;
    const next = this.start();
    if (age >= PROBE_STALE_MS) return next;
    const last = this.last.up;
    return within(next, PROBE_WAIT_MS, last);
  }
}

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
  ...(databaseUp
    ? []
    : [{ code: 'database-down' as const, message: 'The database does not answer: nothing can be read or saved until it is back' }]),
  ...(disk?.state === 'low'
    ? [
        {
          code: 'disk-low' as const,
          message: `Only ${size(disk.freeBytes)} free on the disk holding ${disk.path} (low below ${size(disk.lowBelowBytes)}): scans pause and changes may not be saved until some space is freed`,
        },
      ]
    : []),
];

/** The service's state as health and `system:status` tell it; `database` answers whether it is up (default: a probe now). */
export const systemStatus = async (db: Db, disk: DataDisk, database: () => Promise<boolean> = () => probeDatabase(db)) => {
  const up = await database();
  const status = diskStatus(disk);
  const reasons = reasonsOf(up, status);
  return {
    status: reasons.length ? ('degraded' as const) : ('ok' as const),
    database: up ? ('ok' as const) : ('down' as const),
    ...(status ? { disk: status } : {}),
    reasons,
  };
};

export const health = async (
  db: Db,
  version: string,
  startedAt: number,
  disk: DataDisk,
  database?: () => Promise<boolean>,
  now = Date.now(),
): Promise<HealthView> => ({
  ...(await systemStatus(db, disk, database)),
  version,
  uptimeSeconds: Math.max(0, Math.floor((now - startedAt) / 1000)),
});
