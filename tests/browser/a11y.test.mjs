// Accessibility: axe-core finds no violation at 1280 and 390 px, in light and dark, on
// every section (all of them at 1280 px light, the richest elsewhere); a result region announces
// one summary line, not its whole table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 60_000 };
// Every section at 1280 px in light; the richest (composition: rows that do not apply, the PLD row
// with its progress, both charts, cards at 390 px) in the other three.
const combinations = [
  { width: 1280, colorScheme: 'light', sections: ['group', 'split', 'calibrate', 'convert', 'kmeans', 'composition'] },
  { width: 1280, colorScheme: 'dark', sections: ['composition'] },
  { width: 390, colorScheme: 'dark', sections: ['composition'] },
];

test('axe-core: no violation at 1280 and 390 px, in light and dark', { timeout: 180_000 }, async () => {
  const { page, context, problems } = await openPage(session, { bypassCSP: true });
  try {
    for (const { width, colorScheme, sections } of combinations) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      for (const name of sections) {
        await page.goto(`${session.url}#/${name}${name === 'composition' ? '?kind=gaussian' : ''}`);
        await page.waitForSelector(`section#${name}:not([hidden])`);
        if (name === 'composition')
          await page.waitForSelector('[data-numeric-status="composition-pld"][data-state="done"]');
        await waitForAllSections(page);
        // The chart tables and the embed snippet are checked open too.
        await page.$$eval(`#${name} details`, (details) =>
          details.forEach((element) => {
            element.open = true;
          }),
        );
        assert.deepEqual(await axeViolations(page), [], `${name} at ${width} px, ${colorScheme}`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a result region announces one summary line, not its table', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    const live = await page.$$eval('#group [aria-live]', (elements) =>
      elements.map((element) => element.dataset.summary),
    );
    assert.deepEqual(live, ['group'], 'only the summary line is live');
    assert.equal(await page.locator('[data-results="group"]').getAttribute('aria-live'), null);
    await page.fill('#group-k', '6');
    await page.waitForFunction(() =>
      // Only k was set: the guarantee per record is the form's example, and the headline says so.
      document
        .querySelector('[data-summary="group"]')
        .textContent.startsWith('Example: A group of 6 records: ε ≤ 3, δ ≤'),
    );
    assert.ok((await page.locator('[data-summary="group"]').textContent()).length < 160);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
