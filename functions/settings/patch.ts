import { operations } from '../../lib/api/operations';
import { settingsStore } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';
import { deploymentKey } from '../../lib/settings/deployment-key';
import { patchSettings } from '../../lib/settings/service';

export const handler = http(operations.patchSettings, async ({ body }, { log }) => {
  const view = await patchSettings(settingsStore, body, await deploymentKey());
  log.info({ changed: Object.keys(body) }, 'settings updated');
  return ok(view);
});
