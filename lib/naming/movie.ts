// Movies: "Inception (2010)/Inception (2010).mkv", "Inception (2010).mkv",
// "Inception.2010.1080p.BluRay.x264-GROUP.mkv", "Movie (1999)/Movie (1999) - cd2.avi".
import { readProviderTags } from './provider-ids';
import { DEFAULT_RULES, type NamingRules } from './rules';
import { splitPart } from './stack';
import { extractTitleYear, looseKey } from './title';
import { fail, type MovieResult } from './types';
import { readVideoPath } from './video-path';

interface Candidate {
  readonly title: string;
  readonly year: number | null;
  readonly tmdbId: number | null;
}

export function parseMovie(relPath: string, rules: NamingRules = DEFAULT_RULES): MovieResult {
  const video = readVideoPath(relPath, rules);
  if (!video.ok) return video;
  const { dirs, tags } = video;
  const { name, part } = splitPart(tags.rest, rules);
  const fromFile: Candidate = { ...extractTitleYear(name, rules), tmdbId: null };
  const parent = dirs.at(-1);
  const fromFolder = parent === undefined ? undefined : readFolder(parent, rules);
  const chosen = choose(fromFile, fromFolder);
  if (chosen === undefined) return fail('no title');
  const dirPath = dirs.join('/');
  const key = looseKey(name);
  return {
    ok: true,
    title: chosen.title,
    year: chosen.year,
    tmdbId: tags.tmdbId ?? chosen.tmdbId,
    part,
    stackKey: dirPath === '' ? key : key === '' ? dirPath : `${dirPath}/${key}`,
  };
}

function readFolder(folder: string, rules: NamingRules): Candidate {
  const tags = readProviderTags(folder, rules);
  return { ...extractTitleYear(tags.rest, rules), tmdbId: tags.tmdbId };
}

/**
 * A folder with a year or a tmdb tag is the movie's own folder, and its name is usually the
 * curated one ("Amélie (2001)" around "Le.Fabuleux.Destin.2001.1080p.mkv"), so it wins, unless
 * the file names a different year (then the folder is a grouping folder). A folder without
 * either ("Action", "Star Wars Collection") only names files that have no title of their own
 * ("Movie (1999)/cd1.avi").
 */
function choose(fromFile: Candidate, fromFolder: Candidate | undefined): Candidate | undefined {
  if (fromFolder !== undefined && fromFolder.title !== '') {
    const movieFolder = fromFolder.year !== null || fromFolder.tmdbId !== null;
    const yearsDisagree = fromFile.year !== null && fromFolder.year !== null && fromFile.year !== fromFolder.year;
    if (movieFolder && !yearsDisagree) return fromFolder;
    if (fromFile.title === '') return fromFolder;
  }
  return fromFile.title === '' ? undefined : fromFile;
}
