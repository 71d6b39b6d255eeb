import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { db } from '../../lib/db/client';
import { health } from '../../lib/health/service';
import { http } from '../../lib/http/stack';
import { json } from '../../lib/http/reply';

export const handler = http(operations.health, async () => {
  const view = await health(db(), config.version, config.startedAt);
  return json(view.status === 'ok' ? 200 : 503, view);
});
