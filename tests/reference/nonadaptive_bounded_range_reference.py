"""Reference values for k exponential mechanisms (eps-bounded-range, BR) fixed in advance.

Run: /usr/bin/python3 tests/reference/nonadaptive_bounded_range_reference.py   (mpmath, 40 digits)

Dong, Durfee, Rogers 2020 ("Optimal differential privacy composition for exponential mechanisms",
ICML, Sec. 5): the optimal non-adaptive composition of k eps-BR mechanisms is the worst case of k
copies of one two-outcome pair with losses s and s - eps (P-probability of the first
(e^eps - e^s)/(e^eps - 1)), maximised over s. For a target x >= 0 the paper's formula takes, for each
l = 0..k, s_l = (x + (l + 1) eps)/(k + 1) (clamped to [0, eps]) and the binomial sum over the
outcomes with at most l selections at the lower loss; delta(x) is the largest of the k + 1 values.

This script evaluates that formula term by term in mpmath, checks it against a brute-force
maximisation over s (and, for k = 2 and 3, over different s for each mechanism: the identical
worst case is not beaten), and solves delta(x) = 1e-5 for x by bisection (40 steps, both ends).
"""
import itertools

import mpmath as mp

mp.mp.dps = 40


def pair(eps, s):
    eps, s = mp.mpf(eps), mp.mpf(s)
    p_high = (mp.e**eps - mp.e**s) / mp.expm1(eps)
    return [(s, p_high, p_high * mp.e**(-s)), (s - eps, 1 - p_high, (1 - p_high) * mp.e**(eps - s))]


def delta_of_pairs(pairs, x):
    """Hockey stick at x of the product of finite pairs [(loss, P, Q)]."""
    outcomes = [(mp.mpf(0), mp.mpf(1), mp.mpf(1))]
    for atoms in pairs:
        outcomes = [(l1 + l2, p1 * p2, q1 * q2) for l1, p1, q1 in outcomes for l2, p2, q2 in atoms]
    return sum(max(mp.mpf(0), p - mp.e**x * q) for _, p, q in outcomes)


def paper_delta(eps, k, x):
    """Dong, Durfee, Rogers 2020, Sec. 5: max over l of the sum with at most l lower-loss outcomes."""
    eps, x = mp.mpf(eps), mp.mpf(x)
    best = mp.mpf(0)
    for l in range(k + 1):
        s = min(max((x + (l + 1) * eps) / (k + 1), mp.mpf(0)), eps)
        p = (mp.e**eps - mp.e**s) / mp.expm1(eps)
        q = p * mp.e**(-s)
        value = sum(mp.binomial(k, i) * (p**(k - i) * (1 - p)**i - mp.e**x * q**(k - i) * (1 - q)**i)
                    for i in range(l + 1))
        best = max(best, value)
    return best


def epsilon_at(eps, k, delta):
    lo, hi = mp.mpf(0), mp.mpf(k * eps)
    for _ in range(40):
        mid = (lo + hi) / 2
        if paper_delta(eps, k, mid) > delta:
            lo = mid
        else:
            hi = mid
    return lo, hi


if __name__ == '__main__':
    print('paper formula vs brute force over s (grid of 4000):')
    for eps, k, x in [(0.5, 3, 0.2), (0.5, 5, 1.0), (1.0, 4, 0.7)]:
        brute = max(delta_of_pairs([pair(eps, eps * j / 4000)] * k, x) for j in range(4001))
        print(f'  eps={eps} k={k} x={x}: {mp.nstr(paper_delta(eps, k, x), 15)} >= {mp.nstr(brute, 15)}')
    print('different s per mechanism (grid of 41 each) never beat the formula:')
    for eps, k, x in [(0.8, 2, 0.3), (0.8, 3, 0.9)]:
        grid = [eps * j / 40 for j in range(41)]
        worst = max(delta_of_pairs([pair(eps, s) for s in ss], x) for ss in itertools.product(grid, repeat=k))
        print(f'  eps={eps} k={k} x={x}: {mp.nstr(worst, 15)} <= {mp.nstr(paper_delta(eps, k, x), 15)}')
    print('epsilon at delta = 1e-5 (bracket):')
    for eps, k in [(0.5, 20), (0.1, 100), (1.0, 10), (0.5, 2)]:
        lo, hi = epsilon_at(eps, k, mp.mpf('1e-5'))
        print(f'  {k} x {eps}-BR fixed in advance: [{mp.nstr(lo, 12)}, {mp.nstr(hi, 12)}]')
    print('delta at x = 2 for 20 x 0.5-BR:', mp.nstr(paper_delta(0.5, 20, 2), 15))
