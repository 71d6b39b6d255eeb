// Public API of the filename naming parser: pure functions from library-relative paths to what
// the names say. No I/O, never throws, never returns null.
export { parseEpisode } from './episode';
export { IGNORE_MARKER, ignoreReason, type IgnoreReason } from './ignore';
export { parseMovie } from './movie';
export { IMAGE_EXTENSIONS, isSidecarFile } from './sidecar-extensions';
export {
  DEFAULT_RULES,
  MAX_YEAR,
  MIN_YEAR,
  type BareEpisodeRule,
  type EpisodeRule,
  type NamingRules,
  type SeasonRule,
  type StackRule,
  type YearRule,
} from './rules';
export { rootFolderName, showDirOf, type ShowFrom } from './show-root';
export type { EpisodeName, EpisodeResult, Failure, MovieName, MovieResult } from './types';
export { VIDEO_EXTENSIONS, isVideoFile, videoExtension } from './video';
