// Accessibility (issue 7): axe-core finds no violation at 1280 and 390 px, in light and dark, on
// every section (all of them at 1280 px light, the two richest elsewhere); a result region announces
// one summary line, not its whole table.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { goToSection, openPage, repoRoot, startSession, waitForAllSections } from './helpers.mjs';

let session;
before(async () => { session = await startSession(); });
after(async () => { await session?.close(); });

const kTimeout = { timeout: 120_000 };
const axePath = path.join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js');

/** axe-core's violations on the page as it is, one line each (rule, impact, first targets). */
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations);
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')}`);
}

const combinations = [
  { width: 1280, colorScheme: 'light', sections: ['group', 'composition', 'split', 'calibrate', 'convert', 'kmeans'] },
  { width: 1280, colorScheme: 'dark', sections: ['group', 'composition'] },
  { width: 390, colorScheme: 'light', sections: ['group', 'composition'] },
  { width: 390, colorScheme: 'dark', sections: ['group', 'composition'] },
];

for (const { width, colorScheme, sections } of combinations) {
  test(`axe-core: no violation at ${width} px, ${colorScheme}`, kTimeout, async () => {
    const { page, context, problems } = await openPage(session, { colorScheme, viewport: { width, height: 900 }, bypassCSP: true });
    try {
      for (const name of sections) {
        if (name !== 'group') await goToSection(page, name);
        if (name === 'composition') {
          await page.click('#composition button[data-preset]');
          await page.waitForSelector('[data-numeric-status="composition-pld"][data-state="done"]');
          await waitForAllSections(page);
        }
        // The chart tables and the embed snippet are checked open too.
        await page.$$eval(`#${name} details`, (details) => details.forEach((element) => { element.open = true; }));
        assert.deepEqual(await axeViolations(page), [], `${name} at ${width} px, ${colorScheme}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test('a result region announces one summary line, not its table', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    const live = await page.$$eval('#group [aria-live]', (elements) => elements.map((element) => element.dataset.summary));
    assert.deepEqual(live, ['group'], 'only the summary line is live');
    assert.equal(await page.locator('[data-results="group"]').getAttribute('aria-live'), null);
    await page.fill('#group-k', '6');
    await page.waitForFunction(() => document.querySelector('[data-summary="group"]').textContent.startsWith('A group of 6 records: pure DP ε ≤ 3;'));
    assert.ok((await page.locator('[data-summary="group"]').textContent()).length < 160);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
