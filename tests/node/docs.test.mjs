// The results printed under the examples of docs/API.md and README.md are what the build computes:
// each `calc.compute(<JSON>)` line is run against dist/ and compared with its `// → …` lines.
// When this fails, run `npm run docs` and review the diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regenerate, staleExamples } from '../../scripts/docs.mjs';

test('every documented example shows the result the build gives (npm run docs rewrites them)', async () => {
  const stale = await staleExamples();
  assert.deepEqual(stale, [], `stale examples:\n${stale.join('\n')}\nRun npm run docs.`);
});

test('an example is recognised, rewritten in place and reported when its result changed', () => {
  const calc = { compute: (request) => ({ ok: true, result: { k: request.k } }) };
  const text = [
    '```js',
    'calc.compute({"op": "group", "k": 2})',
    '// → {',
    '//   "ok": false',
    '//   }',
    '```',
    'after',
  ].join('\n');
  const { text: fresh, stale } = regenerate(text, calc, 'doc.md');
  assert.deepEqual(stale, ['doc.md:2: {"op": "group", "k": 2}']);
  assert.equal(
    fresh,
    [
      '```js',
      'calc.compute({"op": "group", "k": 2})',
      '// → {',
      '//     "ok": true,',
      '//     "result": {',
      '//       "k": 2',
      '//     }',
      '//   }',
      '```',
      'after',
    ].join('\n'),
  );
  assert.deepEqual(regenerate(fresh, calc, 'doc.md').stale, []);
});
