// Watch state (lib/watching/service.ts decides everything): profiles, a player's position,
// played marks, favourites, Continue watching and Next up. Every endpoint takes `profileId` (default `default`).
import { operations } from '../../lib/api/operations';
import { watchingService } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { created, noContent, ok } from '../../lib/http/reply';

const profileOf = (query: { profileId?: string | undefined } | undefined) => query?.profileId ?? 'default';

export const listProfiles = http(operations.listProfiles, async () => ok(await watchingService().profiles()));

export const createProfile = http(operations.createProfile, async ({ body }) => created(await watchingService().createProfile(body.name)));

export const renameProfile = http(operations.renameProfile, async ({ params, body }) =>
  ok(await watchingService().renameProfile(params.profileId, body.name)),
);

export const deleteProfile = http(operations.deleteProfile, async ({ params }) => {
  await watchingService().deleteProfile(params.profileId);
  return noContent();
});

export const reportProgress = http(operations.reportProgress, async ({ params, query, body }) =>
  ok(await watchingService().progress(profileOf(query), params.mediaId, body.positionSeconds, body.durationSeconds)),
);

export const markPlayed = http(operations.markPlayed, async ({ params, query }) =>
  ok(await watchingService().markPlayed(profileOf(query), params.mediaId)),
);

export const markUnplayed = http(operations.markUnplayed, async ({ params, query }) =>
  ok(await watchingService().markUnplayed(profileOf(query), params.mediaId)),
);

export const markFavorite = http(operations.markFavorite, async ({ params, query }) =>
  ok(await watchingService().markFavorite(profileOf(query), params.mediaId, true)),
);

export const unmarkFavorite = http(operations.unmarkFavorite, async ({ params, query }) =>
  ok(await watchingService().markFavorite(profileOf(query), params.mediaId, false)),
);

export const continueWatching = http(operations.continueWatching, async ({ query, origin }) =>
  ok(await watchingService().continueWatching(profileOf(query), query?.limit ?? 20, origin)),
);

export const nextUp = http(operations.nextUp, async ({ query, origin }) =>
  ok(await watchingService().nextUp(profileOf(query), query?.limit ?? 20, origin)),
);
