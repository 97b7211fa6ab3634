// Where the calculator's own files come from: next to this module, on a web server. The single-file
// offline build (scripts/offline.mjs) swaps this module for one that carries them inline, and the
// <dp-calculator> element for web/embed/assets.js (the whole module, shared with the JS API).

/** The page loads the wasm module in two parts (scripts/split-wasm.mjs). */
export const splitWasm = true;

/**
 * The Response of a part of the split wasm module, for WebAssembly.compileStreaming: 'first'
 * (dpcalc-first.wasm, what the first answers run) or 'rest' (dpcalc-rest.wasm); scripts/split-wasm.mjs.
 */
export const fetchWasm = (part) => fetch(new URL(`./dpcalc-${part}.wasm`, import.meta.url));

/**
 * The compilation of a part of the wasm module ('first' or 'rest') that the page's first script
 * (boot.js) started before the page's modules ran, when it did and of this very file; else null.
 */
export const startedWasm = (part) => {
  const started = globalThis[Symbol.for('dpcalc.wasm')]?.[part];
  return started?.url === new URL(`./dpcalc-${part}.wasm`, import.meta.url).href ? started.module : null;
};

/** The worker script, as a URL and the Worker type it needs. */
export const workerScript = () => ({ url: new URL('./worker.js', import.meta.url), type: 'module' });
