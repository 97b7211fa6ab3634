// Noise calibration of any mechanism of the core's catalog (the "any mechanism" choice of the Noise
// calibration section): the mechanism of the `any_mechanism` input (its spec as text, picked on the
// page with the shared picker, picked-mechanism.js), its noise to solve for the first one the catalog
// says calibration may solve for in its innermost mechanism (σ of a Gaussian, b of a Laplace, … also
// inside subsampling), the others as typed. No DOM here: the <dp-calculator> element uses it too.
import { freshSpec, requestOf, specWords } from './mechanism-picker.js';
import { notesOf } from './mechanism-notes.js';
import { parseSpec } from './picked-mechanism.js';

// Every method calibrate takes; where one does not apply to the mechanism the core says why.
const kMethods = [
  { id: 'pld', label: 'PLD (numeric)', method: 'pld' },
  { id: 'analytic', label: 'Analytic Gaussian (exact)', method: 'analytic', plotted: true, chartKey: 'group-gaussian' },
  { id: 'optimal', label: 'Optimal composition', method: 'optimal', plotted: true, chartKey: 'optimal' },
  { id: 'zcdp', label: 'zCDP', method: 'zcdp', plotted: true, chartKey: 'zcdp' },
  { id: 'basic', label: 'Basic composition (pure ε)', method: 'basic', plotted: true, chartKey: 'basic' },
];

/** The innermost mechanism of `spec`. */
export const innermostSpec = (spec) =>
  spec.mechanism && typeof spec.mechanism === 'object' ? innermostSpec(spec.mechanism) : spec;

/** The spec `text` holds (blank or unreadable: the catalog's first mechanism calibration can solve). */
export function anySpec(catalog, text) {
  const first = catalog.types.find((type) => type.calibratable.length > 0) ?? catalog.types[0];
  const fallback = () => freshSpec(catalog, first.name);
  return text.trim() === '' ? fallback() : (parseSpec(text).spec ?? fallback());
}

/**
 * The section's description of the mechanism of spec text `text` (as calibrate-requests.js describes
 * its own mechanisms: describe, short, symbol, noiseName, unknown, mechanism(), methods), with `spec`,
 * `solved` (the parameter solved for, left out of the request) and `solvable` false when it has no
 * noise to solve for.
 */
export function anyMechanism(catalog, text) {
  const chosen = anySpec(catalog, text);
  const inner = innermostSpec(chosen);
  const type = catalog.types.find((candidate) => candidate.name === inner.type);
  const solve = type?.calibratable.find((unknown) => !unknown.per_sensitivity) ?? type?.calibratable[0];
  const { request } = requestOf(catalog, chosen, 'mechanism');
  let target = request;
  while (target.mechanism) target = target.mechanism;
  if (solve) delete target[solve.parameter];
  const parameter = type?.parameters.find((candidate) => candidate.name === solve?.parameter);
  const symbol = notesOf(inner.type).symbols?.[solve?.parameter] ?? solve?.parameter ?? '';
  return {
    id: 'catalog',
    spec: chosen,
    solved: solve?.parameter,
    solvable: Boolean(solve),
    describe: specWords(catalog, { ...chosen }),
    short: catalog.types.find((candidate) => candidate.name === chosen.type)?.title ?? chosen.type,
    symbol,
    noiseName: parameter?.meaning ?? symbol,
    unknown: solve?.unknown,
    mechanism: () => request,
    methods: kMethods,
    // Only the methods the core takes for this mechanism are shown (calibrate-update.js).
    appliesOnly: true,
  };
}
