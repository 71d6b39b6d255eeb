// Film collections: those with a film here, and one with all of its parts, owned or not.
import { Type } from '@sinclair/typebox';
import { Nullable } from './common';
import { Media } from './media';

const Picture = (what: string) =>
  Nullable(
    Type.String({ format: 'uri', description: `The collection's ${what} through the artwork endpoint; null when it has none (yet)` }),
  );

export const CollectionSummary = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: "The provider's collection id" }),
    name: Type.String(),
    posterUrl: Picture('poster'),
    backdropUrl: Picture('backdrop'),
    owned: Type.Integer({ minimum: 1, description: 'Its films here (a film in two libraries counts once)' }),
    total: Type.Integer({ minimum: 1, description: 'Its parts: the films the provider lists in it, and any here it does not list' }),
  },
  { description: 'A film collection with at least one film here' },
);

export const CollectionPart = Type.Object(
  {
    tmdbId: Nullable(Type.Integer({ minimum: 1 }), {
      description: "The film's provider id; null for a film here the provider has not described",
    }),
    title: Type.String(),
    year: Nullable(Type.Integer()),
    owned: Type.Boolean({ description: 'Whether the film is here' }),
    id: Nullable(Type.String({ description: 'The film here (GET /api/v1/movies/{id}); null for a missing part' })),
    media: Nullable(Media, { description: 'The film here as lists show it; null for a missing part' }),
  },
  { description: 'A part of a collection, owned or missing' },
);

export const CollectionDetail = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    name: Type.String(),
    overview: Nullable(Type.String()),
    posterUrl: Picture('poster'),
    backdropUrl: Picture('backdrop'),
    parts: Type.Array(CollectionPart, { description: 'In release order (undated ones last), the missing ones too' }),
  },
  { description: 'A film collection with every part' },
);

export const CollectionParams = Type.Object(
  {
    collectionId: Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: "The provider's collection id, as `metadata.collection.id` gives it",
    }),
  },
  { additionalProperties: false },
);
