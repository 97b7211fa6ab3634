// CONTRIBUTING.md stays true: every file and function its "Theorem → implementation" table names
// exists (a function counts when the file defines or declares it by that name), and the recipe's
// registration list is where it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const text = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');

/** Every (file, function) the table names: cells "`file`: `name`, `name`; `file`: `name`". */
function implementations() {
  const table = text.slice(text.indexOf('## Theorem → implementation'));
  const found = [];
  for (const row of table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| method'))) {
    const cell = row.split(' | ').at(-1);
    for (const part of cell.split(';')) {
      const match = part.match(/`([^`]+)`:\s*(.*)/);
      if (!match) continue;
      const names = [...match[2].matchAll(/`([^`]+)`/g)].map((name) => name[1]);
      found.push({ file: match[1], names });
    }
  }
  return found;
}

test('every file and function of the theorem table exists', () => {
  const rows = implementations();
  assert.ok(rows.length > 30, `the table was read (${rows.length} entries)`);
  for (const { file, names } of rows) {
    const full = path.join(root, file);
    assert.ok(existsSync(full), `${file} exists`);
    const source = readFileSync(full, 'utf8');
    for (const name of names) {
      // "Laplace::for_group" is defined in the class body as "for_group(", "group_privacy(const PureDp&, …)" by its name.
      const member = name.replace(/\(.*$/, '').split('::').at(-1);
      if (member === '' || /[^A-Za-z0-9_]/.test(member)) continue; // a parenthesised remark, not a name
      assert.match(source, new RegExp(`\\b${member}\\(`), `${file} defines ${name}`);
    }
  }
});

test('the mechanism registration line is where the recipe says', () => {
  const catalog = readFileSync(path.join(root, 'core/include/dpcalc/mechanisms/catalog.hpp'), 'utf8');
  assert.match(catalog, /#define DPCALC_MECHANISM_TYPES\(X\)/);
  for (const name of catalog.matchAll(/X\(([a-z_]+)\)/g)) {
    assert.ok(existsSync(path.join(root, 'core/src/mechanisms', `${name[1]}.cpp`)), `${name[1]}.cpp`);
    assert.ok(existsSync(path.join(root, 'tests/core/mechanisms', `${name[1]}_test.cpp`)), `${name[1]}_test.cpp`);
  }
});
