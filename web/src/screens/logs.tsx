// The service's log, newest first, from a chosen level up.
import { api, unwrap } from '../api/client';
import { navigate } from '../ui/router';
import { Show, useLoad } from '../ui/load';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

export const Logs = ({ level }: { level: Level }) => {
  const [loaded, retry] = useLoad(
    async () => (await unwrap(api.GET('/api/v1/logs', { params: { query: { level, limit: 200 } } }))).data,
    [level],
  );
  return (
    <main class="logs">
      <h1 class="screen-title">Log</h1>
      <label>
        From level{' '}
        <select value={level} onChange={(e) => navigate(`/logs?level=${e.currentTarget.value}`, { replace: true })}>
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <Show loaded={loaded} retry={retry} label="Loading the log">
        {(records) =>
          records.length ? (
            <table>
              <tbody>
                {records.map((r, i) => (
                  <tr key={i} class={`level-${r.level}`}>
                    <td class="time">{new Date(r.time).toLocaleString()}</td>
                    <td class="level">{r.level}</td>
                    <td class="msg">{r.msg}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="empty">Nothing at this level.</p>
          )
        }
      </Show>
    </main>
  );
};

export const logLevelOf = (value: string | null): Level =>
  (LEVELS as readonly string[]).includes(value ?? '') ? (value as Level) : 'info';
