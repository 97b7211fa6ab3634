// Back and Forward walk through the inputs a person changed, not only through the sections: an
// edit after a pause is a step of the browser's history (edits in quick succession are one), and
// going back puts the inputs of that step in the form and answers them again, where the reader is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, sessionForFile, waitForAllSections } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 120_000 };
const kPause = 1200; // longer than the page's 1 s between two steps

/** The group size in the form and in the address. */
async function shown(page) {
  return {
    k: await page.locator('#group-k').inputValue(),
    hash: await page.evaluate(() => location.hash),
  };
}

/** Waits until the group headline has been computed for k = `k`. */
async function answeredFor(page, k) {
  await page.waitForFunction((k) => document.querySelector('#group-k').value === k, k);
  await waitForAllSections(page);
}

test('Back and Forward walk through input changes, edits in quick succession being one step', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/group' });
  try {
    const start = await shown(page);
    await page.fill('#group-k', '2');
    await page.waitForTimeout(kPause);
    // "1", then "12" at once: one step.
    await page.fill('#group-k', '1');
    await page.fill('#group-k', '12');
    await waitForAllSections(page);
    const twelve = await page.locator('[data-summary="group"]').textContent();
    assert.match((await shown(page)).hash, /[?&]k=12(&|$)/);
    await page.goBack();
    await answeredFor(page, '2');
    assert.match((await shown(page)).hash, /[?&]k=2(&|$)/);
    await page.goBack();
    await answeredFor(page, start.k);
    assert.deepEqual(await shown(page), start);
    await page.goForward();
    await answeredFor(page, '2');
    await page.goForward();
    await answeredFor(page, '12');
    assert.equal(await page.locator('[data-summary="group"]').textContent(), twelve, 'the answer of that step again');
    // Walking through inputs does not move the reader to the section's top.
    assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'H2');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
