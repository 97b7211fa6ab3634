// Number formatting that never makes a bound look better than it is: an upper bound is rounded up,
// a lower bound (or a budget you may spend) is rounded down, to a few significant digits. Outward
// rounding belongs to guarantees only: a statistic (a simulated mean, a standard deviation) or a
// numerical estimate is rounded to the nearest ('nearest'), since rounding it up would misstate it.
// Differences below kTolerance (relative) are floating-point noise of the computation itself
// (10 × 0.1 = 1.0000000000000002), far below the core's own accuracy, and do not bump a digit.
const kDigits = 5;
const kQuoteLength = 40;
const kTolerance = 1e-12;
const superscripts = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** `x` rounded to `digits` significant digits towards +∞ ('up'), −∞ ('down') or to the nearest ('nearest'). */
export function roundTo(x, direction = 'up', digits = kDigits) {
  if (!Number.isFinite(x) || x === 0) return x;
  if (direction === 'nearest') return Number(x.toPrecision(digits));
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  let rounded = Number(`${mantissa}e${exponent}`);
  const step = Number(`1e${Number(exponent) - digits + 1}`);
  const noise = Math.abs(x) * kTolerance;
  if (direction === 'up' && rounded < x - noise) rounded = Number((rounded + step).toPrecision(digits));
  if (direction === 'down' && rounded > x + noise) rounded = Number((rounded - step).toPrecision(digits));
  return rounded;
}

/** Text for a number already rounded: plain for 0.001 ≤ |x| < 1e6, else "3.1193 × 10⁻⁵". */
export function numberText(x) {
  if (Number.isNaN(x)) return 'not a number';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  const magnitude = Math.abs(x);
  if (x === 0 || (magnitude >= 1e-3 && magnitude < 1e6)) return String(x).replace('-', '−');
  const [mantissa, exponent] = x.toExponential().split('e');
  const power = String(Number(exponent)).replace(/[-0-9]/g, (c) => superscripts[c]);
  return `${mantissa.replace('-', '−')} × 10${power}`;
}

export function formatNumber(x, direction = 'up') {
  return numberText(roundTo(x, direction));
}

const fromSuperscript = Object.fromEntries(Object.entries(superscripts).map(([plain, raised]) => [raised, plain]));
const kScientific = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(?:[×x*·]10\^|e)\(?([+-]?\d+)\)?)?$/i;
const kPowerOfTen = /^([+-]?)10\^\(?([+-]?\d+)\)?$/;

/**
 * The number a person typed, or NaN. Takes what the page prints and what people paste: 0.5, 1e-6,
 * 1E−6 (Unicode minus), 1 × 10⁻⁵, 1x10^-5, 10^-6, 10⁻⁶, and a fraction of two of them (256/50000,
 * 1/1e5: a batch over a dataset size), with spaces anywhere. Not a decimal comma ("1,5" is NaN rather
 * than a guess between 1.5 and 15).
 */
export function parseNumber(text) {
  const parts = String(text).split(/[/÷∕]/);
  if (parts.length === 2) return parseNumber(parts[0]) / parseNumber(parts[1]);
  if (parts.length > 2) return Number.NaN;
  const plain = String(text)
    .replace(/[\s\u00a0\u2009\u202f]/g, '')
    .replace(/[\u2212\u2012\u2013\ufe63\uff0d]/g, '-')
    .replace(
      /[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+/g,
      (raised) => `^${[...raised].map((c) => (c === '⁺' ? '+' : fromSuperscript[c])).join('')}`,
    );
  const power = kPowerOfTen.exec(plain);
  if (power) return Number(`${power[1]}1e${power[2]}`);
  const scientific = kScientific.exec(plain);
  if (!scientific) return Number.NaN;
  return Number(scientific[2] === undefined ? scientific[1] : `${scientific[1]}e${scientific[2]}`);
}

// A number in a sentence of the core's, e.g. "⌈30 · 195.31249999999997⌉": a derived value
// (1 / 0.00512) carries the noise of its floating-point division in its last digits.
const kLongDecimal = /\d+\.\d{8,}(?:e[+-]?\d+)?/g;
const kShownDigits = 12;

/**
 * `text` (a note of the core's) with every long decimal rounded to 12 significant digits: 195.3125
 * rather than 195.31249999999997. Whole numbers and short decimals stay as they are.
 */
export const tidyNumbers = (text) =>
  String(text).replace(kLongDecimal, (digits) => String(Number(Number(digits).toPrecision(kShownDigits))));

/** `text` in quotes, control characters dropped and cut at kQuoteLength characters. */
export function quote(text) {
  const clean = String(text).replace(/[\p{Cc}\p{Cf}]/gu, '');
  return `“${clean.length > kQuoteLength ? `${clean.slice(0, kQuoteLength)}…` : clean}”`;
}
