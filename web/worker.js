// Runs the calculator in a Web Worker so that the page never waits on the wasm.
// Messages in: { wasmModule, deferredModule } first (the two parts of the split module, compiled once
// by the page and shared by every worker; wasmModule null: load the whole dpcalc.wasm here), then
// { id, request }. Messages out: { ready: true } or { failed: message } once,
// then { id, progress } while working and { id, response } at the end.
import { createCalculator } from './dpcalc.js';

let calculatorReady = null;

self.addEventListener('message', async (event) => {
  if ('wasmModule' in event.data) {
    const { wasmModule, deferredModule } = event.data;
    calculatorReady = createCalculator(wasmModule ? { wasmModule, deferredModule } : {});
    calculatorReady.then(
      () => self.postMessage({ ready: true }),
      (error) => self.postMessage({ failed: String(error?.message ?? error) }),
    );
    return;
  }
  const { id, request } = event.data;
  const calculator = await calculatorReady;
  const onProgress = (fraction) => {
    self.postMessage({ id, progress: fraction });
    return true;
  };
  self.postMessage({ id, response: calculator.compute(request, { onProgress }) });
});
