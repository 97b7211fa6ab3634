// The page's address: one route per section, with the section's inputs in it, so that links to a
// section, the back button and permalinks all work:
//   #/group?v=0.2.0&k=8&epsilon=1   the section, the version that wrote the link (versions.js) and
//                                  the text of every input the person set (the others: defaults)
//   #/group?k=8&epsilon=0.5&…      a link of version 0.1.0, which wrote every input and no version
//   #/group                        the section with the inputs it has now (what the nav links use)
//   #group                         the same (the anchors of earlier versions and other sites)
//   #v=1&group.k=8&…               a permalink of link format 1 (every section's inputs): still read
//   #main, #glossary, …            a plain anchor: the page scrolls there and no input changes
// Inputs are kept as the text typed (not re-formatted numbers), so a link sends the very same
// requests. A link this page cannot read is reported with the section it concerns; the text it
// quotes from the link is truncated, so a crafted link cannot fill the page with its own words.
import { quote } from './format.js';
import { isVersion, kUnversioned, kVersion } from './versions.js';

const kMaxValueLength = 200;
const kLegacyVersion = '1';
const kVersionKey = 'v';

/** The hash of section `name` with `inputs` (field → text, in that order), written by `version`. */
export function routeHash(name, inputs, version = kVersion) {
  const query = Object.entries({ [kVersionKey]: version, ...inputs })
    .map(([field, value]) => `${field}=${encodeURIComponent(value)}`)
    .join('&');
  return `#/${name}?${query}`;
}

function decode(text) {
  try {
    return { text: decodeURIComponent(text) };
  } catch {
    return { error: `${quote(text)} is not valid URL encoding` };
  }
}

/**
 * Checks `pairs` ([name, value text] still URL-encoded) against `section` ({ name, title, fields: [field
 * description] }, see form.js). Returns { state } (name → text) or { error } (a sentence).
 */
function readFields(section, pairs) {
  const state = {};
  for (const [rawName, rawValue] of pairs) {
    const name = decode(rawName);
    if (name.error) return { error: name.error };
    const field = section.fields.find((candidate) => candidate.name === name.text);
    if (!field) return { error: `${quote(name.text)} is not an input of ${section.title}` };
    if (Object.hasOwn(state, name.text)) return { error: `${quote(name.text)} appears twice` };
    const value = decode(rawValue);
    if (value.error) return { error: value.error };
    if (value.text.length > kMaxValueLength)
      return { error: `the value of ${quote(name.text)} is longer than ${kMaxValueLength} characters` };
    if (field.type === 'choice' && !field.options.some(([option]) => option === value.text)) {
      return { error: `${quote(value.text)} is not a choice of ${quote(field.label)}` };
    }
    state[name.text] = value.text;
  }
  return { state };
}

/** `state` (input → text, e.g. kept for the visit) checked as a link's inputs are: { state } or { error }. */
export function checkState(section, state) {
  return readFields(
    section,
    Object.entries(state).map(([name, value]) => [encodeURIComponent(name), encodeURIComponent(String(value))]),
  );
}

/** "a=1&b" → [['a', '1'], ['b', null]] (null: no "="). */
function pairsOf(query) {
  return query === ''
    ? []
    : query.split('&').map((part) => {
        const separator = part.indexOf('=');
        return separator < 0 ? [part, null] : [part.slice(0, separator), part.slice(separator + 1)];
      });
}

/** Takes the version out of `pairs`: { version, pairs } or { error }. Without one: version 0.1.0. */
function versionOf(pairs) {
  const found = pairs.filter(([name]) => name === kVersionKey);
  if (found.length === 0) return { version: kUnversioned, pairs };
  const text = decode(found[0][1]).text ?? found[0][1];
  if (found.length > 1) return { error: `${quote(kVersionKey)} appears twice` };
  if (!isVersion(text)) return { error: `${quote(text)} is not a version of dpcalc` };
  return { version: text, pairs: pairs.filter(([name]) => name !== kVersionKey) };
}

function parseRoute(path, sections) {
  const queryStart = path.indexOf('?');
  const name = queryStart < 0 ? path : path.slice(0, queryStart);
  const section = sections.find((candidate) => candidate.name === name);
  if (!section) return { type: 'route', name: null, error: `there is no section ${quote(name)} on this page` };
  if (queryStart < 0) return { type: 'route', name, state: null };
  const all = pairsOf(path.slice(queryStart + 1));
  const incomplete = all.find(([, value]) => value === null);
  if (incomplete) return { type: 'route', name, error: `${quote(incomplete[0])} is not a name=value pair` };
  const { version, pairs, error: versionError } = versionOf(all);
  if (versionError) return { type: 'route', name, error: versionError };
  const { state, error } = readFields(section, pairs);
  return error ? { type: 'route', name, error } : { type: 'route', name, state, version };
}

/**
 * A version-1 permalink: "section.field=value" for every section. Returns the state of each
 * section it names and the section to show: the first one whose inputs differ from its defaults.
 */
function parseLegacy(text, sections) {
  const pairs = pairsOf(text);
  const bySection = new Map();
  let version = null;
  for (const [rawName, rawValue] of pairs) {
    if (rawValue === null) return { type: 'legacy', name: null, error: `${quote(rawName)} is not a name=value pair` };
    if (rawName === 'v') {
      version = decode(rawValue).text ?? '';
      continue;
    }
    const dot = rawName.indexOf('.');
    const section = sections.find((candidate) => candidate.name === rawName.slice(0, dot));
    if (dot <= 0 || !section)
      return {
        type: 'legacy',
        name: null,
        error: `${quote(decode(rawName).text ?? rawName)} is not an input of this page`,
      };
    if (!bySection.has(section)) bySection.set(section, []);
    bySection.get(section).push([rawName.slice(dot + 1), rawValue]);
  }
  const states = {};
  const notes = {};
  for (const [section, sectionPairs] of bySection) {
    const { state, error } = readFields(section, sectionPairs);
    if (error) return { type: 'legacy', name: section.name, error };
    // A section whose inputs changed meaning since version 1 translates them (and may say so).
    const translated = section.fromLegacy ? section.fromLegacy(state) : { state };
    states[section.name] = translated.state;
    if (translated.note) notes[section.name] = translated.note;
  }
  if (version !== kLegacyVersion) {
    return {
      type: 'legacy',
      name: null,
      error: `the link is of version ${quote(version ?? '(none)')}, this page reads version ${kLegacyVersion}`,
    };
  }
  const changed = sections.find((section) =>
    Object.entries(states[section.name] ?? {}).some(
      ([name, value]) => section.fields.find((field) => field.name === name).value !== value,
    ),
  );
  return { type: 'legacy', name: (changed ?? sections[0]).name, states, notes };
}

/**
 * What a location hash asks for, against the registered `sections`:
 *   { type: 'empty' }
 *   { type: 'route', name, state, version } | { type: 'route', name, state: null }
 *                                                        a section, with the inputs of a link or without
 *   { type: 'legacy', name, states: { section: state }, notes: { section: sentence } }
 *                                                        a version-1 permalink
 *   { type: 'anchor', id }                                a plain anchor
 * or, for a link it cannot read, the same with `error` (a sentence) and no state: `name` is the
 * section it concerns, or null when none does.
 */
export function parseHash(hash, sections, hasElement = (id) => document.getElementById(id) !== null) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '' || text === '/') return { type: 'empty' };
  if (text.startsWith('/')) return parseRoute(text.slice(1), sections);
  if (sections.some((section) => section.name === text)) return { type: 'route', name: text, state: null };
  if (text.includes('=')) return parseLegacy(text, sections);
  const id = decode(text).text;
  if (id && hasElement(id)) return { type: 'anchor', id };
  return { type: 'route', name: null, error: `${quote(id ?? text)} is neither a section nor a place on this page` };
}
