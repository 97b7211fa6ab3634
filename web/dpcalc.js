// The public JS API (see docs/API.md):
//   import { createCalculator } from './dpcalc.js';
//   const calc = await createCalculator();
//   calc.compute({ op: 'group', k: 4, guarantee: { type: 'pure', epsilon: 0.5 } });
// compute() is synchronous and never throws: it returns { ok: true, result } or
// { ok: false, error: { code, field, message } }. All validation and accounting happen in the wasm core.
import createDpcalcModule from './dpcalc-module.js';

const runsInNode = typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined'
  && typeof importScripts === 'undefined';

// A module compiled elsewhere (the page compiles dpcalc.wasm once and posts it to each worker) is
// only instantiated. Otherwise: Emscripten 3.1.6 cannot load its wasm with Node's global fetch, so in
// Node the bytes are read from disk and handed over; browsers stream it from next to this file.
async function moduleOptions(wasmModule) {
  if (wasmModule) {
    return {
      locateFile: (file) => file, // keeps the glue from resolving a URL it will not fetch
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(wasmModule, imports).then((instance) => receiveInstance(instance, wasmModule));
        return {};
      },
    };
  }
  const wasmUrl = new URL('./dpcalc.wasm', import.meta.url);
  if (runsInNode) {
    const { readFile } = await import('node:fs/promises');
    return { wasmBinary: await readFile(wasmUrl) };
  }
  return { locateFile: () => wasmUrl.href };
}

function failure(code, field, message) {
  return { ok: false, error: { code, field, message } };
}

function computeWith(module, request, onProgress) {
  try {
    if (!onProgress) return module.compute(request);
    // Only an explicit `false` from the callback cancels the computation.
    return module.computeWithProgress(request, (fraction) => onProgress(fraction) !== false);
  } catch (error) {
    // The core reports every invalid input itself; reaching this means the request could not even
    // be read (a throwing getter, a Proxy) or the module ran out of memory.
    if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
      return failure('numeric', '', `The computation failed inside the calculator: ${error.message}`);
    }
    return failure('invalid_argument', '', `The request could not be read: ${error?.message ?? error}`);
  }
}

/**
 * Loads dpcalc.wasm (next to this file, or `wasmModule`: a compiled WebAssembly.Module of it) and
 * resolves to { compute(request, { onProgress }?) }. onProgress(fraction) is called during numeric
 * work; returning false cancels it.
 */
export async function createCalculator({ wasmModule } = {}) {
  const module = await createDpcalcModule(await moduleOptions(wasmModule));
  return {
    compute: (request, options = {}) => computeWith(module, request, options.onProgress),
    // The size of the wasm linear memory; it only grows, so this is the peak so far (benchmarks).
    memoryBytes: () => module.HEAP8.length,
  };
}
