// What the page shows beside a mechanism of the core's catalog (schema().mechanisms): its formula in
// TeX, the work it comes from, the symbol of each parameter and an example value for a fresh row.
// `inWords`: the parameters a sentence names in words after their value ("2 buckets"), where the
// symbol means something else on the page. One entry per mechanism type; a type without an entry still appears in every mechanism picker,
// with its parameters and its one-line meaning from the catalog (mechanism-picker.js), so adding a
// mechanism to the core needs no page code, and this entry only adds its formula and citation.
// The numbers beside the formulas always come from the core.
export const mechanismNotes = {
  laplace: {
    tex: String.raw`M(x) = f(x) + \mathrm{Lap}(b),\quad \varepsilon = \frac{\Delta}{b}`,
    citation: 'Dwork, McSherry, Nissim, Smith 2006',
    keys: ['dwork2006calibrating'],
    symbols: { scale: 'b', sensitivity: 'Δ' },
    examples: { scale: '10' },
  },
  gaussian: {
    tex: String.raw`M(x) = f(x) + \mathcal{N}(0, \sigma^2),\quad \mu = \frac{\Delta}{\sigma}\text{-GDP},\ \rho = \frac{\Delta^2}{2\sigma^2}`,
    citation: 'Dong, Roth, Su 2019; Bun & Steinke 2016, Prop 1.6',
    keys: ['dong2019gaussian', 'bun2016concentrated'],
    symbols: { sigma: 'σ', sensitivity: 'Δ' },
  },
  poisson_subsampled: {
    tex: String.raw`M(S_q(x)),\ \ \Pr[\text{record} \in S_q] = q \text{ (each independently)}`,
    citation: 'Zhu, Dong, Wang 2022, Thm 11',
    keys: [],
    symbols: { rate: 'q' },
    examples: { rate: '0.01' },
  },
  gaussian_mixture: {
    tex: String.raw`P = \textstyle\sum_i w_i\,\mathcal{N}(s_i, \sigma^2)\ \text{ against }\ Q = \mathcal{N}(0, \sigma^2)`,
    citation: 'Zhu, Dong, Wang 2022, Def 7',
    keys: [],
    symbols: { sigma: 'σ' },
    examples: { shifts: '0, 1', weights: '0.5, 0.5' },
  },
  discrete_gaussian: {
    tex: String.raw`P(x) \propto e^{-x^2/2\sigma^2}\ \text{on } \mathbb{Z},\quad \rho = \frac{\Delta^2}{2\sigma^2}`,
    citation: 'Canonne, Kamath, Steinke 2020',
    keys: ['canonne2020discrete'],
    symbols: { sigma: 'σ', sensitivity: 'Δ', truncation_bound: 'T' },
    examples: { sigma: '5' },
  },
  discrete_laplace: {
    tex: String.raw`P(x) \propto e^{-|x|/b}\ \text{on } \mathbb{Z},\quad \varepsilon = \frac{\Delta}{b}`,
    citation: 'Ghosh, Roughgarden, Sundararajan 2009',
    keys: ['ghosh2009universally'],
    symbols: { scale: 'b', sensitivity: 'Δ' },
    examples: { scale: '10' },
  },
  exponential: {
    tex: String.raw`P(r) \propto e^{\varepsilon u(x, r)/2\Delta u},\ \ \varepsilon\text{-bounded range}`,
    citation: 'Durfee & Rogers 2019; Dong, Durfee, Rogers 2020',
    keys: ['durfee2019practical', 'dong2020optimal'],
    symbols: { epsilon: 'ε' },
    examples: { epsilon: '0.5' },
  },
  permute_and_flip: {
    tex: String.raw`\varepsilon\text{-DP selection}`,
    citation: 'McKenna & Sheldon 2020',
    keys: ['mckenna2020permute'],
    symbols: { epsilon: 'ε' },
    examples: { epsilon: '0.5' },
  },
  randomized_response: {
    tex: String.raw`\text{true bucket w.p. } 1-p,\ \text{uniform of } k \text{ w.p. } p,\quad \varepsilon = \ln\Bigl(1 + \frac{k(1-p)}{p}\Bigr)`,
    citation: 'Warner 1965',
    keys: ['warner1965randomized'],
    symbols: { noise_parameter: 'p', num_buckets: 'k' },
    // In a sentence, "k = 2" would read as a group size or a number of releases.
    inWords: { num_buckets: 'buckets' },
    examples: { noise_parameter: '0.5', num_buckets: '2' },
  },
  sampled_without_replacement: {
    tex: String.raw`M(\text{a uniform sample of } m \text{ of the } n \text{ records})`,
    citation: 'Zhu, Dong, Wang 2022; Wang, Balle, Kasiviswanathan 2019',
    keys: [],
    symbols: { dataset_size: 'n', sample_size: 'm' },
    examples: { dataset_size: '10000', sample_size: '100' },
  },
  tree_aggregation: {
    tex: String.raw`\mu = \frac{\sqrt{\lceil \log_2(T+1) \rceil}\,\Delta}{\sigma}\text{-GDP per epoch}`,
    citation: 'Kairouz, McMahan, Song, Thakkar, Thakurta, Xu 2021',
    keys: ['kairouz2021practical'],
    symbols: { noise_multiplier: 'σ', steps: 'T', sensitivity: 'Δ' },
    examples: { steps: '1000' },
  },
};

/** The notes of mechanism type `name` (an empty entry for a type that has none yet). */
export const notesOf = (name) => mechanismNotes[name] ?? { symbols: {}, examples: {}, keys: [] };
