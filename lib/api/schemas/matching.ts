// Fixing a wrong match: the provider's candidates for a title, and the match chosen.
import { Type } from '@sinclair/typebox';
import { Nullable } from './common';

export const MatchCandidate = Type.Object({
  tmdbId: Type.Integer({ minimum: 1 }),
  title: Type.String(),
  originalTitle: Type.String(),
  year: Nullable(Type.Integer()),
  overview: Nullable(Type.String()),
  posterUrl: Nullable(
    Type.String({
      format: 'uri',
      description: 'A small poster (185 px wide) through this service, which fetches it from the provider; never a provider URL or key',
    }),
  ),
});

export const CandidatesQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "What to search the provider for; default: the item's title" }),
    ),
    year: Type.Optional(
      Type.Integer({ minimum: 1870, maximum: 2100, description: 'Release year (a show: first air year), matched exactly by the provider' }),
    ),
  },
  { additionalProperties: false },
);

export const MatchRequest = Type.Object(
  {
    tmdbId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: "The provider's id of the record chosen, as `candidates` gives it",
    }),
  },
  { additionalProperties: false },
);

export const ProviderImageParams = Type.Object(
  {
    file: Type.String({
      pattern: '^[A-Za-z0-9_-]{1,64}\\.(jpg|png)$',
      description: "The provider's image file, as a candidate's `posterUrl` names it",
    }),
  },
  { additionalProperties: false },
);
