// Loading a screen's data, and the problem shown when it fails: the service's own title and
// detail; a retry for 503 (and an unreachable box); the wait for 429, then a retry.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

export type Loaded<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'failed'; error: ApiError };

/**
 * The value `load` gives, loaded again when `deps` change or on `retry`; `replace` shows a value
 * the screen already has (an answer that carries the whole item) without asking again.
 */
export const useLoad = <T,>(load: () => Promise<T>, deps: readonly unknown[]): [Loaded<T>, () => void, (value: T) => void] => {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setLoaded((l) => (l.state === 'done' ? l : { state: 'loading' }));
    load().then(
      (value) => current && setLoaded({ state: 'done', value }),
      (error: unknown) =>
        current &&
        setLoaded({
          state: 'failed',
          error: error instanceof ApiError ? error : new ApiError(0, 'Something went wrong', String(error), null),
        }),
    );
    return () => {
      current = false;
    };
  }, [...deps, attempt]);
  return [loaded, useCallback(() => setAttempt((a) => a + 1), []), useCallback((value: T) => setLoaded({ state: 'done', value }), [])];
};

export const ProblemView = ({ error, retry }: { error: ApiError; retry: () => void }) => {
  const [wait, setWait] = useState(error.status === 429 ? (error.retryAfter ?? 1) : 0);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);
  const retryable = error.status === 0 || error.status === 503 || error.status === 429;
  return (
    <div class="problem" role="alert">
      <h2>{error.title}</h2>
      {error.detail && <p>{error.detail}</p>}
      {retryable &&
        (wait > 0 ? (
          <p>Too many requests: you can try again in {wait} s.</p>
        ) : (
          <button type="button" onClick={retry}>
            Try again
          </button>
        ))}
    </div>
  );
};

export const Loading = ({ label }: { label: string }) => (
  <p class="loading" aria-busy="true">
    {label}
  </p>
);

export const Show = <T,>({
  loaded,
  retry,
  label,
  children,
}: {
  loaded: Loaded<T>;
  retry: () => void;
  label: string;
  children: (value: T) => ComponentChildren;
}) =>
  loaded.state === 'loading' ? (
    <Loading label={label} />
  ) : loaded.state === 'failed' ? (
    <ProblemView error={loaded.error} retry={retry} />
  ) : (
    <>{children(loaded.value)}</>
  );
