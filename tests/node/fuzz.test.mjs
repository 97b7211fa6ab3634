// Seeded fuzz of every op: valid and mutated requests for every op and method in the build, and
// for each op that takes `unknown` requests that solve for one, valid or not
// (tests/fuzz/generator.mjs), checked for the properties every response must have
// (tests/fuzz/check.mjs): compute() never throws, ok results hold no NaN or ∞, every error names a
// field present in the request ('' only for a non-object request or a cancel), messages are
// readable, solved unknowns stay within the engine's limits and meet their target, and no request
// runs longer than the cap without reporting progress (tests/fuzz/runner.mjs).
// `npm run fuzz` runs the same with 10^6 requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz } from '../fuzz/runner.mjs';

function assertClean(stats) {
  const report = stats.examples
    .map((example) => `${example.kind}: ${example.detail}\n    ${example.request}`)
    .join('\n');
  for (const kind of ['throws', 'nonFinite', 'beyondLimits', 'badField', 'badMessage', 'malformed', 'hangs']) {
    assert.equal(stats[kind], 0, `${kind}:\n${report}`);
  }
}

test('fuzz: 20,000 closed-form requests (seed 20261123)', async () => {
  const stats = await runFuzz({ seed: 20261123, requests: 20000, numericShare: 0, capMs: 20000 });
  assert.equal(stats.requests, 20000);
  assert.ok(
    stats.ok > 5000 && stats.errors > 5000,
    `both answers and errors are exercised: ${stats.ok} ok, ${stats.errors} errors`,
  );
  assertClean(stats);
});

// The numeric engine: its limits and refusals land on fields of the request, in words
// (they used to name discretization.interval or tail_mass_truncation when the request had none, and
// say "needs about NaN grid points"), and long work reports progress, so the budget can cancel it.
test('fuzz: 150 numeric requests (PLD compose, profile, calibrate, dpsgd, databases, groupwise), cancelled after 3 s of work', async () => {
  const stats = await runFuzz({ seed: 20261124, requests: 150, numericShare: 1, capMs: 20000, budgetMs: 3000 });
  assert.equal(stats.requests, 150);
  assert.ok(
    stats.ok > 30 && stats.errors > 30,
    `both answers and errors are exercised: ${stats.ok} ok, ${stats.errors} errors`,
  );
  assertClean(stats);
});
