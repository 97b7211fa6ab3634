// Every section opens on its answer: at 1366×768 and 390×844, in light and dark, the answer panel
// (the headline, what kind of bound it is, its bracket) lies within the first screen on load and
// after one input of the first screen changes, and it changes in place; no row computed from
// example values nobody set is styled as the answer (those sit in one closed "Compare with" block,
// never inside the answer panel). A screenshot of each first screen goes to test-results/.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openPage, resultsDir, sessionForFile, waitForAllSections } from './helpers.mjs';

const pages = new Map();
after(() => Promise.all([...pages.values()].map(({ context }) => context.close())));
const session = sessionForFile();

const kViewports = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];
const kSchemes = ['light', 'dark'];
// Short numeric work where a section has some: the first screen is what is tested here.
const kLinks = {
  dpsgd: '#/dpsgd?v=0.2.0&duration=steps&steps=100&kmax=2',
  groupwise: '#/groupwise?v=0.2.0&samples=10000',
};
// Per section: one input among the first the question needs, and the text it gets.
const kEdits = {
  group: ['#group-k', '6'],
  composition: ['#composition-release-1-count', '50'],
  split: ['#split-count', '50'],
  calibrate: ['#calibrate-count', '20'],
  convert: ['#convert-rho', '0.25'],
  kmeans: ['#kmeans-iterations', '4'],
  dpsgd: ['#dpsgd-sampling', 'fixed_batch'],
  databases: ['#databases-a-count', '500'],
  groupwise: ['#groupwise-rho', '0.01'],
  audit: ['#audit-true-positives', '800'],
};
const kSections = Object.keys(kEdits);
const kTimeout = { timeout: 900_000 };

/** The shared page at `viewport` in `colorScheme`, opened on first use. */
async function pageAt(viewport, colorScheme) {
  const key = `${viewport.width}-${colorScheme}`;
  if (!pages.has(key)) pages.set(key, await openPage(session, { viewport, colorScheme }));
  return pages.get(key);
}

/** Waits until the section shown has answered and ended its numeric work. */
async function settled(page) {
  await waitForAllSections(page);
  await page.waitForFunction(
    () => !document.querySelector('section:not([hidden]) [data-numeric-status][data-state="running"]'),
    null,
    { timeout: 200_000 },
  );
}

/**
 * The first screen of section `name` as the page shows it: the answer panel's box in the viewport,
 * its headline and label, and where the rows computed from example values are and how they look.
 */
const firstScreen = (page, name) =>
  page.evaluate((name) => {
    const panel = document.querySelector(`[data-headline="${name}"]`);
    const box = panel.getBoundingClientRect();
    const results = document.querySelector(`[data-results="${name}"]`);
    const examples = [...results.querySelectorAll('tr[data-example="true"]')];
    const compared = examples.filter((row) => row.closest('details.compare-with'));
    return {
      top: box.top,
      bottom: box.bottom,
      height: innerHeight,
      headline: panel.querySelector('[data-summary]').textContent,
      proof: panel.querySelector('.proof:not([hidden])')?.dataset.proof ?? null,
      proofText: panel.querySelector('.proof:not([hidden])')?.textContent ?? '',
      bracket: panel.querySelector('.headline-bracket:not([hidden]), .bracket')?.textContent ?? null,
      examplesInPanel: panel.querySelectorAll('[data-example]').length,
      blocks: results.querySelectorAll('details.compare-with').length,
      openBlocks: results.querySelectorAll('details.compare-with[open]').length,
      // Example rows left in the answer's own table: only when the headline itself is the example.
      examplesBeside: examples.filter((row) => !row.closest('details.compare-with')).map((row) => row.dataset.row),
      // The largest weight any example's bound is drawn in (the answer's is 600).
      comparedWeight: Math.max(
        0,
        ...[...compared, ...results.querySelectorAll('.example-value')].flatMap((row) =>
          [...row.querySelectorAll('.bound')].map((bound) => Number(getComputedStyle(bound).fontWeight)),
        ),
      ),
    };
  }, name);

/** Asserts the answer panel of `shown` lies within the first screen and carries its label. */
function assertOnFirstScreen(shown, where) {
  assert.ok(shown.top >= 0, `${where}: the answer starts at ${shown.top} px, above the screen`);
  assert.ok(
    shown.bottom <= shown.height,
    `${where}: the answer ends at ${shown.bottom} px, below the first screen (${shown.height} px)`,
  );
  assert.ok(shown.headline.length > 0, `${where}: a headline`);
  assert.ok(shown.proof, `${where}: the headline says what kind of bound it is`);
  assert.equal(shown.examplesInPanel, 0, `${where}: no example inside the answer`);
  assert.ok(shown.blocks <= 1, `${where}: one "Compare with" block at most`);
  assert.equal(shown.openBlocks, 0, `${where}: "Compare with" is closed until asked for`);
  if (shown.examplesBeside.length > 0)
    assert.match(
      shown.headline,
      /^Example: /,
      `${where}: rows ${shown.examplesBeside} beside an answer that is not an example`,
    );
  assert.ok(shown.comparedWeight < 600, `${where}: an example's bound is not in the answer's type`);
}

for (const viewport of kViewports) {
  for (const scheme of kSchemes) {
    test(`every section opens on its answer at ${viewport.width}×${viewport.height}, ${scheme}`, kTimeout, async () => {
      const { page, problems } = await pageAt(viewport, scheme);
      mkdirSync(resultsDir, { recursive: true });
      for (const name of kSections) {
        await page.goto(`${session.url}${kLinks[name] ?? `#/${name}`}`);
        await page.waitForSelector(`section#${name}:not([hidden])`);
        await settled(page);
        const where = `${name} at ${viewport.width} px, ${scheme}`;
        const loaded = await firstScreen(page, name);
        assertOnFirstScreen(loaded, `${where}, on load`);
        await page.screenshot({
          path: path.join(resultsDir, `first-screen-${name}-${viewport.width}-${scheme}.png`),
        });
        const [input, text] = kEdits[name];
        if (await page.locator(input).evaluate((element) => element.matches('select')))
          await page.selectOption(input, text);
        else await page.fill(input, text);
        await page.waitForFunction(
          ({ name, before }) => document.querySelector(`[data-summary="${name}"]`)?.textContent !== before,
          { name, before: loaded.headline },
          { timeout: 200_000 },
        );
        await settled(page);
        const edited = await firstScreen(page, name);
        assert.notEqual(edited.headline, loaded.headline, `${where}: the headline follows the input`);
        assertOnFirstScreen(edited, `${where}, after ${input} = ${text}`);
      }
      assert.deepEqual(problems, []);
    });
  }
}

test('the numeric answers carry their bracket in the answer panel', kTimeout, async () => {
  const { page } = await pageAt(kViewports[0], 'light');
  await page.goto(`${session.url}${kLinks.dpsgd}`);
  await page.waitForSelector('section#dpsgd:not([hidden])');
  await settled(page);
  const shown = await firstScreen(page, 'dpsgd');
  assert.match(shown.bracket, /exact ε ∈ \[[\d.]+, [\d.]+\]/);
  assert.equal(shown.proof, 'proven');
  // The whole training counted in steps: Poisson sampling's tight accounting is proven.
  assert.match(shown.proofText, /^Proven upper bound/);
});

test('the landing asks "What do you want to know?" and each question leads to its section', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { viewport: { width: 390, height: 844 } });
  try {
    assert.equal(await page.locator('#ask h2').textContent(), 'What do you want to know?');
    const questions = await page.$$eval('#ask a', (links) =>
      links.map((link) => [link.getAttribute('href'), link.textContent]),
    );
    // The common questions of the issue, in words, each to the section that answers it.
    for (const [href, words] of [
      ['#/group', /several records/],
      ['#/dpsgd', /DP-SGD/],
      ['#/composition', /year of releases/],
      ['#/databases', /several databases/],
      ['#/calibrate', /noise/],
      ['#/group', /attacker/],
      ['#/audit', /attack flagged/],
    ])
      assert.ok(
        questions.some(([to, text]) => to === href && words.test(text)),
        `a question ${words} leading to ${href}`,
      );
    // The nav says what each section answers.
    assert.equal(await page.locator('nav a[href="#/dpsgd"]').textContent(), 'A training run (DP-SGD)');
    assert.equal(await page.locator('nav a[href="#/audit"]').textContent(), 'Audit an attack');
    // A question leads to its section and opens on its answer; the questions step aside.
    await page.click('#ask a[href="#/dpsgd"]');
    await page.waitForSelector('section#dpsgd:not([hidden])');
    await settled(page);
    assert.equal(await page.locator('#ask').isHidden(), true);
    assertOnFirstScreen(await firstScreen(page, 'dpsgd'), 'dpsgd reached from the landing');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('"More options" states its defaults, and opens for what a link sets inside it', kTimeout, async () => {
  const { page } = await pageAt(kViewports[0], 'light');
  await page.goto(`${session.url}#/group`);
  await page.waitForSelector('section#group:not([hidden])');
  await settled(page);
  const more = page.locator('[data-more-options="group"]');
  assert.equal(await more.evaluate((details) => details.open), false);
  assert.match(
    await more.locator('summary').textContent(),
    /defaults: .*Laplace noise scale b = 2; Gaussian noise std\. dev\. σ = 2/,
  );
  await page.goto(`${session.url}#/group?v=0.3.0&k=3&scale=4`);
  await page.waitForFunction(() => document.querySelector('[data-summary="group"]')?.textContent.includes('b = 4'));
  assert.equal(await more.evaluate((details) => details.open), true, 'b = 4 is shown, not hidden');
});
