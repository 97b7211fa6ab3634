// Inputs persist for the visit and links stay reproducible: a changed input survives a reload and a
// trip through other sections (the address holds the section shown, sessionStorage the others); a
// link carries the version that wrote it and only the inputs set, an older link gets its version's
// defaults, and a newer one says so. The defaults of this version are the ones recorded in
// section-defaults.json, so that changing a default without a new version (web/app/versions.js) fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { goToSection, openPage, sessionForFile, waitForAllSections, waitForBound } from './helpers.mjs';

const session = sessionForFile();

const kTimeout = { timeout: 180_000 };
const kRecorded = JSON.parse(readFileSync(new URL('./section-defaults.json', import.meta.url), 'utf8'));

test('a changed input survives a reload, in-page links and going back and forth', kTimeout, async () => {
  const { page, context, problems } = await openPage(session);
  try {
    await page.fill('#group-k', '9');
    await waitForBound(page, 'group', 'pure', `ε ≤ ${9 * 0.5}`);
    await goToSection(page, 'split');
    await page.fill('#split-count', '40');
    await page.waitForFunction(() => location.hash === '#/split?v=0.3.0&count=40');
    // Reloaded on another section: the section shown from the address, the others from the visit.
    await page.reload();
    await waitForAllSections(page);
    assert.equal(await page.inputValue('#split-count'), '40');
    await goToSection(page, 'group');
    assert.equal(await page.inputValue('#group-k'), '9');
    assert.equal(await page.evaluate(() => location.hash), '#/group?v=0.3.0&k=9');
    await page.reload();
    await waitForAllSections(page);
    assert.equal(await page.inputValue('#group-k'), '9');
    await goToSection(page, 'split');
    assert.equal(await page.inputValue('#split-count'), '40');
    await page.goBack();
    await page.waitForSelector('#group:not([hidden])');
    assert.equal(await page.inputValue('#group-k'), '9');
    await page.goForward();
    await page.waitForSelector('#split:not([hidden])');
    assert.equal(await page.inputValue('#split-count'), '40');
    // A reload aborts the requests still under way (the icon): not a problem of the page.
    assert.deepEqual(
      problems.filter((problem) => !/net::ERR_ABORTED$/.test(problem)),
      [],
    );
  } finally {
    await context.close();
  }
});

test('a link of 0.1.0 (no version) is read with the defaults of 0.1.0', kTimeout, async () => {
  const { page, context, problems } = await openPage(session, { hash: '#/dpsgd?group_size=2&duration=steps&steps=50' });
  try {
    // DP-SGD groups defaulted to fixed-size batches in 0.1.0, add/remove neighbours and a Poisson
    // rate of 0.01 until 0.2.0 (web/app/versions.js).
    assert.equal(await page.inputValue('#dpsgd-sampling'), 'fixed_batch');
    assert.equal(
      await page.evaluate(() => location.hash),
      '#/dpsgd?v=0.3.0&sampling=fixed_batch&duration=steps&steps=50&group_size=2&relation=add_remove&sampling_rate=0.01',
    );
    assert.equal(await page.locator('#dpsgd [data-notice]').isHidden(), true, 'same answers: nothing to say');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a link of a later version says that this page is older; a malformed version is refused', kTimeout, async () => {
  const { page, context } = await openPage(session, { hash: '#/group?v=9.0.0&k=3' });
  try {
    assert.equal(await page.inputValue('#group-k'), '3');
    assert.match(
      await page.locator('#group [data-notice]').textContent(),
      /dpcalc 9\.0\.0, a newer version than this page \(0\.3\.0\)/,
    );
    await page.goto(`${session.url}#/group?v=latest&k=3`);
    await page.waitForFunction(() =>
      /is not a version of dpcalc/.test(document.querySelector('#group [data-notice]')?.textContent),
    );
  } finally {
    await context.close();
  }
});

test("every section's defaults are the ones recorded for this version", kTimeout, async () => {
  const { page, context } = await openPage(session);
  try {
    await page.waitForFunction(() => document.querySelectorAll('section.calculator').length === 9);
    const defaults = await page.$$eval('section.calculator', (sections) =>
      Object.fromEntries(
        sections.map((section) => [
          section.dataset.section,
          Object.fromEntries(
            [...section.querySelectorAll('form [name]')].map((control) => [
              control.name,
              control.tagName === 'SELECT'
                ? [...control.options].find((option) => option.defaultSelected)?.value
                : control.defaultValue,
            ]),
          ),
        ]),
      ),
    );
    assert.equal(Object.keys(defaults).length, 9);
    assert.equal(kRecorded.version, '0.3.0', 'update section-defaults.json with the version');
    assert.deepEqual(
      defaults,
      kRecorded.defaults,
      'a default changed: record the old one in web/app/versions.js (previousDefaults) with a new version',
    );
  } finally {
    await context.close();
  }
});
