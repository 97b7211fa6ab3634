// Offline use, written into dist/ after the page is bundled:
// - dist/dpcalc-offline.html: the whole page in one file that works when opened from disk (file://).
//   Stylesheets, fonts (woff2 only), the icon, the page bundle, KaTeX, Plot, the worker and the wasm
//   are inlined; its Content-Security-Policy allows exactly those inline scripts and styles (by hash),
//   data: fonts and images, and blob: workers. The worker runs from a blob: URL as a classic script
//   (browsers do not start module workers for file:// pages); where even that fails, the client runs
//   the calculator in the page and says so.
// - dist/sw.js: the service worker, given the list of the page's files and a version from their hash.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { filesUnder } from './compress.mjs';

const sha256 = (text) => createHash('sha256').update(text).digest('base64');
const dataUrl = (type, bytes) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

async function bundleText(options) {
  const result = await build({
    bundle: true,
    minify: true,
    target: 'es2020',
    write: false,
    logLevel: 'error',
    legalComments: 'inline',
    external: ['node:*'],
    ...options,
  });
  return result.outputFiles[0].text;
}

// The worker as a classic script (an IIFE), to be started from a blob: URL.
function workerSource(distDir) {
  return bundleText({
    entryPoints: [path.join(distDir, 'worker.js')],
    format: 'iife',
    // The glue reads import.meta.url only to find files it is not asked to fetch here.
    define: { 'import.meta.url': '""' },
  });
}

// web/assets.js for a page without files: the two parts of the wasm module and the worker carried inline.
function inlineAssets(wasmParts, worker) {
  const base64 = Object.fromEntries(Object.entries(wasmParts).map(([part, bytes]) => [part, bytes.toString('base64')]));
  return `
const wasmBase64 = ${JSON.stringify(base64)};
const workerCode = ${JSON.stringify(worker)};
export const fetchWasm = async (part) => new Response(Uint8Array.from(atob(wasmBase64[part]), (c) => c.charCodeAt(0)),
  { headers: { 'content-type': 'application/wasm' } });
export const splitWasm = true;
export const startedWasm = () => null;
export const workerScript = () => ({ url: URL.createObjectURL(new Blob([workerCode], { type: 'text/javascript' })), type: 'classic' });
`;
}

async function pageSource(distDir) {
  const worker = await workerSource(distDir);
  const wasm = Object.fromEntries(
    ['first', 'rest'].map((part) => [part, readFileSync(path.join(distDir, `dpcalc-${part}.wasm`))]),
  );
  const swapAssets = {
    name: 'inline-assets',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\/assets\.js$/ }, () => ({ path: 'assets.js', namespace: 'inline-assets' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'inline-assets' }, () => ({
        contents: inlineAssets(wasm, worker),
        loader: 'js',
        resolveDir: distDir,
      }));
    },
  };
  const code = await bundleText({
    entryPoints: [path.join(distDir, 'app', 'main.js')],
    format: 'esm',
    plugins: [swapAssets],
    define: { 'import.meta.url': '""' },
  });
  // Inside an inline <script>, "</script" would end it; "<\/script" means the same to JavaScript.
  return code.replaceAll('</script', '<\\/script');
}

// A stylesheet with its url(…) references inlined (woff2 fonts; the older formats are dropped).
function inlineStylesheet(file) {
  const css = readFileSync(file, 'utf8').replace(/,\s*url\([^)]*\.(woff|ttf)\)\s*format\("(woff|truetype)"\)/g, '');
  return css.replace(
    /url\(([^)]+\.woff2)\)/g,
    (match, relative) => `url(${dataUrl('font/woff2', readFileSync(path.resolve(path.dirname(file), relative)))})`,
  );
}

async function writeOfflinePage(distDir) {
  let html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const styles = [];
  html = html
    .replace(/\s*<link rel="(modulepreload|preload)"[^>]*>/g, '')
    .replace(/\s*<script src="boot\.js"( defer)?><\/script>/, '')
    .replace(/<link rel="stylesheet" href="([^"]+)"\s*\/?>/g, (match, href) => {
      const css = inlineStylesheet(path.join(distDir, href));
      styles.push(sha256(css));
      return `<style>${css}</style>`;
    })
    .replace(
      /<link rel="icon" href="([^"]+)" type="([^"]+)"\s*\/?>/,
      (match, href, type) =>
        `<link rel="icon" href="${dataUrl(type, readFileSync(path.join(distDir, href)))}" type="${type}">`,
    );
  const script = await pageSource(distDir);
  const entry = '<script type="module" src="app/main.js"></script>';
  if (!html.includes(entry)) throw new Error(`dist/index.html: no ${entry} to inline`);
  html = html.replace(entry, () => `<script type="module">${script}</script>`);
  const policy = [
    `default-src 'none'`,
    `script-src 'sha256-${sha256(script)}' 'wasm-unsafe-eval'`,
    `style-src ${styles.map((hash) => `'sha256-${hash}'`).join(' ')}`,
    'font-src data:',
    'img-src data:',
    'worker-src blob:',
  ].join('; ');
  const meta = /<meta http-equiv="Content-Security-Policy" content="[^"]*"\s*\/?>/;
  if (!meta.test(html)) throw new Error('dist/index.html: no Content-Security-Policy meta tag');
  html = html
    .replace(meta, () => `<meta http-equiv="Content-Security-Policy" content="${policy}">`)
    .replace(
      '<head>',
      '<head>\n  <!-- dpcalc (Apache-2.0), offline single-file build; bundled third-party code keeps its licence ' +
        'comments, and THIRD_PARTY_NOTICES.md of the dpcalc package lists them in full. -->',
    );
  writeFileSync(path.join(distDir, 'dpcalc-offline.html'), html);
}

// Everything the page may load, relative to dist/: not the compressed twins, the package files, the
// offline page, the embedding element or the whole wasm module (the page loads its two parts).
function pageFiles(distDir) {
  const skipped =
    /(\.(br|gz|d\.ts|ttf|woff)$)|^(package\.json|LICENSE|THIRD_PARTY_NOTICES\.md|dpcalc-offline\.html|sw\.js|dp-calculator\.js|cli\.js|dpcalc\.wasm)$/;
  return filesUnder(distDir)
    .map((file) => path.relative(distDir, file).split(path.sep).join('/'))
    .filter((file) => !skipped.test(file))
    .sort();
}

function writeServiceWorker(distDir) {
  const files = pageFiles(distDir);
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(path.join(distDir, file)));
  const precache = ['./', ...files.filter((file) => file !== 'index.html')];
  const file = path.join(distDir, 'sw.js');
  const source = readFileSync(file, 'utf8');
  const filled = source
    .replace("const kVersion = 'dev';", `const kVersion = '${hash.digest('hex').slice(0, 16)}';`)
    .replace("const kPrecache = ['./'];", `const kPrecache = ${JSON.stringify(precache)};`);
  if (filled === source || !filled.includes('kPrecache = [".'))
    throw new Error('dist/sw.js: its version and file list could not be written in');
  writeFileSync(file, filled);
}

export async function buildOffline(distDir) {
  writeServiceWorker(distDir);
  await writeOfflinePage(distDir);
}
