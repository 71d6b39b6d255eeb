// Watch state: profiles, where each one stopped, what it has seen, what comes next.
import { Type } from '@sinclair/typebox';
import { Id, IsoTime, Limit, Nullable } from './common';
import { Media } from './media';
import { UserData } from './user-data';

export const ProfileId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: "A profile's id; `default` is the household's, always there",
});

export const Profile = Type.Object({ id: ProfileId, name: Type.String(), createdAt: IsoTime });

export const ProfileBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 40, description: 'Unique without regard to case' }) },
  { additionalProperties: false },
);

export const ProgressBody = Type.Object(
  {
    positionSeconds: Type.Number({ minimum: 0, maximum: 1_000_000 }),
    durationSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1_000_000,
        description: "The length the player knows; default: the file's, as the scan read it",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProfileQuery = Type.Object({ profileId: Type.Optional(ProfileId) }, { additionalProperties: false });
export const WatchListQuery = Type.Object(
  { profileId: Type.Optional(ProfileId), limit: Type.Optional(Limit(20, 100)) },
  { additionalProperties: false },
);

export const ContinueEntry = Type.Object(
  {
    id: Id,
    type: Type.Union([Type.Literal('movie'), Type.Literal('episode')]),
    media: Media,
    episode: Type.Optional(
      Type.Object({
        id: Id,
        seasonNumber: Type.Integer({ minimum: 0 }),
        episodeNumber: Type.Integer({ minimum: 0 }),
        title: Nullable(Type.String()),
        stillUrl: Nullable(Type.String({ format: 'uri' })),
      }),
    ),
    userData: UserData,
  },
  { description: 'A film, or an episode with its show as `media`, and where the profile is in it' },
);
