// The Audit section's requests (web/app/audit-requests.js) from its inputs: scores read from CSV in
// either layout, rates made counts against the attack, the claims as op 'audit' and op 'tradeoff'
// take them, and what cannot be read said in words. The core's answers to them are tested in
// tests/node/ (op 'audit') and on the page (tests/browser/audit.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import audit from '../../web/app/audit.js';
import { fieldsOf } from '../../web/app/form-fields.js';
import { claimOf, requests } from '../../web/app/audit-requests.js';
import { parseClaim, parseScores } from '../../web/app/audit-inputs.js';

const defaults = Object.freeze(Object.fromEntries(fieldsOf(audit.form).map((field) => [field.name, field.value])));
const auditRequest = (inputs) => requests({ ...defaults, ...inputs }).find((item) => item.id === 'audit').request;

test('the defaults are the worked example: 900 of 1000 members, 10 of 1000 non-members, claim (3, 1e-5)', () => {
  const items = requests(defaults);
  assert.deepEqual(
    items.map((item) => [item.id, item.role]),
    [
      ['audit', 'row'],
      ['claim-curve', 'curve'],
    ],
  );
  assert.deepEqual(items[0].request, {
    op: 'audit',
    evidence: { kind: 'counts', true_positives: 900, positives: 1000, false_positives: 10, negatives: 1000 },
    confidence: 0.95,
    delta: 0,
    claim: { type: 'approx', epsilon: 3, delta: 1e-5 },
  });
  assert.equal(items[0].claimWords, '(3, 10⁻⁵)-DP');
  assert.deepEqual(items[1].request, {
    op: 'tradeoff',
    of: { guarantee: { type: 'approx', epsilon: 3, delta: 1e-5 } },
  });
});

test('rates become counts rounded against the attack: members caught down, non-members flagged up', () => {
  const counts = (tpr, fpr) => auditRequest({ evidence: 'rates', tpr, fpr }).evidence;
  assert.deepEqual(counts('0.9', '0.01'), {
    kind: 'counts',
    true_positives: 900,
    positives: 1000,
    false_positives: 10,
    negatives: 1000,
  });
  // 0.9005 × 1000 = 900.5 members: 900; 0.0105 × 1000 = 10.5 non-members: 11.
  assert.equal(counts('0.9005', '0.0105').true_positives, 900);
  assert.equal(counts('0.9005', '0.0105').false_positives, 11);
  // A rate typed to its full digits is its count (0.7 × 1000 = 700.0000000000001 in doubles).
  assert.equal(counts('0.7', '0.07').true_positives, 700);
  assert.equal(counts('0.7', '0.07').false_positives, 70);
});

test('one run and scores; a claim of ε-DP, μ-GDP, another section’s result, or none', () => {
  assert.deepEqual(auditRequest({ evidence: 'one_run', claim: 'none' }), {
    op: 'audit',
    evidence: { kind: 'one_run', canaries: 1000, guesses: 100, correct: 100 },
    confidence: 0.95,
    delta: 0,
  });
  assert.equal(requests({ ...defaults, claim: 'none' }).length, 1, 'no claim, no curve');
  assert.deepEqual(auditRequest({ evidence: 'scores', scores: 'score,label\n2,1\n1,0\n0.5,1' }).evidence, {
    kind: 'scores',
    member_scores: [2, 0.5],
    nonmember_scores: [1],
  });
  assert.deepEqual(auditRequest({ claim_delta: '0' }).claim, { type: 'pure', epsilon: 3 });
  const gdp = claimOf({ ...defaults, claim: 'gdp', claim_mu: '2' });
  assert.deepEqual(gdp.claim, { type: 'gdp', mu: 2 });
  // Drawn as the Gaussian mechanism of σ = 1/μ, exactly μ-GDP (Dong, Roth, Su 2019, Thm 2.7).
  assert.deepEqual(gdp.of.mechanism, { type: 'gaussian', sigma: 0.5 });
  const of = { op: 'group', k: 2, guarantee: { type: 'pure', epsilon: 1 }, explain: { fpr: [0.001] } };
  const fromSection = requests({
    ...defaults,
    claim: 'request',
    claim_request: JSON.stringify(of),
    claim_from: 'Group privacy',
  });
  assert.deepEqual(fromSection[0].request.claim, { op: 'group', k: 2, guarantee: { type: 'pure', epsilon: 1 } });
  assert.equal(fromSection[0].claimWords, 'the result of Group privacy');
  assert.deepEqual(fromSection[1].request.of, fromSection[0].request.claim);
});

test('what cannot be read is said in words: scores by line, a claim that is not a request', () => {
  assert.deepEqual(parseScores('', 'labelled'), { error: 'Paste the scores: one row per example, as CSV.' });
  assert.deepEqual(parseScores('score,label\n1,1\nx,0', 'labelled'), { error: 'Line 3: “x” is not a score.' });
  assert.deepEqual(parseScores('1,2', 'labelled'), {
    error: 'Line 1: the label must be 1 (member) or 0 (non-member).',
  });
  assert.deepEqual(parseScores('1;2;3', 'columns'), { error: 'Line 1 has 3 cells; each row needs two.' });
  assert.deepEqual(parseScores('members\tnon-members\n0.9\t0.1\n0.8\t\n\t0.3', 'columns'), {
    member_scores: [0.9, 0.8],
    nonmember_scores: [0.1, 0.3],
  });
  assert.equal(parseClaim('{"op":').error, 'the claimed result is not a request of another section (JSON)');
  assert.equal(parseClaim('[1]').error, 'the claimed result is not a request of another section');
  const missing = requests({ ...defaults, claim: 'request' });
  assert.deepEqual(
    missing.map((item) => item.id),
    ['audit'],
  );
  assert.match(claimOf({ ...defaults, claim: 'request' }).problem, /“Audit this claim” link/);
});
