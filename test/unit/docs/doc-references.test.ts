// The README and docs/*.md stand alone only if what they name in backticks is there. Each
// code span is read as one of:
//   a command ........ `npm run x`, `npx tsx a/b.ts`: the script is in package.json, each path exists
//   a route .......... `GET /api/v1/...`: an operation of the registry answers it
//   a problem ........ `/problems/<code>`, `503 media-offline`: the code is in lib/errors.ts
//   a WebSocket event  `scan:progress`: a type of lib/api/schemas/websocket.ts
//   an env variable .. `DATA_DIR`, `X_Y=1`, `DATA_DIR/logs`: the code reads that name
//   a path ........... `lib/x.ts`, `infra/runner/`, `send-file.ts`: in the repository (placeholders
//                      like <key> match any name; what .gitignore names is made at run time)
//   a symbol ......... `Type.member`, `camelCase`, `PascalCase`, `name()`: a word of the code
//                      (lib/, functions/, infra/, web/, test/, bench/, serverless.yml, package.json);
//                      a member of a type is looked for in the file declaring the type
//   anything else .... a literal: a status, a header, a value, a single lowercase word, a
//                      dotted lowercase name (a host, a field path), a media file's name
// Relative links ([text](path)) must point at a file of the repository too.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_DIR } from '../../../infra/project';
import { allOperations } from '../../../lib/api/operations';
import { matchRoute } from '../../../lib/api/routes';
import { WsEvents } from '../../../lib/api/schemas';
import { PROBLEMS } from '../../../lib/errors';

/** Docs whose backticks are not held to the code now. */
const SKIPPED: Record<string, RegExp | 'all'> = {
  // Dated notes: they name what the code was when each was written.
  'docs/benchmarks-history.md': 'all',
};

const COMMANDS = new Set(['npm', 'npx', 'node', 'tsx', 'tsc', 'apt-get', 'aws', 'git', 'nice', 'kill', 'curl']);
const CODE_EXTENSION = /\.(ts|tsx|mjs|cjs|json|md|yml|java|patch)$/;
/** The names of media and sidecar files in examples (`Movie.en.srt`), not of the repository's. */
const MEDIA_FILE = /\.(mkv|mp4|avi|srt|ass|ssa|vtt|sub|idx|sup|nfo|jpg|png|webp|avif|html|log)$/i;
const HTTP_METHOD = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/;
const CODE_DIRS = ['lib/', 'functions/', 'infra/', 'web/', 'test/', 'bench/'];
const THIS_FILE = 'test/unit/docs/doc-references.test.ts';

const git = (...args: string[]) => execFileSync('git', args, { cwd: PROJECT_DIR, encoding: 'utf8' });
/** The repository's files, new ones not yet added included; what .gitignore names is not. */
const files = git('ls-files', '--cached', '--others', '--exclude-standard').split('\n').filter(Boolean);
const dirs = new Set(
  files.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const topLevel = new Set(files.map((f) => f.split('/')[0]!));
const docs = files.filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));

const codeFiles = files.filter(
  (f) => (CODE_DIRS.some((d) => f.startsWith(d)) || f === 'serverless.yml' || f === 'package.json') && f !== THIS_FILE,
);
const codeText = new Map(
  codeFiles.filter((f) => !/\.(jpg|png|webp|avif|gz|mkv|mp4)$/.test(f)).map((f) => [f, readFileSync(join(PROJECT_DIR, f), 'utf8')]),
);
const words = new Set([...codeText.values()].flatMap((text) => text.match(/[A-Za-z_$][\w$]*/g) ?? []));
const scripts = Object.keys((JSON.parse(readFileSync(join(PROJECT_DIR, 'package.json'), 'utf8')) as { scripts: object }).scripts);

/** A path with placeholders (<key>, {id}, *) as a pattern over the repository's paths. */
const pathPattern = (path: string) =>
  new RegExp(
    `^${path
      .replace(/\/$/, '')
      .split(/(<[^>]+>|\{[^}]+\}|\*)/)
      .map((part, i) => (i % 2 ? '[^/]+' : part.replace(/[.+?^$()[\]\\|]/g, '\\$&')))
      .join('')}$`,
  );
/** Whether .gitignore names the path (or the folder it would be): something made at run time. */
const ignored = (path: string) => {
  const concrete = path.replace(/<[^>]+>|\{[^}]+\}|\*/g, 'x').replace(/\/$/, '');
  try {
    git('check-ignore', '--no-index', '--', concrete, `${concrete}/`);
    return true;
  } catch {
    return false;
  }
};

/** Why a path is not there, or undefined when it is (or is made at run time). */
const checkPath = (raw: string): string | undefined => {
  if (raw.startsWith('../')) return `${raw} is outside the repository`;
  const rooted = raw.startsWith('./');
  const path = raw.replace(/^\.\//, '');
  if (!path.includes('/') && !rooted) return files.some((f) => basename(f) === path) ? undefined : `no file named ${path}`;
  if (!topLevel.has(path.split('/')[0]!) && !ignored(path)) return undefined; // not a path of the repository: a media layout, a relative name
  const pattern = pathPattern(path);
  if (files.some((f) => pattern.test(f)) || [...dirs].some((d) => pattern.test(d))) return undefined;
  return ignored(path) ? undefined : `no such path ${path}`;
};

/** The files declaring a type or value of that name. */
const declaring = (name: string) =>
  [...codeText]
    .filter(([, text]) => new RegExp(`\\b(class|interface|type|const|function|enum)\\s+${name.replace(/\$/g, '\\$')}\\b`).test(text))
    .map(([f]) => f);

const checkSymbol = (symbol: string): string | undefined => {
  const chain = symbol
    .replace(/^new\s+/, '')
    .replace(/\(\)$/, '')
    .split('.');
  const missing = chain.filter((part) => !words.has(part));
  if (missing.length) return `${missing.join(', ')} is not a name in the code`;
  const [owner, member] = chain;
  if (member && /^[A-Z]/.test(owner!)) {
    const where = declaring(owner!);
    if (!where.length) return `nothing declares ${owner}`;
    if (!where.some((f) => new RegExp(`\\b${member.replace(/\$/g, '\\$')}\\b`).test(codeText.get(f)!)))
      return `${member} is not in ${where.join(', ')}, where ${owner} is declared`;
  }
  return undefined;
};

const checkRoute = (method: string | undefined, raw: string): string | undefined => {
  const path = raw.split('?')[0]!.replace(/<[^>]+>|\{[^}]+\}/g, 'x');
  const routes = method ? [matchRoute(method, path)] : ['GET', 'POST'].map((m) => matchRoute(m, path));
  if (routes.some((r) => r.kind === 'found')) return undefined;
  if (!method && routes.some((r) => r.kind !== 'none')) return undefined;
  // A prefix of routes, such as /api/v1.
  if (!method && allOperations.some((o) => o.path.startsWith(`${path}/`))) return undefined;
  return `no operation answers ${method ?? ''} ${raw}`.replace('  ', ' ');
};

const checkProblem = (code: string) => (code in PROBLEMS ? undefined : `no problem code ${code} in lib/errors.ts`);

/** What is wrong with what a code span names, or undefined. */
const checkSpan = (span: string): string | undefined => {
  const text = span.replace(/\s+/g, ' ').trim();
  const [first, ...rest] = text.split(' ');
  if (COMMANDS.has(first!)) {
    const script = first === 'npm' && (rest[0] === 'run' ? rest[1] : ['test', 'start'].includes(rest[0]!) ? rest[0] : undefined);
    if (script && !scripts.includes(script)) return `no npm script ${script}`;
    const pathish = rest.filter((t) => CODE_EXTENSION.test(t) || (t.includes('/') && topLevel.has(t.split('/')[0]!)));
    return pathish.map(checkPath).find(Boolean);
  }
  if (HTTP_METHOD.test(first!) && rest.length === 1 && rest[0]!.startsWith('/api/')) return checkRoute(first, rest[0]!);
  if (/^\/api\/\S*$/.test(text)) return checkRoute(undefined, text);
  const problem = /\/problems\/([a-z]+(?:-[a-z]+)*)\b/.exec(text) ?? /^\d{3} ([a-z]+(?:-[a-z]+)+)$/.exec(text);
  if (problem) return checkProblem(problem[1]!);
  if (/^[a-z]+:[a-z]+$/.test(text)) return text in WsEvents ? undefined : `no WebSocket event ${text}`;
  const env = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=\S*|\/\S*)?$/.exec(text);
  if (env) return words.has(env[1]!) ? undefined : `the code reads no ${env[1]}`;
  if (/\s/.test(text) || text.includes('://') || MEDIA_FILE.test(text)) return undefined;
  if (CODE_EXTENSION.test(text) || (text.includes('/') && !text.startsWith('/')) || text.startsWith('./')) return checkPath(text);
  const symbol = /^(new )?[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(\))?$/.test(text);
  const codeLike =
    /[a-z][A-Z]/.test(text) || /^(new )?[A-Z][a-z0-9]+[A-Z]/.test(text) || text.endsWith('()') || /(^|\.)[A-Z][\w$]*\./.test(text);
  if (symbol && codeLike) return checkSymbol(text);
  return undefined;
};

interface Named {
  doc: string;
  line: number;
  what: string;
  problem: string;
}

const readDoc = (doc: string) => {
  const skip = SKIPPED[doc];
  const text = readFileSync(join(PROJECT_DIR, doc), 'utf8');
  if (skip === 'all') return '';
  // Fenced blocks are examples, not names; blanked so that line numbers stay right.
  const unfenced = text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ''));
  return skip ? unfenced.replace(skip, (part) => part.replace(/[^\n]/g, '')) : unfenced;
};

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

const problems = (): Named[] =>
  docs.flatMap((doc) => {
    const text = readDoc(doc);
    const found: Named[] = [];
    for (const m of text.matchAll(/(`+)([\s\S]+?)\1/g)) {
      const problem = checkSpan(m[2]!);
      if (problem) found.push({ doc, line: lineOf(text, m.index), what: `\`${m[2]}\``, problem });
    }
    const withoutCode = text.replace(/(`+)[\s\S]+?\1/g, (span) => span.replace(/[^\n]/g, ' '));
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.split('#')[0]!;
      if (!target || /^[a-z]+:/.test(target)) continue;
      const path = normalize(join(dirname(doc), target));
      if (!files.includes(path) && !dirs.has(path.replace(/\/$/, '')))
        found.push({ doc, line: lineOf(withoutCode, m.index), what: `link ${m[1]}`, problem: `no file ${path}` });
    }
    return found;
  });

describe('what the README and docs/*.md name', () => {
  it('reads every doc but the skipped ones', () => {
    assert.ok(docs.includes('README.md') && docs.includes('docs/api.md'), docs.join(', '));
  });

  it('exists: each path, command, route, problem, event, env variable and symbol in backticks, and each relative link', () => {
    const found = problems().map((p) => `${p.doc}:${p.line} ${p.what}: ${p.problem}`);
    assert.deepEqual(found, []);
  });

  it('tells a drifted name from a current one (the checks can fail)', () => {
    assert.match(checkSpan('DynamoWatchStore.profileStates') ?? '', /profileStates/);
    assert.equal(checkSpan('DynamoWatchStore.titleStates'), undefined);
    assert.match(checkSpan('lib/api/no-such-file.ts') ?? '', /no such path/);
    assert.match(checkSpan('npm run no-such-script') ?? '', /no npm script/);
    assert.match(checkSpan('../shared/api-contract.md') ?? '', /outside the repository/);
    assert.match(checkSpan('GET /api/v1/no-such-route') ?? '', /no operation/);
    assert.match(checkSpan('501 /problems/not-implemented') ?? '', /no problem code/);
    assert.match(checkSpan('NO_SUCH_SETTING') ?? '', /reads no/);
    assert.match(checkSpan('scan:paused') ?? '', /no WebSocket event/);
    assert.equal(checkSpan('.build/<key>/handlers.cjs'), undefined, 'made at run time (.gitignore)');
    assert.equal(checkSpan('functions/<domain>/<operation>.ts'), undefined);
  });
});
