// The one table (single-table design). Its definition lives in lib/db/table.json, which both
// serverless.yml (CloudFormation) and the local bootstrap (infra/runner/ensure-table.ts) read.
//
// Access patterns, and what serves each:
//   settings document ........................ GetItem  pk=settings          sk=settings
//   rate-limit counter per client and window . UpdateItem pk=ratelimit#<client> sk=window#<start>  (TTL)
//   WebSocket connections (fan-out) .......... Query    pk=ws                sk begins_with conn#  (TTL)
//   database health probe .................... GetItem  pk=health            sk=health (need not exist)
//   scan job by id ........................... GetItem  pk=job#<id>          sk=job
//   scan jobs newest first ................... Query gsi1  gsi1pk=jobs       gsi1sk=<createdAt>#<id>, descending
//   the active (queued/running) job of a library  GetItem pk=scanlock#<libraryId> sk=lock, written in one
//                                              transaction with the job, so a library never has two
//   library by id ............................ GetItem  pk=library#<id>      sk=library
//   libraries, oldest first .................. Query gsi1  gsi1pk=libraries  gsi1sk=<createdAt>#<id>
//   library by path (uniqueness) ............. GetItem  pk=librarypath#<path> sk=path, written in one
//                                              transaction with the library
//   movie, show or episode by id ............. GetItem  pk=media#<id>        sk=media
//   recent movies / shows, newest first ...... Query gsi1  gsi1pk=recent#<movie|tvshow>  gsi1sk=<addedAt>#<id>
//   episodes of a show in order .............. Query gsi1  gsi1pk=show#<showId>  gsi1sk=<season>#<episode>#<id>
//   the index of a library (rescans, removals, Query gsi2  gsi2pk=lib#<libraryId>  gsi2sk=<entity>#<id>
//     deletion, stats)                         (projects only what a rescan compares: files, sizes, mtimes)
//   a library's index as of its last scan .... Query    pk=manifest#<libraryId>  sk=part#<jobId>#<n> (gzipped parts)
//   catalogue version stamp (search cache) ... GetItem  pk=catalog          sk=version
//   the ids each move of the stamp announced   Query    pk=catalog          sk between change#<from> and change#<to>
//     (the last 200 moves; written in one transaction with the stamp)
//   provider response by request (TTL) ....... GetItem  pk=provider#<hash of the request>  sk=response
//   conversion slots of a kind (capacity) .... Query    pk=playback          sk begins_with slot#<kind>#  (TTL);
//                                              a session is its slot: GetItem pk=playback sk=slot#<kind>#<n>,
//                                              claimed and kept by conditional writes
//   a session's plan (segments, track, source) GetItem  pk=playback          sk=plan#<sessionId>  (TTL),
//                                              written once; a segment request reads only the slot
//   a file's keyframe index (TTL) ............ GetItem  pk=keyframes#<mediaId>#<part>  sk=<size>-<mtime>
//   profiles, oldest first ................... Query gsi1  gsi1pk=profiles  gsi1sk=<createdAt>#<profileId>
//   profile by id ............................ GetItem  pk=profile#<id>      sk=profile
//   profile by name (uniqueness) ............. GetItem  pk=profilename#<name, case-folded>  sk=name, written in
//                                              one transaction with the profile
//   a profile's state of an item ............. GetItem / BatchGetItem  pk=userdata#<profileId>  sk=item#<mediaId>;
//                                              written expecting the rev it was read with (conditional PutItem)
//   a profile's whole state (deletion) ....... Query    pk=userdata#<profileId>
//   in progress, most recent first ........... Query gsi1  gsi1pk=inprogress#<profileId>  gsi1sk=<lastPlayedAt>#<mediaId>
//                                              (sparse: only while a position is kept)
//   played episodes of a show ................ Query gsi2  gsi2pk=played#<profileId>#<showId>  gsi2sk=<season>#<episode>#<id>
//                                              (sparse: only played episodes)
//   shows being watched, most recent first ... Query gsi1  gsi1pk=watching#<profileId>  gsi1sk=<lastPlayedAt>#<showId>,
//     (Next up, with each show's next episode  one item per show: pk=userdata#<profileId>  sk=show#<showId>,
//     and its episodes in progress)            paged and projected
//   a movie's or show's pinned match ......... GetItem / BatchGetItem  pk=matchlock#<itemId>  sk=lock
//                                              (apart from the item, which a rescan rewrites from its file)
//   a film collection and its parts .......... GetItem / BatchGetItem  pk=collection#<provider's collection id>
//                                              sk=collection (one per collection, whatever films point at it)
//   the Jellyfin door's server id ............ GetItem  pk=jellyfin          sk=server (made once, kept)
//   a door token (a profile on a device) ..... GetItem  pk=jftoken#<token>   sk=token
//   a profile's token on a device ............ GetItem  pk=jfdevice#<profileId>#<deviceId>  sk=device (a new
//   and the conversion it plays                login from the device replaces the token it names; the
//                                              conversion, UpdateItem: one per device)
//   display preferences ...................... GetItem  pk=jfprefs#<profileId>  sk=<client>#<id>
//   a door play session's conversion ......... GetItem  pk=jfplay#<playSessionId>  sk=play (written once, at
//                                              the first playlist request; TTL two days)
//
// Only this module builds keys: every key names its entity, so a stray item says what it is.
import definition from './table.json';

export const TABLE_DEFINITION = definition;
export const TTL_ATTRIBUTE = definition.TimeToLiveSpecification.AttributeName;

export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  settings: (): Key => ({ pk: 'settings', sk: 'settings' }),
  rateLimit: (client: string, windowStart: number): Key => ({ pk: `ratelimit#${client}`, sk: `window#${windowStart}` }),
  wsConnections: () => ({ pk: 'ws', skPrefix: 'conn#' }),
  wsConnection: (connectionId: string): Key => ({ pk: 'ws', sk: `conn#${connectionId}` }),
  healthProbe: (): Key => ({ pk: 'health', sk: 'health' }),
  scanJob: (jobId: string): Key => ({ pk: `job#${jobId}`, sk: 'job' }),
  scanJobsByAge: (createdAt: string, jobId: string) => ({ gsi1pk: 'jobs', gsi1sk: `${createdAt}#${jobId}` }),
  scanJobsIndex: () => ({ index: 'gsi1', pk: 'jobs' }),
  scanLock: (libraryId: string): Key => ({ pk: `scanlock#${libraryId}`, sk: 'lock' }),
  library: (id: string): Key => ({ pk: `library#${id}`, sk: 'library' }),
  librariesByAge: (createdAt: string, id: string) => ({ gsi1pk: 'libraries', gsi1sk: `${createdAt}#${id}` }),
  librariesIndex: () => ({ index: 'gsi1', pk: 'libraries' }),
  libraryPath: (path: string): Key => ({ pk: `librarypath#${path}`, sk: 'path' }),
  media: (id: string): Key => ({ pk: `media#${id}`, sk: 'media' }),
  recent: (type: 'movie' | 'tvshow', addedAt: string, id: string) => ({ gsi1pk: `recent#${type}`, gsi1sk: `${addedAt}#${id}` }),
  recentIndex: (type: 'movie' | 'tvshow') => ({ index: 'gsi1', pk: `recent#${type}` }),
  episodeOrder: (showId: string, season: number, episode: number, id: string) => ({
    gsi1pk: `show#${showId}`,
    gsi1sk: `${String(season).padStart(4, '0')}#${String(episode).padStart(5, '0')}#${id}`,
  }),
  episodesIndex: (showId: string) => ({ index: 'gsi1', pk: `show#${showId}` }),
  libraryMember: (libraryId: string, entity: string, id: string) => ({ gsi2pk: `lib#${libraryId}`, gsi2sk: `${entity}#${id}` }),
  libraryIndex: (libraryId: string) => ({ index: 'gsi2', pk: `lib#${libraryId}` }),
  providerResponse: (hash: string): Key => ({ pk: `provider#${hash}`, sk: 'response' }),
  catalogVersion: (): Key => ({ pk: 'catalog', sk: 'version' }),
  catalogChange: (version: number): Key => ({ pk: 'catalog', sk: `change#${String(version).padStart(12, '0')}` }),
  playbackSlots: (kind: string) => ({ pk: 'playback', skPrefix: `slot#${kind}#` }),
  playbackSlot: (kind: string, slot: number): Key => ({ pk: 'playback', sk: `slot#${kind}#${String(slot).padStart(3, '0')}` }),
  playbackPlan: (sessionId: string): Key => ({ pk: 'playback', sk: `plan#${sessionId}` }),
  keyframes: (mediaId: string, part: number, version: string): Key => ({ pk: `keyframes#${mediaId}#${part}`, sk: version }),
  profile: (id: string): Key => ({ pk: `profile#${id}`, sk: 'profile' }),
  profileName: (name: string): Key => ({ pk: `profilename#${name.normalize('NFC').toLocaleLowerCase('en')}`, sk: 'name' }),
  profilesByAge: (createdAt: string, id: string) => ({ gsi1pk: 'profiles', gsi1sk: `${createdAt}#${id}` }),
  profilesIndex: () => ({ index: 'gsi1', pk: 'profiles' }),
  userData: (profileId: string, mediaId: string): Key => ({ pk: `userdata#${profileId}`, sk: `item#${mediaId}` }),
  userDataOfProfile: (profileId: string) => ({ pk: `userdata#${profileId}` }),
  inProgress: (profileId: string, lastPlayedAt: string, mediaId: string) => ({
    gsi1pk: `inprogress#${profileId}`,
    gsi1sk: `${lastPlayedAt}#${mediaId}`,
  }),
  inProgressIndex: (profileId: string) => ({ index: 'gsi1', pk: `inprogress#${profileId}` }),
  playedEpisode: (profileId: string, showId: string, season: number, episode: number, id: string) => ({
    gsi2pk: `played#${profileId}#${showId}`,
    gsi2sk: `${String(season).padStart(4, '0')}#${String(episode).padStart(5, '0')}#${id}`,
  }),
  playedEpisodesIndex: (profileId: string, showId: string) => ({ index: 'gsi2', pk: `played#${profileId}#${showId}` }),
  showWatch: (profileId: string, showId: string): Key => ({ pk: `userdata#${profileId}`, sk: `show#${showId}` }),
  watching: (profileId: string, lastPlayedAt: string, showId: string) => ({
    gsi1pk: `watching#${profileId}`,
    gsi1sk: `${lastPlayedAt}#${showId}`,
  }),
  watchingIndex: (profileId: string) => ({ index: 'gsi1', pk: `watching#${profileId}` }),
  matchLock: (itemId: string): Key => ({ pk: `matchlock#${itemId}`, sk: 'lock' }),
  collection: (tmdbCollectionId: number): Key => ({ pk: `collection#${tmdbCollectionId}`, sk: 'collection' }),
  jellyfinServer: (): Key => ({ pk: 'jellyfin', sk: 'server' }),
  jellyfinToken: (token: string): Key => ({ pk: `jftoken#${token}`, sk: 'token' }),
  jellyfinDevice: (profileId: string, deviceId: string): Key => ({ pk: `jfdevice#${profileId}#${deviceId}`, sk: 'device' }),
  jellyfinPreferences: (profileId: string, client: string, id: string): Key => ({ pk: `jfprefs#${profileId}`, sk: `${client}#${id}` }),
  jellyfinPlay: (playSessionId: string): Key => ({ pk: `jfplay#${playSessionId}`, sk: 'play' }),
  manifestParts: (libraryId: string) => ({ pk: `manifest#${libraryId}` }),
  manifestPart: (libraryId: string, jobId: string, part: number): Key => ({
    pk: `manifest#${libraryId}`,
    sk: `part#${jobId}#${String(part).padStart(4, '0')}`,
  }),
} as const;

/** Seconds since the epoch, as DynamoDB's TTL attribute wants. */
export const ttlIn = (seconds: number, now = Date.now()) => Math.floor(now / 1000) + seconds;
