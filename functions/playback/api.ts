// Playback: the decision and the conversion sessions (lib/playback/service.ts decides everything).
// Segments go out as stream bytes do (lib/stream/deliver.ts): through the front door from disk.
import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { playbackService, services } from '../../lib/deps';
import { notFoundBecause } from '../../lib/errors';
import { http } from '../../lib/http/stack';
import { noContent, ok, raw } from '../../lib/http/reply';
import { HLS_TYPE } from '../../lib/playback/service';
import { deliverStream, streamRequestOf } from '../../lib/stream/deliver';

export const start = http(operations.playback, async ({ params, body, origin }) =>
  ok(
    await playbackService().start(
      { mediaId: params.mediaId, client: body?.client, audioTrack: body?.audioTrack, startSeconds: body?.startSeconds },
      origin,
    ),
  ),
);

export const playlist = http(operations.playbackPlaylist, async ({ params }) =>
  raw(200, await playbackService().playlist(params.sessionId), { 'Content-Type': HLS_TYPE, 'Cache-Control': 'no-store' }),
);

export const segment = http(operations.playbackSegment, async ({ params, event }) => {
  const target = await playbackService().segment(params.sessionId, Number.parseInt(params.segment, 10));
  const reply = await deliverStream(services.storage, target, streamRequestOf('GET', event.headers ?? {}), {
    ...config.stream,
    grants: false,
  });
  return raw(reply.status, reply.body, reply.headers);
});

export const end = http(operations.playbackEnd, async ({ params }) => {
  if (!(await playbackService().end(params.sessionId)))
    throw notFoundBecause(`Playback session ${params.sessionId} was not found: it had already ended`);
  return noContent();
});
