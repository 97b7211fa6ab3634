# mpmath references for the group-wise tests (Algorithm 1 of Pujol & Desfontaines 2023).
#   p_x(y) = ∫ N(s; x, σ²) N(y; s, (r s)²) ds, L(y) = log p_x(y) − log p_{x+1}(y),
#   D_α(p_a‖p_b) = log(1 + ∫ p_a ((p_b/p_a)^{1−α} − 1) dy)/(α − 1).
# Usage: /usr/bin/python3 tests/reference/groupwise_mpmath.py density σ r x y...
#        /usr/bin/python3 tests/reference/groupwise_mpmath.py renyi σ r x α
import sys
from mpmath import mp, mpf, quad, exp, log, log1p, pi, inf


def density(sig, r, x, y):
    f = lambda s: exp(-(s - x)**2 / (2 * sig**2) - (y - s)**2 / (2 * r**2 * s**2)) / (2 * pi * sig * r * abs(s))
    points = [-inf, inf, mpf(0)] + [x + k * sig for k in (-40, -12, -4, -1, 0, 1, 4, 12, 40)]
    points += [y / t for t in (1 + 12 * r, 1 + r, 1, 1 - r, 1 - 12 * r) if t > 0]
    if y != 0:
        points += [y * mpf(10)**-k for k in range(1, 12)]
    return quad(f, sorted(set(points)))


def renyi_over_alpha(sig, r, x, alpha):
    tau = (sig**2 + r**2 * (x**2 + sig**2))**0.5
    lo, hi = x - 14 * tau, x + 14 * tau
    points = [lo, hi, mpf(0)] + [x + k * tau for k in range(-13, 14)]
    points += [s * mpf(10)**-k for k in range(1, 16) for s in (1, -1)]
    points = sorted(set(v for v in points if lo <= v <= hi))
    out = []
    for a, b in ((x, x + 1), (x + 1, x)):
        def integrand(y):
            pa, pb = density(sig, r, a, y), density(sig, r, b, y)
            return pa * ((pb / pa)**(1 - alpha) - 1)
        out.append(log1p(quad(integrand, points)) / (alpha - 1) / alpha)
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
        forward, reverse = renyi_over_alpha(*args)
        print(f'D/alpha forward={mp.nstr(forward, 15)} reverse={mp.nstr(reverse, 15)}')
