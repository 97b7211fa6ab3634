// Recovery after the wasm module fails (once, after one request aborted the module, requests that
// worked before aborted too). No valid request can exhaust the module any more (requests are
// size-limited before the copy), so the failure is injected: a copy of dist/ whose dpcalc.js fills
// the wasm heap before one marked request, which then aborts inside the module for lack of memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const copyDir = mkdtempSync(path.join(os.tmpdir(), 'dpcalc-recovery-'));
cpSync(distDir, copyDir, { recursive: true });
const apiFile = path.join(copyDir, 'dpcalc.js');
const call = 'response = onProgress ? module.computeWithProgress(plain, progress) : module.compute(plain);';
const source = readFileSync(apiFile, 'utf8');
assert.ok(source.includes(call), 'the module call this test injects a fault before');
const fillHeap =
  "if (plain.op === 'exhaust') { for (const size of [1 << 20, 1 << 14, 1 << 8, 16]) while (module._malloc(size)) {} }";
writeFileSync(apiFile, source.replace(call, `${fillHeap}\n      ${call}`));
const { createCalculator } = await import(pathToFileURL(apiFile).href);

test('after the module runs out of memory the request gets a clean error and the next requests work', async (t) => {
  t.after(() => rmSync(copyDir, { recursive: true, force: true }));
  const calc = await createCalculator();
  const group = { op: 'group', k: 2, guarantee: { type: 'pure', epsilon: 1 } };
  const numeric = {
    op: 'compose',
    method: 'pld',
    delta: 1e-5,
    items: [{ mechanism: { type: 'gaussian', sigma: 2 }, count: 10 }],
  };
  const before = calc.compute(numeric);
  assert.equal(before.ok, true);
  const failed = calc.compute({ op: 'exhaust' });
  assert.equal(failed.ok, false);
  assert.equal(failed.error.code, 'numeric');
  assert.equal(failed.error.field, '');
  assert.match(failed.error.message, /ran out of memory\. It has been restarted/);
  assert.doesNotMatch(failed.error.message, /Aborted|ASSERTIONS/);
  await calc.ready();
  assert.equal(calc.compute(group).result.guarantee.epsilon, 2);
  assert.deepEqual(calc.compute(numeric), before);
  assert.ok(calc.memory().heapBytes < 2 ** 27, 'the exhausted heap was released with the old module');
});
