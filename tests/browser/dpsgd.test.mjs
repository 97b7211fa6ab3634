// The DP-SGD groups section in headless Chromium: the answer and its methods, Sommer's (2021) three
// figures, a typed value updating the answer, calibration mode, the worked example with Cancel, a
// permalink that round-trips, Poisson sampling by default at the same q = B/N as fixed-size batches,
// and the RDP row labelled for what it is. Short trainings keep the numeric work
// quick. kShort is a link of version 0.1.0, whose default is fixed-size batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };
const kShort = '#/dpsgd?duration=steps&steps=200&kmax=3';
const answerEpsilon = (page) =>
  page.locator('[data-answer="dpsgd"] .answer-bound .bound').getAttribute('data-epsilon').then(Number);
const waitDone = (page) =>
  page.waitForSelector('[data-numeric-status="dpsgd-numeric"][data-state="done"]', { timeout: 100_000 });

test("the section answers with every method and draws Sommer's three figures", kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: kShort });
  try {
    await waitDone(page);
    await waitForAllSections(page);
    const epsilon = await answerEpsilon(page);
    assert.ok(epsilon > 0 && Number.isFinite(epsilon));
    assert.match(await page.textContent('[data-answer="dpsgd"]'), /exact ε ∈ \[/);
    for (const row of ['pld', 'rdp-overapprox', 'generic']) {
      assert.equal(
        await page.locator(`[data-results="dpsgd"] tr[data-row="${row}"]`).getAttribute('data-ok'),
        'true',
        row,
      );
    }
    assert.match(await page.textContent('[data-results="dpsgd"] tr[data-row="rdp-overapprox"]'), /someone will prove/);
    const charts = page.locator('[data-plots="dpsgd"] figure.chart');
    assert.equal(await charts.count(), 3);
    for (let i = 0; i < 3; i += 1)
      assert.ok((await charts.nth(i).locator('svg').count()) > 0, `figure ${i} has a plot`);
    assert.ok((await charts.nth(2).locator('details.data-table').count()) === 1, 'figures have a table view');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe-core: no violation in the section at 1280 and 390 px, light and dark', kTimeout, async () => {
  // One page, resized and switched to dark (the page's colours are CSS only): the same section
  // laid out and styled as a page opened at that width and in that scheme.
  const { page, context, problems } = await openPage(session, { hash: kShort, bypassCSP: true });
  try {
    await waitDone(page);
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [390, 'dark'],
    ]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      // Charts are redrawn at the new width.
      await page.waitForFunction(
        (width) =>
          [...document.querySelectorAll('#dpsgd svg.dp-plot')].every(
            (svg) => Number(svg.getAttribute('width')) < width,
          ),
        width,
      );
      await waitForAllSections(page);
      await page.$$eval('#dpsgd details', (details) =>
        details.forEach((element) => {
          element.open = true;
        }),
      );
      assert.deepEqual(await axeViolations(page, '#dpsgd'), [], `${width} px ${colorScheme}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('typing a group size updates the answer', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: kShort });
  try {
    await waitDone(page);
    const before4 = await answerEpsilon(page);
    await page.fill('#dpsgd-group-size', '2');
    await page.waitForFunction((previous) => {
      const bound = document.querySelector('[data-answer="dpsgd"] .answer-bound .bound');
      return bound && Number(bound.dataset.epsilon) < previous;
    }, before4);
    assert.match(await page.textContent('[data-answer="dpsgd"]'), /group of k = 2/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('calibration mode shows the noise multiplier and the rule of thumb', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: `${kShort}&mode=calibrate&target_epsilon=2` });
  try {
    await waitDone(page);
    const sigma = Number(
      await page.locator('[data-answer="dpsgd"] .answer-sigma').getAttribute('data-noise-multiplier'),
    );
    assert.ok(sigma > 0);
    const epsilon = await answerEpsilon(page);
    assert.ok(epsilon <= 2 && epsilon >= 0.99 * 2, `calibrated ε ${epsilon}`);
    assert.match(await page.textContent('[data-results="dpsgd"] tr[data-row="rule-of-thumb"]'), /not a bound/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the worked example fills the form and can be cancelled', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: kShort });
  try {
    await waitDone(page);
    await page.click('#dpsgd button[data-preset]');
    assert.equal(await page.inputValue('#dpsgd-group-size'), '8');
    assert.equal(await page.inputValue('#dpsgd-epochs'), '60');
    await page.waitForSelector('[data-numeric-status="dpsgd-numeric"][data-state="running"]');
    await page.click('[data-numeric-status="dpsgd-numeric"] button.cancel');
    await page.waitForSelector('[data-numeric-status="dpsgd-numeric"][data-state="cancelled"]');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a permalink reproduces the inputs and the answer', kTimeout, async () => {
  const readInputs = (page) =>
    page.$$eval('#dpsgd form[data-section] [name]', (controls) =>
      controls.map((control) => [control.name, control.value]),
    );
  const first = await openPage(session, { hash: kShort });
  let hash;
  let inputs;
  let answer;
  try {
    await waitDone(first.page);
    const previous = await answerEpsilon(first.page);
    await first.page.fill('#dpsgd-noise-multiplier', '1.7');
    await first.page.waitForFunction((value) => {
      const bound = document.querySelector('[data-answer="dpsgd"] .answer-bound .bound');
      return bound && Number(bound.dataset.epsilon) < value;
    }, previous);
    await waitDone(first.page);
    await waitForAllSections(first.page);
    hash = await first.page.evaluate(() => location.hash);
    inputs = await readInputs(first.page);
    answer = await first.page.textContent('[data-answer="dpsgd"]');
    assert.deepEqual(first.problems, []);
  } finally {
    await first.context.close();
  }
  const second = await openPage(session, { hash });
  try {
    await waitDone(second.page);
    assert.deepEqual(await readInputs(second.page), inputs);
    assert.equal(await second.page.textContent('[data-answer="dpsgd"]'), answer);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.context.close();
  }
});

test('fixed-size batches and Poisson sampling take the same N and B (q = B/N)', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, {
    hash: '#/dpsgd?v=0.3.0&sampling=fixed_batch&dataset_size=60000&batch_size=256&duration=steps&steps=200&kmax=2',
  });
  try {
    await waitDone(page);
    const fixed = await answerEpsilon(page);
    await page.selectOption('#dpsgd-sampling', 'poisson');
    await page.waitForFunction(() =>
      document.querySelector('[data-summary="dpsgd"]').textContent.includes('Poisson sampling'),
    );
    await waitDone(page);
    // The same rate: Binomial(k, q) and Hypergeometric(N, k, B) weights differ by O(k/N), so the two
    // analyses of one training agree closely.
    const poisson = await answerEpsilon(page);
    assert.ok(Math.abs(poisson / fixed - 1) < 0.01, `Poisson ${poisson} vs fixed ${fixed}`);
    assert.match(await page.textContent('[data-answer="dpsgd"]'), /q = B\/N = 0\.0042667/);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /sampling_rate/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test(
  'the RDP row: proven for one example under Poisson sampling, an over-approximation for groups',
  kTimeout,
  async () => {
    const rowLabel = (page) =>
      page.locator('[data-results="dpsgd"] tr[data-row="rdp-overapprox"] .row-label').textContent();
    const rowText = (page) => page.locator('[data-results="dpsgd"] tr[data-row="rdp-overapprox"]').textContent();
    const { page, context, problems } = await openPage(session, {
      hash: '#/dpsgd?v=0.2.0&duration=steps&steps=100&group_size=1&kmax=1',
    });
    try {
      await waitDone(page);
      assert.equal(await rowLabel(page), 'Standard RDP accountant (proven)');
      assert.match(
        await rowText(page),
        /standard RDP accountant of DP-SGD \(Mironov, Talwar, Zhang 2019\): a proven upper bound/,
      );
      assert.doesNotMatch(await rowText(page), /someone will prove/);
      // Which series: dp_accounting 0.6.0's, not older TF Privacy's.
      assert.match(await rowText(page), /dp_accounting 0\.6\.0/);
      await page.fill('#dpsgd-group-size', '3');
      await page.waitForFunction(() =>
        /not proven for groups/.test(
          document.querySelector('[data-results="dpsgd"] tr[data-row="rdp-overapprox"] .row-label')?.textContent,
        ),
      );
      assert.match(await rowText(page), /someone will prove that one day/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'a bracket wider than the accuracy asked for says so and why, as the Composition section does',
  kTimeout,
  async () => {
    // Two steps of a group of 5 with fixed-size batches (N = 10⁹, B = 2,042,700) at δ ≈ 1.2 × 10⁻⁹: the
    // bound on the rounding error of their FFT composition dominates near the smallest certifiable δ and
    // the core cannot narrow the bracket to the default accuracy (4 × relative_accuracy 5 × 10⁻⁴ = 0.2%,
    // docs/API.md). (One step has no FFT, and its bracket is narrow.)
    const hash =
      '#/dpsgd?sampling=fixed_batch&dataset_size=1000000000&batch_size=2042700&duration=steps&steps=2' +
      '&group_size=5&noise_multiplier=0.4797840944784622&delta=1.2364895404313976e-09&kmax=1&mode=forward';
    const { page, context, problems } = await openPage(session, { hash });
    try {
      await waitDone(page);
      const bracket = page.locator('[data-answer="dpsgd"] .bracket');
      const [lower, upper] = await Promise.all(['data-lower', 'data-upper'].map((name) => bracket.getAttribute(name)));
      assert.ok((Number(upper) - Number(lower)) / Number(upper) > 0.002, `bracket [${lower}, ${upper}]`);
      const wide =
        /The bracket \[epsilon_lower, epsilon_upper\] is [\d.]+% wide, more than the requested accuracy allows/;
      assert.match(await page.textContent('[data-answer="dpsgd"] [data-bracket-note]'), wide);
      assert.match(await page.textContent('[data-results="dpsgd"] tr[data-row="pld"] .note'), wide);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'without noise the section says there is no meaningful guarantee, and draws nothing it cannot',
  kTimeout,
  async () => {
    const { page, context, problems } = await openPage(session, { hash: '#/dpsgd' });
    try {
      await waitDone(page);
      await page.fill('#dpsgd-noise-multiplier', '0');
      await page.waitForFunction(() =>
        /no meaningful guarantee \(no finite ε at δ = 10⁻⁵\)/.test(
          document.querySelector('[data-summary="dpsgd"]')?.textContent,
        ),
      );
      await waitDone(page);
      await waitForAllSections(page);
      // N = 60000, B = 256, k = 4, 60 epochs: P = 1 − (1 − q)^(k·T) rounds to 1.
      assert.match(
        await page.textContent('[data-answer="dpsgd"]'),
        /no finite ε at this δ .*P = 1 − Π \(1 − q\)\^\(k·T\) = 1\./s,
      );
      assert.equal(await page.locator('[data-plots="dpsgd"] figure.chart').count(), 0);
      assert.match(await page.textContent('[data-results="dpsgd"]'), /need noise and a sampling rate above 0/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);
