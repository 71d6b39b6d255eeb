// Why a scan stopped, as the job's error and the scan:error event say it.
import { AppError, type JobError, type JobErrorCode } from '../errors';
import { WalkLimitError } from '../storage/walk';

/** A reason the scan cannot go on. */
export class ScanFailure extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const jobError = (code: JobErrorCode, message: string): JobError => ({ code, message });

export const failureOf = (err: unknown): JobError => {
  if (err instanceof ScanFailure) return jobError(err.code, err.message);
  // Discovery's bounds (SCAN_MAX_ENTRIES, SCAN_MAX_DEPTH): the folder is not one a scan walks.
  if (err instanceof WalkLimitError) {
    const setting = err.limit === 'entries' ? 'SCAN_MAX_ENTRIES' : 'SCAN_MAX_DEPTH';
    return jobError(
      err.limit === 'entries' ? 'scan-too-large' : 'scan-too-deep',
      `${err.message}; scan a folder below it, or raise ${setting}`,
    );
  }
  if (err instanceof AppError && err.status === 503) return jobError('dependency-unavailable', err.message);
  return jobError('internal', 'The scan stopped on an unexpected error; it can be resumed');
};

/** Another writer moved the job's version under this worker (a cancel, a second worker). */
export const isTakenOver = (err: unknown) => err instanceof AppError && err.code === 'job-state-conflict';
