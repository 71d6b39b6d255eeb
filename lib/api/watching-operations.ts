// Watch state's operations: profiles, progress reports, played marks, Continue watching and
// Next up (lib/api/operations.ts lists them with the others).
import { Type } from '@sinclair/typebox';
import { op, pathParams } from './operation-def';
import * as S from './schemas';

export const watchingOperations = {
  listProfiles: op({
    id: 'listProfiles', method: 'GET', path: '/api/v1/profiles', tag: 'watching', counted: true, handler: 'functions/watching/api.listProfiles',
    summary: "The household's profiles, oldest first",
    description: 'Who may be watching: no passwords (the LAN is trusted). `default` ("Household" until renamed) is always there and first.',
    success: { status: 200, description: 'The profiles', schema: Type.Array(S.Profile) },
  }),
  createProfile: op({
    id: 'createProfile', method: 'POST', path: '/api/v1/profiles', tag: 'watching', counted: true, handler: 'functions/watching/api.createProfile',
    summary: 'A new profile', body: S.ProfileBody, bodyRequired: true, errors: [400, 409],
    description: 'Names are unique without regard to case (and trimmed): one taken gets 409 `name-taken`.',
    success: { status: 201, description: 'The profile', schema: S.Profile },
  }),
  renameProfile: op({
    id: 'renameProfile', method: 'PATCH', path: '/api/v1/profiles/{profileId}', tag: 'watching', counted: true, handler: 'functions/watching/api.renameProfile',
    summary: 'Rename a profile', params: pathParams(['profileId']), body: S.ProfileBody, bodyRequired: true, errors: [400, 404, 409],
    success: { status: 200, description: 'The profile', schema: S.Profile },
  }),
  deleteProfile: op({
    id: 'deleteProfile', method: 'DELETE', path: '/api/v1/profiles/{profileId}', tag: 'watching', counted: true, handler: 'functions/watching/api.deleteProfile',
    summary: 'Delete a profile and all of its watch state', params: pathParams(['profileId']), errors: [404, 409],
    description: '`default` cannot be deleted: 409 `default-profile`.',
    success: { status: 204, description: 'Deleted' },
  }),
  reportProgress: op({
    id: 'reportProgress', method: 'PUT', path: '/api/v1/progress/{mediaId}', tag: 'watching', counted: false, handler: 'functions/watching/api.reportProgress',
    summary: "A player's position in a film or an episode",
    description:
      'The rules (`settings.preferences.playback`): a position before `resumeMinPercent` (5) keeps nothing; past `playedAtPercent` (90) the item is played, counted once per viewing, and the position cleared; in between it is kept. ' +
      'The share is of `durationSeconds`, else of the file\'s length as the scan read it; without either the position is kept as it is. ' +
      'A player may report every few seconds: reports are not counted by the rate limit, and one that comes less than a second after the last of the same item is answered at once and written a second later. ' +
      'Every change is sent as `userdata:changed` on `/ws`. 404 for an unknown profile, or an id that is not a film or an episode.',
    params: pathParams(['mediaId']), query: S.ProfileQuery, body: S.ProgressBody, bodyRequired: true, errors: [400, 404],
    success: { status: 200, description: 'The item\'s state after the rules', schema: S.UserData },
  }),
  markPlayed: op({
    id: 'markPlayed', method: 'POST', path: '/api/v1/played/{mediaId}', tag: 'watching', counted: true, handler: 'functions/watching/api.markPlayed',
    summary: 'Mark a film, an episode or a whole show played',
    description: 'A film or an episode: played, its position cleared, counted once unless it was played already. A show: every episode of it. The answer for a show: `progress` is its played episodes over all of them.',
    params: pathParams(['mediaId']), query: S.ProfileQuery, errors: [404],
    success: { status: 200, description: 'The state', schema: S.UserData },
  }),
  markUnplayed: op({
    id: 'markUnplayed', method: 'DELETE', path: '/api/v1/played/{mediaId}', tag: 'watching', counted: true, handler: 'functions/watching/api.markUnplayed',
    summary: 'Mark a film, an episode or a whole show not played',
    description: 'Not played, no position, no viewings counted; a show: every episode of it.',
    params: pathParams(['mediaId']), query: S.ProfileQuery, errors: [404],
    success: { status: 200, description: 'The state', schema: S.UserData },
  }),
  continueWatching: op({
    id: 'continueWatching', method: 'GET', path: '/api/v1/continue', tag: 'watching', counted: true, handler: 'functions/watching/api.continueWatching',
    summary: 'Films and episodes in progress, most recently watched first', query: S.WatchListQuery, errors: [404],
    success: { status: 200, description: 'The entries', schema: Type.Array(S.ContinueEntry) },
  }),
  nextUp: op({
    id: 'nextUp', method: 'GET', path: '/api/v1/next-up', tag: 'watching', counted: true, handler: 'functions/watching/api.nextUp',
    summary: 'The next episode of each show being watched, shows most recently watched first', query: S.WatchListQuery, errors: [404],
    description: 'Per show with a played episode: the first episode after the highest played one (season, episode), rolling over into the next season; specials (season 0) left out. An episode in progress is in /continue, not here; a show whose last episode is played drops out.',
    success: { status: 200, description: 'The entries', schema: Type.Array(S.ContinueEntry) },
  }),
} as const;
