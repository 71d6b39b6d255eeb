// A second reporter for node's test runner (test/run.ts adds it beside `spec`): one JSON line
// at the end with each file's time and the run's counts, so the runner can order the next
// run's files longest first and print one total for its tiers.
export default async function* tally(source) {
  const files = {};
  const counts = { tests: 0, pass: 0, fail: 0, todo: 0, skip: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    // A file's top-level tests run one after another, so their sum is the file's time.
    if (data.nesting === 0 && data.file) files[data.file] = (files[data.file] ?? 0) + data.details.duration_ms;
    if (data.details.type === 'suite') continue;
    counts.tests += 1;
    if (data.todo) counts.todo += 1;
    else if (data.skip) counts.skip += 1;
    else if (event.type === 'test:pass') counts.pass += 1;
    else counts.fail += 1;
  }
  yield `${JSON.stringify({ files, counts })}\n`;
}
