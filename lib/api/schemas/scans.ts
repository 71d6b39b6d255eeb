// Scan requests and jobs.
import { Type } from '@sinclair/typebox';
import { JOB_ERROR_CODES } from '../../errors';
import { Id, IsoTime, literals, MediaType, Nullable } from './common';

export const JobStatus = literals(['queued', 'running', 'completed', 'failed', 'interrupted', 'cancelled'] as const);
export const ScanPhase = literals(['discovering', 'analyzing', 'metadata', 'artwork', 'finalizing'] as const);

export const ScanRequest = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'An absolute directory path on the server (with MEDIA_STORAGE=s3: `s3://bucket/prefix`)',
    }),
    mediaType: MediaType,
    libraryId: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** Why a job failed; the codes are the catalogue's (`x-problem-types` with sentIn `job`). */
export const JobErrorSchema = Type.Object({ code: literals(JOB_ERROR_CODES), message: Type.String() });

export const ScanTrigger = Type.Union([Type.Literal('manual'), Type.Literal('watch'), Type.Literal('schedule')], {
  description: "What started the job: a request (`manual`), the folder monitor (`watch`) or the library's schedule (`schedule`)",
});

export const ScanJob = Type.Object({
  jobId: Type.String(),
  status: JobStatus,
  trigger: ScanTrigger,
  path: Type.String(),
  mediaType: MediaType,
  libraryId: Type.String(),
  phase: Nullable(ScanPhase),
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  counts: Type.Object({
    discovered: Type.Integer(),
    processed: Type.Integer(),
    added: Type.Integer(),
    updated: Type.Integer(),
    moved: Type.Integer({
      description:
        'Items whose files moved or were renamed (same size and modification time): they keep their id, addedAt, metadata and artwork',
    }),
    removed: Type.Integer(),
    failed: Type.Integer({ description: 'Files whose names could not be read, and items whose metadata, NFO or artwork failed' }),
    matched: Type.Integer({ description: 'Items the metadata provider matched' }),
    unmatched: Type.Integer({
      description: 'Items the provider was asked about but did not match with confidence (they keep their file titles)',
    }),
    artwork: Type.Integer({ description: 'Pictures copied into the artwork cache' }),
    probed: Type.Integer({ description: 'Video files whose technical info (duration, codecs) was read' }),
    probeFailed: Type.Integer({
      description: 'Video files that could not be read for technical info (broken or truncated); they do not fail the scan',
    }),
  }),
  warnings: Type.Array(Type.String(), { description: 'What to know about a scan that still completed, e.g. a refused TMDB key' }),
  startedAt: Nullable(IsoTime),
  updatedAt: IsoTime,
  finishedAt: Nullable(IsoTime),
  error: Nullable(JobErrorSchema),
});

export const CleanupRequest = Type.Object(
  {
    staleAfterSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 86_400 * 30,
        description: '0 treats every running job as stale (what a client sends after a crash)',
      }),
    ),
  },
  { additionalProperties: false },
);
