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
];

const bySymbol = new Map(glossary.map((entry) => [entry.symbol, entry]));

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
      h('dt', { id: `term-${entry.name.replaceAll(' ', '-')}` }, h('var', {}, entry.symbol), ` (${entry.name})`),
      h('dd', {}, entry.text),
    ]),
  );
}
