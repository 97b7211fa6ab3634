// Requests are strict: a field that its op, method or type does not take is an error on its path,
// with the accepted names and a suggestion when one is close. The schema behind that check is also
// what the page's numeric lane and the fuzz generator are checked against here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assertError, loadCalculator, okResult } from './helpers.mjs';
import { opTable } from '../fuzz/generator.mjs';

const calc = await loadCalculator();
const schema = calc.schema();
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const { isNumeric } = await import(pathToFileURL(path.join(dist, 'client.js')).href);

const pure = (epsilon) => ({ type: 'pure', epsilon });

// Each request of this list was answered before requests were strict, ignoring the misspelt or
// inapplicable field and so under-reporting ε (the intended answers are in the comments).
const misreadRequests = [
  {
    // ε = 2 with the typo ignored (Δ = 1); intended 4.
    request: { op: 'group', k: 2, mechanism: { type: 'laplace', scale: 1, sensitivty: 2 } },
    field: 'mechanism.sensitivty',
    message: /did you mean 'sensitivity'\?/,
  },
  {
    // 0.3 with the typo ignored; intended 0.6.
    request: { op: 'databases', method: 'basic', databases: [{ guarantee: pure(0.1), count: 3, querie: 2 }] },
    field: 'databases.0.querie',
    message: /did you mean 'queries'\?/,
  },
  {
    // The δ was dropped.
    request: { op: 'group', k: 2, guarantee: { type: 'pure', epsilon: 1, delta: 0.1 } },
    field: 'guarantee.delta',
    message: /does not apply to a 'pure' guarantee \(it is a field of an 'approx' guarantee\)/,
  },
  {
    request: { op: 'compose', method: 'basic', variant: 'kairouz', items: [{ guarantee: pure(1), count: 2 }] },
    field: 'variant',
    message:
      /does not apply to op 'compose' with method 'basic' \(it is a field of op 'compose' with method 'advanced'\)/,
  },
  {
    request: {
      op: 'dpsgd',
      sampling: 'poisson',
      sampling_rate: 0.01,
      max_batch_size: 100,
      group_size: 2,
      steps: 10,
      delta: 1e-5,
      noise_multiplier: 1,
    },
    field: 'max_batch_size',
    message:
      /does not apply to op 'dpsgd' with sampling 'poisson' \(it is a field of op 'dpsgd' with sampling 'truncated_poisson'\)/,
  },
];

for (const { request, field, message } of misreadRequests) {
  test(`a misspelt or inapplicable field is an error on its path: ${field}`, () => {
    const response = calc.compute(request);
    assertError(response, field);
    assert.match(response.error.message, message);
    assert.ok(response.error.message.startsWith(field), `the message starts with its field: ${response.error.message}`);
  });
}

test('the error lists what the object takes', () => {
  const response = calc.compute({ op: 'group', k: 2, mechanism: { type: 'laplace', scale: 1, sensitivty: 2 } });
  assert.match(response.error.message, /A 'laplace' mechanism takes type, scale and sensitivity\./);
});

test('names in another case convention are recognised', () => {
  const response = calc.compute({ op: 'dpsgd', sampling: 'poisson', samplingRate: 0.01 });
  assertError(response, 'samplingRate');
  assert.match(response.error.message, /did you mean 'sampling_rate'\?/);
});

test('fields deep inside a request are checked: nested mechanisms, list items, discretization', () => {
  const item = (mechanism) => [{ mechanism, count: 10 }];
  assertError(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: item({ type: 'poisson_subsampled', rate: 0.01, mechanism: { type: 'gaussian', sigma: 1, sensitiviy: 1 } }),
    }),
    'items.0.mechanism.mechanism.sensitiviy',
  );
  assertError(
    calc.compute({ op: 'compose', method: 'basic', items: [{ guarantee: pure(1), count: 2, weight: 3 }] }),
    'items.0.weight',
  );
  assertError(
    calc.compute({
      op: 'compose',
      method: 'pld',
      delta: 1e-5,
      items: item({ type: 'gaussian', sigma: 1 }),
      discretization: { relative_acuracy: 1e-4 },
    }),
    'discretization.relative_acuracy',
  );
});

test('a δ beside a guarantee or a Laplace mechanism in a group request is refused, not ignored', () => {
  assertError(calc.compute({ op: 'group', k: 2, delta: 1e-6, guarantee: pure(1) }), 'delta');
  assertError(calc.compute({ op: 'group', k: 2, delta: 1e-6, mechanism: { type: 'laplace', scale: 1 } }), 'delta');
  okResult(calc.compute({ op: 'group', k: 2, delta: 1e-6, mechanism: { type: 'gaussian', sigma: 1 } }));
});

test('a null field counts as absent, unless its name is unknown', () => {
  okResult(calc.compute({ op: 'compose', method: 'basic', delta: null, items: [{ guarantee: pure(1), count: 2 }] }));
  assertError(
    calc.compute({ op: 'compose', method: 'basic', detla: null, items: [{ guarantee: pure(1), count: 2 }] }),
    'detla',
  );
});

test('a target may say it is an (ε, δ) guarantee, and nothing else', () => {
  const split = (target) => calc.compute({ op: 'split', method: 'basic', count: 10, target });
  const plain = okResult(split({ epsilon: 1, delta: 1e-6 }));
  assert.deepEqual(okResult(split({ type: 'approx', epsilon: 1, delta: 1e-6 })), plain);
  assertError(split({ type: 'zcdp', epsilon: 1, delta: 1e-6 }), 'target.type');
});

/** `object` with `value` at a dotted path: "of.method" is object.of.method. */
function withPath(object, path, value) {
  const keys = path.split('.');
  let node = object;
  for (const key of keys.slice(0, -1)) node = node[key] ??= {};
  node[keys.at(-1)] = value;
  return object;
}

test("the page's numeric lane is the schema's", () => {
  const names = schema.ops.map((op) => op.name);
  assert.equal(new Set(names).size, names.length);
  for (const op of schema.ops) {
    assert.equal(isNumeric({ op: op.name }), op.lane === 'numeric', `op ${op.name}`);
    for (const { field, value } of op.numeric_when) {
      const request = withPath({ op: op.name }, field, value);
      assert.equal(isNumeric(request), true, `op ${op.name} with ${field} '${value}'`);
    }
  }
});

test('the fuzz generator draws every op of the schema', () => {
  assert.deepEqual(Object.keys(opTable).sort(), schema.ops.map((op) => op.name).sort());
});

test('every field the schema names has a type, a presence and (for op fields) a meaning', () => {
  for (const [name, shape] of Object.entries(schema.shapes)) {
    const fields = [...shape.fields, ...(shape.variants ?? []).flatMap((variant) => variant.fields)];
    for (const field of fields) {
      assert.ok(field.type && field.presence, `${name}.${field.name}`);
      if (field.name !== 'type') assert.ok(field.meaning, `${name}.${field.name} has a meaning`);
      if (field.shape) assert.ok(schema.shapes[field.shape], `${name}.${field.name}: shape ${field.shape} exists`);
    }
  }
});

// The page builds its mechanism pickers from schema().mechanisms (web/app/mechanism-picker.js): it
// must list every mechanism type a request takes, with the same parameters.
test('schema().mechanisms lists every mechanism type with its title, parameters and calibratable noise', () => {
  const variants = schema.shapes.mechanism.variants;
  assert.deepEqual(
    schema.mechanisms.map((type) => type.name),
    variants.map((variant) => variant.value),
  );
  for (const type of schema.mechanisms) {
    const variant = variants.find((candidate) => candidate.value === type.name);
    assert.ok(type.title.length > 0 && type.meaning === variant.meaning, type.name);
    assert.deepEqual(
      type.parameters.map((parameter) => parameter.name),
      variant.fields.map((field) => field.name),
      type.name,
    );
    for (const parameter of type.parameters) {
      assert.ok(
        ['number', 'numbers', 'mechanism', 'boolean'].includes(parameter.kind),
        `${type.name}.${parameter.name}`,
      );
      const field = variant.fields.find((candidate) => candidate.name === parameter.name);
      assert.equal(
        field.presence.startsWith('default '),
        parameter.default !== undefined,
        `${type.name}.${parameter.name}`,
      );
    }
  }
  const laplace = schema.mechanisms.find((type) => type.name === 'laplace');
  assert.equal(laplace.title, 'Laplace mechanism');
  assert.deepEqual(
    laplace.parameters.find((parameter) => parameter.name === 'sensitivity'),
    { name: 'sensitivity', meaning: 'ℓ1 sensitivity Δ > 0', kind: 'number', default: 1 },
  );
  assert.deepEqual(laplace.calibratable, [{ unknown: 'scale', parameter: 'scale', per_sensitivity: false }]);
  const subsampled = schema.mechanisms.find((type) => type.name === 'poisson_subsampled');
  assert.equal(subsampled.parameters.find((parameter) => parameter.name === 'mechanism').kind, 'mechanism');
});
