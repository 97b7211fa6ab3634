// Which requests the page's client sends to the numeric lane (a worker of its own, with progress and
// cancel) rather than the fast lane of closed forms (web/client.js isNumeric).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { isNumeric } = await import(pathToFileURL(path.join(distDir, 'client.js')).href);

test('numeric methods and long-running ops go to the numeric lane', () => {
  const numeric = [
    { op: 'compose', method: 'pld', items: [] },
    { op: 'compose', method: 'basic', unknown: 'count', items: [] },
    { op: 'profile', items: [], epsilons: [1] },
    { op: 'dpsgd' },
    { op: 'groupwise_simulate' },
    { op: 'groupwise_privacy' },
    { op: 'calibrate' },
    { op: 'databases', method: 'pld' },
    { op: 'databases', adversary: 'uninformative' },
  ];
  for (const request of numeric) assert.equal(isNumeric(request), true, JSON.stringify(request));
});

test('closed forms, including RDP accounting, stay in the fast lane', () => {
  const fast = [
    { op: 'group', k: 2, guarantee: { type: 'pure', epsilon: 1 } },
    { op: 'compose', method: 'basic', items: [] },
    { op: 'compose', method: 'rdp', items: [] },
    { op: 'split', method: 'zcdp' },
    { op: 'convert' },
    { op: 'databases', method: 'basic' },
    { op: 'databases', adversary: 'informed' },
    null,
    undefined,
    'compose',
  ];
  for (const request of fast) assert.equal(isNumeric(request), false, JSON.stringify(request));
});
