"""delta(eps) below eps = 0, for tests/core/pld/pld_negative_epsilon_test.cpp: the hockey-stick
divergence sup of integral (p - e^eps q)_+ over both orders of the pair, by mpmath quadrature at
40 digits (split at the kinks), against the closed forms it should match:
 * Gaussian, mu = Delta/sigma: Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) (Balle & Wang 2018,
   Thm 8, valid for every real eps);
 * Laplace, eps0 = Delta/b: 1 - e^{(eps - eps0)/2} on [-eps0, eps0], 1 - e^eps below.

python3 tests/reference/negative_epsilon_reference.py
"""
from mpmath import mp, mpf, quad, exp, ncdf, npdf, inf

mp.dps = 40


def hockey(p, q, eps, points):
    return quad(lambda x: max(p(x) - exp(eps) * q(x), 0), [-inf] + points + [inf])


def gaussian(mu, eps):
    closed = ncdf(mu / 2 - eps / mu) - exp(eps) * ncdf(-mu / 2 - eps / mu)
    # Where p = e^eps q: x = eps/mu + mu/2 for P = N(mu, 1), Q = N(0, 1).
    numeric = hockey(lambda x: npdf(x, mu), lambda x: npdf(x), mpf(eps), [eps / mu + mu / 2])
    return closed, numeric


def laplace(b, delta_sensitivity, eps):
    lap = lambda m: (lambda x: exp(-abs(x - m) / b) / (2 * b))
    eps0 = mpf(delta_sensitivity) / b
    closed = 1 - exp((eps - eps0) / 2) if eps >= -eps0 else 1 - exp(eps)
    # p = e^eps q at x = (Delta - b eps)/2 when that lies in [0, Delta].
    crossing = (delta_sensitivity - b * eps) / 2
    kinks = sorted(set([mpf(0), mpf(delta_sensitivity)] + ([crossing] if 0 < crossing < delta_sensitivity else [])))
    numeric = hockey(lap(0), lap(delta_sensitivity), mpf(eps), kinks)
    return closed, numeric


for mu, eps in [(1, -0.5), (2, -3), (0.5, -0.01)]:
    c, n = gaussian(mpf(mu), mpf(eps))
    print(f"gaussian mu={mu} eps={eps}: {mp.nstr(c, 20)} (quadrature {mp.nstr(n, 20)})")
for b, d, eps in [(1, 1, -0.5), (1, 1, -2), (2, 1, -0.25)]:
    c, n = laplace(mpf(b), d, mpf(eps))
    print(f"laplace b={b} sensitivity={d} eps={eps}: {mp.nstr(c, 20)} (quadrature {mp.nstr(n, 20)})")
