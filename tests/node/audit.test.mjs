// {op:'audit'}: what an attack's outcome proves about a mechanism, a statistical lower bound on ε
// (never a guarantee), and whether it refutes a claim. Expected numbers:
//  * counts: tests/reference/audit_reference.py, section 2 (mpmath at 40 digits: exact
//    Clopper–Pearson bounds, 2.5% each side, then ε and μ of core/include/dpcalc/audit/counts_audit.hpp);
//  * one run: JAX Privacy's jax_privacy/auditing.py run from source (commit 8967688c,
//    _epsilon_one_run(0, m, r, v, 0.05, delta)), as in tests/core/audit/one_run_audit_test.cpp;
//  * the claims' allowed TPR at FPR_hi = 0.018313243055112453: mpmath at 40 digits of
//    min(1, e^ε FPR + δ, 1 − e^−ε (1 − δ − FPR)) (Kairouz, Oh, Viswanath 2015, Thm 2.1) and
//    Φ(Φ⁻¹(FPR) + μ) (Dong, Roth, Su 2019, Def. 2.6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, assertError, loadCalculator, okResult } from './helpers.mjs';

const calc = await loadCalculator();

const counts = (true_positives, positives, false_positives, negatives) => ({
  kind: 'counts',
  true_positives,
  positives,
  false_positives,
  negatives,
});
const example = (extra = {}) => ({ op: 'audit', evidence: counts(900, 1000, 10, 1000), ...extra });
const approx = (epsilon, delta) => ({ type: 'approx', epsilon, delta });
const oneRun = (canaries, guesses, correct) => ({ kind: 'one_run', canaries, guesses, correct });

test('counts 900/1000 and 10/1000 at 95%: TPR ≥ 0.8797, FPR ≤ 0.01831, ε ≥ 3.872, μ ≥ 3.263', () => {
  const result = okResult(calc.compute(example()));
  assert.equal(result.kind, 'counts');
  assertClose(result.tpr_interval[0], 0.8797120634813074, 1e-12, 'TPR_lo');
  assert.ok(result.tpr_interval[0] <= 0.8797120634813074, 'TPR_lo rounded down');
  assert.equal(result.tpr_interval[1], 1);
  assert.equal(result.fpr_interval[0], 0);
  assertClose(result.fpr_interval[1], 0.018313243055112453, 1e-12, 'FPR_hi');
  assert.ok(result.fpr_interval[1] >= 0.018313243055112453, 'FPR_hi rounded up');
  assertClose(result.epsilon_lower, 3.871970190998556, 1e-12, 'ε_lower');
  assert.ok(result.epsilon_lower <= 3.871970190998556, 'ε_lower rounded down');
  assertClose(result.mu_lower, 3.2634519271581546, 1e-12, 'μ_lower');
  assert.equal(result.confidence, 0.95);
  assert.equal(result.delta, 0);
  assert.equal(
    result.sentence,
    'with probability at least 95% over the experiment, the mechanism is not (ε, δ)-DP for any ε below 3.87',
  );
  assert.doesNotMatch(result.sentence, /guarantee/);
  assert.match(result.citation, /Jagielski, Ullman, Oprea 2020/);
  assert.match(result.citation, /Clopper, Pearson 1934/);
  assert.ok(result.citation_key.includes('clopper1934use'));
  assert.equal(result.refutes, undefined);
});

test('δ = 1e-5 lowers ε_lower to 3.87196 (mpmath) and the sentence names δ', () => {
  const result = okResult(calc.compute(example({ delta: 1e-5 })));
  assertClose(result.epsilon_lower, 3.8719588235781783, 1e-12, 'ε_lower at δ = 1e-5');
  assert.match(result.sentence, /\(ε, δ\)-DP with δ = 1e-5 for any ε below 3\.87$/);
});

test('a wider confidence never raises ε_lower: 99% gives 3.7145 (mpmath)', () => {
  const result = okResult(calc.compute(example({ confidence: 0.99 })));
  assertClose(result.epsilon_lower, 3.7144907210100553, 1e-12, 'ε_lower at 99%');
  assert.match(result.sentence, /^with probability at least 99% over the experiment/);
});

test('the claim (3, 1e-5)-DP allows TPR ≤ 0.368 at FPR 0.0183 and is refuted; (4, 1e-5)-DP allows 0.982', () => {
  const refuted = okResult(calc.compute(example({ claim: approx(3, 1e-5) })));
  assert.equal(refuted.refutes, true);
  assertClose(refuted.claim_allowed_tpr, 0.3678413195667713, 1e-12, 'allowed by (3, 1e-5)');
  assert.ok(refuted.claim_allowed_tpr >= 0.3678413195667713, 'rounded up');
  assert.equal(refuted.claim_at_fpr, refuted.fpr_interval[1]);
  assert.equal(refuted.claim_tpr_lower, refuted.tpr_interval[0]);
  assert.equal(
    refuted.claim_sentence,
    'the claimed (3, 1e-5)-DP allows TPR ≤ 0.368 at FPR 0.0183; the attack reached at least 0.879 with 95% ' +
      'confidence: the claim is refuted',
  );
  assert.match(refuted.citation, /Kairouz, Oh, Viswanath 2015/);

  const consistent = okResult(calc.compute(example({ claim: approx(4, 1e-5) })));
  assert.equal(consistent.refutes, false);
  assertClose(consistent.claim_allowed_tpr, 0.9820199630143338, 1e-12, 'allowed by (4, 1e-5)');
  assert.match(consistent.claim_sentence, /^the claimed \(4, 1e-5\)-DP allows TPR ≤ 0\.983 at FPR 0\.0183; /);
  assert.match(consistent.claim_sentence, /: the claim is consistent with the attack$/);

  // {guarantee}, as op 'tradeoff' takes it, and {epsilon, delta} without its type are the same claim.
  const wrapped = okResult(calc.compute(example({ claim: { guarantee: approx(3, 1e-5) } })));
  assert.equal(wrapped.claim_allowed_tpr, refuted.claim_allowed_tpr);
  const untyped = okResult(calc.compute(example({ claim: { epsilon: 3, delta: 1e-5 } })));
  assert.deepEqual(untyped, refuted);
  const untypedPure = okResult(calc.compute(example({ claim: { epsilon: 3 } })));
  assert.deepEqual(untypedPure, okResult(calc.compute(example({ claim: { type: 'pure', epsilon: 3 } }))));
});

test('μ-GDP claims: 3-GDP allows 0.8186 (refuted), 4-GDP 0.9719; a Gaussian request with σ = 1/3 is 3-GDP', () => {
  const gdp3 = okResult(calc.compute(example({ claim: { type: 'gdp', mu: 3 } })));
  assert.equal(gdp3.refutes, true);
  assertClose(gdp3.claim_allowed_tpr, 0.8186142397209204, 1e-9, '3-GDP');
  assert.deepEqual(okResult(calc.compute(example({ claim: { mu: 3 } }))), gdp3);
  const gdp4 = okResult(calc.compute(example({ claim: { type: 'gdp', mu: 4 } })));
  assert.equal(gdp4.refutes, false);
  assertClose(gdp4.claim_allowed_tpr, 0.9719396173777807, 1e-9, '4-GDP');
  // Read and explained by op 'tradeoff''s steps: the exact μ-GDP curve of Gaussian noise.
  const claim = { op: 'group', k: 1, delta: 1e-5, mechanism: { type: 'gaussian', sigma: 1 / 3, sensitivity: 1 } };
  const request = okResult(calc.compute(example({ claim })));
  assert.equal(request.refutes, true);
  assertClose(request.claim_allowed_tpr, 0.8186142397209204, 1e-6, 'Gaussian request');
  assert.match(request.claim_sentence, /^the claimed trade-off of the 'group' request allows/);
});

test('one run: m = 1000, r = v = 100 gives 3.4930 at δ = 0 and 3.4654 at δ = 1e-5 (JAX Privacy)', () => {
  const atZero = okResult(calc.compute({ op: 'audit', evidence: oneRun(1000, 100, 100) }));
  assert.equal(atZero.kind, 'one_run');
  assert.ok(Math.abs(atZero.epsilon_lower - 3.492965346169885) < 1e-6, `${atZero.epsilon_lower}`);
  assert.equal(atZero.mu_lower, undefined);
  assert.equal(atZero.tpr_interval, undefined);
  assert.ok(atZero.p_value_upper <= 0.05);
  assert.match(atZero.citation, /Steinke, Nasr, Jagielski 2023/);
  const atDelta = okResult(calc.compute({ op: 'audit', evidence: oneRun(1000, 100, 100), delta: 1e-5 }));
  assert.ok(Math.abs(atDelta.epsilon_lower - 3.465376229385333) < 1e-6, `${atDelta.epsilon_lower}`);
  // More correct guesses never lower ε_lower.
  const fewer = okResult(calc.compute({ op: 'audit', evidence: oneRun(1000, 100, 95) }));
  assert.ok(fewer.epsilon_lower < atZero.epsilon_lower);
});

test('one run with a claim: its ε against the run’s bound at the claim’s δ', () => {
  const evidence = oneRun(1000, 100, 100);
  const refuted = okResult(calc.compute({ op: 'audit', evidence, claim: approx(3, 1e-5) }));
  assert.equal(refuted.refutes, true);
  assert.equal(refuted.claim_epsilon, 3);
  assert.equal(refuted.claim_delta, 1e-5);
  assert.ok(Math.abs(refuted.claim_epsilon_lower - 3.465376229385333) < 1e-6);
  assert.match(refuted.claim_sentence, /: the claim is refuted$/);
  const consistent = okResult(calc.compute({ op: 'audit', evidence, claim: { type: 'pure', epsilon: 4 } }));
  assert.equal(consistent.refutes, false);
  // A claim that states no ε at one δ is refused, on the claim.
  assertError(calc.compute({ op: 'audit', evidence, claim: { type: 'gdp', mu: 1 } }), 'claim');
  assertError(calc.compute({ op: 'audit', evidence, claim: { type: 'zcdp', rho: 1 } }), 'claim');
});

test('scores: the best threshold, its counts and the Bonferroni correction', () => {
  const result = okResult(
    calc.compute({
      op: 'audit',
      evidence: { kind: 'scores', member_scores: Array(1000).fill(1), nonmember_scores: Array(1000).fill(0) },
    }),
  );
  assert.equal(result.kind, 'scores');
  assert.equal(result.threshold, 1);
  assert.deepEqual(result.counts, { true_positives: 1000, positives: 1000, false_positives: 0, negatives: 1000 });
  assert.equal(result.correction, 'bonferroni');
  // One corner of the ROC staircase: every member flagged and no non-member.
  assert.equal(result.thresholds_tried, 1);
  // Each side at 0.05 / (2 · 1000) (core/include/dpcalc/audit/scores_audit.hpp, (S1)): with no false
  // positive, FPR_hi = 1 − a^(1/1000) (Clopper, Pearson 1934, closed form at 0 successes).
  assertClose(result.fpr_interval[1], -Math.expm1(Math.log(0.05 / 2000) / 1000), 1e-9, 'FPR_hi');
  assertClose(result.tpr_interval[0], Math.exp(Math.log(0.05 / 2000) / 1000), 1e-9, 'TPR_lo');
  assert.ok(result.epsilon_lower > 4);
  const claimed = okResult(
    calc.compute({
      op: 'audit',
      evidence: { kind: 'scores', member_scores: Array(1000).fill(1), nonmember_scores: Array(1000).fill(0) },
      claim: approx(1, 1e-5),
    }),
  );
  assert.equal(claimed.refutes, true);
  assert.equal(claimed.claim_threshold, 1);
});

test('scores that separate nothing prove nothing, and say so', () => {
  const scores = Array.from({ length: 50 }, (_, i) => i);
  const result = okResult(
    calc.compute({ op: 'audit', evidence: { kind: 'scores', member_scores: scores, nonmember_scores: scores } }),
  );
  assert.equal(result.epsilon_lower, 0);
  assert.match(result.sentence, /does not show/);
});

test('bad input is an invalid_argument error on the exact field', () => {
  const audit = (evidence, extra = {}) => calc.compute({ op: 'audit', evidence, ...extra });
  assertError(audit(counts(900.5, 1000, 10, 1000)), 'evidence.true_positives');
  assertError(audit(counts(900, 1000, 10.5, 1000)), 'evidence.false_positives');
  assertError(audit(counts(1001, 1000, 10, 1000)), 'evidence.true_positives');
  assertError(audit(counts(0, 1000, 1001, 1000)), 'evidence.false_positives');
  assertError(audit(counts(0, 0, 0, 1000)), 'evidence.positives');
  assertError(audit(counts(0, 10, 0, 0)), 'evidence.negatives');
  assertError(audit(counts('900', 1000, 10, 1000)), 'evidence.true_positives');
  assertError(calc.compute(example({ confidence: 1 })), 'confidence');
  assertError(calc.compute(example({ confidence: 0 })), 'confidence');
  assertError(calc.compute(example({ confidence: -0.5 })), 'confidence');
  assertError(calc.compute(example({ delta: 1 })), 'delta');
  assertError(audit(oneRun(10, 11, 1)), 'evidence.guesses');
  assertError(audit(oneRun(10, 5, 6)), 'evidence.correct');
  assertError(audit(oneRun(0, 0, 0)), 'evidence.canaries');
  assertError(audit({ kind: 'count' }), 'evidence.kind');
  assertError(calc.compute({ op: 'audit' }), 'evidence');
  assertError(audit(counts(900, 1000, 10)), 'evidence.negatives');
  assertError(audit({ kind: 'scores', member_scores: [1, 'x'], nonmember_scores: [0] }), 'evidence.member_scores.1');
  assertError(audit({ kind: 'scores', member_scores: [], nonmember_scores: [0] }), 'evidence.member_scores');
  assertError(calc.compute(example({ claim: approx(3, 2) })), 'claim.delta');
  assertError(calc.compute(example({ claim: { type: 'gdp', mu: -1 } })), 'claim.mu');
  assertError(calc.compute(example({ claim: { type: 'laplace' } })), 'claim.type');
  assertError(calc.compute(example({ claim: {} })), 'claim');
  assertError(calc.compute(example({ claim: { epsilon: 3, guarantee: approx(3, 1e-5) } })), 'claim.epsilon');
  assertError(calc.compute(example({ claim: { op: 'split' } })), 'claim.op');
  assertError(calc.compute(example({ claim: 3 })), 'claim');
});

test('unknown and misspelt fields say what was meant', () => {
  const misspelt = calc.compute({ op: 'audit', evidence: { ...counts(1, 2, 1, 2), postives: 2 } });
  assertError(misspelt, 'evidence.postives');
  assert.match(misspelt.error.message, /did you mean 'positives'/);
  const top = calc.compute(example({ confidense: 0.9 }));
  assertError(top, 'confidense');
  assert.match(top.error.message, /did you mean 'confidence'/);
  const kindField = calc.compute({ op: 'audit', evidence: { ...oneRun(10, 5, 5), member_scores: [1] } });
  assertError(kindField, 'evidence.member_scores');
  const claimField = calc.compute(example({ claim: { type: 'approx', epsilon: 3, delta: 1e-5, mu: 1 } }));
  assertError(claimField, 'claim.mu');
  // Without a type, the fields say which claim it is, and a field that claim does not take is an error.
  const mixed = calc.compute(example({ claim: { epsilon: 3, delta: 1e-5, mu: 1 } }));
  assert.equal(mixed.ok, false);
  assert.match(mixed.error.field, /^claim\.(epsilon|delta)$/);
});

test('counts and one run run in the closed-form lane; scores in the numeric one', () => {
  const audit = calc.schema().ops.find((op) => op.name === 'audit');
  assert.equal(audit.lane, 'closed_form');
  assert.ok(audit.numeric_when.some(({ field, value }) => field === 'evidence.kind' && value === 'scores'));
  assert.ok(audit.numeric_when.some(({ field, value }) => field === 'claim.op' && value === 'dpsgd'));
});
