// Builds dist/: the wasm module (Emscripten through CMake, incremental), the page and its vendor
// assets. `buildNative()` builds the native core and its doctest suite (used by the tests).
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './install.mjs';
import { splitWasm } from './split-wasm.mjs';

const distDir = path.join(repoRoot, 'dist');
const nativeDir = path.join(repoRoot, 'build', 'native');
const sanitizeDir = path.join(repoRoot, 'build', 'sanitize');
const wasmDir = path.join(repoRoot, 'build', 'wasm');
const headerDir = path.join(repoRoot, 'build', 'wasm-headers');
const jobs = String(Math.max(1, Math.min(4, (await import('node:os')).cpus().length)));

function run(command, args, env = process.env) {
  execFileSync(command, args, { stdio: 'inherit', cwd: repoRoot, env });
}

// em++ must not see /usr/include (it would shadow Emscripten's libc), so it gets a folder holding
// only links to the Debian headers it needs.
function linkSystemHeaders() {
  mkdirSync(headerDir, { recursive: true });
  const links = {
    boost: '/usr/include/boost',
    Eigen: '/usr/include/eigen3/Eigen',
    unsupported: '/usr/include/eigen3/unsupported',
  };
  for (const [name, target] of Object.entries(links)) {
    const link = path.join(headerDir, name);
    if (!existsSync(link)) symlinkSync(target, link);
  }
}

function buildTests(dir, options) {
  if (!existsSync(path.join(dir, 'CMakeCache.txt'))) run('cmake', ['-S', repoRoot, '-B', dir, ...options]);
  run('cmake', ['--build', dir, '-j', jobs, '--target', 'dpcalc_tests']);
  return path.join(dir, 'dpcalc_tests');
}

/** The native doctest suite (Release). Returns the path of the test binary. */
export function buildNative() {
  return buildTests(nativeDir, ['-DCMAKE_BUILD_TYPE=Release']);
}

/**
 * The same suite under AddressSanitizer and UndefinedBehaviorSanitizer, at -O1 with line tables only
 * (-g1): reports still name each frame's function, file and line, and the build takes about 30% less
 * time than with full debug info (-g).
 */
export function buildSanitized() {
  return buildTests(sanitizeDir, [
    '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
    '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1',
    '-DDPCALC_SANITIZE=ON',
  ]);
}

function buildWasm() {
  linkSystemHeaders();
  // Debian's Emscripten runs its JS optimizer with the system node, which finds acorn only here.
  const env = { ...process.env, NODE_PATH: '/usr/share/nodejs' };
  if (!existsSync(path.join(wasmDir, 'CMakeCache.txt'))) {
    run(
      'emcmake',
      ['cmake', '-S', repoRoot, '-B', wasmDir, '-DCMAKE_BUILD_TYPE=Release', `-DDPCALC_SYSTEM_HEADERS=${headerDir}`],
      env,
    );
  }
  run('cmake', ['--build', wasmDir, '-j', jobs], env);
}

/** The PLD engine's benchmark as WebAssembly for Node (tests/bench/pld_bench.cpp). Returns its path. */
export function buildWasmBench() {
  buildWasm();
  run('cmake', ['--build', wasmDir, '-j', jobs, '--target', 'dpcalc_bench_wasm'], {
    ...process.env,
    NODE_PATH: '/usr/share/nodejs',
  });
  return path.join(wasmDir, 'dpcalc-bench.mjs');
}

function copyPage() {
  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  const webDir = path.join(repoRoot, 'web');
  for (const entry of readdirSync(webDir)) {
    if (entry === 'vendor-entry.js') continue;
    cpSync(path.join(webDir, entry), path.join(distDir, entry), { recursive: true });
  }
  cpSync(path.join(wasmDir, 'dpcalc-module.mjs'), path.join(distDir, 'dpcalc-module.js'));
  cpSync(path.join(wasmDir, 'dpcalc-module.wasm.orig'), path.join(distDir, 'dpcalc.wasm'));
}

export async function buildDist() {
  buildWasm();
  copyPage();
  await splitWasm(wasmDir, distDir);
  // Loaded here, not at the top: their npm packages exist only after ensureDependencies() has run.
  const { buildVendor } = await import('./vendor.mjs');
  const { buildFormulas } = await import('./formulas.mjs');
  const { bundlePage } = await import('./bundle.mjs');
  const { precompress } = await import('./compress.mjs');
  const { packageDist } = await import('./package-dist.mjs');
  const { buildOffline } = await import('./offline.mjs');
  const vendorInputs = await buildVendor(distDir);
  await buildFormulas(distDir);
  await bundlePage(distDir);
  packageDist(distDir, vendorInputs);
  await buildOffline(distDir);
  precompress(distDir);
  return distDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureDependencies();
  await buildDist();
  console.log(`Built ${path.relative(process.cwd(), distDir) || distDir}/`);
}
