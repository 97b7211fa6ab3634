"""Exact reference for tests/core/mechanisms/discrete_laplace_test.cpp ("exact on its own lattice"):
epsilon(delta) of n uses of the discrete Laplace mechanism, scale b, sensitivity 1, from its exact
privacy loss distribution (no discretisation). One use's loss is +1/b with probability 1/(1 + t) and
-1/b with probability t/(1 + t), t = e^{-1/b} (P(X <= 0) for X ~ DLap(0, b)); n uses give the loss
(2m - n)/b with m ~ Binomial(n, 1/(1 + t)), and delta(eps) = sum_m P(m) (1 - e^{eps - (2m - n)/b})_+.
epsilon(delta) is found by bisection (200 halvings of [0, n/b]) in mpmath at 50 digits. Run with
Debian's python3:
  /usr/bin/python3 tests/reference/discrete_laplace_binomial_reference.py
"""
from mpmath import exp, log, loggamma, mp, mpf

mp.dps = 50


def epsilon(b, n, delta):
    b, delta = mpf(b), mpf(delta)
    t = exp(-1 / b)
    p = 1 / (1 + t)
    log_pmf = lambda m: loggamma(n + 1) - loggamma(m + 1) - loggamma(n - m + 1) + m * log(p) + (n - m) * log(1 - p)
    outcomes = [(mpf(2 * m - n) / b, exp(log_pmf(m))) for m in range(n + 1)]
    delta_at = lambda eps: sum(w * (1 - exp(eps - loss)) for loss, w in outcomes if loss > eps)
    low, high = mpf(0), mpf(n) / b
    for _ in range(200):
        middle = (low + high) / 2
        if delta_at(middle) > delta:
            low = middle
        else:
            high = middle
    return high


for n in (100, 10000):
    print(f"b = 1, n = {n}, delta = 1e-5: eps = {mp.nstr(epsilon(1, n, '1e-5'), 20)}")
