// Browsing the whole library: the movie and show lists' sort and filters, and their facets.
import { Type } from '@sinclair/typebox';
import { Id } from './common';
import { TitleListQuery } from './queries';
import { ProfileId } from './watching';

export const BROWSE_SORTS = ['added', 'title', 'year', 'rating', 'released', 'lastPlayed'] as const;
export const BROWSE_LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'] as const;

/** common.ts's literals, with a description. */
const oneOf = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      description ? { description } : {},
    ),
  );

const Year = (description: string) => Type.Integer({ minimum: 0, maximum: 9999, description });

/** The filters the lists and their facets share; every one given must match. */
const filters = {
  genre: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description:
        'Repeatable (`genre=Drama&genre=Crime`): titles with every one of these genres. Case and accents do not count; a genre no title has matches nothing',
    }),
  ),
  yearFrom: Type.Optional(Year('Released in this year or later (titles without a year are left out)')),
  yearTo: Type.Optional(Year('Released in this year or earlier; not before `yearFrom`')),
  letter: Type.Optional(
    oneOf(
      BROWSE_LETTERS,
      "Titles filed under this letter: a leading article (the, a, an; le, la, les, l'; der, die, das; el, los, las; il; de, het), accents and case do not count; `#` (sent as `%23`) for digits, symbols and other scripts",
    ),
  ),
  played: Type.Optional(
    Type.Boolean({ description: 'true: only what `profileId` has played (a show: every episode); false: only what it has not' }),
  ),
  favorite: Type.Optional(
    Type.Boolean({ description: "true: only `profileId`'s favourites (a show: the show itself marked); false: only what is not one" }),
  ),
  libraryId: Type.Optional(Id),
};

const collectionId = Type.Optional(
  Type.Integer({ minimum: 1, description: "Films of this collection (the provider's collection id, as `metadata.collection.id`)" }),
);

// The recent list's own parameters (limit, cursor, profileId, matched), then the sort.
const paging = {
  ...TitleListQuery.properties,
  sort: Type.Optional(
    oneOf(
      BROWSE_SORTS,
      'added (default), title (the way the titles file under `letter`), year, rating, released (the release date), lastPlayed (by `profileId`). Ties: year, then id. Titles without the value come last in either order',
    ),
  ),
  order: Type.Optional(oneOf(['asc', 'desc'] as const, 'Default asc for `title`, desc for the others')),
};

export const MovieListQuery = Type.Object({ ...paging, ...filters, collectionId }, { additionalProperties: false });
export const ShowListQuery = Type.Object({ ...paging, ...filters }, { additionalProperties: false });
const facetsOf = { profileId: Type.Optional(ProfileId), matched: TitleListQuery.properties.matched };
export const MovieFacetsQuery = Type.Object({ ...facetsOf, ...filters, collectionId }, { additionalProperties: false });
export const ShowFacetsQuery = Type.Object({ ...facetsOf, ...filters }, { additionalProperties: false });

const Count = Type.Integer({ minimum: 1 });

export const Facets = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'The titles the filters keep' }),
    genres: Type.Array(Type.Object({ name: Type.String(), count: Count }), { description: 'Most titles first, then by name' }),
    years: Type.Array(Type.Object({ year: Type.Integer(), count: Count }), {
      description: 'Newest first; titles without a year are not counted here',
    }),
    letters: Type.Array(Type.Object({ letter: oneOf(BROWSE_LETTERS), count: Count }), {
      description: 'A to Z, then #; letters no title files under are left out',
    }),
  },
  { description: 'What the titles a filter keeps have, with how many of them have it' },
);
