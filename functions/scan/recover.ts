// Run by the local runner each time the handlers (re)start: no worker survives a restart, so
// jobs left queued or running are orphans. They become interrupted and resume on their own
// when `features.autoResumeScans` is on. Returns what it did.
import middy from '@middy/core';
import { config } from '../../lib/config';
import { services, settingsStore } from '../../lib/deps';
import { getStoredSettings } from '../../lib/settings/service';
import { recoverJobs } from '../../lib/scan/recovery';

export const handler = middy(async () => {
  const settings = await getStoredSettings(settingsStore);
  const result = await recoverJobs(services, settings.features.autoResumeScans);
  if (result.interrupted || result.requeued) services.log.info({ ...result, version: config.version }, 'scan jobs recovered after a restart');
  return result;
});
