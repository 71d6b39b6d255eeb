// What is stored (the key included) versus what is shown (never the key, only a hint).
import type { SettingsPatchBody, SettingsView } from '../api/schemas';

export interface StoredSettings {
  tmdbApiKey: string | null;
  language: string;
  features: SettingsView['features'];
  preferences: SettingsView['preferences'];
}

export const DEFAULT_SETTINGS: StoredSettings = {
  tmdbApiKey: null,
  language: 'en-US',
  features: { metadataFetching: true, artwork: true, meshGradients: true, autoResumeScans: true, realtimeMonitoring: true },
  preferences: { theme: 'system', pageSize: 10, playback: { resumeMinPercent: 5, playedAtPercent: 90 } },
};

export const keyHint = (key: string) => `****${key.slice(-4)}`;

/** The saved key wins over the environment's. */
export const effectiveKey = (stored: StoredSettings, envKey: string | undefined) => stored.tmdbApiKey ?? envKey ?? null;

export const toView = (stored: StoredSettings, envKey: string | undefined): SettingsView => {
  const key = effectiveKey(stored, envKey);
  return {
    metadata: {
      tmdbApiKeySet: key !== null,
      tmdbApiKeyHint: key ? keyHint(key) : null,
      tmdbApiKeySource: stored.tmdbApiKey ? 'settings' : envKey ? 'environment' : null,
      language: stored.language,
    },
    features: { ...stored.features },
    preferences: { ...stored.preferences },
  };
};

export const applyPatch = (current: StoredSettings, patch: SettingsPatchBody): StoredSettings => ({
  tmdbApiKey: patch.metadata && 'tmdbApiKey' in patch.metadata ? (patch.metadata.tmdbApiKey ?? null) : current.tmdbApiKey,
  language: patch.metadata?.language ?? current.language,
  features: { ...current.features, ...patch.features },
  preferences: {
    ...current.preferences,
    ...patch.preferences,
    playback: { ...current.preferences.playback, ...patch.preferences?.playback },
  },
});
