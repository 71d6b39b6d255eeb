import type { SettingsPatchBody, SettingsView } from '../api/schemas';
import { applyPatch, toView, type StoredSettings } from './model';
import type { SettingsStore } from './store';

export const getSettings = async (store: SettingsStore, envKey: string | undefined): Promise<SettingsView> =>
  toView((await store.read()).value, envKey);

/** The stored settings, key included, for code that calls the provider. */
export const getStoredSettings = async (store: SettingsStore): Promise<StoredSettings> => (await store.read()).value;

export const patchSettings = async (store: SettingsStore, patch: SettingsPatchBody, envKey: string | undefined): Promise<SettingsView> => {
  // Optimistic concurrency: re-read and re-apply when another writer got in first.
  for (let attempt = 0; ; attempt++) {
    const current = await store.read();
    const next = applyPatch(current.value, patch);
    if (await store.write(next, current.version)) return toView(next, envKey);
    if (attempt >= 10) throw new Error('settings write kept conflicting');
  }
};
