// The DP-SGD section's "largest value for a target ε" questions (op 'dpsgd' with `unknown`, see
// dpsgd-requests.js): the most steps or epochs, the largest sampling rate or batch size, the largest
// group. The core answers by bisection on the tight upper bound and reports the bound at the answer
// and one step beyond; solved.js renders them.
import { formatNumber } from './format.js';
import { boundText, citeSentence, methodWords, paperGuarantee } from './headline.js';
import { solvedElements, solvedValueText, valueText } from './solved.js';

const kFormulas = {
  solved: String.raw`x^\star = \max\{x : \varepsilon_{\mathrm{PLD}}(x) \le \varepsilon_{\text{target}}\}`,
  beyond: String.raw`\varepsilon_{\mathrm{PLD}}(x^\star + 1) > \varepsilon_{\text{target}}`,
};

/** The answer in large type, and the table of the answer and the value one step beyond. */
export const dpsgdSolvedElements = (result, fields, errors) =>
  solvedElements(result, { fields, errors, answer: 'dpsgd', formulas: kFormulas });

/**
 * The headline of a solved question and its sentence for a paper (the bound at the value found):
 * [text, { cite, result }]; `how` says how the sampler's bound was found, `method` names it in the
 * sentence (dpsgd-update.js).
 */
export function solvedHeadline(result, { k, how, method = methodWords(result.method) }) {
  const within = `within ${boundText(result.target, { deltaIsGiven: true })}`;
  const group = result.unknown === 'group_size' ? 'a group' : `a group of ${k} example${k === 1 ? '' : 's'}`;
  const text = `${solvedValueText(result)}: ${group} stays ${within} at noise multiplier σ = ${formatNumber(result.noise_multiplier)}${how}.`;
  const size = result.unknown === 'group_size' ? result.group_size : k;
  const cite = citeSentence({
    subject: `Training with DP-SGD at ${valueText(result.unknown, result[result.unknown])} (noise multiplier ${formatNumber(result.noise_multiplier)})`,
    guarantee: paperGuarantee(result.guarantee, { deltaIsGiven: true }),
    scope: `for groups of ${size} example${size === 1 ? '' : 's'}`,
    method,
    citation: result.citation,
  });
  return [text, { cite, result }];
}
