// Runs the calculator in a module Web Worker so that the page never waits on the wasm.
// Messages in: { id, request }. Messages out: { id, progress } while working, then { id, response }.
import { createCalculator } from './dpcalc.js';

const calculatorReady = createCalculator();

self.addEventListener('message', async (event) => {
  const { id, request } = event.data;
  const calculator = await calculatorReady;
  const onProgress = (fraction) => {
    self.postMessage({ id, progress: fraction });
    return true;
  };
  self.postMessage({ id, response: calculator.compute(request, { onProgress }) });
});
