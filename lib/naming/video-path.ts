// The start both parsers share: a library-relative path split into its folders and the file's
// base name with provider tags read off, or why it is not a video file at all.
import { splitExtension, splitRelPath } from './path';
import { readProviderTags, type Tagged } from './provider-ids';
import type { NamingRules } from './rules';
import { fail, type Failure } from './types';
import { isVideoFile } from './video';

export interface VideoPath {
  ok: true;
  dirs: readonly string[];
  tags: Tagged;
}

export function readVideoPath(relPath: string, rules: NamingRules): VideoPath | Failure {
  const { dirs, file } = splitRelPath(relPath);
  if (file === '') return fail('empty path');
  if (!isVideoFile(file)) return fail('not a video file');
  return { ok: true, dirs, tags: readProviderTags(splitExtension(file).base, rules) };
}
