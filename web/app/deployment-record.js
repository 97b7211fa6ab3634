// The deployment record of a section's answer: the guarantee its "Cite this result" sentence
// states, in the fields of the DP Deployments Registry (Nanayakkara, Ghazi, Vadhan 2025: flavour
// of DP, privacy unit, privacy-loss parameters, deployment model, privacy accounting,
// implementation), so that a result can be filed as NIST SP 800-226 asks. As JSON and as a table
// (Markdown, and the rows the page shows as an HTML table). No DOM here.
import { kVersion } from './versions.js';
import { choiceWords, requestWords } from './request-words.js';
import { keysOf } from './citation-keys.js';

export const kRegistryCitation = 'Nanayakkara, Ghazi, Vadhan 2025';
export const kRegistryKey = 'nanayakkara2025practitioners';

const kFlavours = { pure: 'pure DP', approx: 'approximate DP', zcdp: 'zCDP', rdp: 'Rényi DP' };

/**
 * The guarantee a result states, as its sentence does: the (ε, δ) a zCDP or RDP composition gives at
 * the target δ, the proven guarantee of a group-wise release, the total a budget split meets; null
 * for an answer that is no guarantee (an audit's lower bound).
 */
export function statedGuarantee(request, result) {
  if (!result) return null;
  if (result.approx) return result.approx;
  if (result.proven) {
    const { rho, epsilon, delta } = result.proven;
    return epsilon === undefined ? { type: 'zcdp', rho } : { type: 'approx', epsilon, delta };
  }
  if (result.guarantee) return result.guarantee;
  if (result.per_item && request?.target) {
    const { epsilon, delta } = request.target;
    return delta > 0 ? { type: 'approx', epsilon, delta } : { type: 'pure', epsilon };
  }
  return null;
}

/** Who is protected: "one record", "a group of 4 examples", with the neighbouring relation. */
function privacyUnit(request) {
  const size = request.group_size ?? request.k ?? 1;
  const noun = request.op === 'dpsgd' ? 'example' : 'record';
  const who = size > 1 ? `a group of ${size} ${noun}s` : `one ${noun}`;
  const relation = request.relation ? ` (neighbouring datasets: ${choiceWords(request.relation)})` : '';
  return `${who}${relation}`;
}

/** The privacy-loss parameters of `guarantee`, as numbers (upper bounds; a δ given as the target). */
function lossParameters(guarantee) {
  if (guarantee.type === 'zcdp') return { rho: guarantee.rho };
  if (guarantee.type === 'pure') return { epsilon: guarantee.epsilon, delta: 0 };
  if (guarantee.type === 'approx') return { epsilon: guarantee.epsilon, delta: guarantee.delta };
  return { orders: guarantee.orders, epsilons: guarantee.epsilons };
}

/**
 * The record of the answer to `request` (`result`), from section `section` at `permalink`, or
 * { unavailable: sentence } when the answer is no guarantee.
 */
export function deploymentRecord({ section, request, result, permalink }) {
  const guarantee = statedGuarantee(request, result);
  if (!request || !guarantee)
    return {
      unavailable: 'This answer is not a privacy guarantee (or there is none yet): there is nothing to record.',
    };
  return {
    schema: `DP Deployments Registry (${kRegistryCitation}), tier 2 fields`,
    flavour: kFlavours[guarantee.type] ?? guarantee.type,
    privacy_unit: privacyUnit(request),
    privacy_loss: lossParameters(guarantee),
    privacy_loss_note: 'Upper bounds as computed, not rounded; a δ the request gives is its target.',
    deployment_model: 'central (a trusted curator adds the noise)',
    accounting: {
      method: result.method ?? '',
      citation: result.citation ?? '',
      citation_keys: keysOf(result.citation_key),
      inputs: requestWords(request),
    },
    implementation: { name: 'dpcalc', version: kVersion, section: section.title, permalink },
    request,
  };
}

/** The rows of the record's table: [field, value], numbers with every digit the core gave. */
export function recordRows(record) {
  const loss = Object.entries(record.privacy_loss)
    .map(([name, value]) => `${{ epsilon: 'ε', delta: 'δ', rho: 'ρ' }[name] ?? name} = ${value}`)
    .join(', ');
  const { accounting, implementation } = record;
  return [
    ['Flavour of DP', record.flavour],
    ['Privacy unit', record.privacy_unit],
    [
      'Privacy-loss parameters',
      `${loss}: ${record.privacy_loss_note[0].toLowerCase()}${record.privacy_loss_note.slice(1)}`,
    ],
    ['Deployment model', record.deployment_model],
    ['Privacy accounting', `${accounting.method} (${accounting.citation}); inputs: ${accounting.inputs}`],
    ['Implementation', `${implementation.name} ${implementation.version}, ${implementation.section}`],
    ['Permalink', implementation.permalink],
  ];
}

const markdownCell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The record as a Markdown table, with the schema it follows. */
export function recordMarkdown(record) {
  return [
    `Deployment record, in the fields of the ${record.schema}.`,
    '',
    '| Field | Value |',
    '|---|---|',
    ...recordRows(record).map(([field, value]) => `| ${field} | ${markdownCell(value)} |`),
    '',
  ].join('\n');
}
