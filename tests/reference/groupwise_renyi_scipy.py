# D_α/α of the group-wise output densities at σ = 10, r = 0.3, x = 10 (the docs' example, ρ = 0.005),
# both directions, for the orders given: an independent double-precision quadrature (scipy.quad,
# relative tolerance 1e-13 inside, 1e-12 outside, on pieces split as in groupwise_mpmath.py) that
# answers every integer order in minutes where the mpmath script needs hours.
#   p_x(y) = ∫ N(s; x, σ²) N(y; s, (r s)²) ds,  D_α(p_a‖p_b) = log(1 + ∫ p_a ((p_b/p_a)^{1−α} − 1) dy)/(α − 1).
# Usage: /usr/bin/python3 tests/reference/groupwise_renyi_scipy.py α...
import sys, math, functools
import numpy as np
from scipy.integrate import quad
sig, r, x = 10.0, 0.3, 10.0

def density(mean, y):
    f = lambda s: math.exp(-(s - mean)**2 / (2 * sig**2) - (y - s)**2 / (2 * r**2 * s**2)) / (2 * math.pi * sig * r * abs(s))
    pts = sorted(set([mean + k * sig for k in (-12, -4, -1, 0, 1, 4, 12)] + [y / t for t in (1 + 12*r, 1 + r, 1, 1 - r) if t > 0] + ([y * 10.0**-k for k in range(1, 8)] if y != 0 else [])))
    pts = [p for p in pts if mean - 40 * sig < p < mean + 40 * sig and p != 0]
    lo, hi = mean - 40 * sig, mean + 40 * sig
    total = 0.0
    edges = sorted(set([lo, 0.0, hi] + pts))
    for a, b in zip(edges[:-1], edges[1:]):
        v, _ = quad(f, a, b, epsabs=0, epsrel=1e-13, limit=200)
        total += v
    return total

@functools.lru_cache(maxsize=None)
def pair(y):
    return density(x, y), density(x + 1, y)

tau = math.sqrt(sig**2 + r**2 * (x**2 + sig**2))
lo, hi = x - 14 * tau, x + 14 * tau
edges = sorted(set([lo, hi, 0.0] + [x + k * tau for k in range(-13, 14)] + [s * 10.0**-k for k in range(1, 10) for s in (1, -1)]))
edges = [e for e in edges if lo <= e <= hi]
for alpha in [float(a) for a in sys.argv[1:]]:
    out = []
    for swap in (False, True):
        def g(y):
            pa, pb = pair(y)
            if swap: pa, pb = pb, pa
            return pa * math.expm1((1 - alpha) * math.log(pb / pa))
        total = 0.0
        for a, b in zip(edges[:-1], edges[1:]):
            v, _ = quad(g, a, b, epsabs=0, epsrel=1e-12, limit=200)
            total += v
        out.append(math.log1p(total) / (alpha - 1) / alpha)
    print(f"alpha={alpha:g} D/alpha forward={out[0]:.15g} reverse={out[1]:.15g}", flush=True)
