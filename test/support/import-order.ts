// Reads the imports of lib/ and functions/ (type imports included) and says which break the
// house's order: a folder of lib/ imports only folders on lines above its own in the README's
// list, lib/ imports nothing outside it but package.json, and functions/ import lib/ and
// functions/ only. Used by test/build/import-order.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface Import {
  /** Project-relative path of the importing file. */
  from: string;
  line: number;
  /** Project-relative path of the imported file. */
  to: string;
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|tsx|mts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );

const CANDIDATES = ['', '.ts', '.tsx', '.d.ts', '.mts', '.mjs', '.json', '/index.ts', '/index.tsx'];

const resolveSpecifier = (fromFile: string, spec: string): string => {
  const base = resolve(dirname(fromFile), spec);
  for (const ext of CANDIDATES) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return base;
};

/** Every relative import of a source text: static, type-only, re-exports and dynamic `import()`. */
export const importsIn = (projectDir: string, file: string, text: string): Import[] => {
  const lineOf = (pos: number) => text.slice(0, pos).split('\n').length;
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((ref) => ref.fileName.startsWith('.'))
    .map((ref) => ({
      from: relative(projectDir, file),
      line: lineOf(ref.pos),
      to: relative(projectDir, resolveSpecifier(file, ref.fileName)),
    }));
};

export const projectImports = (projectDir: string, dirs: readonly string[]): Import[] =>
  dirs.flatMap((dir) => sourceFiles(join(projectDir, dir))).flatMap((file) => importsIn(projectDir, file, readFileSync(file, 'utf8')));

/**
 * The order as the README writes it: the fenced block under "The order of lib/", a line per
 * layer, lowest first, the folders (or top-level modules, without `.ts`) of a layer separated
 * by spaces; `#` starts a comment.
 */
export const readOrder = (readme: string): string[][] => {
  const block = /^#+ The order of lib\/[^\n]*\n(?:(?!```)[^\n]*\n)*?```[^\n]*\n([\s\S]*?)```/m.exec(readme)?.[1];
  if (!block) throw new Error('The README has no fenced list under a heading "The order of lib/"');
  return block
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/));
};

/** `lib/scan/phases/plan.ts` -> `scan`; `lib/config.ts` -> `config`; outside lib/, null. */
export const unitOf = (path: string): string | null => {
  const parts = path.split('/');
  if (parts[0] !== 'lib' || parts.length < 2) return null;
  return parts.length === 2 ? parts[1]!.replace(/\.(ts|tsx|json)$/, '') : parts[1]!;
};

const topFolder = (path: string) => path.split('/')[0]!;
const at = (i: Import) => `${i.from}:${i.line}`;

/** One sentence per import that breaks the order, naming the file and line. */
export const orderViolations = (imports: readonly Import[], order: readonly string[][]): string[] => {
  const layer = new Map(order.flatMap((units, i) => units.map((u) => [u, i] as const)));
  const problems: string[] = [];
  const unlisted = new Set<string>();
  for (const i of imports) {
    const fromTop = topFolder(i.from);
    const toTop = topFolder(i.to);
    if (fromTop === 'functions') {
      if (toTop !== 'lib' && toTop !== 'functions') problems.push(`${at(i)} imports ${i.to}: functions/ import only lib/ and functions/`);
      continue;
    }
    if (toTop !== 'lib') {
      if (i.to !== 'package.json') problems.push(`${at(i)} imports ${i.to}: lib/ imports nothing outside lib/ (but package.json)`);
      continue;
    }
    const from = unitOf(i.from)!;
    const to = unitOf(i.to)!;
    if (from === to) continue;
    for (const unit of [from, to]) if (!layer.has(unit)) unlisted.add(unit);
    const [a, b] = [layer.get(from), layer.get(to)];
    if (a === undefined || b === undefined) continue;
    if (b > a) problems.push(`${at(i)} imports ${i.to}: lib/${to} sits above lib/${from} in the README's order`);
    else if (b === a)
      problems.push(`${at(i)} imports ${i.to}: lib/${from} and lib/${to} share a line of the README's order, so neither imports the other`);
  }
  for (const unit of unlisted) problems.push(`lib/${unit} is not in the README's order of lib/`);
  return problems;
};

/** The import cycles among the folders of lib/ (each as the imports that close it), whatever the order says. */
export const folderCycles = (imports: readonly Import[]): string[] => {
  const edges = new Map<string, Map<string, Import>>();
  for (const i of imports) {
    const [from, to] = [unitOf(i.from), unitOf(i.to)];
    if (!from || !to || from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, i);
  }
  // Tarjan's strongly connected components: every component of two or more folders is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => {
    const inside = new Set(component);
    const closing = component.flatMap((v) =>
      [...(edges.get(v) ?? [])].filter(([w]) => inside.has(w)).map(([, i]) => `${at(i)} -> ${i.to}`),
    );
    return `lib/ folders ${component.join(', ')} import each other: ${closing.join('; ')}`;
  });
};
