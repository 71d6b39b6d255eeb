// The schemas that get a name in the OpenAPI document's components, in the document's order.
import type { TSchema } from '@sinclair/typebox';
import { Facets } from './browse';
import { CollectionDetail, CollectionPart, CollectionSummary } from './collections';
import { ListMeta, Problem } from './common';
import { Health } from './health';
import { Library, LibraryCreate, LibraryPatch, LibraryRemoval, LibraryStats } from './library';
import { LogRecord } from './logs';
import {
  CollectionRef,
  Episode,
  FileInfo,
  Media,
  MediaEntry,
  MovieDetail,
  MovieMetadata,
  SearchHit,
  ShowDetail,
  ShowMetadata,
  SubtitleTrack,
} from './media';
import { PlaybackInfo, PlaybackReason, PlaybackRequest } from './playback';
import { JobErrorSchema, ScanJob, ScanRequest } from './scans';
import { Features, Preferences, Settings, SettingsPatch } from './settings';

/** Schemas that get a name in the OpenAPI document's components. */
export const NAMED_SCHEMAS: Record<string, TSchema> = {
  Problem,
  ListMeta,
  Media,
  MediaEntry,
  SearchHit,
  Facets,
  FileInfo,
  SubtitleTrack,
  CollectionRef,
  MovieMetadata,
  ShowMetadata,
  MovieDetail,
  Episode,
  ShowDetail,
  CollectionSummary,
  CollectionPart,
  CollectionDetail,
  PlaybackRequest,
  PlaybackReason,
  PlaybackInfo,
  ScanRequest,
  ScanJob,
  JobError: JobErrorSchema,
  Library,
  LibraryCreate,
  LibraryPatch,
  LibraryStats,
  LibraryRemoval,
  Features,
  Preferences,
  Settings,
  SettingsPatch,
  LogRecord,
  Health,
};
