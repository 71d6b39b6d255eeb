// Movies, shows and episodes as lists and details show them, with their files and subtitle tracks.
import { Type } from '@sinclair/typebox';
import { HexColor, IsoTime, MediaType, Nullable } from './common';
import { ShowUserData, UserData } from './user-data';

export const Media = Type.Object({
  id: Type.String(),
  type: MediaType,
  title: Type.String(),
  originalTitle: Nullable(Type.String()),
  year: Nullable(Type.Integer()),
  overview: Nullable(Type.String()),
  genres: Type.Array(Type.String()),
  rating: Nullable(Type.Number()),
  posterUrl: Nullable(Type.String({ format: 'uri' })),
  backdropUrl: Nullable(Type.String({ format: 'uri' })),
  meshGradientColors: Type.Array(HexColor, {
    minItems: 4,
    maxItems: 4,
    description: 'Top-left, top-right, bottom-left, bottom-right colours of the poster',
  }),
  addedAt: IsoTime,
});

/** A movie or show wherever a list of them appears (search hits, recent lists): one shape, so one client component renders both. */
export const MediaEntry = Type.Object(
  { id: Type.String(), type: MediaType, media: Media, userData: Type.Optional(UserData) },
  { description: 'A movie or TV show in a list: search hits and the recent lists share this shape' },
);

/** A search hit: a list entry, and what it was found by. */
// An intersection, so a client's code for list entries takes search hits as they are.
export const SearchHit = Type.Intersect(
  [
    MediaEntry,
    Type.Object({
      matchedOn: Type.Union(
        [Type.Literal('title'), Type.Literal('originalTitle'), Type.Literal('alternativeTitle'), Type.Literal('person')],
        {
          description:
            "What the query matched, the best of the item's matches: its title, its original title, another title the provider knows it by, or a person (a director, a show's creator, one of the first five billed cast)",
        },
      ),
      matchedText: Type.String({
        description: 'The title or name that matched, as the item has it ("Le Fabuleux Destin d\'Amélie Poulain", "Christopher Nolan")',
      }),
    }),
  ],
  { description: 'A search hit: a list entry, and what it was found by' },
);

export const FileInfo = Type.Object(
  {
    size: Type.Integer({ minimum: 0 }),
    container: Nullable(Type.String()),
    durationSeconds: Nullable(Type.Number({ description: "Of all parts, read from the files' headers; null when they could not be read" })),
    path: Type.String({ description: "The (first) file's path relative to its library folder" }),
    parts: Type.Integer({ minimum: 1, description: 'Files of a stacked movie (cd1, cd2 ...), played in order' }),
    video: Nullable(
      Type.Object(
        {
          codec: Type.String(),
          width: Nullable(Type.Integer()),
          height: Nullable(Type.Integer()),
          frameRate: Nullable(Type.Number()),
          bitDepth: Nullable(Type.Integer()),
          hdr: Nullable(Type.String()),
        },
        { additionalProperties: true },
      ),
      { description: "The first part's first video stream (h264, hevc, vp9, av1 ...)" },
    ),
    audio: Type.Array(
      Type.Object(
        {
          codec: Type.String(),
          channels: Nullable(Type.Integer()),
          language: Nullable(Type.String()),
          default: Type.Optional(
            Type.Boolean({
              description: "The track played unless a person picks another (Matroska's flag); absent on files scanned before it was kept",
            }),
          ),
        },
        { additionalProperties: true },
      ),
      {
        description: 'Audio streams of the first part, in file order; languages as BCP 47 tags (en, de) or null',
      },
    ),
    subtitles: Type.Array(
      Type.Object({ codec: Nullable(Type.String()), language: Nullable(Type.String()) }, { additionalProperties: true }),
      {
        description: 'Embedded subtitle streams of the first part',
      },
    ),
  },
  { additionalProperties: true },
);

export const SubtitleTrack = Type.Object(
  {
    id: Type.String({ description: "The track's id in the subtitle URL" }),
    source: Type.Union([Type.Literal('external'), Type.Literal('embedded')], {
      description: 'A file beside the video, or a stream inside it',
    }),
    format: Type.String({
      description: 'srt, webvtt, ass, ssa, tx3g (MP4 text); pictures: pgs, vobsub, dvbsub; sub (a MicroDVD-style file)',
    }),
    language: Nullable(Type.String({ description: 'BCP 47 (en, pt-BR, zh-Hant)' })),
    label: Type.String({ description: 'For a menu: "French", "English (forced)", "English (Commentary, SDH)"' }),
    forced: Type.Boolean({ description: "Only the parts in another language than the film's" }),
    default: Type.Boolean(),
    hearingImpaired: Type.Boolean({ description: 'SDH / CC: sounds and speakers too' }),
    url: Nullable(
      Type.String({
        format: 'uri',
        description: 'The track as WebVTT; null when it cannot be served as text (pictures, or a stream inside the video without ffmpeg)',
      }),
    ),
  },
  { description: 'A subtitle track. Lists put the default first, then forced tracks, then by language' },
);

const CastMember = Type.Object({
  name: Type.String(),
  character: Type.String(),
  order: Type.Integer({ minimum: 0, description: 'Billing order, 0 first' }),
});

/** What is known of an item beyond its file name (the provider's, an NFO's), shared by movies and shows. */
const KnownFields = {
  tmdbId: Nullable(Type.Integer()),
  imdbId: Nullable(Type.String()),
  tagline: Nullable(Type.String()),
  certification: Nullable(Type.String()),
  cast: Type.Array(CastMember),
  alternativeTitles: Type.Array(Type.String({ description: 'Other titles the provider knows it by' })),
  matched: Type.Boolean({ description: "Matched with confidence; when false the title is the file's" }),
  matchLocked: Type.Boolean({
    description:
      'Described from a provider record someone chose (PUT .../match): no rescan, refresh, rename, NFO or id in the file name replaces it until it is unlocked (DELETE .../match)',
  }),
  source: Type.Union([Type.Literal('provider'), Type.Literal('nfo'), Type.Literal('file')], {
    description: 'Where the fields come from: the provider, a local NFO (which wins field by field), or the file name alone',
  }),
};

/** A film collection as a film names it; GET /api/v1/collections/{id} has the rest. */
export const CollectionRef = Type.Object(
  { id: Type.Integer({ minimum: 1, description: "The provider's collection id" }), name: Type.String() },
  { description: 'A film collection ("The Godfather Collection"), by the provider\'s collection id, never by name' },
);

export const MovieMetadata = Type.Object({
  ...KnownFields,
  directors: Type.Array(Type.String()),
  releaseDate: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  runtime: Nullable(Type.Integer({ description: "Minutes, as the provider or NFO says (the file's own length is file.durationSeconds)" })),
  collection: Nullable(CollectionRef, {
    description:
      "The provider's `belongs_to_collection`, or an NFO's `<set>` that names the provider's collection id (one without an id is left out); null when it is in none",
  }),
});

export const ShowMetadata = Type.Object({
  ...KnownFields,
  tvdbId: Nullable(Type.Integer()),
  creators: Type.Array(Type.String()),
  firstAirDate: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
});

export const MovieDetail = Type.Object({
  id: Type.String(),
  media: Media,
  poster: Nullable(Type.String({ format: 'uri' })),
  backdrop: Nullable(Type.String({ format: 'uri' })),
  metadata: MovieMetadata,
  file: FileInfo,
  streamUrl: Type.String({ format: 'uri' }),
  subtitles: Type.Array(SubtitleTrack, { description: 'Subtitle files beside the video and streams inside it (its first part)' }),
  userData: Type.Optional(UserData),
});

export const Episode = Type.Object({
  id: Type.String(),
  seasonNumber: Type.Integer({ minimum: 0 }),
  episodeNumber: Type.Integer({ minimum: 0 }),
  title: Nullable(Type.String()),
  overview: Nullable(Type.String()),
  airDate: Nullable(Type.String()),
  stillUrl: Nullable(Type.String({ format: 'uri' })),
  streamUrl: Type.String({ format: 'uri' }),
  file: FileInfo,
  subtitles: Type.Array(SubtitleTrack, { description: 'Subtitle files beside the video and streams inside it' }),
  userData: Type.Optional(UserData),
});

export const ShowDetail = Type.Object({
  id: Type.String(),
  media: Media,
  metadata: ShowMetadata,
  seasons: Type.Array(
    Type.Object({
      seasonNumber: Type.Integer({ minimum: 0 }),
      name: Type.String(),
      episodeCount: Type.Integer({ minimum: 0 }),
      episodes: Type.Array(Episode),
    }),
  ),
  userData: Type.Optional(ShowUserData),
});
