// Settings: the TMDB key (only its hint is ever shown: the service never returns a key),
// the metadata language, the feature switches, and the profiles (deleted here, after a
// question, rather than from the header's menu where a slip would do it).
import { useState } from 'preact/hooks';
import { api, ApiError, asApiError, unwrap, type Profile, type Settings as SettingsValue, type SettingsPatch } from '../api/client';
import { fieldText } from '../ui/form-field';
import { ProblemView, Show, useLoad } from '../ui/load';
import { AddProfile } from '../ui/profile-menu';
import { deleteProfile, useProfiles } from '../ui/profiles';

const FEATURES: Array<[keyof SettingsValue['features'], string]> = [
  ['metadataFetching', 'Fetch titles, overviews and artwork from TMDB'],
  ['artwork', 'Keep posters, backdrops and stills'],
  ['meshGradients', 'Poster colours behind the posters'],
  ['realtimeMonitoring', 'Watch the libraries’ folders for changes'],
  ['autoResumeScans', 'Resume interrupted scans at start'],
];

const ProfileList = () => {
  const { list, current } = useProfiles();
  const [error, setError] = useState<ApiError | null>(null);
  const remove = async (profile: Profile) => {
    if (!confirm(`Delete the profile “${profile.name}”? What it has watched and where it stopped are forgotten.`)) return;
    setError(null);
    try {
      await deleteProfile(profile.id);
    } catch (e) {
      setError(asApiError(e, 'Not deleted'));
    }
  };
  return (
    <section class="profiles">
      <h2>Profiles</h2>
      {error && <ProblemView error={error} retry={() => setError(null)} />}
      <ul>
        {(list ?? []).map((p) => (
          <li key={p.id}>
            <span>
              {p.name}
              {p.id === current && <span class="this-device"> (on this device)</span>}
            </span>
            {/* The household's profile is always there: everyone who never chose one watches as it. */}
            {p.id !== 'default' && (
              <button type="button" class="danger" onClick={() => void remove(p)}>
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      <AddProfile />
    </section>
  );
};

export const Settings = () => {
  const [saved, setSaved] = useState<SettingsValue | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loaded, retry] = useLoad(async () => (await unwrap(api.GET('/api/v1/settings'))).data, []);
  const patch = async (body: SettingsPatch) => {
    setError(null);
    try {
      setSaved((await unwrap(api.PATCH('/api/v1/settings', { body }))).data);
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'Not saved', String(e), null));
      return false;
    }
  };
  return (
    <main class="settings">
      <h1 class="screen-title">Settings</h1>
      {error && <ProblemView error={error} retry={() => setError(null)} />}
      <Show loaded={loaded} retry={retry} label="Loading the settings">
        {(first) => {
          const settings = saved ?? first;
          return (
            <>
              <form
                class="key"
                onSubmit={(event) => {
                  event.preventDefault();
                  const form = event.currentTarget;
                  const key = fieldText(new FormData(form), 'key').trim();
                  void patch({ metadata: { tmdbApiKey: key } }).then((ok) => ok && form.reset());
                }}
              >
                <h2>TMDB</h2>
                <p class="key-state">
                  {settings.metadata.tmdbApiKeySet
                    ? `Key ${settings.metadata.tmdbApiKeyHint}${settings.metadata.tmdbApiKeySource === 'environment' ? ' (from the box’s configuration)' : ''}`
                    : 'No key: films keep the titles of their files.'}
                </p>
                <label>
                  New key <input name="key" type="password" autocomplete="off" required minLength={8} />
                </label>
                <button type="submit">Save the key</button>
                {settings.metadata.tmdbApiKeySource === 'settings' && (
                  <button type="button" class="danger" onClick={() => void patch({ metadata: { tmdbApiKey: null } })}>
                    Remove the key
                  </button>
                )}
              </form>
              <fieldset class="features">
                <legend>Features</legend>
                {FEATURES.map(([name, label]) => (
                  <label key={name}>
                    <input
                      type="checkbox"
                      name={name}
                      checked={settings.features[name]}
                      onChange={(e) => void patch({ features: { [name]: e.currentTarget.checked } })}
                    />
                    {label}
                  </label>
                ))}
              </fieldset>
              <ProfileList />
            </>
          );
        }}
      </Show>
    </main>
  );
};
