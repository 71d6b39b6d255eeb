// A text subtitle track of a film or an episode, at the addresses Jellyfin's apps ask for it:
// WebVTT (lib/subtitles/service.ts, as /api/v1/subtitles sends it), SubRip for the apps that ask
// for the format a track was (Kodi's add-ons), and Jellyfin's JSON track events, which its web
// client's own renderer reads.
import { parseVtt, type Cue } from '../subtitles/webvtt';
import { json, notFound, type DoorHandler } from './door';
import { itemSubtitles, streamOfKind } from './media-sources';
import type { PlaybackDoorDeps, PlayContext } from './play-common';
import { TICKS_PER_SECOND } from './wire';

/** SubRip, for the apps that ask for a track in the format it was (Kodi's add-ons). */
const toSrt = (cues: readonly Cue[]) => {
  const stamp = (ms: number) => {
    const t = Math.max(0, Math.round(ms));
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(Math.floor(t / 3_600_000))}:${pad(Math.floor(t / 60_000) % 60)}:${pad(Math.floor(t / 1000) % 60)},${pad(t % 1000, 3)}`;
  };
  return cues.map((c, i) => `${i + 1}\n${stamp(c.startMs)} --> ${stamp(c.endMs)}\n${c.text}\n`).join('\n');
};

export const subtitleHandler =
  (deps: PlaybackDoorDeps, { playable }: PlayContext): DoorHandler =>
  async (req) => {
    const item = await playable(req.params.itemId);
    const format = req.params.format!.toLowerCase();
    if (!['vtt', 'js', 'srt', 'subrip'].includes(format)) throw notFound(`Subtitles as ${format}`);
    const at = streamOfKind(item.files[0]?.tech, Number(req.params.index), 'Subtitle');
    const listed = at === undefined ? undefined : itemSubtitles(item, deps.subtitles)[at];
    if (!listed?.servable) throw notFound('Subtitle stream');
    const answer = await deps.subtitle(item.id, listed.track.id, format === 'vtt' ? req.headers['if-none-match'] : undefined);
    if (format === 'vtt') return { status: answer.status, body: answer.body ?? '', headers: answer.headers };
    const cues = parseVtt(answer.body ?? '');
    if (format === 'js') {
      return json({
        TrackEvents: cues.map((c, i) => ({
          Id: String(i + 1),
          Text: c.text,
          StartPositionTicks: Math.round(c.startMs * (TICKS_PER_SECOND / 1000)),
          EndPositionTicks: Math.round(c.endMs * (TICKS_PER_SECOND / 1000)),
        })),
      });
    }
    return { status: 200, body: toSrt(cues), headers: { 'Content-Type': 'application/x-subrip; charset=utf-8' } };
  };
