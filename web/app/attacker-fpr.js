// The FPR input of "What an attacker can do" (attacker.js) and the sentence for it: at the
// false-positive rate the person chooses (1% until then), the largest true-positive rate any
// membership test reaches, an upper bound rounded up. The rate is typed as a percentage ("1%"), a
// share ("0.01") or a fraction ("1/100").
import { h } from './dom.js';
import { parseNumber, roundTo } from './format.js';

const kSmallestPercent = 0.01; // below this, "at most 0.01%" (still an upper bound)
const kDefaultText = '1%';

/** An upper bound as a percentage, rounded up to two significant digits: 0.031234 → "3.2%". */
export function percentUp(x) {
  const percent = Math.min(100, x * 100);
  if (!(percent > kSmallestPercent)) return `${kSmallestPercent}%`;
  return `${roundTo(percent, 'up', 2)}%`;
}

/** A rate the person gave, as a percentage: 0.01 → "1%", 0.001 → "0.1%". */
export const fprShown = (fpr) => `${Number((fpr * 100).toPrecision(6))}%`;

/** The TPR bound of `result` (op 'tradeoff') at false-positive rate `fpr`, or undefined. */
export const tprAt = (result, fpr) => result.tpr_at_fpr.find((point) => point.fpr === fpr)?.tpr;

/** "1%" → 0.01, "0.01" → 0.01, "1/100" → 0.01; NaN when it is not a rate in (0, 1). */
export function parseFpr(text) {
  const trimmed = String(text).trim();
  const rate = trimmed.endsWith('%') ? parseNumber(trimmed.slice(0, -1)) / 100 : parseNumber(trimmed);
  return rate > 0 && rate < 1 ? rate : Number.NaN;
}

/** The sentence at `fpr`: the group's TPR bound `tpr` (and one record's, `alone`, beside a group's). */
export function fprSentence({ fpr, tpr, alone, groupSize = 1, vacuous = false }) {
  const against = groupSize > 1 ? ` against a group of ${groupSize} records` : '';
  if (vacuous || !(tpr < 1))
    return `At FPR ${fprShown(fpr)}, this guarantee does not limit an attacker's TPR${against}.`;
  const one = alone === undefined ? '' : ` (for one record alone: at most ${percentUp(alone)})`;
  return `At FPR ${fprShown(fpr)}, an attacker's TPR${against} is at most ${percentUp(tpr)}${one}.`;
}

/**
 * The input (`id`; its text `text`, or the default 1%): `onChange(fpr, text)` runs for each valid
 * rate typed; a text that is no rate is marked. Returns { element, value() } (value: the rate, or null).
 */
export function fprField(id, text, onChange) {
  const hint = h(
    'span',
    { class: 'hint', id: `${id}-hint` },
    'the share of non-members a test may wrongly flag: 1%, 0.001 or 1/1000',
  );
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  const input = h('input', {
    id,
    type: 'text',
    inputmode: 'text',
    value: text ?? kDefaultText,
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'off',
    'aria-describedby': `${id}-hint ${id}-error`,
  });
  const value = () => {
    const rate = parseFpr(input.value);
    return Number.isNaN(rate) ? null : rate;
  };
  input.addEventListener('input', () => {
    const rate = value();
    error.hidden = rate !== null;
    error.textContent = rate === null ? 'FPR must be a rate above 0 and below 100% (e.g. 1%, 0.001 or 1/1000).' : '';
    if (rate === null) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    if (rate !== null) onChange(rate, input.value);
  });
  const element = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, 'False-positive rate (FPR)'),
    input,
    hint,
    error,
  );
  return { element, value };
}
