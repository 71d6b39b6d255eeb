// A profile's state of a film, an episode or a show, as details, lists and events carry it
// (apart from watching.ts, which needs the media shapes that carry these).
import { Type } from '@sinclair/typebox';
import { IsoTime, Nullable } from './common';

const Favorite = Type.Boolean({
  description: "Marked a favourite by the profile (POST /api/v1/favorites/{mediaId}); a show's is the show's own, not its episodes'",
});

export const UserData = Type.Object(
  {
    positionSeconds: Type.Number({ minimum: 0, description: 'Where to resume; 0 when there is nothing to resume' }),
    progress: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'positionSeconds over the length; for a show in a list, its played episodes over all of them',
    }),
    played: Type.Boolean(),
    playCount: Type.Integer({
      minimum: 0,
      description: 'Viewings counted: each time the played mark was passed, or it was marked by hand',
    }),
    lastPlayedAt: Nullable(IsoTime),
    favorite: Favorite,
  },
  { description: "A profile's state of a film, an episode or (in lists) a show" },
);

export const ShowUserData = Type.Object({
  playedEpisodes: Type.Integer({ minimum: 0 }),
  totalEpisodes: Type.Integer({ minimum: 0 }),
  played: Type.Boolean({ description: 'Every episode played' }),
  favorite: Favorite,
});
