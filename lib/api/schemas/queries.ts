// Query strings and path parameters shared by operations.
import { Type } from '@sinclair/typebox';
import { Cursor, Limit, MediaType } from './common';
import { JobStatus } from './scans';
import { ProfileId } from './watching';

export const PageQuery = Type.Object(
  { limit: Type.Optional(Limit(10, 100)), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);
export const TitleListQuery = Type.Object(
  {
    limit: Type.Optional(Limit(10, 100)),
    cursor: Type.Optional(Cursor),
    profileId: Type.Optional(ProfileId),
    matched: Type.Optional(
      Type.Boolean({
        description:
          'false: only the titles the provider could not describe (no match with confidence), to fix by hand; true: only those it did',
      }),
    ),
  },
  { additionalProperties: false },
);
export const SearchQuery = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Optional(MediaType),
    limit: Type.Optional(Limit(20, 100)),
    profileId: Type.Optional(ProfileId),
  },
  { additionalProperties: false },
);
export const StreamQuery = Type.Object(
  {
    part: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 99, default: 1, description: 'The part of a stacked movie (cd2 ...); 1 by default' }),
    ),
  },
  { additionalProperties: false },
);
export const JobsQuery = Type.Object({ status: Type.Optional(JobStatus) }, { additionalProperties: false });
export const ArtworkQuery = Type.Object(
  {
    w: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 4000,
        description:
          'Width wanted, in pixels. Snapped up to the next of 160, 320, 480, 780 and 1280 (anything wider gets 1280), so a handful of sizes are rendered and cached whatever clients ask for; the height follows the aspect ratio. Never enlarged: a width at least as wide as the stored image gives its original size. Without `w`: the original size.',
      }),
    ),
    v: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          "The artwork's version, as in the URLs the catalogue hands out (`?v=<etag>`). When it is the current version the answer is cacheable for a year (`Cache-Control: public, max-age=31536000, immutable`); otherwise, or without it, for a day. It never changes which bytes are sent.",
      }),
    ),
  },
  { additionalProperties: false },
);
export const ArtworkKind = Type.Union([Type.Literal('poster'), Type.Literal('backdrop'), Type.Literal('still')], {
  description: 'poster and backdrop for movies and TV shows, still for episodes',
});
