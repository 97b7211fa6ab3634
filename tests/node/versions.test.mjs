// The version links carry (web/app/versions.js): it is package.json's, the history ends with it, and
// an older link gets the defaults of its own version and a notice only when answers changed since.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compareVersions, history, kVersion, linkVersion } from '../../web/app/versions.js';

const packageVersion = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

test("links carry package.json's version, and the history records it last", () => {
  assert.equal(kVersion, packageVersion);
  assert.equal(history.at(-1).version, kVersion);
  for (let i = 1; i < history.length; i += 1)
    assert.ok(compareVersions(history[i - 1].version, history[i].version) < 0);
});

test("a link of 0.1.0 gets 0.1.0's defaults: DP-SGD groups then defaulted to fixed-size batches", () => {
  // And until 0.2.0 to add/remove neighbours and Poisson sampling at q = 0.01, answered as then.
  const previous = { relation: 'add_remove', sampling_rate: '0.01' };
  assert.deepEqual(linkVersion('0.1.0', 'dpsgd').defaults, { sampling: 'fixed_batch', ...previous });
  assert.deepEqual(linkVersion('0.2.0', 'dpsgd'), { defaults: previous, note: '' });
  assert.deepEqual(linkVersion(kVersion, 'dpsgd'), { defaults: {}, note: '' });
  assert.deepEqual(linkVersion('0.1.0', 'group').defaults, {});
});

test('a link of a later version says that this page is older', () => {
  assert.match(linkVersion('9.0.0', 'group').note, /dpcalc 9\.0\.0, a newer version than this page/);
  assert.equal(compareVersions('0.10.0', '0.9.1') > 0, true);
});

test('an older link lists every change since its version that alters the section, oldest first', () => {
  const entries = [
    { version: '0.1.0', changes: {}, previousDefaults: {} },
    { version: '0.2.0', changes: { group: 'first change.' }, previousDefaults: { group: { k: '3' } } },
    { version: '0.3.0', changes: { group: 'second change.' }, previousDefaults: { group: { k: '5' } } },
  ];
  const { defaults, note } = linkVersion('0.1.0', 'group', entries);
  // k was 3 in 0.1.0 (0.2.0 changed it to 5, 0.3.0 to today's).
  assert.deepEqual(defaults, { k: '3' });
  assert.match(note, /made with dpcalc 0\.1\.0; .*0\.2\.0: first change\. 0\.3\.0: second change\./);
  assert.equal(linkVersion('0.2.0', 'split', entries).note, '');
});
