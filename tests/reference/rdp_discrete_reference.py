"""Reference Rényi divergences for randomized response, discrete Laplace and permute-and-flip.

Run: PYTHONPATH=/work/ref/dp/python/dp_accounting /usr/bin/python3 tests/reference/rdp_discrete_reference.py

D_alpha(P || Q) = log sum_x P(x)^alpha Q(x)^(1 - alpha) / (alpha - 1), summed term by term in mpmath
(40 digits) over the outcomes themselves, not through any closed form:
1. Randomized response (k buckets, noise p) under substitution: the k reports; against dp_accounting
   0.6.0's RDP accountant with REPLACE_ONE (one event).
2. Discrete Laplace (scale b, sensitivity D): P = DLap(D, b), Q = DLap(0, b) over the integers
   |x| <= 4000 (the rest is below 1e-40 for the cases here); dp_accounting has no curve for it.
3. Any eps-DP mechanism (permute-and-flip): the binary randomized-response pair
   (e^eps, 1)/(1 + e^eps) vs (1, e^eps)/(1 + e^eps); dp_accounting uses the Laplace curve at 1/eps
   (printed for comparison: it is lower).
"""
import mpmath as mp

mp.mp.dps = 40
ORDERS = [1.5, 2, 8, 64]


def renyi(pairs, alpha):
    alpha = mp.mpf(alpha)
    return mp.log(mp.fsum(p**alpha * q**(1 - alpha) for p, q in pairs if p > 0)) / (alpha - 1)


def randomized_response(p, k):
    p, k = mp.mpf(p), int(k)
    a, b = 1 - p + p / k, p / k
    return [(a, b), (b, a)] + [(b, b)] * (k - 2)


def discrete_laplace(b, sensitivity, span=4000):
    b = mp.mpf(b)
    r = mp.e**(-1 / b)
    norm = (1 - r) / (1 + r)
    return [(norm * r**abs(x - sensitivity), norm * r**abs(x)) for x in range(-span, span + 1)]


def pure(eps):
    eps = mp.mpf(eps)
    return [(mp.e**eps / (1 + mp.e**eps), 1 / (1 + mp.e**eps)), (1 / (1 + mp.e**eps), mp.e**eps / (1 + mp.e**eps))]


def dp_accounting_rdp(event, relation):
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    accountant = rdp.RdpAccountant(orders=ORDERS, neighboring_relation=relation)
    accountant.compose(event)
    return list(accountant._rdp)  # its curve at ORDERS


if __name__ == '__main__':
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    Rel = rdp.NeighborRel
    for p, k in [(0.5, 2), (0.25, 10)]:
        ours = [renyi(randomized_response(p, k), a) for a in ORDERS]
        theirs = dp_accounting_rdp(dp_event.RandomizedResponseDpEvent(p, k), Rel.REPLACE_ONE)
        print(f'randomized response p={p} k={k}:')
        for a, o, t in zip(ORDERS, ours, theirs):
            print(f'  alpha={a}: mpmath {mp.nstr(o, 17)}  dp_accounting {t!r}')
    for b, d in [(2, 1), (1.5, 3)]:
        print(f'discrete Laplace b={b} sensitivity={d}:')
        for a in ORDERS:
            print(f'  alpha={a}: {mp.nstr(renyi(discrete_laplace(b, d), a), 17)}')
    for eps in [0.5, 2]:
        theirs = dp_accounting_rdp(dp_event.PermuteAndFlipDpEvent(eps), Rel.ADD_OR_REMOVE_ONE)
        print(f'eps-DP (permute-and-flip) eps={eps}:')
        for a, t in zip(ORDERS, theirs):
            print(f'  alpha={a}: mpmath {mp.nstr(renyi(pure(eps), a), 17)}  dp_accounting (Laplace) {t!r}')
