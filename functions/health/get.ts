import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { db } from '../../lib/db/client';
import { DatabaseProbe, dataDisk, health, probeDatabase } from '../../lib/health/service';
import { http } from '../../lib/http/stack';
import { json } from '../../lib/http/reply';

const database = new DatabaseProbe(() => probeDatabase(db()), config.hosting === 'shared-process');

// 503 only when the database is down: a low disk is degraded, and every read still works.
export const handler = http(operations.health, async () => {
  const view = await health(db(), config.version, config.startedAt, dataDisk(), () => database.up());
  return json(view.database === 'ok' ? 200 : 503, view);
});
