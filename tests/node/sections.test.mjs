// Every page section is its requests(inputs) (web/app/<name>-requests.js) → answers → rendering, and
// the <dp-calculator> element (web/embed/sections.js) sends the same requests for the same inputs:
// the requests are a pure function of the inputs, the page's defaults give requests the core
// answers, and the README's table of the element's attributes lists the page's defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sections } from '../../web/embed/sections.js';
import { fieldsOf } from '../../web/app/form-fields.js';
import { answeredTraining } from '../../web/app/dpsgd-requests.js';
import { loadCalculator } from './helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const calc = await loadCalculator();
const schema = calc.schema();
const catalog = { types: schema.mechanisms, schema };

const defaultsOf = (section) =>
  Object.freeze(Object.fromEntries(fieldsOf(section.description.form).map((field) => [field.name, field.value])));
const inputOf = (section, attribute) => section.aliases?.[attribute] ?? attribute.replaceAll('-', '_');

test('the requests of every section are a pure function of its inputs', () => {
  for (const [name, section] of Object.entries(sections)) {
    const inputs = defaultsOf(section); // frozen: a request builder that wrote to it would throw
    const first = section.shared.requests(inputs, { catalog });
    // As data (a request's retry rule is a function, made anew each time).
    const data = (items) => JSON.parse(JSON.stringify(items));
    assert.deepEqual(
      data(section.shared.requests({ ...inputs }, { catalog })),
      data(first),
      `${name}: the same requests`,
    );
    assert.ok(
      first.some((item) => item.role === 'row'),
      `${name}: a row answers`,
    );
    const ids = first.map((item) => item.id);
    assert.equal(new Set(ids).size, ids.length, `${name}: every request has its own id`);
    for (const item of first) assert.equal(typeof item.request.op, 'string', `${name}/${item.id}: a request`);
  }
});

test('the core answers the rows of every section at the page defaults', () => {
  for (const [name, section] of Object.entries(sections)) {
    const rows = section.shared.requests(defaultsOf(section), { catalog }).filter((item) => item.role === 'row');
    for (const { id, request } of rows) {
      const response = calc.compute(request);
      // A method that does not apply to the default inputs says so (code 'unsupported').
      assert.ok(response.ok || response.error.code === 'unsupported', `${name}/${id}: ${JSON.stringify(response)}`);
    }
  }
});

test("the README's table of the element's attributes lists the page's defaults", () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const [name, section] of Object.entries(sections)) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    assert.ok(row, `README lists section ${name}`);
    const defaults = defaultsOf(section);
    for (const attribute of section.fields) assert.ok(row.includes(`\`${attribute}\``), `${name}: ${attribute} listed`);
    // "`k` (4)", "`noise` (`gaussian`; …)": an attribute and its default, a number or a choice.
    for (const [, attribute, quoted, number] of row.matchAll(/`([a-z-]+)` \((?:`([a-z_]+)`|(\d[\d.e-]*))/g)) {
      const value = quoted ?? number;
      const input = inputOf(section, attribute);
      assert.ok(Object.hasOwn(defaults, input), `${name}: ${attribute} is an input of the section`);
      assert.equal(value, defaults[input], `${name}: the default of ${attribute}`);
    }
  }
});

test('the attribute names the README documents stay inputs of their sections', () => {
  const documented = {
    group: ['k', 'epsilon', 'delta', 'rho', 'scale', 'sigma', 'sensitivity'],
    composition: ['count', 'epsilon', 'item-delta', 'sigma', 'rate', 'sensitivity', 'delta'],
    calibrate: ['noise', 'sensitivity', 'rate', 'count', 'epsilon', 'delta'],
    dpsgd: ['group-size', 'sampling-rate', 'dataset-size', 'batch-size', 'steps', 'noise-multiplier', 'delta'],
    databases: ['count', 'epsilon', 'item-delta', 'm', 'delta'],
    groupwise: ['rho', 'relative-error', 'count', 'delta'],
  };
  for (const [name, attributes] of Object.entries(documented)) {
    const defaults = defaultsOf(sections[name]);
    for (const attribute of attributes)
      assert.ok(Object.hasOwn(defaults, inputOf(sections[name], attribute)), `${name}: ${attribute}`);
  }
});

test("a section's answer asked with its trade-off (explain) is the same answer, with op 'tradeoff''s object for it", () => {
  // The attacker panel's options (web/app/explained.js); the rows the page sends with them.
  const explain = { fpr: [1e-3], prior: 0.5 };
  const row = (name, id, inputs = {}) => ({
    label: `${name}/${id}`,
    request: sections[name].shared
      .requests({ ...defaultsOf(sections[name]), ...inputs }, { catalog })
      .find((item) => item.id === id).request,
  });
  const subsampled = JSON.stringify({
    type: 'poisson_subsampled',
    rate: '0.01',
    mechanism: { type: 'gaussian', sigma: '1', sensitivity: '1' },
  });
  const explained = [
    ...['pure', 'approx', 'zcdp', 'gaussian'].map((id) => row('group', id)),
    // At the δ its retry rule adds (group-requests.js): a numeric row, whose curve comes from its PLDs.
    { ...row('group', 'picked', { mechanism: subsampled }), delta: 1e-5 },
    row('composition', 'pld'),
    row('convert', 'canonne-kamath-steinke'),
    row('convert', 'pure-to-zcdp'),
    row('databases', 'unbounded'),
    row('databases', 'uninformative', { adversary: 'uninformative' }),
    row('dpsgd', 'dpsgd'),
  ];
  for (const { label, request: asked, delta } of explained) {
    const request = delta === undefined ? asked : { ...asked, delta };
    const plain = calc.compute(request);
    assert.ok(plain.ok, `${label}: ${JSON.stringify(plain)}`);
    const { tradeoff, ...answer } = calc.compute({ ...request, explain }).result;
    assert.deepEqual(answer, plain.result, `${label}: the same answer`);
    // DP-SGD's panel explains the answered training counted in steps (dpsgd-requests.js: answeredTraining).
    const of = request.op === 'dpsgd' ? answeredTraining(request, plain.result) : request;
    const separate = calc.compute({ op: 'tradeoff', of, ...explain });
    assert.ok(separate.ok, `${label}: ${JSON.stringify(separate)}`);
    assert.deepEqual(tradeoff, separate.result, `${label}: the trade-off op 'tradeoff' gives`);
  }
});
