// The public JS API (see docs/API.md):
//   import { createCalculator } from './dpcalc.js';
//   const calc = await createCalculator();
//   calc.compute({ op: 'group', k: 4, guarantee: { type: 'pure', epsilon: 0.5 } });
// compute() is synchronous and never throws: it returns { ok: true, result } or
// { ok: false, error: { code, field, message } }. All validation and accounting happen in the wasm
// core; this layer only copies the request into plain data within documented size limits, keeps
// JavaScript exceptions out of the wasm (which is built without exceptions, so an exception
// unwinding through it would skip its destructors and leak), and replaces the module after a crash.
import createDpcalcModule from './dpcalc-module.js';

const runsInNode =
  typeof globalThis.process === 'object' &&
  typeof globalThis.process.versions?.node === 'string' &&
  typeof window === 'undefined' &&
  typeof importScripts === 'undefined';

/**
 * Requests larger than this are refused before anything is copied into the wasm memory (an error
 * on the field that is too large): no op needs more, and a request the size of the wasm memory
 * would otherwise exhaust it.
 */
export const requestLimits = Object.freeze({
  values: 100000, // numbers, strings, booleans, nulls, arrays and objects in the whole request
  depth: 32, // nesting of arrays and objects
  stringLength: 10000, // characters in one string
});

// Node's file module, named apart so that a bundler building an app for browsers (Vite) neither
// bundles it nor warns about it: only Node reads the wasm from disk.
const kNodeFiles = 'node:fs/promises';

// Emscripten 3.1.6 cannot load its wasm with Node's global fetch, so in Node the bytes are read
// from disk; browsers stream it from next to this file.
async function compileWasm() {
  const wasmUrl = new URL('./dpcalc.wasm', import.meta.url);
  if (runsInNode) {
    const { readFile } = await import(/* @vite-ignore */ kNodeFiles);
    return WebAssembly.compile(await readFile(wasmUrl));
  }
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(fetch(wasmUrl));
    } catch {
      // A server that does not send application/wasm: fall back to the bytes.
    }
  }
  const response = await fetch(wasmUrl);
  return WebAssembly.compile(await response.arrayBuffer());
}

let wholeModule = null;

/**
 * dpcalc.wasm compiled, once per page: every calculator made without a module, and the
 * <dp-calculator> element of the npm package (its workers get this module), share one download.
 */
export function compiledWasm() {
  wholeModule ??= compileWasm().catch((error) => {
    wholeModule = null; // a later call tries again
    throw error;
  });
  return wholeModule;
}

// Thrown by a placeholder of a split module whose rest is not linked (see createCalculator).
class RestNotLoaded extends Error {}

// Instantiates the compiled module and links `rest` into it when given (the other part of a split
// module: its instance fills the first part's placeholders in the shared table). Synchronously where
// the platform allows it (workers, Node), so that a crashed module can be replaced between two
// compute() calls; otherwise asynchronously. Resolves to the Emscripten module; `immediate` is that
// module when it was ready at once.
function instantiate(compiled, rest) {
  let fail;
  const instantiationFailed = new Promise((resolve, reject) => (fail = reject));
  const options = {
    printErr: () => {}, // aborts are reported through the response, not the console
    locateFile: (file) => file, // the wasm is already compiled: keeps the glue from resolving a URL (a blob: base has none)
    // Called by a placeholder of the first part: with the rest linked it is a stale copy of a table
    // entry (the glue then calls the entry itself); without it the request needs the rest.
    loadSplitModule() {
      if (!rest) throw new RestNotLoaded();
    },
    instantiateWasm(imports, receive) {
      try {
        const instance = new WebAssembly.Instance(compiled, imports);
        if (rest) new WebAssembly.Instance(rest, { primary: instance.exports });
        receive(instance, compiled);
        return instance.exports;
      } catch {
        WebAssembly.instantiate(compiled, imports)
          .then(async (instance) => {
            if (rest) await WebAssembly.instantiate(rest, { primary: instance.exports });
            receive(instance, compiled);
          })
          .catch(fail);
        return {};
      }
    },
  };
  const ready = Promise.race([createDpcalcModule(options), instantiationFailed]);
  return { ready, immediate: typeof options.compute === 'function' ? options : null };
}

function failure(code, field, message) {
  return { ok: false, error: { code, field, message } };
}

const pathOf = (prefix, key) => (prefix === '' ? String(key) : `${prefix}.${key}`);
const quoted = (path) => (path === '' ? 'The request' : path);

class UnreadableRequest extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

// A copy of `request` made of plain data only, as JSON would see it (no getters, proxies, cycles,
// functions, lone surrogates or −0), refusing it as soon as it exceeds requestLimits. Throws
// UnreadableRequest (also for a getter that throws or a BigInt, on their field).
function plainCopy(request) {
  let values = 0;
  const count = (path) => {
    values += 1;
    if (values > requestLimits.values) {
      throw new UnreadableRequest(
        path,
        `${quoted(path)} makes the request larger than ${requestLimits.values.toLocaleString('en-US')} values, the most the calculator accepts.`,
      );
    }
  };
  const read = (container, key, path) => {
    try {
      return container[key];
    } catch (error) {
      throw new UnreadableRequest(path, `${quoted(path)} could not be read (${error?.message ?? error}).`);
    }
  };
  const copy = (value, path, depth) => {
    count(path);
    switch (typeof value) {
      case 'number':
        return value === 0 ? 0 : value; // -0 is 0
      case 'boolean':
        return value;
      case 'string':
        if (value.length > requestLimits.stringLength) {
          throw new UnreadableRequest(
            path,
            `${quoted(path)} is ${value.length.toLocaleString('en-US')} characters long; the most accepted is ${requestLimits.stringLength.toLocaleString('en-US')}.`,
          );
        }
        // A lone UTF-16 surrogate has no UTF-8 form; U+FFFD keeps it from turning into another character.
        return value.toWellFormed
          ? value.toWellFormed()
          : value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
      case 'object':
        break;
      case 'bigint':
        throw new UnreadableRequest(path, `${quoted(path)} must be a plain number, not a BigInt.`);
      default:
        return null; // undefined, functions and symbols are not data (JSON drops them too)
    }
    if (value === null) return null;
    if (depth >= requestLimits.depth) {
      throw new UnreadableRequest(path, `${quoted(path)} is nested more than ${requestLimits.depth} levels deep.`);
    }
    if (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))) {
      const length = read(value, 'length', path);
      // Checked before reading any element, so a sparse array of length 2^32 − 1 is refused at once.
      if (!(length <= requestLimits.values)) {
        throw new UnreadableRequest(
          path,
          `${quoted(path)} has ${Number(length).toLocaleString('en-US')} entries; a request may hold at most ${requestLimits.values.toLocaleString('en-US')} values.`,
        );
      }
      const array = new Array(length);
      for (let i = 0; i < length; ++i) array[i] = copy(read(value, i, pathOf(path, i)), pathOf(path, i), depth + 1);
      return array;
    }
    let keys;
    try {
      keys = Object.keys(value);
    } catch (error) {
      throw new UnreadableRequest(path, `${quoted(path)} could not be read (${error?.message ?? error}).`);
    }
    const object = Object.create(null); // so that a key "__proto__" is data, not a prototype
    for (const key of keys) {
      const member = read(value, key, pathOf(path, key));
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      object[key.toWellFormed ? key.toWellFormed() : key] = copy(member, pathOf(path, key), depth + 1);
    }
    return object;
  };
  return copy(request, '', 0);
}

/** The response to a request whose computation threw (`error`): the module is restarted meanwhile. */
function crashFailure(error) {
  if (error instanceof RestNotLoaded) {
    return failure(
      'not_loaded',
      '',
      'This request needs the part of the calculator that is loaded after the first answers (deferredModule).',
    );
  }
  const reason =
    error instanceof WebAssembly.RuntimeError && /memory|Aborted/i.test(error.message)
      ? 'it ran out of memory'
      : `it stopped with an internal error (${String(error?.message ?? error).replace(/\. Build with.*$/, '')})`;
  return failure(
    'numeric',
    '',
    `The calculator could not finish this request: ${reason}. It has been restarted, so other requests work; if this request is valid, please report it.`,
  );
}

/**
 * Loads dpcalc.wasm (next to this file, or takes `wasmModule`: a compiled WebAssembly.Module of it,
 * as the page posts to its workers) and resolves to a calculator. The page passes the split module
 * instead (scripts/split-wasm.mjs): `wasmModule` compiled from dpcalc-first.wasm and `deferredModule`
 * from dpcalc-rest.wasm. Without `deferredModule`, the first part answers the requests whose code it
 * holds, and any other request with error code 'not_loaded'. The calculator:
 *   compute(request, { onProgress }?) → response (never throws). onProgress(fraction) is called
 *     during numeric work; returning false cancels it, and so does throwing (code 'cancelled').
 *   memory() → { heapBytes, inUseBytes }: the size of the wasm linear memory (it only grows, so
 *     this is its high-water mark) and the bytes currently allocated in it.
 *   memoryBytes() → memory().heapBytes.
 *   schema() → { ops: [{ name, lane, numeric_when }], shapes: { name: { title, fields, … } }, mechanisms }: every
 *     op and the fields every object of a request takes (requests with other fields are refused);
 *     null while the module restarts, or when a first part without its rest lacks the code.
 */
export async function createCalculator({ wasmModule, deferredModule } = {}) {
  const compiled = wasmModule ?? (await compiledWasm());
  let module = await instantiate(compiled, deferredModule).ready;
  let restarting = null;

  // After a crash (out of memory, a trap) the module's state is undefined: it is replaced by a
  // fresh instance, at once where possible.
  const replaceModule = () => {
    module = null;
    const fresh = instantiate(compiled, deferredModule);
    if (fresh.immediate) {
      module = fresh.immediate;
      return;
    }
    restarting = fresh.ready.then((ready) => {
      module = ready;
      restarting = null;
    });
  };

  const compute = (request, options = {}) => {
    if (!module) {
      return failure('numeric', '', 'The calculator is restarting after a failed computation; try again in a moment.');
    }
    let plain;
    try {
      plain = plainCopy(request);
    } catch (error) {
      return failure('invalid_argument', error.field ?? '', error.message);
    }
    const { onProgress } = options;
    let callbackError = null;
    const progress = (fraction) => {
      try {
        // Only an explicit `false` from the callback cancels the computation.
        return onProgress(fraction) !== false;
      } catch (error) {
        callbackError = error;
        return false;
      }
    };
    let response;
    try {
      response = onProgress ? module.computeWithProgress(plain, progress) : module.compute(plain);
    } catch (error) {
      replaceModule();
      return crashFailure(error);
    }
    if (callbackError !== null) {
      return failure(
        'cancelled',
        '',
        `The computation was stopped because the onProgress callback threw: ${callbackError?.message ?? callbackError}`,
      );
    }
    return response;
  };

  return {
    compute,
    memory: () =>
      module
        ? { heapBytes: module.HEAP8.length, inUseBytes: module.heapBytesInUse() }
        : { heapBytes: 0, inUseBytes: 0 },
    memoryBytes: () => (module ? module.HEAP8.length : 0),
    schema: () => {
      try {
        return module ? module.schema() : null;
      } catch (error) {
        replaceModule();
        if (error instanceof RestNotLoaded) return null;
        throw error;
      }
    },
    // Resolves once a module replaced after a crash is ready (at once when none is pending).
    ready: () => restarting ?? Promise.resolve(),
  };
}
