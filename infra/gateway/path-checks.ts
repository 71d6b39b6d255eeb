// Which operation of the contract a request asks for, as API Gateway's route table would say.
// A path with a `.` or `..` segment (also percent-encoded) names none: offline would resolve it
// and answer another route, and the web client's files are never reached that way either.
import { matchRoute } from '../../lib/api/routes';

export const hasDotSegment = (path: string) =>
  path.split('/').some((segment) => {
    try {
      const decoded = decodeURIComponent(segment);
      return decoded === '.' || decoded === '..';
    } catch {
      return false;
    }
  });

/** The route of `method` and `path` in the operation registry; none for a dotted path. */
export const routeOf = (method: string, path: string): ReturnType<typeof matchRoute> =>
  hasDotSegment(path) ? { kind: 'none' } : matchRoute(method, path);
