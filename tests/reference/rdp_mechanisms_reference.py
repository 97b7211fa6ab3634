"""Reference Rényi divergences of the mechanisms of tests/core/rdp/rdp_mechanisms_test.cpp, in mpmath
(50 digits), from the definitions D_alpha(P||Q) = log sum P^alpha Q^(1 - alpha) / (alpha - 1), the KL
divergence sum P log(P/Q) at order 1 and sup log(P/Q) at order infinity, summed or integrated over the
outcomes; never from the closed forms the C++ evaluates.

Run: /usr/bin/python3 tests/reference/rdp_mechanisms_reference.py [section ...]

Sections:
  laplace      Lap(eps0, 1) against Lap(0, 1) by quadrature (Mironov 2017, Prop. 6 is its closed form).
  bounded      The supremum over the two-point pairs of an eps-bounded-range loss: Q puts mass p on loss
               a + eps and 1 - p on a, with E_Q[e^L] = 1, maximised over a in [-eps, 0] numerically.
  pure         The eps-DP randomized-response pair (e^eps, 1)/(1 + e^eps) against (1, e^eps)/(1 + e^eps).
  rr           k-ary randomized response with noise p, its three outcome classes.
  dlaplace     Discrete Laplace P(x) ~ e^(-|x - D|/b) against e^(-|x|/b), summed over the integers.
  dgaussian    Discrete Gaussian N_Z(d, s^2) against N_Z(0, s^2) summed over the integers, the largest over
               the shifts d = 1..D.
  swor         Wang, Balle, Kasiviswanathan 2019, Thm 9 (sampling without replacement, substitution) at
               integer orders from the inner curve, and the joint-convexity bound
               log(1 + g(e^((a-1)eps(a)) - 1))/(a - 1), the smaller of the two.
"""
import sys

import mpmath as mp

mp.mp.dps = 50
INF = mp.inf


def renyi_finite(p, q, a):
    p = [mp.mpf(x) for x in p]
    q = [mp.mpf(x) for x in q]
    a = mp.mpf(a) if a != 'inf' else a
    if a == 'inf':
        return max(mp.log(x / y) for x, y in zip(p, q) if x > 0)
    if a == 1:
        return mp.fsum(x * mp.log(x / y) for x, y in zip(p, q) if x > 0)
    return mp.log(mp.fsum(x**a * y**(1 - a) for x, y in zip(p, q) if x > 0)) / (a - 1)


def laplace(eps0, a):
    eps0 = mp.mpf(eps0)
    if a == 'inf':
        return eps0
    a = mp.mpf(a)
    p = lambda x: mp.e**(-abs(x - eps0)) / 2
    q = lambda x: mp.e**(-abs(x)) / 2
    cuts = [-mp.inf, 0, eps0, mp.inf]
    if a == 1:
        return mp.quad(lambda x: p(x) * (abs(x) - abs(x - eps0)), cuts)
    return mp.log(mp.quad(lambda x: p(x)**a * q(x)**(1 - a), cuts)) / (a - 1)


def bounded_range(eps, a):
    eps = mp.mpf(eps)
    if a == 'inf':
        return eps

    def value(lower):
        # Q-mass on the loss lower + eps, from E_Q[e^L] = 1.
        mass = (mp.e**(-lower) - 1) / mp.expm1(eps)
        points = [(1 - mass, lower), (mass, lower + eps)]
        if a == 1:
            return mp.fsum(m * mp.e**l * l for m, l in points)
        return mp.log(mp.fsum(m * mp.e**(mp.mpf(a) * l) for m, l in points)) / (mp.mpf(a) - 1)

    # Golden-section search on the concave-in-practice objective, then a last check of the ends.
    lo, hi = -eps, mp.mpf(0)
    phi = (mp.sqrt(5) - 1) / 2
    for _ in range(300):
        x1, x2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
        if value(x1) < value(x2):
            lo = x1
        else:
            hi = x2
    return max(value((lo + hi) / 2), value(-eps), value(mp.mpf(0)))


def pure(eps, a):
    e = mp.e**mp.mpf(eps)
    return renyi_finite([e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)], a)


def randomized_response(p, k, a):
    p, k = mp.mpf(p), mp.mpf(k)
    big, small = 1 - p + p / k, p / k
    P = [big, small, (k - 2) * small]
    Q = [small, big, (k - 2) * small]
    return renyi_finite(P, Q, a)


def discrete_laplace(b, sens, a):
    b = mp.mpf(b)
    reach = int(200 * b) + 50
    xs = range(-reach, reach + sens + 1)
    norm = mp.fsum(mp.e**(-abs(x) / b) for x in range(-reach - sens, reach + sens + 1))
    P = [mp.e**(-abs(x - sens) / b) / norm for x in xs]
    Q = [mp.e**(-abs(x) / b) / norm for x in xs]
    return renyi_finite(P, Q, a)


def discrete_gaussian(s, sens, a):
    s = mp.mpf(s)
    reach = int(40 * s) + 40 + sens

    def shifted(d):
        xs = range(-reach, reach + 1)
        w = lambda x, c: mp.e**(-(x - c)**2 / (2 * s * s))
        norm = mp.fsum(w(x, 0) for x in xs)
        return [w(x, d) / norm for x in xs], [w(x, 0) / norm for x in xs]

    return max(renyi_finite(*shifted(d), a) for d in range(1, sens + 1))


def swor_theorem9(rate, inner, a):
    """Wang, Balle, Kasiviswanathan 2019, Thm 9 at an integer order a >= 2; inner(j) the inner curve."""
    g = mp.mpf(rate)
    a = int(a)
    pure_inner = inner('inf')
    factor = lambda j: min(mp.mpf(2), (mp.e**pure_inner - 1)**j) if pure_inner != INF else mp.mpf(2)
    e2 = inner(2)
    second = g**2 * mp.binomial(a, 2) * min(4 * (mp.e**e2 - 1), mp.e**e2 * factor(2))
    rest = mp.fsum(g**j * mp.binomial(a, j) * mp.e**((j - 1) * inner(j)) * factor(j) for j in range(3, a + 1))
    theorem = mp.log(1 + second + rest) / (a - 1)
    convexity = mp.log(1 + g * mp.expm1((a - 1) * inner(a))) / (a - 1)
    return min(theorem, convexity)


LAPLACE = [(1, [1, 1.5, 2, 10, 'inf']), (0.01, [1, 1.5, 2, 100]), (1e-5, [1.01, 2]), (2, [1.0001, 3.3]),
           (20, [1, 1.5, 40]), (0.5, [2])]
BOUNDED = [(1, [1, 1.01, 1.1, 1.5, 2, 10, 'inf']), (0.1, [1, 1.01, 2, 7.5]), (3, [1, 1.01, 2]), (1e-4, [1, 3]),
           (10, [1, 1.25, 5]), (0.5, [4, 100])]
PURE = [(1, [1, 1.5, 2, 10, 'inf']), (0.1, [1, 1.5, 32]), (5, [1, 1.1, 4])]
RR = [(0.5, 2, [1, 1.5, 2, 10, 'inf']), (0.1, 10, [1, 1.5, 3]), (0.9, 4, [1, 2, 64]), (0.01, 2, [1.5, 20])]
DLAPLACE = [(1, 1, [1, 1.5, 2, 10, 'inf']), (2.5, 3, [1, 1.5, 2, 8]), (0.5, 4, [1, 2, 5.5]), (10, 1, [1, 3])]
DGAUSSIAN = [(1, 1, [1, 1.5, 2, 10.5]), (0.5, 1, [1, 1.25, 2, 3.3]), (2, 3, [1, 1.5, 2.5, 4]),
             (0.3, 2, [1.5, 2, 2.5])]


def section(fn, cases):
    for case in cases:
        *params, orders = case
        for a in orders:
            value = fn(*params, a)
            order = 'kInf' if a == 'inf' else repr(a)
            print('    {%s, %s, %s},' % (', '.join(repr(x) for x in params), order, mp.nstr(value, 17)))


def section_swor():
    # The inner curves: Laplace at eps0 (pure eps0) and the Gaussian alpha/(2 s^2) (pure infinity).
    laplace_inner = lambda eps0: (lambda j: laplace(eps0, j))
    gaussian_inner = lambda s: (lambda j: INF if j == 'inf' else mp.mpf(j) / (2 * mp.mpf(s)**2))
    for rate, eps0, orders in [(0.01, 1, [2, 3, 8, 32]), (0.1, 0.5, [2, 5, 16]), (0.001, 4, [2, 10]), (0.2, 1, [2])]:
        for a in orders:
            print('    {%r, %r, %r, %s},  // Laplace' % (rate, eps0, a, mp.nstr(swor_theorem9(rate, laplace_inner(eps0), a), 17)))
    for rate, s, orders in [(0.01, 1, [2, 3, 8, 32]), (0.1, 2, [2, 5, 16])]:
        for a in orders:
            print('    {%r, %r, %r, %s},  // Gaussian' % (rate, s, a, mp.nstr(swor_theorem9(rate, gaussian_inner(s), a), 17)))


SECTIONS = {
    'laplace': lambda: section(laplace, LAPLACE),
    'bounded': lambda: section(bounded_range, BOUNDED),
    'pure': lambda: section(pure, PURE),
    'rr': lambda: section(randomized_response, RR),
    'dlaplace': lambda: section(discrete_laplace, DLAPLACE),
    'dgaussian': lambda: section(discrete_gaussian, DGAUSSIAN),
    'swor': section_swor,
}

if __name__ == '__main__':
    for name in (sys.argv[1:] or SECTIONS):
        print('# ' + name)
        SECTIONS[name]()
