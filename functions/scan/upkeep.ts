// The library's upkeep (lib/scan/upkeep.ts): at home the runner invokes it every few seconds
// with what its folder watchers saw; in the cloud an EventBridge schedule invokes it (with an
// event of its own, read as "nothing changed"), so scheduled rescans run in both places.
import middy from '@middy/core';
import { services, settingsStore } from '../../lib/deps';
import { getStoredSettings } from '../../lib/settings/service';
import { runUpkeep, type UpkeepInput } from '../../lib/scan/upkeep';

const inputOf = (event: unknown): UpkeepInput => {
  const e = (event ?? {}) as UpkeepInput;
  return {
    changed: Array.isArray(e.changed) ? e.changed.filter((c) => typeof c?.libraryId === 'string' && typeof c?.path === 'string') : [],
    watching: Array.isArray(e.watching) ? e.watching.filter((w) => typeof w?.libraryId === 'string' && (w.problem === null || typeof w.problem === 'string')) : [],
  };
};

export const handler = middy(async (event: unknown) => {
  const settings = await getStoredSettings(settingsStore);
  const result = await runUpkeep(services, inputOf(event), { monitoring: settings.features.realtimeMonitoring });
  if (result.started.length) services.log.info({ started: result.started }, 'library upkeep started scans');
  return result;
});
