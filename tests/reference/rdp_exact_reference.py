"""Reference Rényi divergences for tests/core/rdp/rdp_exact_test.cpp, by numerical integration in mpmath
(50 digits), from the definitions, not from the series the C++ sums.

Run: /usr/bin/python3 tests/reference/rdp_exact_reference.py [section]

1. Poisson-subsampled Gaussian, mu = (1 - q) N(0, s^2) + q N(1, s^2) against mu0 = N(0, s^2):
   D_alpha(mu || mu0) = log E_mu0[L^alpha] / (alpha - 1), L(z) = (1 - q) + q exp((2z - 1)/(2 s^2)),
   at alpha = 1 the KL divergence E_mu0[L log L]; both by mp.quad over the real line cut at the
   points where the integrand changes scale. The other direction D_alpha(mu0 || mu) (log E_mu0[L^(1-alpha)])
   is printed too: it is smaller at every point here (the curve is the larger direction).
"""
import sys

import mpmath as mp

mp.mp.dps = 50


def subsampled_gaussian(q, s, a, reverse=False):
    q, s, a = mp.mpf(q), mp.mpf(s), mp.mpf(a)
    L = lambda z: (1 - q) + q * mp.e**((2 * z - 1) / (2 * s * s))
    z0 = s * s * mp.log(1 / q - 1) + mp.mpf(1) / 2
    # The integrand's mass sits near 0 (mu0), near z0 and near the tilted mean alpha (e^{alpha w} tilts N(0, s^2)).
    cuts = sorted(set([-mp.inf, -12 * s, z0 - 6 * s, z0, z0 + 6 * s, a - 6 * s, a + 6 * s, a + 14 * s, mp.inf]))
    if a == 1:
        return mp.quad(lambda z: mp.npdf(z, 0, s) * L(z) * mp.log(L(z)), cuts)
    power = 1 - a if reverse else a
    integral = mp.quad(lambda z: mp.npdf(z, 0, s) * L(z)**power, cuts)
    return mp.log(integral) / (a - 1)


SUBSAMPLED_CASES = [
    # (q, sigma, orders)
    (0.2, 10, [1, 1.25, 2, 2.25, 4.5]),
    (0.2, 2, [1, 1.25, 1.5, 2, 3.7]),
    (0.2, 0.5, [1, 1.25, 1.5, 2]),
    (0.05, 1, [1, 1.1, 1.25, 2, 10.9]),
    (0.01, 1, [1, 1.5, 2, 4.5, 10.9, 32]),
    (0.01, 1.1, [2, 4.5, 8]),
    (1e-4, 10, [1, 1.5, 2, 3.7]),
    (0.5, 3, [1, 1.3, 2, 5.5]),
    (0.6, 1, [1, 1.7, 3]),
    (0.9, 2, [1, 1.5, 2.5]),
    (0.25, 0.25, [1.1, 1.9, 3.5]),
    # q near 1/2 with sigma large: the split point z0 lies in the bulk of both Gaussians.
    (0.5, 100, [1, 1.25]),
    (0.499, 100, [1.1]),
    (0.5, 300, [1.25]),
    # The optimal orders of Sommer's 10^6-step rows (tests/core/rdp/rdp_reference_test.cpp).
    (0.004266666666666641, 1.0, [1.8]),
    (0.008515199697772702, 1.0, [1.4]),
    (0.012745675861601025, 2 / 3, [1.1]),
]


def section_subsampled():
    for q, s, orders in SUBSAMPLED_CASES:
        for a in orders:
            value = subsampled_gaussian(q, s, a)
            reverse = subsampled_gaussian(q, s, a, reverse=True) if a != 1 else None
            note = '' if reverse is None else '  (reverse %s)' % mp.nstr(reverse, 6)
            print('    {%r, %r, %r, %s},%s' % (q, s, a, mp.nstr(value, 17), note))


def section_dpsgd_group():
    # tests/node/dpsgd.test.mjs: Sommer's (2021) over-approximation of a group of 5 in fixed batches,
    # N = 60000, B = 256, sigma = 2, 16384 steps, delta = 1e-5: q = 1 - hypergeom.cdf(0, N, 5, B),
    # noise sigma / 5, converted by Balle et al. 2020, Thm 21, at the best of orders 1.1, 1.2, 1.4.
    from scipy.stats import hypergeom

    q = 1 - hypergeom.cdf(0, 60000, 5, 256)
    delta = mp.mpf('1e-5')
    for a in ['1.1', '1.2', '1.4']:
        a = mp.mpf(a)
        total = 16384 * subsampled_gaussian(q, 0.4, a)
        epsilon = total + mp.log((a - 1) / a) - (mp.log(delta) + mp.log(a)) / (a - 1)
        print('    order %s: epsilon %s' % (mp.nstr(a, 3), mp.nstr(epsilon, 17)))


SECTIONS = {'subsampled': section_subsampled, 'dpsgd_group': section_dpsgd_group}

if __name__ == '__main__':
    for name in (sys.argv[1:] or SECTIONS):
        print('# ' + name)
        SECTIONS[name]()
