// The headline of every section answers the question asked: the person's own guarantee type first,
// at the δ they gave; a number computed from inputs they did not set is marked as an example and
// kept out of the headline. Expected numbers: the closed forms named beside each, by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 180_000 };

/** Opens `hash`, waits for the section (and its numeric work) and returns its headline and row marks. */
async function headlineOf(hash) {
  const { page, context, problems } = await openPage(session, { hash });
  try {
    await waitForAllSections(page);
    await page.waitForFunction(
      () => !document.querySelector('section:not([hidden]) [data-numeric-status][data-state="running"]'),
      null,
      { timeout: 150_000 },
    );
    const name = await page.locator('section.calculator:not([hidden])').getAttribute('id');
    const headline = await page.locator(`[data-summary="${name}"]`).textContent();
    const examples = await page.$$eval(`[data-results="${name}"] tr[data-example="true"]`, (rows) =>
      rows.map((row) => row.dataset.row),
    );
    return { headline, examples, problems };
  } finally {
    await context.close();
  }
}

test('group privacy: the (ε, δ) asked about, at its δ, and no number from untouched defaults', kTimeout, async () => {
  const { headline, examples, problems } = await headlineOf('#/group?k=8&epsilon=1&delta=1e-6');
  // Vadhan 2017, Lemma 2.2: (kε, δ(e^{kε} − 1)/(e^ε − 1)) = (8, 1e-6 · 2979.958/1.718282 = 0.00173427…),
  // δ rounded up to 5 digits.
  assert.equal(headline, 'A group of 8 records: ε ≤ 8, δ ≤ 0.0017343 (from (1, 10⁻⁶)-DP per record).');
  assert.doesNotMatch(headline, /ρ|Gaussian|pure/);
  // ρ, b and σ were never set: their rows are marked, the (ε, δ) rows are not.
  assert.deepEqual(examples, [
    'zcdp',
    'laplace',
    'gaussian',
    'gaussian-zcdp',
    'gaussian-generic',
    'gaussian-composition',
    'picked',
  ]);
  assert.deepEqual(problems, []);
});

test('group privacy: an ε without a δ is a pure question; the default δ is only an example', kTimeout, async () => {
  const { headline, examples } = await headlineOf('#/group?k=3&epsilon=0.5');
  // Dwork & Roth 2014, Thm 2.2: kε = 1.5.
  assert.equal(headline, 'A group of 3 records: ε ≤ 1.5 (from 0.5-DP per record).');
  assert.ok(examples.includes('approx') && !examples.includes('pure'), String(examples));
});

test('group privacy: a zCDP question gets a zCDP headline', kTimeout, async () => {
  const { headline, examples } = await headlineOf('#/group?k=3&rho=0.1');
  // Bun & Steinke 2016, Prop 1.9: k²ρ = 9 × 0.1 = 0.9.
  assert.equal(headline, 'A group of 3 records: ρ ≤ 0.9 (from ρ = 0.1 per record).');
  assert.ok(examples.includes('approx') && examples.includes('pure') && !examples.includes('zcdp'));
});

test('several databases: pure releases headline the pure answers, 365 and 730', kTimeout, async () => {
  const { headline, problems } = await headlineOf(
    '#/databases?a_count=1000&a_epsilon=1&a_delta=0&constraint=at_most&m=365&method=optimal&delta=1e-5',
  );
  // Hartmann, Bindschaedler, West 2022, Sec. V-A with basic composition: a person in at most 365 of
  // the databases is charged 365 × ε = 365 (unbounded) and 2 × 365 × ε = 730 (bounded, two footprints).
  assert.match(
    headline,
    /^A person in at most 365 of the 1,000 databases: pure ε ≤ 365 \(unbounded\), ε ≤ 730 \(bounded\), by basic composition; at δ = 10⁻⁵: ε ≤ [\d.]+ \(unbounded\), ε ≤ [\d.]+ \(bounded\), by optimal composition \(exact\)\.$/,
  );
  assert.deepEqual(problems, []);
});

test(
  'composition: pure mechanisms give the pure total first, then the smallest ε at the δ asked',
  kTimeout,
  async () => {
    const { headline } = await headlineOf('#/composition?count=100&epsilon=0.1&item_delta=0&delta=1e-5');
    // Basic composition (Dwork & Roth 2014, Thm 3.16): 100 × 0.1 = 10.
    assert.match(
      headline,
      /^100 mechanisms, each 0\.1-DP: pure ε ≤ 10, by basic composition; ε ≤ [\d.]+ at δ = 10⁻⁵, by /,
    );
  },
);

test('conversions: the conversion asked about, not the example beside it', kTimeout, async () => {
  const { headline, examples } = await headlineOf('#/convert?epsilon=2');
  // Bun & Steinke 2016, Prop 1.4: ε-DP is (ε²/2)-zCDP: 2.
  assert.equal(headline, 'ε = 2 gives ρ ≤ 2.');
  assert.deepEqual(examples, ['bun-steinke', 'canonne-kamath-steinke']);
});

test('k-means: the algorithm spends a pure ε; the comparison δ is said to be an example', kTimeout, async () => {
  const { headline } = await headlineOf('#/kmeans?epsilon=1&iterations=5');
  // 2T = 10 releases at ε/(2T) = 0.1 each: basic composition spends exactly ε = 1.
  assert.match(
    headline,
    /^Each release: ε = 0\.1; all 10 releases: pure ε ≤ 1, by basic composition; ε ≤ [\d.]+ at δ = 10⁻⁶, by .*\(at the example δ, not set by you\)\.$/,
  );
});

test(
  'DP-SGD groups: Poisson sampling by default; fixed-size batches say their assumption in the headline',
  kTimeout,
  async () => {
    const poisson = await headlineOf('#/dpsgd?v=0.2.0&duration=steps&steps=100&group_size=2');
    assert.match(
      poisson.headline,
      /^A group of 2 examples: ε ≤ [\d.]+ at δ = 10⁻⁵ after 100 steps \(Poisson sampling, tight accounting\)\.$/,
    );
    const fixed = await headlineOf('#/dpsgd?v=0.2.0&sampling=fixed_batch&duration=steps&steps=100&group_size=2');
    assert.match(
      fixed.headline,
      /after 100 steps, assuming the worst-case property for fixed-size batches \(not proven; Poisson sampling is\)\.$/,
    );
  },
);

test('group-wise relative error: what is proven first, the estimate labelled as one', kTimeout, async () => {
  const { headline } = await headlineOf('#/groupwise?samples=10000&counts=1000&group=1000');
  assert.match(
    headline,
    /^Every group: proven ρ ≤ 0\.005, ε ≤ [\d.]+ at δ = 10⁻⁶\. Group of 1000: estimated ρ ≈ [\d.× ⁻⁰-⁹]+ \(numerical estimate, not a proof\)\.$/,
  );
});
