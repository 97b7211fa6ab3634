// The page state is the text of every input, kept in the URL hash as `v=1&group.k=4&…`, so that a
// link reproduces the exact computation. The text is kept verbatim (not re-formatted numbers) so that
// a reload sends the very same requests.
const kVersion = '1';
const kMaxValueLength = 200;

/** Every state-bearing control of the page, by name. */
export function stateControls(root = document) {
  return new Map([...root.querySelectorAll('form[data-section] [name]')].map((control) => [control.name, control]));
}

/** The current state: name → text. */
export function readControls(controls) {
  return Object.fromEntries([...controls].map(([name, control]) => [name, control.value]));
}

/** The text a control has in the HTML: a <select> has no defaultValue, its default is the option marked selected. */
function defaultValueOf(control) {
  if (control.tagName !== 'SELECT') return control.defaultValue;
  return ([...control.options].find((option) => option.defaultSelected) ?? control.options[0]).value;
}

/** The state written in the HTML (the defaults). */
export function defaultState(controls) {
  return Object.fromEntries([...controls].map(([name, control]) => [name, defaultValueOf(control)]));
}

export function writeControls(controls, state) {
  for (const [name, value] of Object.entries(state)) controls.get(name).value = value;
}

export function encodeState(state) {
  const parts = [`v=${kVersion}`];
  for (const [name, value] of Object.entries(state)) parts.push(`${name}=${encodeURIComponent(value)}`);
  return `#${parts.join('&')}`;
}

/**
 * Reads a hash ("#v=1&…") against the known controls. Returns { state } with the values it names
 * (missing names keep their defaults), { state: null } for an empty hash, or { error } when the
 * hash is not a state this page wrote: bad encoding, unknown or repeated names, another version,
 * overlong values or a choice that is not offered.
 */
export function decodeState(hash, controls) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '') return { state: null };
  const state = {};
  let version = null;
  for (const part of text.split('&')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return { error: `“${part.slice(0, 40)}” is not a name=value pair` };
    const name = part.slice(0, separator);
    let value;
    try {
      value = decodeURIComponent(part.slice(separator + 1));
    } catch {
      return { error: `the value of “${name.slice(0, 40)}” is not valid URL encoding` };
    }
    if (name === 'v') {
      version = value;
      continue;
    }
    const control = controls.get(name);
    if (!control) return { error: `“${name.slice(0, 40)}” is not a field of this page` };
    if (Object.hasOwn(state, name)) return { error: `“${name}” appears twice` };
    if (value.length > kMaxValueLength) return { error: `the value of “${name}” is too long` };
    if (control.tagName === 'SELECT' && ![...control.options].some((option) => option.value === value)) {
      return { error: `“${value.slice(0, 40)}” is not a choice of “${name}”` };
    }
    state[name] = value;
  }
  if (version !== kVersion) return { error: `the link is of version ${version ?? '(none)'}, this page reads version ${kVersion}` };
  return { state };
}
