// An episode described: its NFO (the entry for its own number in a multi-episode file), then
// its season as the provider knows it (asked once per season and shared by the batch), and its
// still.
import type { ArtworkWanted } from '../../artwork/model';
import type { EpisodeItem, ShowItem } from '../../catalog/model';
import type { NfoEpisodeFields } from '../../metadata/nfo';
import { pickEpisode } from '../../metadata/nfo';
import type { SeasonDetails } from '../../metadata/provider';
import { nextState, type EnrichSession } from './session';

/** Seasons asked for in this batch, by `<show tmdb id>#<season>`. */
export type SeasonCache = Map<string, Promise<SeasonDetails | null>>;

export const describeEpisode = async (
  session: EnrichSession,
  item: EpisodeItem,
  show: ShowItem | undefined,
  seasons: SeasonCache,
): Promise<EpisodeItem> => {
  const nfo = await session.readNfo(item.local?.nfo);
  const fields: NfoEpisodeFields | undefined =
    nfo?.kind === 'episode' ? pickEpisode(nfo.fields, item.seasonNumber, item.episodeNumber) : undefined;
  // The provider was there to ask: an episode of a show it did not match is done all the same.
  const asked = session.canAsk();
  let season: SeasonDetails | null | undefined;
  const showTmdbId = show?.tmdbId;
  if (asked && showTmdbId != null) {
    const key = `${showTmdbId}#${item.seasonNumber}`;
    if (!seasons.has(key))
      seasons.set(
        key,
        session.ask((p) => p.seasonDetails(showTmdbId, item.seasonNumber)).then((s) => s ?? null),
      );
    season = await seasons.get(key)!;
  }
  const found = season?.episodes.find((e) => e.episodeNumber === item.episodeNumber);
  const wanted: ArtworkWanted = {};
  if (item.local?.still) wanted.still = { source: 'local', from: item.local.still };
  else if (found?.stillPath) wanted.still = { source: 'provider', from: found.stillPath };
  const answered = asked && !session.tally.keyRefused;
  return {
    ...item,
    title: fields?.title ?? found?.name ?? item.title,
    overview: fields?.overview ?? found?.overview ?? item.overview,
    airDate: fields?.airDate ?? found?.airDate ?? item.airDate,
    artworkWanted: wanted,
    providerAsked: answered,
    enrich: nextState(wanted, answered),
  };
};
