// Noise calibration of any mechanism of the core's catalog (the "any mechanism" choice of the Noise
// calibration section): the mechanism picked with the shared picker (picked-mechanism.js), its
// noise to solve for the first one the catalog says calibration may solve for in its innermost
// mechanism (σ of a Gaussian, b of a Laplace, … also inside subsampling), the others as typed.
import { catalogOf, freshSpec, requestOf, specWords } from './mechanism-picker.js';
import { notesOf } from './mechanism-notes.js';
import { pickedMechanism } from './picked-mechanism.js';

// Every method calibrate takes; where one does not apply to the mechanism the core says why.
const kMethods = [
  { id: 'pld', label: 'PLD (numeric)', method: 'pld' },
  { id: 'analytic', label: 'Analytic Gaussian (exact)', method: 'analytic', plotted: true, chartKey: 'group-gaussian' },
  { id: 'optimal', label: 'Optimal composition', method: 'optimal', plotted: true, chartKey: 'optimal' },
  { id: 'zcdp', label: 'zCDP', method: 'zcdp', plotted: true, chartKey: 'zcdp' },
  { id: 'basic', label: 'Basic composition (pure ε)', method: 'basic', plotted: true, chartKey: 'basic' },
];

/** The innermost mechanism of `spec` and the picker inputs and request path that hold it. */
function innermost(spec, inputs, path = 'mechanism') {
  if (spec.mechanism && typeof spec.mechanism === 'object')
    return innermost(spec.mechanism, inputs.get('mechanism/') ?? new Map(), `${path}.mechanism`);
  return { spec, inputs, path };
}

/**
 * The section's description of the mechanism picked in `form` (as calibrate-update.js describes its own
 * mechanisms: describe, short, symbol, noiseName, unknown, mechanism(), methods), with `fields` (the
 * request paths of its parameters → inputs) and `solvable` false when it has no noise to solve for.
 */
export async function anyMechanism({ calculator, form }) {
  const catalog = await catalogOf(calculator);
  const first = catalog.types.find((type) => type.calibratable.length > 0) ?? catalog.types[0];
  const { spec, picker } = pickedMechanism(form, {
    name: 'any_mechanism',
    slot: 'picked',
    idPrefix: 'calibrate-any',
    label: 'Mechanism',
    catalog,
    fallback: () => freshSpec(catalog, first.name),
  });
  const chosen = spec();
  const inner = innermost(chosen, picker.inputs);
  const type = catalog.types.find((candidate) => candidate.name === inner.spec.type);
  const solve = type?.calibratable.find((unknown) => !unknown.per_sensitivity) ?? type?.calibratable[0];
  // The noise solved for is not typed: its input is hidden.
  for (const [name, input] of inner.inputs)
    if (typeof input !== 'object' || !input.closest) continue;
    else input.closest('.field').hidden = name === solve?.parameter;
  const { request, fields } = requestOf(catalog, chosen, 'mechanism', picker.inputs);
  let target = request;
  while (target.mechanism) target = target.mechanism;
  if (solve) delete target[solve.parameter];
  const parameter = type?.parameters.find((candidate) => candidate.name === solve?.parameter);
  const symbol = notesOf(inner.spec.type).symbols?.[solve?.parameter] ?? solve?.parameter ?? '';
  return {
    id: 'catalog',
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
    fields,
  };
}
