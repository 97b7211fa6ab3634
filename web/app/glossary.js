// The symbols the page uses, in words: a tooltip on every symbol in a label (its title), and the
// glossary list at the foot of the page, which a keyboard or touch user can reach and read.
import { h } from './dom.js';

export const glossary = [
  {
    symbol: 'ε',
    name: 'epsilon',
    text: 'The privacy-loss bound: no output becomes more than exp(ε) times more likely because one person’s data is in the input. Smaller is more private; ε ≤ 1 is strong, ε ≥ 10 is weak.',
  },
  {
    symbol: 'δ',
    name: 'delta',
    text: 'The probability with which the ε bound may fail. It should be far below 1/n for n people, typically 10⁻⁵ to 10⁻⁹.',
  },
  {
    symbol: 'ρ',
    name: 'rho',
    text: 'The parameter of zero-concentrated DP (zCDP): a bound on the privacy loss at every Rényi order α, ρ·α. It converts to (ε, δ) for any δ.',
  },
  {
    symbol: 'Δ',
    name: 'sensitivity',
    text: 'The sensitivity: how much one person’s data can change the exact answer (ℓ1 norm for Laplace noise, ℓ2 for Gaussian noise). In DP-SGD, the clip norm.',
  },
  {
    symbol: 'σ',
    name: 'sigma',
    text: 'The standard deviation of Gaussian noise. In DP-SGD it is given as a noise multiplier: σ = noise multiplier × clip norm.',
  },
  {
    symbol: 'b',
    name: 'Laplace scale',
    text: 'The scale of Laplace noise (its standard deviation is √2·b). With sensitivity Δ it gives ε = Δ/b.',
  },
  {
    symbol: 'q',
    name: 'sampling rate',
    text: 'The probability with which each record is included in a step (Poisson sampling), e.g. batch size / dataset size in DP-SGD.',
  },
  {
    symbol: 'k',
    name: 'count',
    text: 'A number of records (group size) or of mechanisms run (compositions), depending on the section.',
  },
  // The words of "What an attacker can do" (attacker.js): terms without a symbol of their own.
  {
    name: 'membership test',
    text: 'Any procedure that looks at the released results and guesses whether a given person (or group of records) was in the data. A differential-privacy guarantee limits every such test, whatever the attacker knows or computes.',
  },
  {
    name: 'false-positive rate',
    text: 'The share of people who were not in the data that a membership test wrongly flags as members.',
  },
  {
    name: 'true-positive rate',
    text: 'The share of people who were in the data that a membership test correctly flags. The page gives the largest true-positive rate any test can reach at each false-positive rate: an upper bound.',
  },
  {
    name: 'trade-off curve',
    text: 'The fewest members any test can miss at each false-positive rate, as the guarantee bounds it (Dong, Roth, Su 2019); drawn as an ROC curve, the most any test can catch. The diagonal is random guessing: a curve close to it means no test does much better than a guess.',
  },
  {
    name: 'advantage',
    text: 'The largest difference between a membership test’s true-positive and false-positive rates, at any threshold (the total variation distance). 0 means no test beats guessing; 1 means a test can be certain.',
  },
  {
    name: 'audit lower bound',
    text: 'What an experiment proves about a mechanism: with the confidence chosen (say 95%), over the randomness of the experiment, the mechanism is not (ε, δ)-DP for any ε below it. A statistical statement about one attack, never a privacy guarantee; a stronger attack may prove more.',
  },
  {
    name: 'posterior',
    text: 'How sure an attacker can become that a person was in the data, after seeing the results, starting from a prior belief (here a coin toss, 50%).',
  },
];

const bySymbol = new Map(glossary.filter((entry) => entry.symbol).map((entry) => [entry.symbol, entry]));

/** A symbol as it appears in a label, e.g. ε₀: in <var>, with its meaning as a tooltip when it has one. */
export function termElement(symbol) {
  const entry = bySymbol.get(symbol[0]);
  return h('var', { title: entry ? `${entry.name}: ${entry.text}` : undefined }, symbol);
}

/** The glossary as a description list. */
export function glossaryElement() {
  return h(
    'dl',
    { class: 'glossary' },
    glossary.flatMap((entry) => [
      h(
        'dt',
        { id: `term-${entry.name.replaceAll(' ', '-')}` },
        ...(entry.symbol ? [h('var', {}, entry.symbol), ` (${entry.name})`] : [h('dfn', {}, entry.name)]),
      ),
      h('dd', {}, entry.text),
    ]),
  );
}
