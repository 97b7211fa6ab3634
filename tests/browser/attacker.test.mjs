// "What an attacker can do" in headless Chromium: the panel's sentences (each number an upper bound,
// rounded up, said with "at most") and its ROC plot for a group, a composition and a DP-SGD group;
// the log axes; the sentences in the LaTeX export and the curve in the export bar's CSV; axe-core
// with the panel open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { axeViolations, openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 150_000 };

/** Waits for the panel of `section` to have its answer; returns its sentences. */
async function panelSentences(page, section) {
  await page.waitForSelector(`[data-attacker="${section}"][data-ready="true"] [data-attacker-sentences]`, {
    timeout: 120_000,
  });
  await waitForAllSections(page);
  return page.$$eval(`[data-attacker="${section}"] [data-attacker-sentences] p`, (ps) => ps.map((p) => p.textContent));
}

/** The legend of the panel's plot, and whether the plot is drawn. */
async function panelPlot(page, section) {
  const figure = page.locator(`[data-attacker="${section}"] figure.chart`);
  await figure.locator('svg[role="img"]').waitFor();
  return {
    legend: await figure.locator('.legend li').allTextContents(),
    csv: await figure.locator('[data-csv]').count(),
    rows: await figure.locator('details.data-table tbody tr').count(),
  };
}

const percents = (text) => [...text.matchAll(/at most ([\d.]+)%/g)].map((match) => Number(match[1]));

test(
  'a group: what a test of the group can do, beside one record, in words and as an ROC curve',
  kTimeout,
  async () => {
    // The form's example: (ε, δ) = (0.5, 10⁻⁶) per record, a group of k = 4: (2, 9.8487 × 10⁻⁶) by group
    // privacy. The curve of (ε, δ) is f(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)) (Kairouz, Oh,
    // Viswanath 2015, Thm 2.1), so at α = 10⁻³ the TPR is at most δ + e^ε α: 0.0073989 for the group
    // (0.74%), 0.0016497 for one record (0.17%); the advantage (e^ε − 1 + 2δ)/(e^ε + 1) = 0.76160
    // (77 points). mpmath, 30 digits.
    const { page, context, problems } = await openPage(session, { hash: '#/group' });
    try {
      const [flags, advantage, ...rest] = await panelSentences(page, 'group');
      assert.equal(
        flags,
        'Any test of whether a group of 4 records was in the data that wrongly flags at most 1 in 1,000 groups that were not catches at most 0.74% of those that were (for one record alone: at most 0.17%).',
      );
      assert.equal(
        advantage,
        'Whatever threshold it uses, such a test flags at most 77 percentage points more of the groups that were in the data than of those that were not.',
      );
      // δ > 0 lets rare outcomes give the attacker certainty: no posterior sentence that says nothing.
      assert.deepEqual(rest, []);
      const plot = await panelPlot(page, 'group');
      assert.deepEqual(plot.legend, [
        'best test against a group of 4 records (at most)',
        'best test against one record (at most)',
        'random guess',
      ]);
      assert.equal(plot.csv, 1);
      assert.ok(plot.rows >= 200, `the table has every point of the curve (${plot.rows})`);
      // k = 1: the statement is about a person, and there is no second curve.
      await page.fill('#group-k', '1');
      await page.waitForFunction(() =>
        document
          .querySelector('[data-attacker="group"] [data-attacker-sentences]')
          ?.textContent.startsWith('Any membership test'),
      );
      const [one] = await panelSentences(page, 'group');
      assert.equal(
        one,
        'Any membership test that wrongly flags at most 1 in 1,000 people who were not in the data catches at most 0.17% of those who were.',
      );
      assert.equal((await panelPlot(page, 'group')).legend.length, 2);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test('a pure guarantee bounds the posterior; the log axes show the small rates', kTimeout, async () => {
  // Pure ε = 0.5 per record, k = 2: ε = 1. With a coin-toss prior the largest posterior is
  // e^ε/(e^ε + 1) = 0.73106 (73.2% rounded up to two digits: 74%).
  const { page, context, problems } = await openPage(session, { hash: '#/group?k=2&epsilon=0.5&delta=0' });
  try {
    const sentences = await panelSentences(page, 'group');
    assert.equal(sentences.length, 3);
    assert.equal(
      sentences[2],
      'Someone who thought it a coin toss whether this group of 2 records was in the data can become at most 74% sure that it was.',
    );
    await page.click('[data-attacker="group"] button[data-axes="log"]');
    const figure = page.locator('[data-attacker="group"] figure.chart');
    await figure.locator('svg[role="img"]').waitFor();
    assert.match(await figure.locator('figcaption').textContent(), /log axes/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a composition: the exact Gaussian curve of the composed mechanisms', kTimeout, async () => {
  // 100 Gaussian mechanisms σ = 20, Δ = 1: μ = √100/20 = 0.5 (Dong, Roth, Su 2019, Cor. 3.3); at
  // α = 10⁻³ the TPR is 1 − Φ(Φ⁻¹(1 − α) − μ) = 0.0047956 (0.48%); the advantage 2Φ(μ/2) − 1 =
  // 0.19741 (20 points). mpmath, 30 digits.
  const { page, context, problems } = await openPage(session, { hash: '#/composition?kind=gaussian&sigma=20' });
  try {
    const [flags, advantage] = await panelSentences(page, 'composition');
    assert.equal(
      flags,
      'Any membership test that wrongly flags at most 1 in 1,000 people who were not in the data catches at most 0.48% of those who were.',
    );
    assert.match(
      advantage,
      /flags at most 20 percentage points more of the people who were in the data than of those who were not\.$/,
    );
    assert.match(await page.textContent('[data-attacker="composition"] .note'), /Gaussian differential privacy/i);
    const plot = await panelPlot(page, 'composition');
    assert.deepEqual(plot.legend, ['best test against one record (at most)', 'random guess']);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('DP-SGD with groups: the group of examples beside one example', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/dpsgd?duration=steps&steps=200&kmax=3' });
  try {
    const [flags] = await panelSentences(page, 'dpsgd');
    assert.match(
      flags,
      /^Any test of whether a group of 4 records was in the data that wrongly flags at most 1 in 1,000 groups that were not catches at most [\d.]+% of those that were \(for one record alone: at most [\d.]+%\)\.$/,
    );
    const [group, one] = percents(flags);
    assert.ok(group > one, `the group (${group}%) is easier to detect than one example (${one}%)`);
    const plot = await panelPlot(page, 'dpsgd');
    assert.equal(plot.legend.length, 3);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the LaTeX export says what an attacker can do', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    const [sentence] = await panelSentences(page, 'group');
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#group [data-export-action="latex"]'),
    ]);
    const latex = await readFile(await file.path(), 'utf8');
    assert.match(latex, /\\textbf\{What an attacker can do\.\}/);
    assert.ok(latex.includes(sentence.replace('%', '\\%').replace('%)', '\\%)')), latex);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the export bar's curve CSV is the panel's whole trade-off curve, with either axes shown", kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    await panelSentences(page, 'group');
    const downloaded = async (selector) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
      return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
    };
    const chart = await downloaded('[data-attacker="group"] figure.chart [data-csv]');
    const exported = await downloaded('#group [data-export-action="curve"]');
    assert.equal(exported.name, 'dpcalc-group-attacker.csv');
    assert.equal(exported.text, chart.text);
    const [header, ...lines] = exported.text.trim().split('\n');
    assert.match(header, /^series,false-positive rate \(non-members wrongly flagged\),.*true-positive rate/);
    // The core's curve has at least 200 points (docs/API.md, op 'tradeoff'), from a rate of 0.
    const group = lines.filter((line) => line.startsWith('best test against a group'));
    assert.ok(group.length >= 200, `${group.length} points`);
    assert.ok(group.some((line) => line.split(',')[1] === '0'));
    // With log axes shown (they cannot show a rate of 0) the export still has the whole curve.
    await page.click('[data-attacker="group"] button[data-axes="log"]');
    await page.locator('[data-attacker="group"] figure.chart figcaption:has-text("log axes")').waitFor();
    assert.equal((await downloaded('#group [data-export-action="curve"]')).text, exported.text);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const [width, colorScheme, hash] of [
  [1280, 'light', '#/group'],
  [390, 'dark', '#/group'],
  [1280, 'dark', '#/composition?kind=gaussian&sigma=20'],
]) {
  const section = hash.slice(2).split('?')[0];
  test(
    `axe-core: no violation with the panel open, its table and log axes shown (${section}, ${width} px, ${colorScheme})`,
    kTimeout,
    async () => {
      const { page, context, problems } = await openPage(session, {
        hash,
        colorScheme,
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      try {
        await panelSentences(page, section);
        await page.click(`[data-attacker="${section}"] button[data-axes="log"]`);
        await page.locator(`[data-attacker="${section}"] svg[role="img"]`).waitFor();
        await page.$$eval(`[data-attacker="${section}"] details`, (details) =>
          details.forEach((element) => {
            element.open = true;
          }),
        );
        assert.deepEqual(await axeViolations(page), []);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    },
  );
}
