// The sizes of the calculator's files in built folders (raw, gzip -9, brotli quality 11 as
// scripts/compress.mjs writes them), and two sums: the calculator itself (the first part of the wasm, glue, JS API, client)
// and everything the page loads before its first answer (those, its first script, its bundle with the
// chunks it imports, and its two style sheets: measured in headless Chromium with tests/bench/cold_load.mjs; the worker, Plot,
// KaTeX and its fonts come after it).
//   node scripts/asset-sizes.mjs [folder …]   (default dist/)
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The page's calculator up to its first answers: the first part of the split wasm module
// (scripts/split-wasm.mjs), with the rest fetched after them.
const kCalculator = ['dpcalc-first.wasm', 'dpcalc-module.js', 'dpcalc.js', 'client.js', 'lanes.js', 'assets.js'];
const kFirstAnswer = [
  ...kCalculator,
  'boot.js',
  'index.html',
  'app/main.js',
  'styles.css',
  'vendor/katex/katex.min.css',
];
const kOthers = ['dpcalc-rest.wasm', 'dpcalc.wasm', 'worker.js', 'vendor/vendor.js', 'vendor/katex.js'];

/** The chunks the page bundle imports statically (scripts/bundle.mjs), which load with it. */
function bundleChunks(folder) {
  const main = path.join(folder, 'app', 'main.js');
  if (!existsSync(main)) return [];
  const code = readFileSync(main, 'utf8');
  return [...new Set([...code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+)"/g)].map(([, file]) => `app/${file}`))];
}

/** { file: { raw, gzip, brotli } } of the files of `folder` that exist. */
export function assetSizes(folder) {
  const sizes = {};
  for (const file of [...new Set([...kFirstAnswer, ...bundleChunks(folder), ...kOthers])]) {
    const full = path.join(folder, file);
    if (!existsSync(full)) continue;
    const bytes = readFileSync(full);
    sizes[file] = {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }).length,
    };
  }
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  if (folders.length === 0) folders.push('dist');
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const folder of folders) {
    const sizes = assetSizes(folder);
    const sum = (files) =>
      files.reduce(
        (total, file) => {
          for (const key of ['raw', 'gzip', 'brotli']) total[key] += sizes[file]?.[key] ?? 0;
          return total;
        },
        { raw: 0, gzip: 0, brotli: 0 },
      );
    const rows = Object.entries(sizes).map(([file, size]) => [file, size]);
    rows.push(['calculator (wasm, glue, JS API, client)', sum(kCalculator)]);
    rows.push([
      'first answer of the page (calculator, boot.js, index.html, app/main.js and its chunks, style sheets)',
      sum([...kFirstAnswer, ...bundleChunks(folder)]),
    ]);
    console.log(`\n| ${folder} | raw | gzip | brotli |\n|---|---:|---:|---:|`);
    for (const [file, { raw, gzip, brotli }] of rows)
      console.log(`| ${file} | ${kb(raw)} | ${kb(gzip)} | ${kb(brotli)} |`);
  }
}
