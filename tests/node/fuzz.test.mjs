// Seeded fuzz (issue 6 §6): valid and mutated requests for every op and method in the build
// (tests/fuzz/generator.mjs), checked for the properties every response must have
// (tests/fuzz/check.mjs): compute() never throws, ok results hold no NaN or ∞, every error names a
// field present in the request ('' only for a non-object request or a cancel), messages are
// readable, and no request runs longer than the cap without reporting progress (tests/fuzz/runner.mjs).
// `npm run fuzz` runs the same with 10^6 requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz } from '../fuzz/runner.mjs';

function assertClean(stats) {
  const report = stats.examples.map((example) => `${example.kind}: ${example.detail}\n    ${example.request}`).join('\n');
  for (const kind of ['throws', 'nonFinite', 'badField', 'badMessage', 'malformed', 'hangs']) {
    assert.equal(stats[kind], 0, `${kind}:\n${report}`);
  }
}

test('fuzz: 20,000 closed-form requests (seed 20261123)', async () => {
  const stats = await runFuzz({ seed: 20261123, requests: 20000, numericShare: 0, capMs: 20000 });
  assert.equal(stats.requests, 20000);
  assert.ok(stats.ok > 5000 && stats.errors > 5000, `both answers and errors are exercised: ${stats.ok} ok, ${stats.errors} errors`);
  assertClean(stats);
});

// The numeric engine's own messages and limits (issue 6 §5, second bullet: "Engine errors land on
// discretization.interval when the request has none", "needs NaN grid points", ...) are fixed on the
// PLD branch; until that is merged this case reports them without failing the suite.
test('fuzz: 100 numeric requests (PLD compose and profile), cancelled after 3 s of work', { todo: 'PLD engine messages: issue 6 §5, PLD branch' }, async () => {
  const stats = await runFuzz({ seed: 20261124, requests: 100, numericShare: 1, capMs: 20000, budgetMs: 3000 });
  assert.equal(stats.requests, 100);
  assertClean(stats);
});
