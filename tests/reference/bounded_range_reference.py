"""Reference values for the exponential mechanism as an epsilon-bounded-range (BR) mechanism.

Run: /usr/bin/python3 tests/reference/bounded_range_reference.py
(mpmath for the closed forms; numpy FFT, float64, for the composed envelope pair.)

1. Lower reference (Dong, Durfee, Rogers 2020): the k-fold composition of one two-outcome eps-BR pair
   with losses s and s - eps, P-probability of the first (e^eps - e^s)/(e^eps - 1). Its delta(x) is a
   binomial sum; any s gives a lower bound on every (adaptive or not) composition of eps-BR
   mechanisms, so maximising over s on a grid (then refining by golden section) is a lower bound.
2. The envelope sup_s delta_s(x) = (e^{eps/2} - e^{x/2})^2 / (e^eps - 1) on [0, eps], checked
   against a brute-force maximisation over s.
3. Generic eps-DP: optimal composition of k eps-DP mechanisms (Kairouz, Oh, Viswanath 2015, Thm 3.3).
4. The eps^2/8-zCDP route (Cesar, Rogers 2021), converted by Bun & Steinke 2016, Prop 1.3, and by
   Canonne, Kamath, Steinke 2020, Cor 13 (what method 'zcdp' answers): the infimum over alpha > 1 of
   alpha rho + log(1 - 1/alpha) - (log alpha + log delta)/(alpha - 1), by mpmath's findroot of its
   derivative.
5. The envelope pair composed k times (the pair dpcalc's PLD engine gets), on a loss grid of step
   eps/4000 with the chord (connect-the-dots) masses, by FFT in float64: not a bound, a value the
   engine's answer must be close to.
"""
import math

import mpmath as mp
import numpy as np

mp.mp.dps = 40


def same_s_delta(eps, k, s, x):
    eps, s, x = mp.mpf(eps), mp.mpf(s), mp.mpf(x)
    p = (mp.e**eps - mp.e**s) / mp.expm1(eps)
    total = mp.mpf(0)
    for i in range(k + 1):  # i outcomes at loss s, k - i at s - eps
        loss = i * s + (k - i) * (s - eps)
        if loss > x:
            total += mp.binomial(k, i) * p**i * (1 - p)**(k - i) * (1 - mp.e**(x - loss))
    return total


def max_over_s(f, eps, grid=400):
    values = [(f(eps * j / grid), eps * j / grid) for j in range(grid + 1)]
    best, s = max(values)
    lo, hi = max(0, s - eps / grid), min(eps, s + eps / grid)
    g = (mp.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if f(a) > f(b):
            hi = b
        else:
            lo = a
    return max(best, f((lo + hi) / 2))


def smallest_epsilon(delta_of, target, hi):
    lo = mp.mpf(0)
    hi = mp.mpf(hi)
    for _ in range(60):
        mid = (lo + hi) / 2
        if delta_of(mid) > target:
            lo = mid
        else:
            hi = mid
    return lo, hi


def envelope(eps, x):
    return (mp.e**(mp.mpf(eps) / 2) - mp.e**(mp.mpf(x) / 2))**2 / mp.expm1(eps)


def kov_delta(eps, k, x):
    # Kairouz, Oh, Viswanath 2015, Thm 3.3 (optimal composition of k eps-DP mechanisms).
    eps, x = mp.mpf(eps), mp.mpf(x)
    total = mp.mpf(0)
    for i in range(k + 1):
        loss = (k - 2 * i) * eps
        if loss > x:
            total += mp.binomial(k, i) * (mp.e**(eps * (k - i)) - mp.e**(x + eps * i))
    return total / (1 + mp.e**eps)**k


def envelope_pair_composed_epsilon(eps, k, delta, m=4000):
    xs = np.linspace(-eps, eps, 2 * m + 1)
    a = np.exp(xs / 2)
    big_a = math.exp(eps / 2)
    slopes = np.append((2 * big_a / (a[:-1] + a[1:]) - 1) / math.expm1(eps), 0.0)
    q = np.empty_like(slopes)
    q[0] = 1 - slopes[0]
    q[1:] = slopes[:-1] - slopes[1:]
    p = q * np.exp(xs)
    size = 1 << math.ceil(math.log2(k * len(p)))
    composed = np.maximum(np.fft.irfft(np.fft.rfft(p, size)**k, size)[:k * (len(p) - 1) + 1], 0)
    losses = (np.arange(len(composed)) - k * m) * (eps / m)

    def delta_of(x):
        return float(np.sum(composed * np.maximum(0, 1 - np.exp(x - losses))))

    lo, hi = 0.0, k * eps
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
    return hi


def cks_epsilon(rho, delta):
    log_delta = mp.log(mp.mpf(delta))
    f = lambda a: a * rho + mp.log(1 - 1 / a) - (mp.log(a) + log_delta) / (a - 1)
    a = mp.findroot(lambda a: mp.diff(f, a), 1 + mp.sqrt(-log_delta / rho))
    return f(a)


if __name__ == '__main__':
    eps, k, delta = 0.5, 20, 1e-5
    print('envelope check (closed form vs max over s of the one-pair hockey stick):')
    for x in [0, 0.1, 0.25, 0.4]:
        print(f'  x={x}: {mp.nstr(envelope(eps, x), 17)} vs {mp.nstr(max_over_s(lambda s: same_s_delta(eps, 1, s, x), eps), 17)}')
    lo, hi = smallest_epsilon(lambda x: max_over_s(lambda s: same_s_delta(eps, k, s, x), eps), delta, k * eps)
    print(f'same-s worst case, {k} x {eps}-BR at delta {delta}: epsilon >= {mp.nstr(lo, 12)}')
    lo, hi = smallest_epsilon(lambda x: kov_delta(eps, k, x), delta, k * eps)
    print(f'generic eps-DP optimal composition (KOV 2015 Thm 3.3): epsilon = {mp.nstr(hi, 12)}')
    rho = mp.mpf(k) * eps**2 / 8
    print(f'zCDP route rho = {mp.nstr(rho, 12)}: Bun-Steinke Prop 1.3 epsilon = '
          f'{mp.nstr(rho + 2 * mp.sqrt(rho * mp.log(1 / mp.mpf(delta))), 12)}')
    for kk in [20, 100]:
        print(f'zCDP route, {kk} selections: Canonne-Kamath-Steinke Cor 13 epsilon = '
              f'{mp.nstr(cks_epsilon(mp.mpf(kk) * eps**2 / 8, delta), 17)}')
    for kk in [1, 20, 100]:
        print(f'envelope pair composed {kk} times: epsilon = {envelope_pair_composed_epsilon(eps, kk, delta):.8f}')
