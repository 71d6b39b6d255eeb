import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { HealthView } from '../api/schemas';
import type { Db } from '../db/client';
import { keys } from '../db/table';

/** True when the database answers a read; any failure, including a timeout, means down. */
export const probeDatabase = async (db: Db): Promise<boolean> => {
  try {
    await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.healthProbe() }), {
      abortSignal: AbortSignal.timeout(1_500),
    });
    return true;
  } catch {
    return false;
  }
};

export const health = async (db: Db, version: string, startedAt: number, now = Date.now()): Promise<HealthView> => {
  const up = await probeDatabase(db);
  return {
    status: up ? 'ok' : 'degraded',
    database: up ? 'ok' : 'down',
    version,
    uptimeSeconds: Math.max(0, Math.floor((now - startedAt) / 1000)),
  };
};
