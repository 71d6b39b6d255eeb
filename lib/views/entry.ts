// A movie or a show as lists show it: recent lists and search hits alike.
import type { Static } from '@sinclair/typebox';
import type { Media, MediaEntry } from '../api/schemas';
import type { TitledItem } from '../catalog/model';
import { artworkUrl } from './urls';

export const toEntry = (item: TitledItem, origin: string): Static<typeof MediaEntry> => ({
  id: item.id,
  type: item.entity,
  media: toMedia(item, origin),
});

export const toMedia = (item: TitledItem, origin: string): Static<typeof Media> => ({
  id: item.id,
  type: item.entity,
  title: item.title,
  originalTitle: item.originalTitle,
  year: item.year,
  overview: item.overview,
  genres: item.genres,
  rating: item.rating,
  posterUrl: artworkUrl(origin, item.id, 'poster', item.artwork?.poster),
  backdropUrl: artworkUrl(origin, item.id, 'backdrop', item.artwork?.backdrop),
  meshGradientColors: item.meshGradientColors,
  addedAt: item.addedAt,
});
