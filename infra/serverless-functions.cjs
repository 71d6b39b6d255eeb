// serverless.yml's `functions:` (`${file(./infra/serverless-functions.cjs)}`): the table
// infra/functions.ts computes from the operation registry, for the stage being resolved. The
// framework loads plain JavaScript only. Under the home runner (HANDLERS_DIR set) the table's
// bundle is among the prebuilt ones (infra/build.mjs); elsewhere (package, invoke, print) the
// TypeScript is bundled in memory, and esbuild stopped afterwards.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const PROJECT_DIR = join(__dirname, '..');

const bundleNow = async () => {
  const esbuild = require('esbuild');
  try {
    const out = esbuild.buildSync({
      entryPoints: [join(__dirname, 'functions.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'warning',
    });
    return out.outputFiles[0].text;
  } finally {
    await esbuild.stop();
  }
};

/** Runs a CommonJS bundle without keeping it in require's cache: the registry is needed once. */
const evaluate = (code) => {
  const module = { exports: {} };
  new Function('module', 'exports', 'require', '__filename', '__dirname', code)(module, module.exports, require, __filename, __dirname);
  return module.exports;
};

module.exports = async ({ resolveVariable }) => {
  const stage = await resolveVariable('sls:stage');
  const prebuilt = process.env.HANDLERS_DIR;
  const code = prebuilt ? readFileSync(join(PROJECT_DIR, prebuilt, 'infra', 'functions.cjs'), 'utf8') : await bundleNow();
  return evaluate(code).serverlessFunctions(stage);
};
