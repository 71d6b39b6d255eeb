// Our items as Jellyfin's BaseItemDto: films, shows, their seasons and episodes, the libraries
// as views, film collections as box sets. What the apps read on every card is always there
// (ServerId, Id, Name, Type, IsFolder, MediaType, LocationType, ImageTags when there is a
// picture, UserData); the rest comes with every answer too, as more than asked breaks nothing
// and less breaks detail screens. Shapes follow Jellyfin 10.11's OpenAPI document.
import type { StoredArtwork } from '../artwork/model';
import { filesDuration, type EpisodeItem, type MovieItem, type ShowItem, type TitledItem } from '../catalog/model';
import type { Library } from '../library/model';
import { filing } from '../text/sort-title';
import type { UserData } from '../watching/rules';
import { BOXSETS_VIEW, collectionGuid, itemGuid, libraryGuid, nameGuid, seasonGuid } from './guid';
import type { BoxSet } from './catalogue';
import type { TrackOptions } from '../subtitles/tracks';
import { itemSubtitles, mediaSource } from './media-sources';
import { ticks } from './wire';

export interface ItemContext {
  serverId: string;
  /** The profile's state of an item (films and episodes), when it has one. */
  userData: (id: string) => UserData | undefined;
  /** A film's or a show's state as the lists have it (a show: all its episodes played, a favourite). */
  titleState?: (id: string) => { played: boolean; favorite: boolean } | undefined;
  /** Whether subtitle streams inside videos can be sent here (ffmpeg, media on this disk). */
  subtitles?: TrackOptions | undefined;
}

type Dto = Record<string, unknown>;

/** A short opaque tag for a picture: its content hash's start. */
export const imageTag = (art: StoredArtwork | undefined) => (art ? art.etag.slice(0, 16) : undefined);

const imageTags = (tags: Record<string, string | undefined>) => {
  const present = Object.fromEntries(Object.entries(tags).filter(([, v]) => v !== undefined));
  // Infuse refuses an empty ImageTags object: none is written instead.
  return Object.keys(present).length ? present : undefined;
};

const isoDate = (date: string | null | undefined) => {
  if (!date) return undefined;
  const at = Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date);
  return Number.isNaN(at) ? undefined : new Date(at).toISOString();
};

/** A film's or an episode's UserData as the apps read it (PlayedPercentage from the runtime when known, else the state's own progress). */
export const userItemDataDto = (guid: string, data: UserData | undefined, runtimeSeconds?: number | null): Dto => {
  const position = data?.positionSeconds ?? 0;
  const percentage =
    position > 0 && runtimeSeconds
      ? Math.min(100, (position / runtimeSeconds) * 100)
      : position > 0 && data?.progress
        ? data.progress * 100
        : undefined;
  return {
    PlaybackPositionTicks: ticks(position) ?? 0,
    PlayCount: data?.playCount ?? 0,
    IsFavorite: data?.favorite ?? false,
    Played: data?.played ?? false,
    Key: guid,
    ItemId: guid,
    LastPlayedDate: data?.lastPlayedAt ?? undefined,
    PlayedPercentage: percentage,
  };
};

const userDataDto = (ctx: ItemContext, id: string, guid: string, runtimeSeconds: number | null): Dto =>
  userItemDataDto(guid, ctx.userData(id), runtimeSeconds);

/** A folder's (a show's, a season's) state: played when every episode is, a favourite of its own. */
const folderDto = (guid: string, state: { played: boolean; favorite: boolean } | undefined): Dto => ({
  PlaybackPositionTicks: 0,
  PlayCount: 0,
  IsFavorite: state?.favorite ?? false,
  Played: state?.played ?? false,
  Key: guid,
  ItemId: guid,
});

const people = (item: TitledItem): Dto[] => {
  const m = item.metadata;
  if (!m) return [];
  const crew = (item.entity === 'movie' ? m.directors : m.creators).map((name) => ({
    Name: name,
    Id: personGuid(name),
    Type: item.entity === 'movie' ? 'Director' : 'Creator',
  }));
  return [...crew, ...m.cast.slice(0, 30).map((c) => ({ Name: c.name, Id: personGuid(c.name), Role: c.character ?? '', Type: 'Actor' }))];
};

export const personGuid = (name: string) => nameGuid('person', name);
export const genreGuid = (name: string) => nameGuid('genre', name);

const titled = (item: TitledItem, ctx: ItemContext): Dto => {
  const m = item.metadata;
  return {
    Name: item.title,
    OriginalTitle: item.originalTitle ?? undefined,
    ServerId: ctx.serverId,
    Id: itemGuid(item.id),
    Etag: item.updatedAt,
    DateCreated: isoDate(item.addedAt),
    CanDelete: false,
    CanDownload: item.entity === 'movie',
    SortName: filing(item.title).sortTitle,
    PremiereDate: isoDate(m?.releaseDate),
    ProductionYear: item.year ?? undefined,
    OfficialRating: m?.certification ?? undefined,
    CommunityRating: item.rating ?? undefined,
    Overview: item.overview ?? undefined,
    Taglines: m?.tagline ? [m.tagline] : [],
    Genres: item.genres,
    GenreItems: item.genres.map((g) => ({ Name: g, Id: genreGuid(g) })),
    People: people(item),
    Studios: [],
    ProviderIds: {
      ...(item.tmdbId ? { Tmdb: String(item.tmdbId) } : {}),
      ...(m?.imdbId ? { Imdb: m.imdbId } : {}),
      ...(m?.tvdbId ? { Tvdb: String(m.tvdbId) } : {}),
    },
    ParentId: libraryGuid(item.libraryId),
    LocationType: 'FileSystem',
    ImageTags: imageTags({ Primary: imageTag(item.artwork?.poster), Thumb: imageTag(item.artwork?.backdrop) }),
    BackdropImageTags: item.artwork?.backdrop ? [imageTag(item.artwork.backdrop)] : [],
    PrimaryImageAspectRatio: item.artwork?.poster ? item.artwork.poster.width / item.artwork.poster.height : undefined,
    LockedFields: [],
    LockData: false,
  };
};

export const movieDto = (item: MovieItem, ctx: ItemContext): Dto => {
  const guid = itemGuid(item.id);
  const seconds = filesDuration(item.files);
  const source = item.files[0] && mediaSource(guid, item.title, item, seconds, itemSubtitles(item, ctx.subtitles));
  return {
    ...titled(item, ctx),
    Type: 'Movie',
    IsFolder: false,
    MediaType: 'Video',
    VideoType: 'VideoFile',
    Container: source?.Container,
    RunTimeTicks: ticks(seconds),
    HasSubtitles: Boolean((source?.MediaStreams as Dto[] | undefined)?.some((s) => s.Type === 'Subtitle')),
    MediaSources: source ? [source] : [],
    MediaStreams: source?.MediaStreams ?? [],
    Chapters: [],
    UserData: userDataDto(ctx, item.id, guid, seconds),
  };
};

export const seriesDto = (item: ShowItem, ctx: ItemContext, seasons?: number): Dto => {
  const guid = itemGuid(item.id);
  return {
    ...titled(item, ctx),
    Type: 'Series',
    IsFolder: true,
    MediaType: 'Unknown',
    ChildCount: seasons,
    UserData: folderDto(guid, ctx.titleState?.(item.id)),
  };
};

export const seasonName = (season: number) => (season === 0 ? 'Specials' : `Season ${season}`);

export const seasonDto = (show: ShowItem, season: number, episodes: number, ctx: ItemContext): Dto => {
  const guid = seasonGuid(show.id, season);
  const poster = imageTag(show.artwork?.poster);
  return {
    Name: seasonName(season),
    ServerId: ctx.serverId,
    Id: guid,
    SortName: String(season).padStart(4, '0'),
    IndexNumber: season,
    Type: 'Season',
    IsFolder: true,
    MediaType: 'Unknown',
    LocationType: 'FileSystem',
    ParentId: itemGuid(show.id),
    SeriesId: itemGuid(show.id),
    SeriesName: show.title,
    SeriesPrimaryImageTag: poster,
    ProductionYear: show.year ?? undefined,
    ImageTags: imageTags({ Primary: poster }),
    BackdropImageTags: [],
    ParentBackdropItemId: show.artwork?.backdrop ? itemGuid(show.id) : undefined,
    ParentBackdropImageTags: show.artwork?.backdrop ? [imageTag(show.artwork.backdrop)] : undefined,
    ChildCount: episodes,
    UserData: folderDto(guid, undefined),
  };
};

export const episodeDto = (item: EpisodeItem, show: ShowItem, ctx: ItemContext): Dto => {
  const guid = itemGuid(item.id);
  const seconds = filesDuration(item.files);
  const name = item.title ?? `Episode ${item.episodeNumber}`;
  const source = item.files[0] && mediaSource(guid, name, item, seconds, itemSubtitles(item, ctx.subtitles));
  return {
    Name: name,
    ServerId: ctx.serverId,
    Id: guid,
    Etag: item.updatedAt,
    DateCreated: isoDate(item.addedAt),
    CanDelete: false,
    CanDownload: true,
    SortName: `${String(item.seasonNumber).padStart(4, '0')}-${String(item.episodeNumber).padStart(5, '0')}`,
    PremiereDate: isoDate(item.airDate),
    ProductionYear: item.airDate ? Number(item.airDate.slice(0, 4)) : undefined,
    Overview: item.overview ?? undefined,
    IndexNumber: item.episodeNumber,
    ParentIndexNumber: item.seasonNumber,
    Type: 'Episode',
    IsFolder: false,
    MediaType: 'Video',
    VideoType: 'VideoFile',
    LocationType: 'FileSystem',
    Container: source?.Container,
    RunTimeTicks: ticks(seconds),
    ParentId: seasonGuid(show.id, item.seasonNumber),
    SeriesId: itemGuid(show.id),
    SeriesName: show.title,
    SeasonId: seasonGuid(show.id, item.seasonNumber),
    SeasonName: seasonName(item.seasonNumber),
    SeriesPrimaryImageTag: imageTag(show.artwork?.poster),
    ImageTags: imageTags({ Primary: imageTag(item.artwork?.still) }),
    BackdropImageTags: [],
    ParentBackdropItemId: show.artwork?.backdrop ? itemGuid(show.id) : undefined,
    ParentBackdropImageTags: show.artwork?.backdrop ? [imageTag(show.artwork.backdrop)] : undefined,
    HasSubtitles: Boolean((source?.MediaStreams as Dto[] | undefined)?.some((s) => s.Type === 'Subtitle')),
    MediaSources: source ? [source] : [],
    MediaStreams: source?.MediaStreams ?? [],
    Chapters: [],
    People: [],
    Genres: [],
    UserData: userDataDto(ctx, item.id, guid, seconds),
  };
};

export const viewDto = (library: Library, ctx: ItemContext, count: number): Dto => ({
  Name: library.name,
  ServerId: ctx.serverId,
  Id: libraryGuid(library.id),
  Etag: library.lastScannedAt ?? library.createdAt,
  DateCreated: isoDate(library.createdAt),
  SortName: filing(library.name).sortTitle,
  Type: 'CollectionFolder',
  CollectionType: library.mediaType === 'movie' ? 'movies' : 'tvshows',
  IsFolder: true,
  MediaType: 'Unknown',
  LocationType: 'FileSystem',
  ChildCount: count,
  BackdropImageTags: [],
});

/** The view that holds the film collections, as Jellyfin's "Collections". */
export const boxSetsViewDto = (ctx: ItemContext, count: number): Dto => ({
  Name: 'Collections',
  ServerId: ctx.serverId,
  Id: BOXSETS_VIEW,
  SortName: 'collections',
  Type: 'CollectionFolder',
  CollectionType: 'boxsets',
  IsFolder: true,
  MediaType: 'Unknown',
  LocationType: 'FileSystem',
  ChildCount: count,
  BackdropImageTags: [],
});

export const boxSetDto = (set: BoxSet, ctx: ItemContext): Dto => {
  const guid = collectionGuid(set.id);
  const years = set.films.flatMap((f) => (f.year ? [f.year] : []));
  return {
    Name: set.name,
    ServerId: ctx.serverId,
    Id: guid,
    SortName: filing(set.name).sortTitle,
    Type: 'BoxSet',
    IsFolder: true,
    MediaType: 'Unknown',
    LocationType: 'FileSystem',
    ParentId: BOXSETS_VIEW,
    ProductionYear: years.length ? Math.min(...years) : undefined,
    ProviderIds: { Tmdb: String(set.id) },
    ChildCount: set.films.length,
    BackdropImageTags: [],
    UserData: {
      PlaybackPositionTicks: 0,
      PlayCount: 0,
      IsFavorite: false,
      Played: set.films.every((f) => ctx.userData(f.id)?.played ?? false),
      Key: guid,
      ItemId: guid,
    },
  };
};
