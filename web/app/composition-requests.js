// The Composition section's requests, shared by the page (composition-update.js) and the
// <dp-calculator> element. The inputs hold a ledger of releases (ledger.js: each a mechanism of the
// core's catalog or an (ε₀, δ₀)-DP guarantee, run a number of times; links of earlier versions hold
// one release in separate inputs), composed by every closed-form method and by the numeric PLD
// method; beside them each release's share (ledger-shares.js), ε against the number of compositions
// and the privacy profile δ(ε) of every method. "Most releases for a target" asks, by every method,
// how many times one release can run. The ledger's mechanisms are read with the catalog.
import { parseNumber } from './format.js';
import { opTakes, requestOf } from './mechanism-picker.js';
import { parseLedger } from './ledger.js';
import { compositionMethods, itemOf } from './compose-methods.js';
import { rangeOf } from './range.js';

export const kStepsRange = { max: 100000, points: 24, log: true };
// The δ targets at which every closed-form method is asked for its ε (the privacy-profile plot).
export const kProfileDeltas = Array.from({ length: 12 }, (_, i) => 10 ** (i - 12));
// The PLD's ε is also plotted against k, at this many of the plotted counts.
const kPldPlotCounts = 8;
const kPldFields = { discretization: 'pld_step', 'discretization.interval': 'pld_step' };

/**
 * The closed-form requests of the shares (ledger-shares.js): for each release alone, its zCDP ρ and
 * its basic ε.
 */
function shareRequests(items, extra) {
  return items.flatMap((item) => [
    { op: 'compose', method: 'zcdp', items: [item], ...extra },
    { op: 'compose', method: 'basic', items: [item], ...extra },
  ]);
}

/**
 * The request items of ledger rows `rows` ([{ count, spec }]): each row's guarantee (pure when δ₀ is
 * exactly 0, so that zCDP composition applies) or mechanism of `catalog`, with its count, the numbers
 * read from their text. The ledger editor's items() are the same, read from its inputs.
 */
function ledgerItems(catalog, rows) {
  return rows.map(({ count, spec }, i) => {
    if (spec.type === 'guarantee')
      return { ...itemOf(parseNumber(spec.epsilon), parseNumber(spec.delta)), count: parseNumber(count) };
    return { mechanism: requestOf(catalog, spec, `items.${i}.mechanism`).request, count: parseNumber(count) };
  });
}

/** The one release that the inputs of earlier versions described (kind, its parameters, count). */
function legacyRow(inputs) {
  const text = (name) => inputs[name].trim();
  const kind = text('kind');
  const count = text('count');
  if (kind === 'laplace')
    return { count, spec: { type: 'laplace', scale: text('scale'), sensitivity: text('sensitivity') } };
  if (kind === 'gaussian')
    return { count, spec: { type: 'gaussian', sigma: text('sigma'), sensitivity: text('sensitivity') } };
  if (kind === 'subsampled_gaussian') {
    // DP-SGD's units: the noise is the noise multiplier times the clip norm, and the clip norm is
    // the sensitivity.
    const multiplier = parseNumber(text('noise_multiplier'));
    const clipNorm = parseNumber(text('clip_norm'));
    const sigma =
      clipNorm === 1 || Number.isNaN(multiplier * clipNorm) ? text('noise_multiplier') : String(multiplier * clipNorm);
    return {
      count,
      spec: {
        type: 'poisson_subsampled',
        rate: text('rate'),
        mechanism: { type: 'gaussian', sigma, sensitivity: text('clip_norm') },
      },
    };
  }
  return { count, spec: { type: 'guarantee', epsilon: text('epsilon'), delta: text('item_delta') } };
}

/** The ledger the inputs hold ([{ count, spec }]): the `ledger` input, or the one release of the earlier inputs. */
export function ledgerRowsOf(inputs) {
  if (inputs.ledger.trim() === '') return [legacyRow(inputs)];
  return parseLedger(inputs.ledger).rows ?? [legacyRow(inputs)];
}

/** What the ledger is, for the words that fit it: one release of a familiar kind, or a mix. */
export function kindOf(rows) {
  if (rows.length > 1) return 'ledger';
  const { spec } = rows[0];
  if (spec.type === 'poisson_subsampled' && spec.mechanism?.type === 'gaussian') return 'subsampled_gaussian';
  return ['guarantee', 'laplace', 'gaussian'].includes(spec.type) ? spec.type : 'mechanism';
}

/** The neighbouring relation, sent only where the core takes it and it is not the default. */
export const relationOf = (inputs, schema) =>
  opTakes(schema, 'compose', 'relation') && inputs.relation !== 'add_remove' ? { relation: inputs.relation } : {};

/** The PLD grid step typed in the settings; blank asks the core to choose it. */
const discretizationOf = (inputs) =>
  inputs.pld_step.trim() === '' ? {} : { discretization: parseNumber(inputs.pld_step) };

/** The ledger row (0-based) whose count "most releases" solves for, or null when there is no such row. */
export function solveIndexOf(inputs, length) {
  const number = parseNumber(inputs.solve_release);
  return Number.isInteger(number) && number >= 1 && number <= length ? number - 1 : null;
}

/** The question's common parts: the items, the total δ, and `ask` adding the relation. */
function questionOf(inputs, catalog) {
  const rows = ledgerRowsOf(inputs);
  const relation = relationOf(inputs, catalog.schema);
  return {
    rows,
    items: ledgerItems(catalog, rows),
    delta: parseNumber(inputs.delta),
    discretization: discretizationOf(inputs),
    ask: (request) => ({ ...request, ...relation }),
    relation,
  };
}

/** The PLD request of `items` at total δ `delta` (the question's discretization and relation). */
const pldRequest = (question, items) =>
  question.ask({ op: 'compose', method: 'pld', delta: question.delta, items, ...question.discretization });

/** ε against k: k copies of a single release, or the whole ledger repeated k times. */
function itemsTimes({ items }, n) {
  return items.length === 1 ? [{ ...items[0], count: n }] : items.map((item) => ({ ...item, count: item.count * n }));
}

/** The plots' closed-form points: ε against k ('plot-steps'), and the privacy profile ('plot-profile'). */
function plotItems(question, inputs) {
  const plotted = compositionMethods.filter((method) => method.id !== 'parallel');
  const counts = rangeOf(inputs.kmax, kStepsRange) ?? [];
  const steps = counts.flatMap((n) =>
    plotted.map((method) => ({
      id: `steps-${method.id}-${n}`,
      role: 'plot-steps',
      n,
      method,
      request: question.ask(method.request(itemsTimes(question, n), question.delta)),
    })),
  );
  const profile = kProfileDeltas.flatMap((target) =>
    plotted.map((method) => ({
      id: `profile-${method.id}-${target}`,
      role: 'plot-profile',
      delta: target,
      method,
      request: question.ask(method.request(question.items, target)),
    })),
  );
  return [...steps, ...profile];
}

/** "Most releases for a target": every method's request with unknown 'count' for release `index`. */
function solveItems(question, inputs, index) {
  const target = { epsilon: parseNumber(inputs.target_epsilon), delta: question.delta };
  const items = question.items.map((item) => ({ ...item }));
  delete items[index].count;
  const rows = compositionMethods.map((method) => {
    const request = { ...method.request(items, target.delta), unknown: 'count', target };
    delete request.delta;
    return { id: method.id, role: 'row', label: method.label, method, request: question.ask(request) };
  });
  const pld = { op: 'compose', method: 'pld', items, unknown: 'count', target, ...question.discretization };
  return [
    ...rows,
    { id: 'pld', role: 'row', label: 'PLD (numeric, tight)', request: question.ask(pld), fields: kPldFields },
  ];
}

/**
 * The requests for `inputs` with the core's `catalog` ({ types, schema }, mechanism-picker.js). The
 * total: one row per closed-form method (role 'row', with `method`), the PLD row (id 'pld', numeric),
 * the plots' closed-form points and each release's share (role 'share'). "Most releases": one row
 * per method and the PLD's (all numeric), none when the release to repeat is not in the ledger.
 */
export function requests(inputs, { catalog }) {
  const question = questionOf(inputs, catalog);
  if (inputs.question === 'most_releases') {
    const index = solveIndexOf(inputs, question.rows.length);
    return index === null ? [] : solveItems(question, inputs, index);
  }
  const rows = compositionMethods.map((method) => ({
    id: method.id,
    role: 'row',
    label: method.label,
    method,
    request: question.ask(method.request(question.items, question.delta)),
    fields: { delta: 'delta' },
  }));
  const pld = {
    id: 'pld',
    role: 'row',
    label: 'PLD (numeric, tight)',
    request: pldRequest(question, question.items),
    fields: { delta: 'delta', ...kPldFields },
  };
  const shares = shareRequests(question.items, question.relation).map((request, i) => ({
    id: `share-${i}`,
    role: 'share',
    request,
  }));
  return [...rows, pld, ...plotItems(question, inputs), ...shares];
}

/** About `n` of `counts` (sorted), spread evenly, always with the first and the last. */
function spread(counts, n) {
  if (counts.length <= n) return counts;
  return [...new Set(Array.from({ length: n }, (_, i) => counts[Math.round((i * (counts.length - 1)) / (n - 1))]))];
}

/**
 * The numeric requests after the PLD row's: each release alone at the total δ (for a ledger of
 * several; role 'alone', with `index`), and the PLD's ε against k at some of the plotted counts
 * (role 'pld-steps', with `n`; for a single release).
 */
export function pldFollowUps(inputs, { catalog }) {
  const question = questionOf(inputs, catalog);
  const single = question.items.length === 1;
  const alone = single
    ? []
    : question.items.map((item, index) => ({
        id: `alone-${index}`,
        role: 'alone',
        index,
        request: pldRequest(question, [item]),
      }));
  const counts = single ? spread(rangeOf(inputs.kmax, kStepsRange) ?? [], kPldPlotCounts) : [];
  const steps = counts.map((n) => ({
    id: `pld-steps-${n}`,
    role: 'pld-steps',
    n,
    request: pldRequest(question, itemsTimes(question, n)),
  }));
  return [...alone, ...steps];
}

/** The PLD privacy profile at the ε values `epsilons` (numeric.js profileEpsilons: they depend on the PLD's answer). */
export function profileItem(inputs, { catalog }, epsilons) {
  const question = questionOf(inputs, catalog);
  return {
    id: 'pld-profile',
    role: 'pld-profile',
    request: question.ask({ op: 'profile', items: question.items, epsilons, ...question.discretization }),
  };
}
