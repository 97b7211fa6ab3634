"""Exact reference for the test of many copies of a lattice pair composed with other items
(tests/core/mechanisms/randomized_response_test.cpp): 365 reports of randomized response (p = 0.75,
k = 2 buckets), one Gaussian release (sigma = 2, sensitivity 1) and one discrete Laplace release
(scale 3, sensitivity 1), under substitution, epsilon at delta = 1e-5.

 * randomized response, k = 2: each report has loss +L (P-mass 1 - p/2) or -L, L = ln((1 - p/2)/(p/2));
   the net count of n reports is binomial.
 * discrete Laplace (b, D = 1): the loss is +1/b on x >= 1 (P-mass 1/(1 + a), a = e^{-1/b}) and -1/b
   on x <= 0.
 * Gaussian: for mu = D / sigma, E_P[(1 - e^{x - L_G})_+] = Phi(mu/2 - x/mu) - e^x Phi(-mu/2 - x/mu)
   (Balle, Wang 2018, Thm 8), so delta(eps) = sum over the two discrete losses l of
   P(l) (Phi(mu/2 - (eps - l)/mu) - e^{eps - l} Phi(-mu/2 - (eps - l)/mu)).
All three pairs are symmetric, so one direction decides. epsilon by bisection to 1e-15 relative in
mpmath (40 digits). Run with Debian's python3:
  /usr/bin/python3 tests/reference/lattice_copies_reference.py
"""
import mpmath as mp

mp.mp.dps = 40

n, p, sigma, b = 365, mp.mpf('0.75'), mp.mpf(2), mp.mpf(3)
top = 1 - p / 2
L = mp.log(top / (p / 2))
a = mp.e**(-1 / b)
mu = 1 / sigma
discrete = []
for j in range(n + 1):
  mass = mp.binomial(n, j) * top**j * (1 - top)**(n - j)
  for loss, weight in ((1 / b, 1 / (1 + a)), (-1 / b, a / (1 + a))):
    discrete.append(((2 * j - n) * L + loss, mass * weight))


def delta(eps):
  return mp.fsum(m * (mp.ncdf(mu / 2 - (eps - l) / mu) - mp.e**(eps - l) * mp.ncdf(-mu / 2 - (eps - l) / mu))
                 for l, m in discrete)


lo, hi = mp.mpf(0), mp.mpf(400)
while hi - lo > mp.mpf('1e-15') * hi:
  mid = (lo + hi) / 2
  lo, hi = (mid, hi) if delta(mid) > mp.mpf('1e-5') else (lo, mid)
print(mp.nstr(hi, 17))
