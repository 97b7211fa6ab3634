"""Reference values for tests/core/api/rdp_api_test.cpp: op 'rdp' and compose method 'rdp' through the
API, each from the definitions in mpmath (50 digits), via the functions of rdp_mechanisms_reference.py
and rdp_exact_reference.py (quadrature and sums over outcomes, never the C++ closed forms).

Run: /usr/bin/python3 tests/reference/rdp_api_reference.py [section ...]

Sections:
  curves     3 uses of Laplace(scale 1) at orders 1, 2, infinity; randomized response (p = 0.5, k = 4),
             the exponential mechanism (eps = 1), the discrete Gaussian (sigma = 2) at order 2; the
             Poisson-subsampled Gaussian at q = 0.2, sigma = 10, order 1.25 and q = 0.2, sigma = 2,
             order 1.25 (quadrature).
  replace    Poisson subsampling under substitution at rate 1: N(1, s^2) against N(-1, s^2), the
             Gaussian of shift 2: delta(eps) by the analytic Gaussian (Balle & Wang 2018, Thm 8) at
             sigma = 2, eps = 1.
"""
import os
import sys

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rdp_exact_reference import subsampled_gaussian  # noqa: E402
from rdp_mechanisms_reference import bounded_range, discrete_gaussian, laplace, randomized_response  # noqa: E402

mp.mp.dps = 50


def section_curves():
    for a in (1, 2, 'inf'):
        print('laplace b=1 x3 order %s: %s' % (a, mp.nstr(3 * laplace(1, a), 17)))
    print('randomized_response p=0.5 k=4 order 2: %s' % mp.nstr(randomized_response(0.5, 4, 2), 17))
    print('exponential eps=1 order 2: %s' % mp.nstr(bounded_range(1, 2), 17))
    print('discrete_gaussian sigma=2 order 2: %s' % mp.nstr(discrete_gaussian(2, 1, 2), 17))
    print('subsampled q=0.2 s=10 order 1.25: %s' % mp.nstr(subsampled_gaussian(0.2, 10, 1.25), 17))
    print('subsampled q=0.2 s=2 order 1.25: %s' % mp.nstr(subsampled_gaussian(0.2, 2, 1.25), 17))


def section_replace():
    s, eps, shift = mp.mpf(2), mp.mpf(1), mp.mpf(2)
    mu = shift / s
    delta = mp.ncdf(-eps / mu + mu / 2) - mp.e**eps * mp.ncdf(-eps / mu - mu / 2)
    print('N(1, 4) vs N(-1, 4) delta(1): %s' % mp.nstr(delta, 17))


SECTIONS = {'curves': section_curves, 'replace': section_replace}

if __name__ == '__main__':
    for name in (sys.argv[1:] or SECTIONS):
        print('# ' + name)
        SECTIONS[name]()
