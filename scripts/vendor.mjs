// Vendor assets of the page, served from dist/vendor/ so that the page makes no request to another
// origin: Observable Plot (from web/vendor-entry.js) as vendor.js, KaTeX as katex.js (loaded only
// for formulas not typeset at build time), and KaTeX's stylesheet with its fonts.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { build } from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const bundleOptions = {
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  legalComments: 'eof',
  logLevel: 'warning',
};

/**
 * Writes dist/vendor/vendor.js, dist/vendor/katex.js, dist/vendor/katex/katex.min.css and
 * dist/vendor/katex/fonts/. Resolves to the npm packages bundled (for the licence notices).
 */
export async function buildVendor(distDir) {
  const vendorDir = path.join(distDir, 'vendor');
  mkdirSync(vendorDir, { recursive: true });
  const plot = await build({
    ...bundleOptions,
    metafile: true,
    entryPoints: [path.join(repoRoot, 'web', 'vendor-entry.js')],
    outfile: path.join(vendorDir, 'vendor.js'),
  });
  const katex = await build({
    ...bundleOptions,
    metafile: true,
    outfile: path.join(vendorDir, 'katex.js'),
    stdin: { contents: "export { render } from 'katex';", resolveDir: repoRoot, loader: 'js' },
  });
  const katexDist = path.dirname(require.resolve('katex/dist/katex.min.css'));
  const katexOut = path.join(vendorDir, 'katex');
  mkdirSync(katexOut, { recursive: true });
  // KaTeX's fonts say font-display: block, which hides the formulas of the first results (up to 3 s)
  // until the fonts arrive; swap shows them at once in a fallback font.
  const css = readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8');
  if (!css.includes('font-display:block')) throw new Error('katex.min.css: no font-display:block to replace');
  writeFileSync(path.join(katexOut, 'katex.min.css'), css.replaceAll('font-display:block', 'font-display:swap'));
  cpSync(path.join(katexDist, 'fonts'), path.join(katexOut, 'fonts'), { recursive: true });
  return [plot, katex].flatMap((result) => Object.keys(result.metafile.inputs));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildVendor(path.resolve(process.argv[2] ?? path.join(repoRoot, 'dist')));
}
