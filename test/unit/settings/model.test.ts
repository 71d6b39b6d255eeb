import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPatch, DEFAULT_SETTINGS, toView } from '../../../lib/settings/model';

describe('settings model', () => {
  it('shows a hint of the key, never the key', () => {
    const view = toView({ ...DEFAULT_SETTINGS, tmdbApiKey: 'secretkey1234abcd' }, undefined);
    assert.deepEqual(view.metadata, { tmdbApiKeySet: true, tmdbApiKeyHint: '****abcd', tmdbApiKeySource: 'settings', language: 'en-US' });
    assert.doesNotMatch(JSON.stringify(view), /secretkey/);
  });

  it('falls back to the environment key, and a saved key wins over it', () => {
    assert.equal(toView(DEFAULT_SETTINGS, 'envkey9999').metadata.tmdbApiKeySource, 'environment');
    assert.equal(toView(DEFAULT_SETTINGS, 'envkey9999').metadata.tmdbApiKeyHint, '****9999');
    assert.equal(toView({ ...DEFAULT_SETTINGS, tmdbApiKey: 'saved00001111' }, 'envkey9999').metadata.tmdbApiKeyHint, '****1111');
    assert.deepEqual(toView(DEFAULT_SETTINGS, undefined).metadata.tmdbApiKeySet, false);
  });

  it('merges a partial patch and leaves everything else alone', () => {
    const next = applyPatch(DEFAULT_SETTINGS, { features: { artwork: false }, preferences: { theme: 'dark' } });
    assert.deepEqual(next, {
      ...DEFAULT_SETTINGS,
      features: { ...DEFAULT_SETTINGS.features, artwork: false },
      preferences: { ...DEFAULT_SETTINGS.preferences, theme: 'dark' },
    });
  });

  it('removes the key when the patch sets it to null, and keeps it when the patch does not mention it', () => {
    const withKey = { ...DEFAULT_SETTINGS, tmdbApiKey: 'abcdefgh1234' };
    assert.equal(applyPatch(withKey, { metadata: { tmdbApiKey: null } }).tmdbApiKey, null);
    assert.equal(applyPatch(withKey, { metadata: { language: 'fr-FR' } }).tmdbApiKey, 'abcdefgh1234');
  });
});
