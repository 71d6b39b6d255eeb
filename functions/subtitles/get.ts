// The subtitle domain: one track of a movie or an episode as WebVTT (lib/subtitles/service.ts
// decides everything). Text, so it goes out as it is, well below Lambda's response limit.
import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { services, subtitleExtractor } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { raw } from '../../lib/http/reply';
import { serveSubtitle } from '../../lib/subtitles/service';

export const handler = http(operations.subtitle, async ({ params, query, event }, ctx) => {
  const answer = await serveSubtitle(
    { ...services, extractor: subtitleExtractor(), log: ctx.log, extractWaitMs: config.subtitles.extractWaitMs },
    { mediaId: params.mediaId, trackId: params.trackId, offsetMs: query.offsetMs, ifNoneMatch: event.headers?.['if-none-match'] },
  );
  return raw(answer.status, answer.body ?? '', answer.headers);
});
