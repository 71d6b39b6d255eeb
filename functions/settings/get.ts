import { operations } from '../../lib/api/operations';
import { settingsStore } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';
import { deploymentKey } from '../../lib/settings/deployment-key';
import { getSettings } from '../../lib/settings/service';

export const handler = http(operations.getSettings, async () => ok(await getSettings(settingsStore, await deploymentKey())));
