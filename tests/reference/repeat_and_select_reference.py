"""Reference values for tests/core/rdp/repeat_and_select_test.cpp: Rényi DP of hyperparameter tuning
(Papernot & Steinke 2022, Thm 2 for the truncated negative binomial number of runs, Thm 6 for Poisson)
on DP-SGD with sampling rate 0.01, noise multiplier 1, 1000 steps, delta = 1e-5.

Sections:
  dp_accounting  dp_accounting's own numbers (google/differential-privacy b5b0286, python/dp_accounting
                 0.6.0): RdpAccountant() on RepeatAndSelectDpEvent(base, mean, shape), base =
                 SelfComposedDpEvent(PoissonSampledDpEvent(0.01, GaussianDpEvent(1)), 1000),
                 get_epsilon_and_optimal_order(1e-5); and its base curve at DEFAULT_RDP_ORDERS.
                 Needs PYTHONPATH=<google/differential-privacy checkout>/python/dp_accounting.
  formulas       The theorems restated here in mpmath (not dp_accounting's code), applied to that base
                 curve (dp_accounting_base.txt, written by the first section) with the auxiliary order
                 among the same orders, and converted by Balle et al. 2020, Thm 21 with the
                 Bretagnolle-Huber bound: they must give dp_accounting's numbers.
  exact          The same formulas on the exact curve (mpmath: the binomial expansion at integer orders,
                 quadrature at fractional ones and the KL divergence at order 1), at dpcalc's default
                 orders 1.1..10.9, 12..64, 128..1024 with 1 and infinity as auxiliary orders: what
                 dpcalc's own curve and conversion give.

Run: PYTHONPATH=... /usr/bin/python3 tests/reference/repeat_and_select_reference.py [section ...]
"""
import math
import os
import sys

import mpmath as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rdp_exact_reference import subsampled_gaussian  # noqa: E402

mp.mp.dps = 40
HERE = os.path.dirname(os.path.abspath(__file__))
BASE_FILE = os.path.join('/tmp', 'dp_accounting_base.txt')
Q, SIGMA, STEPS, DELTA = 0.01, 1.0, 1000, 1e-5
CASES = [(10, 1), (10, 0), (10, 'poisson'), (100, 1), (100, 0), (100, 'poisson')]


def section_dp_accounting():
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    base = dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(SIGMA)), STEPS)

    def epsilon(event):
        accountant = rdp.RdpAccountant()
        accountant.compose(event)
        return accountant.get_epsilon_and_optimal_order(DELTA)

    print('one run', epsilon(base))
    print('10 runs composed', epsilon(dp_event.SelfComposedDpEvent(base, 10)))
    for mean, shape in CASES:
        print(mean, shape, epsilon(dp_event.RepeatAndSelectDpEvent(base, mean, math.inf if shape == 'poisson' else shape)))
    accountant = rdp.RdpAccountant()
    accountant.compose(base)
    with open(BASE_FILE, 'w') as out:
        for order, value in zip(rdp.DEFAULT_RDP_ORDERS, accountant._rdp):
            out.write('%r %.17g\n' % (order, value))
    print('// the base curve: %s' % BASE_FILE)
    for order, value in zip(rdp.DEFAULT_RDP_ORDERS, accountant._rdp):
        print('    {%r, %.17g},' % (order, value))


def gamma_of(shape, mean):
    """gamma of the truncated negative binomial with this mean, by bisection on its mean."""
    shape, mean = mp.mpf(shape), mp.mpf(mean)

    def mean_at(g):
        if shape == 0:
            return (1 / g - 1) / mp.log(1 / g)
        return shape * (1 - g) / (g * (1 - g**shape))

    lo, hi = mp.mpf('1e-300'), mp.mpf(1) - mp.mpf('1e-30')
    for _ in range(400):
        mid = (lo + hi) / 2
        if mean_at(mid) > mean:
            lo = mid
        else:
            hi = mid
    return lo


def delta_of(orders, base, eps):
    """delta(eps) from the RDP curve: Thm 21 of Balle et al. 2020 solved for delta, Bretagnolle-Huber."""
    best = mp.mpf(1)
    for a, r in zip(orders, base):
        if r == mp.inf:
            continue
        best = min(best, mp.sqrt(-mp.expm1(-r)))
        if a == mp.inf:
            if eps >= r:
                best = mp.mpf(0)
        elif a > 1:
            best = min(best, mp.e**((a - 1) * (r - eps + mp.log(1 - 1 / a)) - mp.log(a)))
    return best


def tuned(orders, base, mean, shape):
    """Papernot & Steinke 2022: Thm 2 (shape a number) or Thm 6 ('poisson'), then monotone from above."""
    mean = mp.mpf(mean)
    out = []
    if shape == 'poisson':
        for a, r in zip(orders, base):
            if a == 1 or r == mp.inf:
                out.append(mp.inf)
                continue
            eps_hat = mp.mpf(0) if a == mp.inf else mp.log(1 + 1 / (a - 1))
            tail = 0 if a == mp.inf else mp.log(mean) / (a - 1)
            out.append(r + mean * delta_of(orders, base, eps_hat) + tail)
    else:
        g = gamma_of(shape, mean)
        terms = []
        for a, r in zip(orders, base):
            if r == mp.inf:
                continue
            terms.append(mp.log(1 / g) if a == 1 else r if a == mp.inf else (1 - 1 / a) * r + mp.log(1 / g) / a)
        c = (1 + shape) * min(terms)
        for a, r in zip(orders, base):
            if a == 1 or r == mp.inf:
                out.append(mp.inf)
            else:
                out.append(r + c + (0 if a == mp.inf else mp.log(mean) / (a - 1)))
    for i in range(len(out) - 2, -1, -1):
        out[i] = min(out[i], out[i + 1])
    return out


def to_epsilon(orders, curve, delta):
    """Balle et al. 2020, Thm 21 at each finite order above 1, the pure eps at infinity, 0 where
    Bretagnolle-Huber gives delta already; the smallest."""
    best, best_order = mp.inf, None
    delta = mp.mpf(delta)
    for a, r in zip(orders, curve):
        if r == mp.inf:
            continue
        if delta**2 >= -mp.expm1(-r):
            value = mp.mpf(0)
        elif a == mp.inf:
            value = r
        elif a > 1:
            value = r + mp.log1p(-1 / a) - (mp.log(delta) + mp.log(a)) / (a - 1)
        else:
            continue
        if value < best:
            best, best_order = value, a
    return max(best, 0), best_order


def report(orders, base, requested):
    """eps of one run, ten composed and every case, converted at the requested orders."""
    index = [orders.index(a) for a in requested]
    pick = lambda curve: [curve[i] for i in index]
    print('one run', to_epsilon(requested, pick(base), DELTA))
    print('10 runs composed', to_epsilon(requested, [10 * x for x in pick(base)], DELTA))
    for mean, shape in CASES:
        print(mean, shape, to_epsilon(requested, pick(tuned(orders, base, mean, shape)), DELTA))


def section_formulas():
    orders, base = [], []
    with open(BASE_FILE) as source:
        for line in source:
            a, r = line.split()
            orders.append(mp.mpf(a))
            base.append(mp.mpf(r))
    report(orders, base, orders)


def exact_step(a):
    if a == mp.inf:
        return mp.inf
    if a == int(a) and a >= 2:
        a = int(a)
        q, s = mp.mpf(Q), mp.mpf(SIGMA)
        total = mp.fsum(mp.binomial(a, i) * (1 - q)**(a - i) * q**i * mp.e**((i * i - i) / (2 * s * s))
                        for i in range(a + 1))
        return mp.log(total) / (a - 1)
    return subsampled_gaussian(Q, SIGMA, a)


def section_exact():
    requested = [mp.mpf(x) / 10 for x in range(11, 110)] + [mp.mpf(a) for a in list(range(12, 65)) + [128, 256, 512, 1024]]
    orders = [mp.mpf(1)] + requested + [mp.inf]
    base = [STEPS * exact_step(a) for a in orders]
    report(orders, base, requested)


SECTIONS = {'dp_accounting': section_dp_accounting, 'formulas': section_formulas, 'exact': section_exact}

if __name__ == '__main__':
    for name in (sys.argv[1:] or SECTIONS):
        print('# ' + name)
        SECTIONS[name]()
