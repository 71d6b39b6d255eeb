// The door's "who is it" and "who are you": server info, ping, branding, users (the box's
// profiles, no passwords), logging in by name, tokens per device, display preferences; and
// the answers apps ask for and only need empty (plugins, tasks, live TV ...).
import type { Profile } from '../watching/model';
import type { DoorCaller } from './auth';
import { badRequest, DoorError, json, noContent, notFound, type DoorHandler, type DoorRequest } from './door';
import { normalGuid, profileGuid, profileIdOf } from './guid';
import type { DoorSession, DoorStore } from './store';
import { field, textField } from './wire';

export interface SystemDeps {
  store: DoorStore;
  profiles: () => Promise<Profile[]>;
  profile: (id: string) => Promise<Profile | undefined>;
  serverName: string;
  version: string;
}

const PRODUCT = 'Jellyfin Server';

const publicInfo = async (deps: SystemDeps, origin: string) => ({
  LocalAddress: origin,
  ServerName: deps.serverName,
  Version: deps.version,
  ProductName: PRODUCT,
  OperatingSystem: 'Linux',
  Id: await deps.store.server(),
  StartupWizardCompleted: true,
});

/** What the door says of a profile: a user without a password, not an administrator, with the settings the apps read. */
export const userDto = (profile: Profile, serverId: string, lastLogin?: string) => ({
  Name: profile.name,
  ServerId: serverId,
  Id: profileGuid(profile.id),
  HasPassword: false,
  HasConfiguredPassword: false,
  HasConfiguredEasyPassword: false,
  EnableAutoLogin: false,
  LastLoginDate: lastLogin,
  LastActivityDate: lastLogin,
  Configuration: {
    PlayDefaultAudioTrack: true,
    SubtitleLanguagePreference: '',
    DisplayMissingEpisodes: false,
    GroupedFolders: [],
    SubtitleMode: 'Default',
    DisplayCollectionsView: true,
    EnableLocalPassword: false,
    OrderedViews: [],
    LatestItemsExcludes: [],
    MyMediaExcludes: [],
    HidePlayedInLatest: true,
    RememberAudioSelections: true,
    RememberSubtitleSelections: true,
    EnableNextEpisodeAutoPlay: true,
  },
  Policy: {
    IsAdministrator: false,
    IsHidden: false,
    EnableCollectionManagement: false,
    EnableSubtitleManagement: false,
    EnableLyricManagement: false,
    IsDisabled: false,
    BlockedTags: [],
    AllowedTags: [],
    EnableUserPreferenceAccess: true,
    AccessSchedules: [],
    BlockUnratedItems: [],
    EnableRemoteControlOfOtherUsers: false,
    EnableSharedDeviceControl: false,
    EnableRemoteAccess: true,
    EnableLiveTvManagement: false,
    EnableLiveTvAccess: false,
    EnableMediaPlayback: true,
    EnableAudioPlaybackTranscoding: true,
    EnableVideoPlaybackTranscoding: true,
    EnablePlaybackRemuxing: true,
    ForceRemoteSourceTranscoding: false,
    EnableContentDeletion: false,
    EnableContentDeletionFromFolders: [],
    EnableContentDownloading: true,
    EnableSyncTranscoding: false,
    EnableMediaConversion: false,
    EnabledDevices: [],
    EnableAllDevices: true,
    EnabledChannels: [],
    EnableAllChannels: true,
    EnabledFolders: [],
    EnableAllFolders: true,
    InvalidLoginAttemptCount: 0,
    LoginAttemptsBeforeLockout: -1,
    MaxActiveSessions: 0,
    EnablePublicSharing: false,
    BlockedMediaFolders: [],
    BlockedChannels: [],
    RemoteClientBitrateLimit: 0,
    AuthenticationProviderId: 'Jellyfin.Server.Implementations.Users.DefaultAuthenticationProvider',
    PasswordResetProviderId: 'Jellyfin.Server.Implementations.Users.DefaultPasswordResetProvider',
    SyncPlayAccess: 'None',
  },
});

const sessionDto = (session: DoorSession, profile: Profile, serverId: string) => ({
  PlayState: { CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: 'RepeatNone', PlaybackOrder: 'Default' },
  AdditionalUsers: [],
  Capabilities: { PlayableMediaTypes: ['Video'], SupportedCommands: [], SupportsMediaControl: false, SupportsPersistentIdentifier: true },
  RemoteEndPoint: undefined,
  PlayableMediaTypes: ['Video'],
  Id: session.token.slice(0, 32),
  UserId: profileGuid(profile.id),
  UserName: profile.name,
  Client: session.client,
  LastActivityDate: session.createdAt,
  LastPlaybackCheckIn: session.createdAt,
  DeviceName: session.device,
  DeviceId: session.deviceId,
  ApplicationVersion: session.version,
  IsActive: true,
  SupportsMediaControl: false,
  SupportsRemoteControl: false,
  NowPlayingQueue: [],
  NowPlayingQueueFullItems: [],
  HasCustomDeviceName: false,
  ServerId: serverId,
  SupportedCommands: [],
});

/** The profile a user id of a path names: it must be the caller's own (the door's users see only themselves). */
const userOfPath = async (deps: SystemDeps, req: DoorRequest): Promise<Profile> => {
  const guid = normalGuid(req.params.userId ?? '');
  const id = guid && profileIdOf(guid);
  const profile = id ? await deps.profile(id) : undefined;
  if (!profile) throw notFound('User');
  return profile;
};

const callerProfile = async (deps: SystemDeps, req: DoorRequest): Promise<Profile> => {
  const profile = req.session && (await deps.profile(req.session.profileId));
  // A token whose profile was deleted stands for nobody.
  if (!profile) throw new DoorError(401, 'The token names no user');
  return profile;
};

const deviceOf = (caller: DoorCaller) => ({
  deviceId: caller.deviceId!,
  client: caller.client ?? 'Unknown client',
  device: caller.device ?? 'Unknown device',
  version: caller.version ?? '0',
});

const EMPTY_ITEMS = { Items: [], TotalRecordCount: 0, StartIndex: 0 };
/** A Lambda answer is at most 6 MB and base64 makes bytes a third larger; jellyfin-web asks 3 MB at most. */
const MAX_BITRATE_TEST_BYTES = 4_000_000;

export const systemHandlers = (deps: SystemDeps): Record<string, DoorHandler> => ({
  publicInfo: async ({ origin }) => json(await publicInfo(deps, origin)),
  systemInfo: async ({ origin }) =>
    json({
      ...(await publicInfo(deps, origin)),
      OperatingSystemDisplayName: 'Linux',
      HasPendingRestart: false,
      IsShuttingDown: false,
      SupportsLibraryMonitor: true,
      WebSocketPortNumber: Number(new URL(origin).port || 80),
      CompletedInstallations: [],
      CanSelfRestart: false,
      CanLaunchWebBrowser: false,
      ProgramDataPath: '',
      WebPath: '',
      ItemsByNamePath: '',
      CachePath: '',
      LogPath: '',
      InternalMetadataPath: '',
      TranscodingTempPath: '',
      CastReceiverApplications: [],
      HasUpdateAvailable: false,
      EncoderLocation: 'System',
      SystemArchitecture: process.arch === 'arm64' ? 'Arm64' : 'X64',
    }),
  ping: async () => ({ status: 200, json: PRODUCT }),
  endpoint: async () => json({ IsLocal: true, IsInNetwork: true }),
  branding: async () => json({ LoginDisclaimer: '', CustomCss: '', SplashscreenEnabled: false }),
  brandingCss: async () => ({ status: 200, body: '', headers: { 'Content-Type': 'text/css' } }),
  quickConnect: async () => json(false),
  publicUsers: async () => {
    const serverId = await deps.store.server();
    return json((await deps.profiles()).map((p) => userDto(p, serverId)));
  },
  users: async () => {
    const serverId = await deps.store.server();
    return json((await deps.profiles()).map((p) => userDto(p, serverId)));
  },
  authenticate: async ({ body, caller }) => {
    const name = textField(body, 'Username')?.trim();
    if (!name) throw badRequest('Username is required');
    if (!caller.deviceId) throw badRequest('The Authorization header must name a DeviceId');
    const wanted = name.normalize('NFC').toLocaleLowerCase('en');
    const profile = (await deps.profiles()).find((p) => p.name.normalize('NFC').toLocaleLowerCase('en') === wanted);
    if (!profile) throw new DoorError(401, 'No user of that name');
    const session = await deps.store.login(profile.id, deviceOf(caller));
    const serverId = await deps.store.server();
    return json({
      User: userDto(profile, serverId, session.createdAt),
      SessionInfo: sessionDto(session, profile, serverId),
      AccessToken: session.token,
      ServerId: serverId,
    });
  },
  me: async (req) => json(userDto(await callerProfile(deps, req), await deps.store.server())),
  user: async (req) => json(userDto(await userOfPath(deps, req), await deps.store.server())),
  capabilities: async () => noContent(),
  logout: async ({ session }) => {
    if (session) await deps.store.end(session.token);
    return noContent();
  },
  sessions: async (req) => {
    const profile = await callerProfile(deps, req);
    return json([sessionDto(req.session!, profile, await deps.store.server())]);
  },
  displayPreferences: async (req) => {
    const profile = await callerProfile(deps, req);
    const client = req.query.str('client') ?? 'emby';
    const id = req.params.id!;
    const kept = await deps.store.preferences(profile.id, client, id);
    return json({
      Id: id,
      SortBy: 'SortName',
      RememberIndexing: false,
      PrimaryImageHeight: 250,
      PrimaryImageWidth: 250,
      CustomPrefs: {},
      ScrollDirection: 'Horizontal',
      ShowBackdrop: true,
      RememberSorting: false,
      SortOrder: 'Ascending',
      ShowSidebar: false,
      Client: client,
      ...kept,
    });
  },
  saveDisplayPreferences: async (req) => {
    const profile = await callerProfile(deps, req);
    if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body)) throw badRequest('A JSON object is required');
    const client = req.query.str('client') ?? textField(req.body, 'Client') ?? 'emby';
    const prefs = field(req.body, 'CustomPrefs');
    const kept: Record<string, unknown> = {};
    for (const key of ['SortBy', 'SortOrder', 'ViewType', 'IndexBy', 'ScrollDirection', 'ShowBackdrop', 'ShowSidebar', 'RememberSorting']) {
      const value = field(req.body, key);
      if (value !== undefined && value !== null) kept[key] = value;
    }
    if (prefs && typeof prefs === 'object' && !Array.isArray(prefs)) kept.CustomPrefs = prefs;
    if (JSON.stringify(kept).length > 64 * 1024) throw badRequest('Display preferences are limited to 64 KiB');
    await deps.store.savePreferences(profile.id, client, req.params.id!, kept);
    return noContent();
  },
  plugins: async () => json([]),
  packages: async () => json([]),
  scheduledTasks: async () => json([]),
  localizationCultures: async () => json([]),
  localizationCountries: async () => json([]),
  localizationRatings: async () => json([]),
  localizationOptions: async () => json([]),
  devices: async () => json(EMPTY_ITEMS),
  syncPlayList: async () => json([]),
  liveTvInfo: async () => json({ Services: [], IsEnabled: false, EnabledUsers: [] }),
  // jellyfin-web times this download to pick a streaming bitrate, on the home screen too; a failure is an uncaught error there.
  bitrateTest: async ({ query }) => ({
    status: 200,
    body: Buffer.alloc(Math.min(query.int('size', 1) ?? 102_400, MAX_BITRATE_TEST_BYTES)),
    headers: { 'Content-Type': 'application/octet-stream' },
  }),
  // No avatars: Jellyfin answers 404 for a user without one, and the apps draw initials.
  userImage: async () => {
    throw notFound('Image');
  },
});
