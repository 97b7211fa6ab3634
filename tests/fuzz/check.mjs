// The properties every response must have, whatever the request (docs/API.md):
//   - ok results hold no NaN or ±Infinity;
//   - errors have a known code, a message a person can read (no bare "NaN", no internal jargon),
//     and a `field` that is a path present in the request, or a required field missing from an
//     object present in it, or '' when the request is not an object;
//   - a solved unknown lies within the engine's limits (a whole number in [1, 2^53], a group size
//     of DP-SGD up to 10^5, a batch no larger than the data set, a sampling rate in (0, 1]) and its
//     guarantee meets the request's target.
// checkResponse returns the violations as [{ kind, detail }] (empty when the response is fine).

const codes = new Set(['invalid_argument', 'unsupported', 'numeric', 'cancelled']);

function firstNonFinite(value, path = 'result') {
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} = ${value}`;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = firstNonFinite(item, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

const isContainer = (value) => value !== null && typeof value === 'object';

// The value at a dotted path, or `undefined`; `parentFound` tells whether its container exists.
function resolve(request, field) {
  let node = request;
  const keys = field.split('.');
  for (let i = 0; i < keys.length; ++i) {
    // An index inside an array's length is present even when it is a hole (the API reads it as null).
    const present = Array.isArray(node)
      ? /^\d+$/.test(keys[i]) && Number(keys[i]) < node.length
      : isContainer(node) && Object.prototype.hasOwnProperty.call(node, keys[i]);
    if (!present) {
      return { found: false, parentFound: i === keys.length - 1 && isContainer(node) };
    }
    node = node[keys[i]];
  }
  return { found: true, value: node };
}

function fieldViolation(request, { code, field, message }) {
  if (typeof field !== 'string') return `field is ${typeof field}`;
  if (field === '') {
    // A cancelled computation is about the request as a whole.
    const whole = !isContainer(request) || Array.isArray(request) || code === 'cancelled';
    return whole ? null : 'field is "" for an object request';
  }
  const { found, parentFound } = resolve(request, field);
  if (found) return null;
  // A required member that is absent (or null/undefined) is named by its own path.
  if (parentFound && /required/.test(message)) return null;
  return `field ${field} is not in the request`;
}

function messageViolation(message) {
  if (typeof message !== 'string' || message.length < 10) return 'message missing or too short';
  if (/\bNaN\b/.test(message) && !/not a number/.test(message)) return 'message shows NaN without saying what it means';
  if (/Aborted|ASSERTIONS|please report|could not be read|undefined/.test(message)) return 'internal message';
  return null;
}

// What is wrong with the answer of a solve request (docs/API.md, "Solving for an unknown"), or null.
function solveViolation(request, result) {
  if (typeof result.unknown !== 'string') return null;
  const name = result.unknown;
  const value = result[name];
  if (name === 'sampling_rate') {
    if (!(value > 0 && value <= 1)) return `sampling_rate = ${value} is outside (0, 1]`;
  } else if (!(Number.isInteger(value) && value >= 1 && value <= 2 ** 53)) {
    return `${name} = ${value} is not a whole number in [1, 2^53]`;
  }
  if (request.op === 'dpsgd' && name === 'group_size' && value > 1e5) return `group_size = ${value} is above 10^5`;
  if (name === 'batch_size' && !(value <= request.dataset_size)) return `batch_size = ${value} exceeds the data set`;
  const { epsilon, delta } = result.guarantee ?? {};
  const target = request.target ?? {};
  if (!(epsilon <= target.epsilon)) return `ε = ${epsilon} is above the target ${target.epsilon}`;
  if (typeof target.delta === 'number' && !((delta ?? 0) <= target.delta))
    return `δ = ${delta} is above the target ${target.delta}`;
  return null;
}

export function checkResponse(request, response) {
  const violations = [];
  if (!isContainer(response) || typeof response.ok !== 'boolean') {
    return [{ kind: 'malformed', detail: JSON.stringify(response)?.slice(0, 200) }];
  }
  if (response.ok) {
    const nonFinite = firstNonFinite(response.result);
    if (nonFinite) violations.push({ kind: 'nonFinite', detail: nonFinite });
    const solve = solveViolation(request, response.result);
    if (solve) violations.push({ kind: 'beyondLimits', detail: solve });
    return violations;
  }
  const { error } = response;
  if (!isContainer(error) || !codes.has(error.code)) return [{ kind: 'malformed', detail: JSON.stringify(error) }];
  const field = fieldViolation(request, error);
  if (field) violations.push({ kind: 'badField', detail: `${field}: ${error.message}` });
  const message = messageViolation(error.message);
  if (message) violations.push({ kind: 'badMessage', detail: `${message}: ${error.message}` });
  return violations;
}
