// The door's other lists: latest (a plain array), resume, next up, genres, filters, search
// hints, counts, and the lists detail pages ask for (empty where there is nothing).
import { json, type DoorHandler } from './door';
import { itemGuid, normalGuid } from './guid';
import { genreGuid, viewDto } from './items';
import { page, titleKinds } from './query';
import { result, type LibraryDeps, type LibraryReader } from './reader';

export const listHandlers = (deps: LibraryDeps, reader: LibraryReader): Record<string, DoorHandler> => {
  const { profileOf, contextFor, titleDtos, dtosOfIds, found, poolOf } = reader;
  return {
    groupingOptions: async () => json([]),
    mediaFolders: async (req) => {
      const ctx = await contextFor(req, []);
      return json(result((await deps.catalogue.libraries()).map((l) => viewDto(l, ctx, 0))));
    },
    virtualFolders: async () => json([]),
    latest: async (req) => {
      const parent = req.query.str('parentId') ? await found(req.query.str('parentId')) : undefined;
      const kinds = titleKinds(req.query) ?? new Set(['movie', 'tvshow']);
      const titled = await deps.catalogue.titled();
      const newest = titled.items
        .filter((i) => kinds.has(i.entity) && (parent?.kind !== 'library' || i.libraryId === parent.library.id))
        .sort((a, b) => (a.addedAt < b.addedAt ? 1 : a.addedAt > b.addedAt ? -1 : 0))
        .slice(0, req.query.int('limit', 1) ?? 16);
      // A plain array, unlike every other list.
      return json(await titleDtos(req, newest));
    },
    resume: async (req) => {
      const ids = await deps.inProgress(profileOf(req), req.query.int('limit', 1) ?? 20);
      return json(result(await dtosOfIds(req, ids)));
    },
    nextUp: async (req) => {
      const ids = await deps.nextUp(profileOf(req), req.query.int('limit', 1) ?? 20);
      return json(result(await dtosOfIds(req, ids)));
    },
    root: async () =>
      json({
        // Jellyfin's root folder has a fixed id of its own; no app reads it beyond its being a GUID.
        Name: 'Media Folders',
        ServerId: await deps.store.server(),
        Id: 'e9d5075a555c1cbc394eec4cef295274',
        Type: 'UserRootFolder',
        IsFolder: true,
        MediaType: 'Unknown',
        LocationType: 'FileSystem',
      }),
    counts: async () => {
      const titled = await deps.catalogue.titled();
      const count = (entity: string) => titled.items.filter((i) => i.entity === entity).length;
      return json({
        MovieCount: count('movie'),
        SeriesCount: count('tvshow'),
        EpisodeCount: 0,
        ArtistCount: 0,
        ProgramCount: 0,
        TrailerCount: 0,
        SongCount: 0,
        AlbumCount: 0,
        MusicVideoCount: 0,
        BoxSetCount: 0,
        BookCount: 0,
        ItemCount: titled.items.length,
      });
    },
    filters: async (req) => {
      const pool = await poolOf(req);
      return json({
        Genres: [...new Set(pool.flatMap((i) => i.genres))].sort(),
        Tags: [],
        OfficialRatings: [...new Set(pool.flatMap((i) => (i.metadata?.certification ? [i.metadata.certification] : [])))].sort(),
        Years: [...new Set(pool.flatMap((i) => (i.year ? [i.year] : [])))].sort((a, b) => a - b),
      });
    },
    filters2: async (req) => {
      const pool = await poolOf(req);
      return json({ Genres: [...new Set(pool.flatMap((i) => i.genres))].sort().map((g) => ({ Name: g, Id: genreGuid(g) })), Tags: [] });
    },
    genres: async (req) => {
      const serverId = await deps.store.server();
      const names = [...new Set((await poolOf(req)).flatMap((i) => i.genres))].sort();
      const { items: shown, total, start } = page(names, req.query);
      return json(
        result(
          shown.map((g) => ({
            Name: g,
            ServerId: serverId,
            Id: genreGuid(g),
            Type: 'Genre',
            IsFolder: true,
            MediaType: 'Unknown',
            LocationType: 'Virtual',
          })),
          total,
          start,
        ),
      );
    },
    searchHints: async (req) => {
      const term = req.query.str('searchTerm') ?? '';
      const ids = term ? await deps.search(term, req.query.int('limit', 1) ?? 20) : [];
      const titled = await deps.catalogue.titled();
      const hints = ids.flatMap((id) => {
        const item = titled.byId.get(id);
        if (!item) return [];
        const guid = itemGuid(item.id);
        return [
          {
            ItemId: guid,
            Id: guid,
            Name: item.title,
            ProductionYear: item.year ?? undefined,
            Type: item.entity === 'movie' ? 'Movie' : 'Series',
            IsFolder: item.entity !== 'movie',
            MediaType: item.entity === 'movie' ? 'Video' : 'Unknown',
            PrimaryImageTag: item.artwork?.poster?.etag.slice(0, 16),
            Artists: [],
          },
        ];
      });
      return json({ SearchHints: hints, TotalRecordCount: hints.length });
    },
    similar: async () => json(result([])),
    ancestors: async (req) => {
      const hit = await found(req.params.itemId);
      const libraryId =
        hit.kind === 'title'
          ? hit.item.libraryId
          : hit.kind === 'episode'
            ? hit.show.libraryId
            : hit.kind === 'season'
              ? hit.show.libraryId
              : undefined;
      const library = libraryId && (await deps.catalogue.libraries()).find((l) => l.id === libraryId);
      return json(library ? [viewDto(library, await contextFor(req, []), 0)] : []);
    },
    specialFeatures: async () => json([]),
    localTrailers: async () => json([]),
    intros: async () => json(result([])),
    // jellyfin-web's detail pages ask it (and log an error on a 404): no theme songs or videos here.
    themeMedia: async (req) => {
      const owner = normalGuid(req.params.itemId!);
      await found(owner);
      const none = { Items: [], TotalRecordCount: 0, StartIndex: 0, OwnerId: owner };
      return json({ ThemeVideosResult: none, ThemeSongsResult: none, SoundtrackSongsResult: none });
    },
  };
};
