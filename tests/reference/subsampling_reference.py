"""Reference values for subsampling a finite pair and sampling without replacement.

Run: /usr/bin/python3 tests/reference/subsampling_reference.py        (mpmath, 40 digits)
     PYTHONPATH=/work/ref/dp/python/dp_accounting /usr/bin/python3 tests/reference/subsampling_reference.py
     (with dp_accounting 0.6.0 from source: also its RDP values for sampling without replacement)

1. Binary randomized response at eps = 1 (P = (e/(1+e), 1/(1+e)), Q reversed) on a Poisson subsample
   at rate q = 0.1 (Zhu, Dong, Wang 2022, Thm 11: remove (qP + (1-q)Q, Q), add the swapped pair),
   composed 100 times: the composed loss takes each outcome count (i of the first outcome), so
   delta(x) is an exact binomial sum; epsilon at delta = 1e-5 is the larger over both directions.
2. dp_accounting's RDP accountant (REPLACE_ONE) for the Gaussian (noise multiplier 1.1) on samples
   of 256 out of 60000 without replacement (Wang, Balle, Kasiviswanathan 2019), 1000 steps, delta 1e-5,
   and its per-order values at a few orders.
"""
import mpmath as mp

mp.mp.dps = 40


def binary_pair(eps):
    e = mp.e**mp.mpf(eps)
    return [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]


def composed_delta(p, q, k, x):
    total = mp.mpf(0)
    for i in range(k + 1):
        log_p = i * mp.log(p[0]) + (k - i) * mp.log(p[1])
        log_q = i * mp.log(q[0]) + (k - i) * mp.log(q[1])
        if log_p - log_q > x:
            total += mp.binomial(k, i) * (mp.e**log_p - mp.e**(x + log_q))
    return total


def epsilon_for_delta(p, q, k, delta):
    lo, hi = mp.mpf(0), mp.mpf(50)
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if composed_delta(p, q, k, mid) > delta else (lo, mid)
    return hi


if __name__ == '__main__':
    p, q = binary_pair(1)
    rate = mp.mpf('0.1')
    mixed = [rate * a + (1 - rate) * b for a, b in zip(p, q)]
    for k in [1, 100]:
        remove = epsilon_for_delta(mixed, q, k, mp.mpf('1e-5'))
        add = epsilon_for_delta(q, mixed, k, mp.mpf('1e-5'))
        print(f'Poisson(0.1) binary RR eps=1, {k} uses: remove {mp.nstr(remove, 15)}, add {mp.nstr(add, 15)}')
    print('amplified pure eps ln(1 + 0.1 (e - 1)):', mp.nstr(mp.log1p(rate * mp.expm1(1)), 17))
    try:
        import dp_accounting
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
    except ImportError:
        raise SystemExit('dp_accounting not on PYTHONPATH: RDP references skipped')
    for order in [1.5, 2, 3, 10.5, 32, 256, 300]:
        print('WOR RDP order', order, repr(float(rdp._compute_rdp_sample_wor_gaussian_scalar(256 / 60000, 1.1, order))))
    accountant = dp_accounting.rdp.RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    accountant.compose(
        dp_accounting.SampledWithoutReplacementDpEvent(60000, 256, dp_accounting.GaussianDpEvent(1.1)), 1000)
    print('WOR RDP epsilon, 1000 steps, delta 1e-5:', repr(accountant.get_epsilon(1e-5)))
