# mpmath references for the group-wise tests (Algorithm 1 of Pujol & Desfontaines 2023).
#   p_x(y) = ∫ N(s; x, σ²) N(y; s, (r s)²) ds, L(y) = log p_x(y) − log p_{x+1}(y),
#   D_α(p_a‖p_b) = log(1 + ∫ p_a ((p_b/p_a)^{1−α} − 1) dy)/(α − 1).
# Usage: /usr/bin/python3 tests/reference/groupwise_mpmath.py density σ r x y...
#        /usr/bin/python3 tests/reference/groupwise_mpmath.py renyi σ r x α...
# Several orders share one outer quadrature: the densities at each node are computed once.
import sys
from mpmath import mp, mpf, quad, exp, log, log1p, pi, inf


def density(sig, r, x, y):
    f = lambda s: exp(-(s - x)**2 / (2 * sig**2) - (y - s)**2 / (2 * r**2 * s**2)) / (2 * pi * sig * r * abs(s))
    points = [-inf, inf, mpf(0)] + [x + k * sig for k in (-40, -12, -4, -1, 0, 1, 4, 12, 40)]
    points += [y / t for t in (1 + 12 * r, 1 + r, 1, 1 - r, 1 - 12 * r) if t > 0]
    if y != 0:
        points += [y * mpf(10)**-k for k in range(1, 12)]
    return quad(f, sorted(set(points)))


def renyi_over_alpha(sig, r, x, alphas):
    tau = (sig**2 + r**2 * (x**2 + sig**2))**0.5
    lo, hi = x - 14 * tau, x + 14 * tau
    points = [lo, hi, mpf(0)] + [x + k * tau for k in range(-13, 14)]
    points += [s * mpf(10)**-k for k in range(1, 16) for s in (1, -1)]
    points = sorted(set(v for v in points if lo <= v <= hi))
    cache = {}

    def densities(y):
        if y not in cache:
            cache[y] = (density(sig, r, x, y), density(sig, r, x + 1, y))
        return cache[y]

    out = []
    for alpha in alphas:
        directions = []
        for swap in (False, True):
            def integrand(y):
                pa, pb = densities(y)
                if swap:
                    pa, pb = pb, pa
                return pa * ((pb / pa)**(1 - alpha) - 1)
            integral, error = quad(integrand, points, error=True)
            directions.append((log1p(integral) / (alpha - 1) / alpha, error))
        out.append(directions)
    return out


if __name__ == '__main__':
    kind, args = sys.argv[1], [mpf(v) for v in sys.argv[2:]]
    if kind == 'density':
        mp.dps = 30
        sig, r, x = args[:3]
        for y in args[3:]:
            a, b = density(sig, r, x, y), density(sig, r, x + 1, y)
            print(f'y={mp.nstr(y, 17)} log p={mp.nstr(log(a), 16)} loss={mp.nstr(log(a) - log(b), 16)}')
    else:
        mp.dps = 25
        for alpha, ((forward, forward_error), (reverse, reverse_error)) in zip(args[3:], renyi_over_alpha(*args[:3], args[3:])):
            print(f'alpha={mp.nstr(alpha, 6)} D/alpha forward={mp.nstr(forward, 15)} reverse={mp.nstr(reverse, 15)} '
                  f'(quadrature error of the integrals {mp.nstr(forward_error, 2)}, {mp.nstr(reverse_error, 2)})')
