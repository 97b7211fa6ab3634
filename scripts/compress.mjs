// Precompressed copies of dist/'s text and wasm files (name.br, name.gz) for the static server to
// send to browsers that accept them; a copy is kept only where it is smaller.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import path from 'node:path';

const kCompressible = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.svg', '.json', '.md', '.txt', '.ts', '.ttf']);

export function filesUnder(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

// dpcalc-offline.html is for saving and opening from disk, not for serving.
export function precompress(distDir) {
  for (const file of filesUnder(distDir)) {
    if (!kCompressible.has(path.extname(file)) || path.basename(file) === 'dpcalc-offline.html') continue;
    const bytes = readFileSync(file);
    const brotli = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    if (brotli.length < bytes.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < bytes.length) writeFileSync(`${file}.gz`, gzip);
  }
}
