// One declaration per field (core/src/api/request_shapes.cpp) drives both the docs' field tables and
// the readers (core/src/api/fields.hpp): on every documented example request of docs/API.md that is
// answered, each top-level field the op declares with a default gives the same answer whether it is
// left out or given as its default, and each field declared "required" that the example gives is,
// when left out, an error naming that field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCalculator } from './helpers.mjs';

const calc = await loadCalculator();
const schema = calc.schema();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const examples = readFileSync(path.join(root, 'docs/API.md'), 'utf8')
  .split('\n')
  .map((line) => line.match(/^calc\.compute\((\{.*\})\);?\s*$/)?.[1])
  .filter(Boolean)
  .map((json) => JSON.parse(json));

/** The fields that apply to `request`: its op's own and those of the variant its discriminator picks. */
function declaredFields(request) {
  const shape = schema.shapes[request.op];
  if (!shape) return [];
  const variant = shape.discriminator
    ? shape.variants.find((candidate) => candidate.value === request[shape.discriminator])
    : undefined;
  return [...shape.fields, ...(variant?.fields ?? [])];
}

/** The declared default of a field as JSON, or undefined when its presence states none. */
function declaredDefault(field) {
  const text = field.presence.match(/^default (.*)$/)?.[1];
  if (text === undefined) return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^'[^']*'$/.test(text)) return text.slice(1, -1);
  return Number.isFinite(Number(text)) ? Number(text) : undefined;
}

const answered = examples.filter((request) => calc.compute(request).ok);

test('the documented examples cover every op that has a field with a default or a required one', () => {
  const covered = new Set(answered.map((request) => request.op));
  for (const op of schema.ops) {
    const fields = schema.shapes[op.name].fields.filter((field) => field.name !== 'op');
    if (fields.some((field) => field.presence === 'required' || declaredDefault(field) !== undefined)) {
      assert.ok(covered.has(op.name), `docs/API.md has an answered example of op '${op.name}'`);
    }
  }
});

test('a field left out takes its declared default: the same answer as given explicitly', () => {
  let checked = 0;
  for (const request of answered) {
    const expected = JSON.stringify(calc.compute(request));
    for (const field of declaredFields(request)) {
      const fallback = declaredDefault(field);
      if (fallback === undefined) continue;
      const given = request[field.name] !== undefined;
      if (given && JSON.stringify(request[field.name]) !== JSON.stringify(fallback)) continue;
      const other = { ...request };
      if (given) delete other[field.name];
      else other[field.name] = fallback;
      const response = calc.compute(other);
      // A field that does not apply to this request (a relation beside a guarantee) is refused even
      // at its default value: there is no default to take.
      if (!given && !response.ok && /does not apply/.test(response.error.message)) continue;
      assert.equal(JSON.stringify(response), expected, `${request.op}.${field.name} = ${fallback}`);
      checked += 1;
    }
  }
  assert.ok(checked >= 10, `defaults checked: ${checked}`);
});

test('a required field left out is an error that names it', () => {
  let checked = 0;
  for (const request of answered) {
    for (const field of declaredFields(request)) {
      if (field.presence !== 'required' || field.name === 'op' || request[field.name] === undefined) continue;
      const other = { ...request };
      delete other[field.name];
      const response = calc.compute(other);
      assert.equal(response.ok, false, `${request.op} without ${field.name}`);
      assert.equal(response.error.field, field.name, `${request.op} without ${field.name}: ${response.error.message}`);
      checked += 1;
    }
  }
  assert.ok(checked >= 10, `required fields checked: ${checked}`);
});
