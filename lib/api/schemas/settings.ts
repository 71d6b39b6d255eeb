// The settings a client reads and changes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common';

export const LANGUAGE_PATTERN = '^[a-z]{2,3}(-[A-Z]{2})?$';
const Language = Type.String({ pattern: LANGUAGE_PATTERN, description: 'ISO 639-1 language, optionally with ISO 3166-1 region: en-US' });
const Theme = Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]);

export const Features = Type.Object(
  {
    metadataFetching: Type.Boolean({ description: 'Fetch titles, overviews and artwork from TMDB during scans' }),
    artwork: Type.Boolean({ description: 'Download and cache posters, backdrops and stills' }),
    meshGradients: Type.Boolean({ description: 'Compute poster colours for meshGradientColors' }),
    autoResumeScans: Type.Boolean({ description: 'Resume interrupted scans when the service starts' }),
    realtimeMonitoring: Type.Boolean({
      description: "Watch libraries' folders (those with `monitoring` on) and scan what changed a few seconds after it settles",
    }),
  },
  { additionalProperties: false },
);

const PlaybackPreferences = Type.Object(
  {
    resumeMinPercent: Type.Number({
      minimum: 0,
      maximum: 50,
      description: 'A position before this share of a film or an episode keeps nothing (default 5)',
    }),
    playedAtPercent: Type.Number({
      minimum: 50,
      maximum: 100,
      description: 'A position past this share marks it played and clears the position (default 90)',
    }),
  },
  { additionalProperties: false },
);

export const Preferences = Type.Object(
  {
    theme: Theme,
    pageSize: Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page clients should ask for' }),
    playback: PlaybackPreferences,
  },
  { additionalProperties: false },
);

const PreferencesPatch = Type.Object(
  {
    theme: Type.Optional(Theme),
    pageSize: Type.Optional(Preferences.properties.pageSize),
    playback: Type.Optional(Type.Partial(PlaybackPreferences, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const Settings = Type.Object({
  metadata: Type.Object({
    tmdbApiKeySet: Type.Boolean(),
    tmdbApiKeyHint: Nullable(Type.String({ description: 'The last 4 characters of the key, masked: ****abcd' })),
    tmdbApiKeySource: Nullable(Type.Union([Type.Literal('settings'), Type.Literal('environment')])),
    language: Language,
  }),
  features: Features,
  preferences: Preferences,
});

export const SettingsPatch = Type.Object(
  {
    metadata: Type.Optional(
      Type.Object(
        {
          tmdbApiKey: Type.Optional(
            Nullable(
              Type.String({ minLength: 8, maxLength: 512, pattern: '^[A-Za-z0-9._-]+$', description: 'Set the key; null removes it' }),
            ),
          ),
          language: Type.Optional(Language),
        },
        { additionalProperties: false },
      ),
    ),
    features: Type.Optional(Type.Partial(Features, { additionalProperties: false })),
    preferences: Type.Optional(PreferencesPatch),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type SettingsView = Static<typeof Settings>;
export type SettingsPatchBody = Static<typeof SettingsPatch>;
