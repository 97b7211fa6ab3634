// Bundles the page and the worker inside dist/ (in place, after the copy of web/), so that each
// loads as one file instead of a cascade of module requests:
//   dist/app/main.js  the page's modules; files outside dist/app/ (the client, the vendor bundles,
//                     the typeset formulas) stay separate modules that it imports;
//   dist/worker.js    the worker with the JS API and the Emscripten glue;
//   dist/dp-calculator.js  the <dp-calculator> element with the client (the JS API and its glue
//                     stay the separate module dpcalc.js, which the npm package exports too);
//   dist/dpcalc-client.js  the client as the npm package exports it ('dpcalc/client'): like the
//                     element's, on the whole dpcalc.wasm of the JS API, so that an app using the
//                     API, the client and the element downloads one wasm file;
//   dist/cli.js       the command line (the package's bin) with the answer texts it shares with
//                     the element, importing the JS API dpcalc.js;
//   dist/dpcalc-module.js  the Emscripten glue, minified in place.
// dist/index.html then asks for the page's other modules and for dpcalc-first.wasm at once (preload
// links), rather than when the bundle reaches them.
import { chmodSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const options = {
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  allowOverwrite: true,
  logLevel: 'warning',
  external: ['node:*'],
  legalComments: 'eof',
};

// Keeps every import that leaves `folder` a separate module.
function keepOutside(folder) {
  return {
    name: 'keep-outside',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\.?\// }, (args) => {
        const target = path.resolve(args.resolveDir, args.path);
        if (target.startsWith(folder + path.sep)) return undefined;
        return { path: args.path, external: true };
      });
    },
  };
}

// The modules the page bundle imports (statically) and the modules those import, statically or
// dynamically (client.js imports assets.js and the JS API), as preload links.
function preloadLinks(distDir, metafile) {
  const appDir = path.join(distDir, 'app');
  const fromDist = (file) => path.relative(distDir, file).split(path.sep).join('/');
  // An output's static imports: the bundle's chunks (named from the working directory), with theirs,
  // and the modules outside the bundle (named relative to dist/app/, where every output lies).
  const staticImports = (output) =>
    metafile.outputs[output].imports
      .filter((entry) => entry.kind === 'import-statement')
      .flatMap((entry) =>
        entry.external
          ? [fromDist(path.resolve(appDir, entry.path))]
          : [fromDist(path.resolve(entry.path)), ...staticImports(entry.path)],
      );
  const pending = staticImports(Object.keys(metafile.outputs).find((file) => file.endsWith('app/main.js')));
  const modules = new Set();
  for (let href; (href = pending.shift()) !== undefined;) {
    if (modules.has(href)) continue;
    modules.add(href);
    const source = readFileSync(path.join(distDir, href), 'utf8');
    for (const [, imported, loaded] of source.matchAll(/^import [^'"]*from '(\.[^']+)';$|\bimport\('(\.[^']+)'\)/gm)) {
      pending.push(path.posix.join(path.posix.dirname(href), imported ?? loaded));
    }
  }
  return [...modules].map((href) => `<link rel="modulepreload" href="${href}">`);
}

function keepApart(pattern) {
  return {
    name: 'keep-apart',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: pattern }, (args) => ({ path: args.path, external: true }));
    },
  };
}

export async function bundlePage(distDir) {
  const appDir = path.join(distDir, 'app');
  // Emscripten's glue keeps its local names at -O2; minified it is 8.3 KB with brotli instead of 10.8,
  // and the page's first answer waits for it (dpcalc.js imports it).
  const glue = path.join(distDir, 'dpcalc-module.js');
  await build({ ...options, bundle: false, external: undefined, entryPoints: [glue], outfile: glue });
  // The glue's own way to find its wasm (dpcalc-module.wasm, a file that does not exist) runs only
  // without locateFile, which dpcalc.js always gives: dropped, so that a bundler building an app
  // (Vite) finds no reference to a missing file.
  const glueText = readFileSync(glue, 'utf8');
  const ownWasm = 'new URL("dpcalc-module.wasm",import.meta.url).toString()';
  if (glueText.split(ownWasm).length !== 2) throw new Error(`dist/dpcalc-module.js: expected one ${ownWasm}`);
  writeFileSync(glue, glueText.replace(ownWasm, '"dpcalc-module.wasm"'));
  // Before the page bundle, which removes the app modules the element shares.
  // Its client takes the whole module from the JS API (web/embed/assets.js for web/assets.js).
  const elementAssets = {
    name: 'element-assets',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\/assets\.js$/ }, (args) =>
        path.resolve(args.resolveDir) === distDir ? { path: path.join(distDir, 'embed', 'assets.js') } : undefined,
      );
    },
  };
  await build({
    ...options,
    entryPoints: [path.join(distDir, 'embed', 'dp-calculator.js')],
    outfile: path.join(distDir, 'dp-calculator.js'),
    plugins: [keepApart(/\/dpcalc\.js$/), elementAssets],
  });
  await build({
    ...options,
    entryPoints: [path.join(distDir, 'client.js')],
    outfile: path.join(distDir, 'dpcalc-client.js'),
    plugins: [keepApart(/\/dpcalc\.js$/), elementAssets],
  });
  copyFileSync(path.join(distDir, 'embed', 'dp-calculator.d.ts'), path.join(distDir, 'dp-calculator.d.ts'));
  // The command line (the package's bin) with the answer texts it shares with the element; the JS
  // API stays the module beside it. Node 20 runs it (its top-level await).
  const cli = path.join(distDir, 'cli.js');
  await build({
    ...options,
    target: 'node20',
    entryPoints: [cli],
    outfile: cli,
    plugins: [keepApart(/\/dpcalc\.js$/)],
  });
  chmodSync(cli, 0o755); // run as a command (`npx dpcalc`, or ./cli.js)
  rmSync(path.join(distDir, 'embed'), { recursive: true });
  // The other sections' answering code (web/app/later-sections.js, loaded after the first answer by
  // lazy-update.js) becomes a chunk of its own, and what it shares with the default section another
  // one that main.js imports. Both lie beside main.js (dist/app/), so that the imports they keep
  // outside the bundle (../vendor/…, ../client.js) still resolve.
  const page = await build({
    ...options,
    metafile: true,
    entryPoints: [path.join(appDir, 'main.js')],
    outdir: appDir,
    splitting: true,
    chunkNames: '[name]-[hash]',
    plugins: [keepOutside(appDir)],
  });
  // The modules now inside the bundle are not needed beside it.
  for (const input of Object.keys(page.metafile.inputs)) {
    const file = path.resolve(input);
    if (file.startsWith(appDir + path.sep) && file !== path.join(appDir, 'main.js')) rmSync(file);
  }
  await build({ ...options, entryPoints: [path.join(distDir, 'worker.js')], outfile: path.join(distDir, 'worker.js') });
  const indexFile = path.join(distDir, 'index.html');
  const html = readFileSync(indexFile, 'utf8');
  const entry = '<script type="module" src="app/main.js"></script>';
  if (!html.includes(entry)) throw new Error(`dist/index.html: no ${entry} to preload for`);
  // The wasm's first part first: its download and compilation are the longest chain of the first result.
  const wasm = '<link rel="preload" href="dpcalc-first.wasm" as="fetch" type="application/wasm" crossorigin>';
  writeFileSync(indexFile, html.replace(entry, [wasm, entry, ...preloadLinks(distDir, page.metafile)].join('\n  ')));
}
