"""Reference values for the shuffling bounds (tests/core/dpsgd/shuffling_test.cpp), with mpmath at 60 digits (Q(M > c) is 1 minus a product within 1e-23 of 1).

Upper bound (no amplification, docs/samplers.md eq. 7): the analytic Gaussian (Balle & Wang 2018, Thm 8) at
mu = sqrt(E) k Delta / sigma: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), solved for delta.
Lower bound (Chua et al. 2024; eqs. 8-9): the largest coordinate M of one epoch,
  Pr_P[M <= c] = Phi(c/s)^(T-1) (g Phi((c-a)/s) + (1-g) Phi(c/s)), Pr_Q likewise with b,
with s = sigma (one epoch) or sigma/sqrt(E) (persistent shuffling), g = T B / N; the best threshold event
  eps(c) = log((P(M > c) - delta) / Q(M > c))    or    log((Q(M <= c) - delta) / P(M <= c)),
maximised over c by golden-section search (every c is a valid bound; the maximum is what dpcalc searches for).
Zero-out: a = 2, b = 1; substitute: a = 2, b = 0.

Run: /usr/bin/python3 tests/reference/shuffle_reference.py
"""
import mpmath as mp

mp.mp.dps = 60
DELTA = mp.mpf('1e-5')


def gaussian_epsilon(mu, delta=DELTA):
  f = lambda e: mp.ncdf(mu / 2 - e / mu) - mp.exp(e) * mp.ncdf(-mu / 2 - e / mu) - delta
  lo, hi = mp.mpf(0), mp.mpf(1)
  while f(hi) > 0:
    hi *= 2
  return mp.findroot(f, (lo, hi), solver='bisect', tol=mp.mpf(10) ** -25)


def cdfs(c, s, steps, share, a, b):
  rest = mp.ncdf(c / s)
  seat = lambda shift: share * mp.ncdf((c - shift) / s) + (1 - share) * rest
  return rest ** (steps - 1) * seat(a), rest ** (steps - 1) * seat(b)


def threshold_epsilon(c, s, steps, share, a, b, upper_tail):
  fp, fq = cdfs(c, s, steps, share, a, b)
  first, second = (1 - fp, 1 - fq) if upper_tail else (fq, fp)
  if first <= DELTA:
    return mp.mpf('-inf')
  return mp.log((first - DELTA) / second)


def best(s, steps, share, a, b):
  results = []
  for upper_tail in (True, False):
    grid = [mp.mpf(i) / 50 * s for i in range(-200, 1200)]
    values = [threshold_epsilon(c, s, steps, share, a, b, upper_tail) for c in grid]
    i = max(range(len(grid)), key=lambda j: values[j])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    for _ in range(120):
      m1, m2 = hi - (hi - lo) * mp.mpf('0.618033988749894848'), lo + (hi - lo) * mp.mpf('0.618033988749894848')
      if threshold_epsilon(m1, s, steps, share, a, b, upper_tail) >= threshold_epsilon(m2, s, steps, share, a, b,
                                                                                          upper_tail):
        hi = m2
      else:
        lo = m1
    c = (lo + hi) / 2
    results.append((threshold_epsilon(c, s, steps, share, a, b, upper_tail), c, upper_tail))
  return max(results)


def main():
  batch, sigma = 256, mp.mpf(1)
  for n in (59904, 60000):
    steps = n // batch
    share = mp.mpf(steps * batch) / n
    for name, a, b, delta_sens in (('zero-out', 2, 1, 1), ('substitute', 2, 0, 2)):
      for epochs in (1, 10):
        s = sigma / mp.sqrt(epochs)
        eps, c, upper_tail = best(s, steps, share, a, b)
        upper = gaussian_epsilon(mp.sqrt(epochs) * delta_sens / sigma)
        print(f'N={n} {name} E={epochs} persistent: lower {mp.nstr(eps, 15)} at c={mp.nstr(c, 8)} '
              f'({"M > c" if upper_tail else "M <= c"}); upper {mp.nstr(upper, 15)}')
  for k in (1, 2, 5):
    print(f'group k={k} zero-out E=10 upper {mp.nstr(gaussian_epsilon(mp.sqrt(10) * k / sigma), 15)}')


if __name__ == '__main__':
  main()
