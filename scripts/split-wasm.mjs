// Splits the wasm module for the page (Binaryen's wasm-split, guided by a profile):
//   dist/dpcalc-first.wasm  the functions the page's first answers run (scripts/first-answers.mjs),
//                           all data, and a placeholder for every other function;
//   dist/dpcalc-rest.wasm   every other function, linked into a running first part by web/dpcalc.js
//                           (createCalculator's deferredModule), which fills the placeholders.
// The profile comes from running those requests through the instrumented module that the link writes
// beside the plain one (wasm/wasm.cmake, SPLIT_MODULE). dist/dpcalc.wasm stays the whole module, for
// the JS API in Node, the npm package and the offline file.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { firstAnswerRequests } from './first-answers.mjs';

// The features the module uses beyond the MVP (-msimd128; Emscripten's mutable stack pointer).
const kFeatures = ['--enable-simd', '--enable-mutable-globals'];

/** Runs `requests` (and schema()) through the instrumented module; returns wasm-split's profile. */
async function profileOf(instrumented, glueFile, requests) {
  const { default: createModule } = await import(pathToFileURL(glueFile).href);
  const module = await createModule({ wasmBinary: instrumented, printErr: () => {} });
  module.schema();
  for (const request of requests) {
    const response = module.compute(request);
    if (!response.ok) throw new Error(`first-answer request ${JSON.stringify(request)}: ${response.error.message}`);
  }
  const capacity = 1 << 20;
  const address = module._malloc(capacity);
  const length = module.asm.__write_profile(address, capacity);
  return module.HEAPU8.slice(address, address + length);
}

/** Writes dist/dpcalc-first.wasm and dist/dpcalc-rest.wasm from the link's outputs in `wasmDir`. */
export async function splitWasm(wasmDir, distDir) {
  const instrumented = readFileSync(path.join(wasmDir, 'dpcalc-module.wasm'));
  const profile = await profileOf(instrumented, path.join(distDir, 'dpcalc-module.js'), firstAnswerRequests);
  const profileFile = path.join(wasmDir, 'first-answers.profile');
  writeFileSync(profileFile, profile);
  execFileSync(
    'wasm-split',
    [
      ...kFeatures,
      `--profile=${profileFile}`,
      path.join(wasmDir, 'dpcalc-module.wasm.orig'),
      '-o1',
      path.join(distDir, 'dpcalc-first.wasm'),
      '-o2',
      path.join(distDir, 'dpcalc-rest.wasm'),
    ],
    { stdio: 'inherit' },
  );
}
