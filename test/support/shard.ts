// One process that runs several test files (test/run.ts's unit tier): node's test runner gives
// each file a process of its own, and a node and tsx start per file cost more than most unit
// files take. Files here share the module cache and the root test, so a file keeps its hooks
// inside its describe blocks (at the top level they would run around every other file's tests)
// and leaves no global state behind.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const files = process.argv.slice(2).map((file) => resolve(file));
const hooked = files.filter((file) => /^(before|after|beforeEach|afterEach)\(/mu.test(readFileSync(file, 'utf8')));
if (hooked.length) {
  process.stderr.write(`Hooks at the top level of a file that shares a process; move them into its describe: ${hooked.join(', ')}\n`);
  process.exit(1);
}
for (const file of files) await import(pathToFileURL(file).href);
