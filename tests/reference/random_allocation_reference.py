"""Independent estimate (not certified) of eps(delta) for random allocation, for the doctest rows.

Random allocation over t steps with noise sigma (docs/random_allocation.md, eq (2)): under Q the
likelihood ratio W is the mean of t i.i.d. log-normal factors V, ln V ~ N(-s^2/2, s^2), s = 1/sigma.
Here V's law is put on a fine linear lattice by cell midpoints (no rounding direction), the t-fold
sum is taken with numpy's FFT, the remove PLD (ln W under P, mass w Q[W = w]) is binned on a loss
grid of step h by nearest point, composed E times by FFT, and delta(eps) is read off; epsilon by
bisection. Usage: random_allocation_reference.py sigma t E delta [lattice_step] [loss_step]
"""
import sys

import numpy as np
from scipy import special, stats


def epsilon(sigma, t, epochs, delta, step=5e-3, h=2e-4):
    s = 1.0 / sigma
    top = np.exp(s * stats.norm.isf(1e-16) + 0.5 * s * s)
    edges = np.arange(0.0, top + step, step)
    cdf = stats.norm.cdf((np.log(np.maximum(edges, 1e-300)) + 0.5 * s * s) / s)
    cdf[0] = 0.0
    q = np.diff(cdf)
    mids = 0.5 * (edges[1:] + edges[:-1])
    n = int(2 ** np.ceil(np.log2(t * len(q) * 0.02 + 4 * len(q) + 1)))
    spec = np.fft.rfft(q, n) ** t
    total = np.maximum(np.fft.irfft(spec, n), 0.0)
    # The sum of t midpoints: t * step / 2 + k * step.
    w = (0.5 * t * step + np.arange(n) * step) / t
    keep = total > 1e-30
    loss = np.log(w[keep])
    p = total[keep] * w[keep]
    idx = np.round(loss / h).astype(np.int64)
    lo = idx.min()
    pld = np.bincount(idx - lo, weights=p)
    m = int(2 ** np.ceil(np.log2(len(pld) * epochs * 1.5 + 1)))
    comp = np.maximum(np.fft.irfft(np.fft.rfft(pld, m) ** epochs, m), 0.0)
    losses = (lo * epochs + np.arange(m)) * h

    def delta_of(eps):
        sel = losses > eps
        return np.sum(comp[sel] * (1 - np.exp(eps - losses[sel])))

    a, b = 0.0, 20.0
    for _ in range(60):
        c = 0.5 * (a + b)
        if delta_of(c) > delta:
            a = c
        else:
            b = c
    return 0.5 * (a + b)


if __name__ == "__main__":
    args = [float(x) for x in sys.argv[1:]]
    sigma, t, epochs, delta = args[0], int(args[1]), int(args[2]), args[3]
    step = args[4] if len(args) > 4 else 5e-3
    h = args[5] if len(args) > 5 else 2e-4
    print(f"{epsilon(sigma, t, epochs, delta, step, h):.6f}")
