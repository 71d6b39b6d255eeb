// The house's order of lib/, written once in the README, holds for every import of lib/ and
// functions/ (type imports included), and no folders of lib/ import each other.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { folderCycles, importsIn, orderViolations, projectImports, readOrder } from '../support/import-order';

const PROJECT_DIR = fileURLToPath(new URL('../..', import.meta.url));
const order = readOrder(readFileSync(join(PROJECT_DIR, 'README.md'), 'utf8'));
const imports = projectImports(PROJECT_DIR, ['lib', 'functions']);

describe('the order of lib/', () => {
  it('is broken by no import of lib/ or functions/', () => {
    assert.deepEqual(orderViolations(imports, order), []);
  });

  it('leaves no import cycle among the folders of lib/', () => {
    assert.deepEqual(folderCycles(imports), []);
  });

  it('names the file and line of an import that points up the order, or closes a cycle', () => {
    // Prepare: the catalogue importing the scan, which sits above it and imports it.
    const file = join(PROJECT_DIR, 'lib/catalog/store.ts');
    const text = `// a comment\nimport type { ScanJob } from '../scan/job';\n${readFileSync(file, 'utf8')}`;
    const added = importsIn(PROJECT_DIR, file, text).filter((i) => i.line === 2);
    // Act
    const violations = orderViolations([...imports, ...added], order);
    const cycles = folderCycles([...imports, ...added]);
    // Assess
    assert.deepEqual(violations, ["lib/catalog/store.ts:2 imports lib/scan/job.ts: lib/scan sits above lib/catalog in the README's order"]);
    assert.equal(cycles.length, 1);
    assert.match(
      cycles[0]!,
      /^lib\/ folders catalog, (\w+, )*scan(, \w+)* import each other: .*lib\/catalog\/store\.ts:2 -> lib\/scan\/job\.ts/,
    );
  });

  it('refuses an import from outside lib/, and a folder the order does not list', () => {
    const file = join(PROJECT_DIR, 'lib/db/table.ts');
    const added = importsIn(PROJECT_DIR, file, `import x from '../../bench/run';\nimport y from '../newfolder/thing';\n`);
    assert.deepEqual(orderViolations(added, order), [
      'lib/db/table.ts:1 imports bench/run.ts: lib/ imports nothing outside lib/ (but package.json)',
      "lib/newfolder is not in the README's order of lib/",
    ]);
  });
});
