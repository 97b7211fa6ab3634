// The calculator's error messages speak the API ("Use method 'zcdp'", "group_size must be …",
// "relation 'add_remove' … at items.1.mechanism"): on the page and in the element they are said in
// the page's words instead, the fields by their labels, the methods and relations by the names the
// page gives them, and the numbers as the page writes them. No DOM here.
import { formatNumber } from './format.js';

// The methods as the page's tables name them.
const kMethodNames = {
  basic: 'basic composition',
  parallel: 'parallel composition',
  advanced: 'advanced composition',
  optimal: 'optimal composition',
  zcdp: 'zCDP',
  pld: 'PLD (numeric)',
  rdp: 'Rényi DP',
};

// The neighbouring relations as the page's choices name them.
const kRelationNames = {
  add_remove: 'one record added or removed',
  substitute: 'one record replaced',
  zero_out: 'one record zeroed out',
};

// The batch samplers of DP-SGD (by their request names) as the page's loop choice names them.
const kSamplerNames = {
  poisson: 'Poisson sampling',
  fixed_batch: 'fixed-size batches',
  shuffle: 'shuffling',
  balls_and_bins: 'balls-and-bins batches',
  truncated_poisson: 'truncated Poisson sampling',
  cyclic_poisson: 'cyclic Poisson sampling',
};

// The ops a message may send the reader to, as the page's sections name them.
const kOpNames = { convert: 'the Convert section', compose: 'the Composition section', group: 'the Group section' };

// A parameter named alone in a path ("guarantee.delta"): its symbol.
const kSymbols = { epsilon: 'ε', delta: 'δ', rho: 'ρ', sigma: 'σ', scale: 'b', sensitivity: 'Δ' };

const kMethodList = /\bmethods? ('[a-z_]+'(?:(?:, | or | and )'[a-z_]+')*)/g;
// "(use 'basic', 'optimal' or 'pld')": a list of methods without the word.
const kUseMethods = /\buse ('[a-z_]+'(?:(?:, | or | and )'[a-z_]+')+)/g;
const kSampler = new RegExp(`(?:\\bsampling )?'(${Object.keys(kSamplerNames).join('|')})'`, 'g');
const kOp = /\b(?:use )?op '([a-z_]+)'/g;
const kSetField = /\b(use|set|give) ([a-z][a-z0-9]*(?:_[a-z0-9]+)+) (\d+)\b/g;
const kRelation = /\b(?:[Tt]he )?relation '(add_remove|substitute|zero_out)'/g;
const kRelationValue = /'(add_remove|substitute|zero_out)'/g;
// A number the core wrote with every digit ("9.99999780222008e-07"), and the words before it that
// say which way it may be rounded and still be true: up after "at least", down after "at most".
const kLongNumber =
  /(\b(?:larger|greater|more) than |\bat least |\babove |\b(?:smaller|less) than |\bat most |\bbelow )?(-?\d+(?:\.\d+)?e[+-]?\d+|-?\d+\.\d{7,})/g;
// A dotted path ("items.1.mechanism", not "e.g.") or a snake_case name ("group_size"; not a
// library named with its version, "dp_accounting 0.6.0").
const kPath = /\b[a-z][a-z0-9_]+(?:\.[a-z0-9_]+)+\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?! \d)/g;

const quoted = (name) => `“${name}”`;

/** "'basic', 'advanced' or 'pld'" → "the basic composition, advanced composition or PLD (numeric) method". */
function methodWords(list) {
  const names = [...list.matchAll(/'([a-z_]+)'/g)].map(([, name]) => kMethodNames[name] ?? name.replaceAll('_', ' '));
  const joiner = / and '/.test(list) ? ' and ' : ' or ';
  const words = names.length > 1 ? `${names.slice(0, -1).join(', ')}${joiner}${names.at(-1)}` : names[0];
  return `the ${words} method${names.length > 1 && joiner === ' and ' ? 's' : ''}`;
}

/** A request path in words: "items.1.mechanism" → "release 2’s mechanism", "group_size" → "group size". */
function pathWords(path) {
  const segments = path.split('.');
  const words = segments.map((segment, i) => {
    if (/^\d+$/.test(segment)) return null;
    const next = segments[i + 1];
    const name = kSymbols[segment] && i > 0 ? kSymbols[segment] : segment.replaceAll('_', ' ');
    return next !== undefined && /^\d+$/.test(next)
      ? `${name === 'items' ? 'release' : name} ${Number(next) + 1}`
      : name;
  });
  return words.filter(Boolean).join('’s ');
}

/**
 * `message` (an API error) in the page's words: `terms` maps request paths to the labels of the
 * inputs that hold them; any other path or field name is said in words.
 */
export function apiWords(message, terms = {}) {
  const known = Object.keys(terms);
  // A field set to a value ("use group_size 1"): the field by its term, then "= value".
  const words = String(message)
    .replace(kSetField, (_, verb, path, value) => `${verb} ${terms[path] ?? pathWords(path)} = ${value}`)
    .replace(kMethodList, (_, list) => methodWords(list))
    .replace(kUseMethods, (whole, list) =>
      [...list.matchAll(/'([a-z_]+)'/g)].every(([, name]) => kMethodNames[name]) ? `use ${methodWords(list)}` : whole,
    )
    .replace(kSampler, (_, name) => quoted(kSamplerNames[name]))
    .replace(kOp, (whole, name) => (kOpNames[name] ? `use ${kOpNames[name]}` : whole))
    .replace(/\bgive that relation\b/, 'choose one of those as the neighbouring datasets')
    .replace(kRelation, (_, name) => `the relation ${quoted(kRelationNames[name])}`)
    .replace(kRelationValue, (_, name) => quoted(kRelationNames[name]))
    .replace(kLongNumber, (_, before = '', digits) => {
      const direction = /least|above|larger|greater|more/.test(before) ? 'up' : before ? 'down' : 'nearest';
      return `${before}${formatNumber(Number(digits), direction)}`;
    })
    .replace(kPath, (path) => (known.includes(path) ? terms[path] : pathWords(path)));
  return words.replace(/^the /, 'The ');
}
