// Why a file's technical info could not be read. A scan records the file as failed with the
// reason and goes on; `unavailable` alone is not the file's fault (the prober could not start).

export type ProbeFailure =
  | 'empty' // zero bytes
  | 'not-media' // read to the end (or as far as it goes) without one audio or video stream
  | 'read-failed' // the source could not give the bytes asked for
  | 'timeout' // took longer than allowed
  | 'aborted' // the caller's signal fired
  | 'analysis-failed' // MediaInfoLib itself failed on the data
  | 'unavailable'; // MediaInfoLib could not be loaded (its .wasm missing or broken)

export class ProbeError extends Error {
  constructor(
    readonly reason: ProbeFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
