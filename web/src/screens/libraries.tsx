// Libraries: each with its state and item count, its running scan's progress bar fed by the
// scan's WebSocket events (phase and counts), Scan, Resume for a job that stopped, and Delete
// after a confirmation; a form to add a library from a path, which scans it at once; a link
// to the titles the provider could not match.
import { useState } from 'preact/hooks';
import { api, ApiError, unwrap, type Library, type ScanJob } from '../api/client';
import { useEvents } from '../ui/events';
import { fieldText } from '../ui/form-field';
import { ProblemView, Show, useLoad } from '../ui/load';
import { counted } from '../ui/plural';
import { UnmatchedLink } from './unmatched';

type Progress = { phase: string; progress: number; processed: number; total: number };

const PHASES: Record<string, string> = {
  discovering: 'Finding files',
  analyzing: 'Reading files',
  metadata: 'Matching',
  artwork: 'Artwork',
  finalizing: 'Details, finishing',
  done: 'Done',
};

const ProgressBar = ({ job, live }: { job: ScanJob; live: Progress | undefined }) => {
  const progress = Math.round(live?.progress ?? job.progress);
  const phase = live?.phase ?? job.phase ?? 'queued';
  return (
    <div class="scan">
      <div class="bar" role="progressbar" aria-label={`Scan of ${job.path}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
        <div style={{ width: `${progress}%` }} />
      </div>
      <span class="scan-text">
        {PHASES[phase] ?? phase} · {progress}%{live ? ` · ${live.processed} of ${live.total}` : ''}
      </span>
    </div>
  );
};

const AddLibrary = ({ onAdded }: { onAdded: () => void }) => {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    // Taken now: currentTarget is gone once the event has been handled.
    const element = event.currentTarget as HTMLFormElement;
    const form = new FormData(element);
    const body = {
      name: fieldText(form, 'name'),
      path: fieldText(form, 'path'),
      mediaType: form.get('mediaType') === 'tvshow' ? ('tvshow' as const) : ('movie' as const),
    };
    setBusy(true);
    setError(null);
    try {
      const library = (await unwrap(api.POST('/api/v1/library', { body }))).data;
      await unwrap(api.POST('/api/v1/scan/path', { body: { path: library.path, mediaType: library.mediaType, libraryId: library.id } }));
      element.reset();
      onAdded();
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'Could not add the library', String(e), null));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="add-library" onSubmit={(e) => void submit(e)}>
      <h2>Add a library</h2>
      <label>
        Name <input name="name" required maxLength={200} placeholder="Films" />
      </label>
      <label>
        Folder <input name="path" required placeholder="/srv/media/films" />
      </label>
      <label>
        Holds
        <select name="mediaType">
          <option value="movie">Films</option>
          <option value="tvshow">Shows</option>
        </select>
      </label>
      <button type="submit" disabled={busy}>
        Add and scan
      </button>
      {error && <ProblemView error={error} retry={() => setError(null)} />}
    </form>
  );
};

export const Libraries = () => {
  const [version, setVersion] = useState(0);
  const [live, setLive] = useState<Record<string, Progress>>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [loaded, retry] = useLoad(async () => {
    const [libraries, jobs] = await Promise.all([unwrap(api.GET('/api/v1/library')), unwrap(api.GET('/api/v1/scan/jobs'))]);
    return { libraries: libraries.data, jobs: jobs.data };
  }, [version]);
  const refresh = () => setVersion((v) => v + 1);
  useEvents((event) => {
    if (event.type === 'scan:progress') {
      const { jobId, phase, progress, processed, total } = event as unknown as Progress & { jobId: string };
      setLive((l) => ({ ...l, [jobId]: { phase, progress, processed, total } }));
      if (!(loaded.state === 'done' && loaded.value.jobs.some((j) => j.jobId === jobId))) refresh();
    } else if (event.type === 'scan:complete') {
      // The bar stays, full, until the list is read again: the scan is seen to finish.
      const { jobId } = event as unknown as { jobId: string };
      setLive((l) => ({ ...l, [jobId]: { phase: 'done', progress: 100, processed: l[jobId]?.total ?? 0, total: l[jobId]?.total ?? 0 } }));
      refresh();
    } else if (event.type.startsWith('scan:') || event.type.startsWith('library:')) refresh();
  });
  const act = async (action: () => Promise<unknown>) => {
    setFailure(null);
    try {
      await action();
    } catch (e) {
      setFailure(e instanceof ApiError ? e : new ApiError(0, 'That did not work', String(e), null));
    }
    refresh();
  };
  const scan = (library: Library) =>
    act(() => unwrap(api.POST('/api/v1/scan/path', { body: { path: library.path, mediaType: library.mediaType, libraryId: library.id } })));
  const resume = (job: ScanJob) =>
    act(() => unwrap(api.POST('/api/v1/scan/jobs/{jobId}/resume', { params: { path: { jobId: job.jobId } } })));
  const remove = (library: Library) => {
    if (
      !confirm(
        `Delete the library “${library.name}”? Its ${counted(library.itemCount, 'item', 'items')} leave the catalogue; the files stay where they are.`,
      )
    )
      return;
    void act(() => unwrap(api.DELETE('/api/v1/library/{libraryId}', { params: { path: { libraryId: library.id } } })));
  };
  return (
    <main>
      <h1 class="screen-title">Libraries</h1>
      <UnmatchedLink version={version} />
      {failure && <ProblemView error={failure} retry={() => setFailure(null)} />}
      <Show loaded={loaded} retry={retry} label="Loading the libraries">
        {({ libraries, jobs }) => (
          <ul class="libraries">
            {libraries.map((library) => {
              const latest = jobs.find((j) => j.libraryId === library.id);
              const running = latest && (latest.status === 'running' || latest.status === 'queued');
              const stopped = latest && (latest.status === 'interrupted' || latest.status === 'failed');
              return (
                <li key={library.id} class="library" data-id={library.id}>
                  <div class="library-head">
                    <h2>{library.name}</h2>
                    <span class={`status ${library.status}`}>
                      {library.status === 'online' ? counted(library.itemCount, 'item', 'items') : 'Offline'}
                    </span>
                  </div>
                  <p class="library-path">{library.path}</p>
                  {library.statusReason && <p class="library-reason">{library.statusReason}</p>}
                  {(running || live[latest?.jobId ?? '']?.phase === 'done') && latest && (
                    <ProgressBar job={latest} live={live[latest.jobId]} />
                  )}
                  {latest && !running && (
                    <p class="last-scan">
                      Last scan {latest.status}
                      {/* The date and time stay on one line: a narrow card broke inside "PM". */}
                      {latest.finishedAt && (
                        <>
                          {' '}
                          <time class="nowrap" dateTime={latest.finishedAt}>
                            {new Date(latest.finishedAt).toLocaleString()}
                          </time>
                        </>
                      )}
                      : {latest.counts.added} added, {latest.counts.updated} updated, {latest.counts.removed} removed
                      {latest.error ? ` (${latest.error.message})` : ''}
                    </p>
                  )}
                  <div class="actions">
                    <button type="button" disabled={running} onClick={() => void scan(library)}>
                      Scan
                    </button>
                    {stopped && (
                      <button type="button" onClick={() => void resume(latest)}>
                        Resume
                      </button>
                    )}
                    <button type="button" class="danger" onClick={() => remove(library)}>
                      Delete
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Show>
      <AddLibrary onAdded={refresh} />
    </main>
  );
};
