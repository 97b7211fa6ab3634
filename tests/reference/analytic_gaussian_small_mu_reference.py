"""The analytic Gaussian at tiny mu (Balle & Wang 2018, Thm 8), for the lower ends of
tests/core/closed_form/analytic_gaussian_reference_test.cpp: the exact delta(eps) and eps(delta),
where the two Phi terms cancel to a relative mu and the lower end must not use the one-sided
bound mu I(z). mpmath at 80 digits on the exact double inputs; eps(delta) by 400 bisection steps.

python3 tests/reference/analytic_gaussian_small_mu_reference.py
"""
from mpmath import mp, mpf, ncdf, exp

mp.dps = 80


def delta(mu, eps):
    mu, eps = mpf(mu), mpf(eps)
    return ncdf(mu / 2 - eps / mu) - exp(eps) * ncdf(-mu / 2 - eps / mu)


def epsilon(mu, target):
    lo, hi = mpf(0), mpf(1)
    while delta(mu, hi) > target:
        hi *= 2
    for _ in range(400):
        mid = (lo + hi) / 2
        if delta(mu, mid) > target:
            lo = mid
        else:
            hi = mid
    return hi


for mu, eps in [(1e-5, 4e-5), (1e-5, 5e-5), (3e-6, 1.5e-5), (1e-7, 5e-7)]:
    print(f"delta mu={mu!r} eps={eps!r}: {mp.nstr(delta(mu, eps), 20)}")
for mu, d in [(1e-5, 1e-6), (1e-5, 1e-10), (3e-6, 1e-8), (1e-7, 1e-9)]:
    print(f"eps mu={mu!r} delta={d!r}: {mp.nstr(epsilon(mu, mpf(d)), 20)}")
