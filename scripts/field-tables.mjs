// The field tables of docs/API.md, written from the request schema (calc.schema(), declared in
// core/src/api/request_shapes.cpp) by `npm run docs`, so the documentation lists exactly what the
// requests accept. A table sits between two marker lines:
//   <!-- fields:compose -->      (any shape of the schema: an op, or 'mechanism', 'guarantee', …)
//   …generated table…
//   <!-- /fields -->
// Shapes split by 'type' (guarantees, mechanisms, constraints) get one row per type, with its
// fields; the others one row per field, saying which method (or sampling, …) it applies to.

const kStart = /^<!-- fields:([a-z_]+) -->$/;
const kEnd = '<!-- /fields -->';

const cell = (text) => String(text).replaceAll('|', '\\|');
const code = (text) => `\`${text}\``;

function objectLiteral(variant, discriminator) {
  const parts = [`${discriminator}:'${variant.value}'`];
  for (const field of variant.fields) {
    const defaultValue = field.presence.match(/^default (.*)$/)?.[1];
    const optional = field.presence === 'optional' ? '?' : '';
    parts.push(defaultValue === undefined ? `${field.name}${optional}` : `${field.name} = ${defaultValue}`);
  }
  return `{${parts.join(', ')}}`;
}

function typeRows(shape) {
  const rows = ['| object | meaning |', '|---|---|'];
  for (const variant of shape.variants) {
    const details = variant.fields.map((field) => `${code(field.name)}: ${field.meaning}`);
    const meaning = [variant.meaning, ...details].filter(Boolean).join('; ');
    rows.push(`| ${code(objectLiteral(variant, shape.discriminator))} | ${cell(meaning)} |`);
  }
  return rows;
}

function fieldRows(shape) {
  const split = Boolean(shape.discriminator);
  const rows = split
    ? ['| field | type | presence | applies to | meaning |', '|---|---|---|---|---|']
    : ['| field | type | presence | meaning |', '|---|---|---|---|'];
  // The discriminator's type is the list of its variants.
  const typeOf = (field) =>
    field.name === shape.discriminator
      ? shape.variants.map((variant) => `'${variant.value}'`).join(' \\| ')
      : cell(field.type);
  const row = (field, appliesTo) =>
    `| ${code(field.name)} | ${typeOf(field)} | ${cell(field.presence)} |${split ? ` ${appliesTo} |` : ''} ${cell(field.meaning)} |`;
  for (const field of shape.fields) rows.push(row(field, 'all'));
  for (const variant of shape.variants ?? []) {
    for (const field of variant.fields) rows.push(row(field, `${shape.discriminator} ${code(`'${variant.value}'`)}`));
  }
  return rows;
}

/** The markdown table of one shape of `schema`. */
export function fieldTable(schema, name) {
  const shape = schema.shapes[name];
  if (!shape) throw new Error(`docs: no shape '${name}' in the request schema`);
  return (shape.discriminator === 'type' ? typeRows(shape) : fieldRows(shape)).join('\n');
}

/** `text` with every marked table rewritten from `schema`; `stale` lists the tables that changed. */
export function regenerateTables(text, schema, file) {
  const lines = text.split('\n');
  const output = [];
  const stale = [];
  for (let i = 0; i < lines.length; i++) {
    output.push(lines[i]);
    const name = lines[i].match(kStart)?.[1];
    if (!name) continue;
    const end = lines.indexOf(kEnd, i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: <!-- fields:${name} --> has no ${kEnd}`);
    const fresh = fieldTable(schema, name).split('\n');
    if (lines.slice(i + 1, end).join('\n') !== fresh.join('\n')) stale.push(`${file}:${i + 1}: fields of ${name}`);
    output.push(...fresh, kEnd);
    i = end;
  }
  return { text: output.join('\n'), stale };
}
