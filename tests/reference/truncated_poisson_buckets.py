"""An independent bracket of the truncated-Poisson zero-out pair, by privacy buckets.

Run: /usr/bin/python3 tests/reference/truncated_poisson_buckets.py [steps] [loss step] [q shift] [x step]
(defaults 2344 2e-5 -1 5e-6: about 90 s). Needs dp_accounting from source on PYTHONPATH (or
/tmp/gdp/python/dp_accounting) for its PMF composition only.

The pair (dpsgd/truncated_poisson.cpp): with w = Pr[Binomial(N - 1, q) >= C] and
rho = C Pr[Binomial(N, q) >= C + 1] / (N w), the revealed mixture of the Poisson part
(1 - q)N(0) + qN(1) vs N(0) (weight 1 - w) and the truncated part (1 - rho)N(0) + rho N(2) vs
(1 - rho)N(0) + rho N(q shift) (weight w), both directions. Each part's loss is monotone in x: on a
fine x grid, each cell's P-mass goes to its largest loss rounded up to the loss grid (pessimistic: an
upper bound on every delta, so on epsilon) or its smallest rounded down (optimistic: a lower
bound); the tails beyond the x range go to +inf (pessimistic) or are dropped. Composed by
dp_accounting's DensePLDPmf (float64 FFT). N = 60000, q = 256/60000, C = 281, sigma = 1, delta = 1e-5.

Result (defaults): pessimistic 4.731242345522016, optimistic 4.684292313573378 (remove direction;
add: 1.18426, 1.13733). At loss step 1e-4, x step 2e-5: [4.59044, 4.82512]. dpcalc: 4.708078 (upper),
4.707607 (lower).
"""
import sys

sys.path.insert(0, '/tmp/gdp/python/dp_accounting')
import numpy as np  # noqa: E402
from scipy import special, stats  # noqa: E402
from dp_accounting.pld import pld_pmf  # noqa: E402

N, Q, C = 60000, 256 / 60000, 281
STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 2344
H = float(sys.argv[2]) if len(sys.argv) > 2 else 2e-5
Q_SHIFT = float(sys.argv[3]) if len(sys.argv) > 3 else -1.0
DX = float(sys.argv[4]) if len(sys.argv) > 4 else 5e-6

W = stats.binom.sf(C - 1, N - 1, Q)
RHO = stats.binom.sf(C, N, Q) * C / W / N


def part(p_weights, p_shifts, q_weights, q_shifts, pessimistic, low=-11, high=13):
    x = np.arange(low, high + DX, DX)
    cdf = sum(w * special.ndtr(x - s) for w, s in zip(p_weights, p_shifts))
    cell = np.diff(cdf)

    def log_density(weights, shifts):
        return special.logsumexp(np.stack([np.log(w) - 0.5 * (x - s) ** 2 for w, s in zip(weights, shifts)]), axis=0)

    loss = log_density(p_weights, p_shifts) - log_density(q_weights, q_shifts)
    if pessimistic:
        index = np.ceil(np.maximum(loss[1:], loss[:-1]) / H).astype(np.int64)
    else:
        index = np.floor(np.minimum(loss[1:], loss[:-1]) / H).astype(np.int64)
    lowest = int(index.min())
    probs = np.bincount(index - lowest, weights=cell)
    infinity = 0.0
    if pessimistic:
        probs[0] += cdf[0]
        infinity = 1 - cdf[-1]
    return pld_pmf.DensePLDPmf(H, lowest, probs, infinity, pessimistic)


for pessimistic in (True, False):
    remove = part([1 - Q, Q], [0, 1], [1], [0], pessimistic).compute_mixture(
        part([1 - RHO, RHO], [0, 2], [1 - RHO, RHO], [0, Q_SHIFT], pessimistic), 1 - W)
    add = part([1], [0], [1 - Q, Q], [0, 1], pessimistic).compute_mixture(
        part([1 - RHO, RHO], [0, Q_SHIFT], [1 - RHO, RHO], [0, 2], pessimistic), 1 - W)
    epsilons = [pmf.self_compose(STEPS, tail_mass_truncation=1e-15).get_epsilon_for_delta(1e-5) for pmf in (remove, add)]
    print('pessimistic' if pessimistic else 'optimistic', epsilons)
