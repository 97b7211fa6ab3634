// What a WebAssembly module's bytes are made of: the size of each section, and of the code grouped by
// what it comes from (the C++ namespace or library of each function), with the largest functions.
// Function names need a name section: link once with `--profiling-funcs` (em++ keeps the names and
// optimises as usual), e.g.
//   em++ … -O2 --profiling-funcs -o /tmp/named.mjs   (the link line of build/wasm, see wasm/wasm.cmake)
//   node scripts/wasm-sizes.mjs /tmp/named.wasm [how many largest functions, default 30]
// Without names the code shows as one group. Sizes are raw bytes; the "brotli" column is what each
// group adds to the code's brotli size (the code's size minus that of the code without the group):
// repeated code compresses far better than its raw share says, so this is the size a change saves.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

function reader(bytes) {
  let at = 0;
  const uleb = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return result;
    }
  };
  const name = () => {
    const length = uleb();
    const text = Buffer.from(bytes.subarray(at, at + length)).toString('utf8');
    at += length;
    return text;
  };
  return {
    uleb,
    name,
    byte: () => bytes[at++],
    skip: (count) => (at += count),
    get at() {
      return at;
    },
    set at(value) {
      at = value;
    },
  };
}

// Section ids 0 to 12 (WebAssembly core specification, 5.5.2).
const kSectionNames = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start'];
kSectionNames.push('element', 'code', 'data', 'data count');

/** { sections: [{ name, bytes }], functions: [{ name, bytes }] } of the module in `bytes`. */
export function wasmSizes(bytes) {
  const read = reader(bytes);
  read.at = 8; // magic and version
  const sections = [];
  const bodies = [];
  const names = new Map();
  let importedFunctions = 0;
  while (read.at < bytes.length) {
    const id = read.byte();
    const size = read.uleb();
    const end = read.at + size;
    let name = kSectionNames[id] ?? `section ${id}`;
    if (id === 0) name = `custom "${read.name()}"`;
    if (id === 2) {
      for (let count = read.uleb(); count > 0; count--) {
        read.name();
        read.name();
        const kind = read.byte();
        if (kind === 0) {
          importedFunctions++;
          read.uleb();
        } else if (kind === 1) {
          read.byte();
          if (read.byte() & 1) read.uleb();
          read.uleb();
        } else if (kind === 2) {
          if (read.byte() & 1) read.uleb();
          read.uleb();
        } else {
          read.skip(2);
        }
      }
    } else if (id === 10) {
      for (let count = read.uleb(); count > 0; count--) {
        const length = read.uleb();
        bodies.push({ start: read.at, length });
        read.skip(length);
      }
    } else if (name === 'custom "name"') {
      while (read.at < end) {
        const kind = read.byte();
        const length = read.uleb();
        const next = read.at + length;
        if (kind === 1) {
          for (let count = read.uleb(); count > 0; count--) names.set(read.uleb(), read.name());
        }
        read.at = next;
      }
    }
    sections.push({ name, bytes: size });
    read.at = end;
  }
  const functions = bodies.map(({ start, length }, i) => ({
    name: names.get(i + importedFunctions) ?? `function ${i}`,
    bytes: length,
    body: bytes.subarray(start, start + length),
  }));
  return { sections, functions };
}

function demangle(names) {
  try {
    return execFileSync('llvm-cxxfilt', { input: names.join('\n'), maxBuffer: 1 << 28 })
      .toString()
      .split('\n');
  } catch {
    return names;
  }
}

// The library or namespace a (demangled) function name comes from.
function groupOf(name) {
  const rules = [
    [/^(embind|emscripten::|_embind|__embind)/, 'Embind'],
    [/boost::math/, 'boost::math'],
    [/boost::/, 'boost (other)'],
    [/^Eigen::|Eigen::/, 'Eigen'],
    [/^dpcalc::(\w+)/, null],
    [/^std::|^void std::|^(__cxa|__cxxabiv1|operator new|operator delete)/, 'C++ standard library'],
    [/^(dl|emscripten_builtin_|sbrk|malloc|free|calloc|realloc|memalign)/, 'malloc'],
    [/^(__|fmt_|printf|vfprintf|snprintf|strto|scalbn|frexp|pow|exp|log|sin|cos|erf)/, 'libc and libm'],
  ];
  for (const [pattern, group] of rules) {
    const match = name.match(pattern);
    if (match) return group ?? `dpcalc::${match[1]}`;
  }
  const namespace = name.match(/(?:^|\s)(dpcalc::\w+)/);
  return namespace ? `${namespace[1]} (templates)` : 'other';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '30'] = process.argv.slice(2);
  const { sections, functions } = wasmSizes(readFileSync(file));
  const total = sections.reduce((sum, section) => sum + section.bytes, 0);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`| section of ${file} | bytes |\n|---|---:|`);
  for (const { name, bytes } of sections) console.log(`| ${name} | ${kb(bytes)} |`);
  console.log(`| all | ${kb(total)} |`);
  const demangled = demangle(functions.map((fn) => fn.name));
  const groups = new Map();
  functions.forEach((fn, i) => {
    fn.name = demangled[i] ?? fn.name;
    fn.group = groupOf(fn.name);
    const entry = groups.get(fn.group) ?? { bytes: 0, count: 0 };
    entry.bytes += fn.bytes;
    entry.count += 1;
    groups.set(fn.group, entry);
  });
  const brotli = (bodies) =>
    zlib.brotliCompressSync(Buffer.concat(bodies), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const allCode = brotli(functions.map((fn) => fn.body));
  console.log(`\n| code from (all: ${kb(allCode)} with brotli) | bytes | brotli | functions |\n|---|---:|---:|---:|`);
  for (const [group, { bytes, count }] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes)) {
    // Only the groups worth a change: the marginal size of a tiny group is within brotli's noise.
    const added =
      bytes >= 4096 ? kb(allCode - brotli(functions.filter((fn) => fn.group !== group).map((fn) => fn.body))) : '';
    console.log(`| ${group} | ${kb(bytes)} | ${added} | ${count} |`);
  }
  console.log(`\n| largest functions | bytes |\n|---|---:|`);
  for (const { name, bytes } of [...functions].sort((a, b) => b.bytes - a.bytes).slice(0, Number(top)))
    console.log(`| ${name.length > 150 ? `${name.slice(0, 150)}…` : name} | ${kb(bytes)} |`);
}
