// web/assets.js for the <dp-calculator> element (scripts/bundle.mjs): the element loads the whole
// dpcalc.wasm through the JS API (compiledWasm), so that an app that uses the API and the element
// downloads one wasm file, and a bundler (Vite) finds no other wasm file to emit. The page itself
// keeps the split module of web/assets.js, for its first answer.

export const splitWasm = false;

/** No part of a split module here (client.js compiles the whole module instead). */
export const fetchWasm = () => null;

export const startedWasm = () => null;

/** The worker script, as a URL and the Worker type it needs. */
export const workerScript = () => ({ url: new URL('./worker.js', import.meta.url), type: 'module' });
