// The Jellyfin door's route table, and how a request finds its route the way the apps expect:
// paths case-insensitive (one client posts `Users/authenticatebyname`, another
// `/Users/AuthenticateByName`), the `/emby` and `/mediabrowser` prefixes dropped, a trailing
// slash ignored, a literal segment before a parameter. The front door reads it to send a request
// to the function of its area; that function reads it again to pick the route's handler.

/** The functions the routes are served by (functions/jellyfin/<area>.ts). */
export const DOOR_AREAS = ['system', 'library', 'images', 'playback'] as const;
export type DoorArea = (typeof DOOR_AREAS)[number];

export interface DoorRoute {
  name: string;
  methods: readonly string[];
  /** Templates, the 10.11 form first, then the older ones the apps still call. */
  paths: readonly string[];
  area: DoorArea;
  /** Answered without a token, as Jellyfin does (the apps send none there). */
  anonymous?: true;
  /** Its answers may be a file's bytes, which the door sends from disk (infra/gateway/stream-route.ts). */
  sendsFile?: true;
}

const GET = ['GET'] as const;
const POST = ['POST'] as const;
const GET_HEAD = ['GET', 'HEAD'] as const;

const route = (
  name: string,
  methods: readonly string[],
  paths: string[],
  area: DoorArea,
  anonymous?: true,
  sendsFile?: true,
): DoorRoute => ({
  name,
  methods,
  paths,
  area,
  ...(anonymous ? { anonymous } : {}),
  ...(sendsFile ? { sendsFile } : {}),
});

export const DOOR_ROUTES: readonly DoorRoute[] = [
  // Who it is, and logging in.
  route('publicInfo', GET, ['/System/Info/Public'], 'system', true),
  route('systemInfo', GET, ['/System/Info'], 'system'),
  route('ping', ['GET', 'POST', 'HEAD'], ['/System/Ping'], 'system', true),
  route('endpoint', GET, ['/System/Endpoint'], 'system'),
  route('branding', GET, ['/Branding/Configuration'], 'system', true),
  route('brandingCss', GET, ['/Branding/Css', '/Branding/Css.css'], 'system', true),
  route('quickConnect', GET, ['/QuickConnect/Enabled'], 'system', true),
  route('publicUsers', GET, ['/Users/Public'], 'system', true),
  route('authenticate', POST, ['/Users/AuthenticateByName'], 'system', true),
  route('me', GET, ['/Users/Me'], 'system'),
  route('user', GET, ['/Users/{userId}'], 'system'),
  route('users', GET, ['/Users'], 'system'),
  route('capabilities', POST, ['/Sessions/Capabilities/Full', '/Sessions/Capabilities'], 'system'),
  route('logout', POST, ['/Sessions/Logout'], 'system'),
  route('sessions', GET, ['/Sessions'], 'system'),
  route('displayPreferences', GET, ['/DisplayPreferences/{id}'], 'system'),
  route('saveDisplayPreferences', POST, ['/DisplayPreferences/{id}'], 'system'),
  // Asked by the apps, answered with empty lists or plain defaults.
  route('plugins', GET, ['/Plugins'], 'system'),
  route('packages', GET, ['/Packages'], 'system'),
  route('scheduledTasks', GET, ['/ScheduledTasks'], 'system'),
  route('localizationCultures', GET, ['/Localization/Cultures'], 'system'),
  route('localizationCountries', GET, ['/Localization/Countries'], 'system'),
  route('localizationRatings', GET, ['/Localization/ParentalRatings'], 'system'),
  route('localizationOptions', GET, ['/Localization/Options'], 'system'),
  route('devices', GET, ['/Devices'], 'system'),
  route('syncPlayList', GET, ['/SyncPlay/List'], 'system'),
  route('liveTvInfo', GET, ['/LiveTv/Info'], 'system'),
  route('bitrateTest', GET, ['/Playback/BitrateTest'], 'system'),
  route('userImage', GET_HEAD, ['/UserImage', '/Users/{userId}/Images/{type}'], 'system', true),
  // Browsing.
  route('views', GET, ['/UserViews', '/Users/{userId}/Views'], 'library'),
  route('groupingOptions', GET, ['/UserViews/GroupingOptions', '/Users/{userId}/GroupingOptions'], 'library'),
  route('mediaFolders', GET, ['/Library/MediaFolders'], 'library'),
  route('virtualFolders', GET, ['/Library/VirtualFolders'], 'library'),
  route('items', GET, ['/Items', '/Users/{userId}/Items'], 'library'),
  route('latest', GET, ['/Items/Latest', '/Users/{userId}/Items/Latest'], 'library'),
  route('resume', GET, ['/UserItems/Resume', '/Users/{userId}/Items/Resume'], 'library'),
  route('root', GET, ['/Items/Root', '/Users/{userId}/Items/Root'], 'library'),
  route('counts', GET, ['/Items/Counts'], 'library'),
  route('filters', GET, ['/Items/Filters'], 'library'),
  route('filters2', GET, ['/Items/Filters2'], 'library'),
  route('item', GET, ['/Items/{itemId}', '/Users/{userId}/Items/{itemId}'], 'library'),
  route('similar', GET, ['/Items/{itemId}/Similar'], 'library'),
  route('ancestors', GET, ['/Items/{itemId}/Ancestors'], 'library'),
  route('specialFeatures', GET, ['/Items/{itemId}/SpecialFeatures', '/Users/{userId}/Items/{itemId}/SpecialFeatures'], 'library'),
  route('localTrailers', GET, ['/Items/{itemId}/LocalTrailers', '/Users/{userId}/Items/{itemId}/LocalTrailers'], 'library'),
  route('intros', GET, ['/Items/{itemId}/Intros', '/Users/{userId}/Items/{itemId}/Intros'], 'library'),
  route('themeMedia', GET, ['/Items/{itemId}/ThemeMedia'], 'library'),
  route('nextUp', GET, ['/Shows/NextUp'], 'library'),
  route('seasons', GET, ['/Shows/{seriesId}/Seasons'], 'library'),
  route('episodes', GET, ['/Shows/{seriesId}/Episodes'], 'library'),
  route('genres', GET, ['/Genres'], 'library'),
  route('searchHints', GET, ['/Search/Hints'], 'library'),
  route('markPlayed', POST, ['/UserPlayedItems/{itemId}', '/Users/{userId}/PlayedItems/{itemId}'], 'library'),
  route('markUnplayed', ['DELETE'], ['/UserPlayedItems/{itemId}', '/Users/{userId}/PlayedItems/{itemId}'], 'library'),
  route('markFavorite', POST, ['/UserFavoriteItems/{itemId}', '/Users/{userId}/FavoriteItems/{itemId}'], 'library'),
  route('unmarkFavorite', ['DELETE'], ['/UserFavoriteItems/{itemId}', '/Users/{userId}/FavoriteItems/{itemId}'], 'library'),
  route('userData', GET, ['/UserItems/{itemId}/UserData'], 'library'),
  // Playing: what plays how, the bytes, where each person is.
  route('playbackInfo', ['GET', 'POST'], ['/Items/{itemId}/PlaybackInfo'], 'playback'),
  route('stream', GET_HEAD, ['/Videos/{itemId}/stream', '/Videos/{itemId}/stream.{container}'], 'playback', true, true),
  route('masterPlaylist', GET_HEAD, ['/Videos/{itemId}/master.m3u8'], 'playback', true),
  route('mainPlaylist', GET_HEAD, ['/Videos/{itemId}/main.m3u8'], 'playback', true),
  route('segment', GET_HEAD, ['/Videos/{itemId}/hls1/{playlistId}/{segmentId}.ts'], 'playback', true, true),
  route(
    'subtitle',
    GET,
    [
      '/Videos/{itemId}/{mediaSourceId}/Subtitles/{index}/Stream.{format}',
      '/Videos/{itemId}/{mediaSourceId}/Subtitles/{index}/{startTicks}/Stream.{format}',
    ],
    'playback',
    true,
  ),
  route('stopEncodings', ['DELETE', 'POST'], ['/Videos/ActiveEncodings'], 'playback'),
  route('playing', POST, ['/Sessions/Playing'], 'playback'),
  route('progress', POST, ['/Sessions/Playing/Progress'], 'playback'),
  route('stopped', POST, ['/Sessions/Playing/Stopped'], 'playback'),
  route('pingPlayback', POST, ['/Sessions/Playing/Ping'], 'playback'),
  // Pictures.
  route('image', GET_HEAD, ['/Items/{itemId}/Images/{imageType}', '/Items/{itemId}/Images/{imageType}/{imageIndex}'], 'images', true),
];

export type DoorMatch =
  | { kind: 'found'; route: DoorRoute; params: Record<string, string>; path: string }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

/** A template's segment: a literal, a parameter, or a parameter with a literal before or after it (`stream.{container}`). */
type Part = { literal: string } | { name: string; before: string; after: string };

interface Compiled {
  route: DoorRoute;
  segments: Part[];
  /** How much of it is literal: a literal segment beats a partly literal one, which beats a bare parameter. */
  literals: number;
}

const partOf = (segment: string): Part => {
  const param = /^(.*)\{(\w+)\}(.*)$/u.exec(segment);
  return param ? { name: param[2]!, before: param[1]!.toLowerCase(), after: param[3]!.toLowerCase() } : { literal: segment.toLowerCase() };
};

const compiled: Compiled[] = DOOR_ROUTES.flatMap((r) =>
  r.paths.map((p) => {
    const segments = p.split('/').slice(1).map(partOf);
    const literals = segments.reduce((n, s) => n + ('literal' in s ? 2 : s.before || s.after ? 1 : 0), 0);
    return { route: r, segments, literals };
  }),
);

const PREFIX = /^\/(?:emby|mediabrowser)(?=\/|$)/iu;

/** The path as the door's routes read it: its prefix dropped, no trailing slash. */
export const doorPath = (rawPath: string): string => {
  const path = rawPath.replace(PREFIX, '').replace(/\/+$/u, '');
  return path === '' ? '/' : path;
};

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

export const matchDoorRoute = (method: string, rawPath: string): DoorMatch => {
  const path = doorPath(rawPath);
  const segments = path.split('/').slice(1);
  const onPath: { c: Compiled; params: Record<string, string> }[] = [];
  for (const c of compiled) {
    if (c.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = c.segments.every((s, i) => {
      const segment = segments[i]!;
      if ('literal' in s) return s.literal === segment.toLowerCase();
      const lower = segment.toLowerCase();
      if (segment.length <= s.before.length + s.after.length || !lower.startsWith(s.before) || !lower.endsWith(s.after)) return false;
      const value = decoded(segment.slice(s.before.length, segment.length - s.after.length));
      if (value === undefined || value === '') return false;
      params[s.name] = value;
      return true;
    });
    if (fits) onPath.push({ c, params });
  }
  if (!onPath.length) return { kind: 'none' };
  const most = Math.max(...onPath.map((m) => m.c.literals));
  const best = onPath.filter((m) => m.c.literals === most);
  const wanted = method.toUpperCase();
  const found = best.find((m) => m.c.route.methods.includes(wanted) || (wanted === 'HEAD' && m.c.route.methods.includes('GET')));
  if (found) return { kind: 'found', route: found.c.route, params: found.params, path };
  return { kind: 'wrong-method', allowed: [...new Set(best.flatMap((m) => m.c.route.methods))] };
};
