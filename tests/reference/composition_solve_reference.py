"""Reference answers of the Composition section's "most releases for a target" question
(tests/browser/composition-solve.test.mjs).

k releases of an eps0-DP mechanism are, by optimal composition (Kairouz, Oh, Viswanath 2015,
Thm 3.3), (eps, delta(eps))-DP with
  delta(eps) = sum over l with (k - 2l) eps0 > eps of C(k, l) (e^{(k - l) eps0} - e^{eps + l eps0}) / (1 + e^{eps0})^k,
evaluated here with mpmath at 50 digits. The most releases within (eps_t, delta_t) is the largest k
with delta(eps_t) <= delta_t (delta grows with k). Basic composition (Dwork, Roth 2014, Thm 3.16)
allows floor(eps_t / eps0).

Run: /usr/bin/python3 tests/reference/composition_solve_reference.py
"""
import mpmath as mp

mp.mp.dps = 50


def delta_at(eps0, k, eps):
  eps0, eps = mp.mpf(eps0), mp.mpf(eps)
  total = mp.fsum(
      mp.binomial(k, l) * (mp.exp((k - l) * eps0) - mp.exp(eps + l * eps0))
      for l in range(k + 1) if (k - 2 * l) * eps0 > eps)
  return total / (1 + mp.exp(eps0)) ** k


def most_releases(eps0, eps_target, delta_target):
  k = 1
  while delta_at(eps0, k + 1, eps_target) <= delta_target:
    k += 1
  return k


def epsilon_at(eps0, k, delta):
  lo, hi = mp.mpf(0), k * mp.mpf(eps0)  # delta(eps) decreases in eps
  for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if delta_at(eps0, k, mid) > delta else (lo, mid)
  return hi


for eps0, eps_t, delta_t in [(0.125, 2, 1e-5)]:
  k = most_releases(eps0, eps_t, delta_t)
  print(f'eps0 = {eps0}, target ({eps_t}, {delta_t}): optimal {k} '
        f'(delta at k: {mp.nstr(delta_at(eps0, k, eps_t), 6)}, at k + 1: {mp.nstr(delta_at(eps0, k + 1, eps_t), 6)}); '
        f'basic {int(mp.floor(mp.mpf(eps_t) / eps0))}')
  print(f'  eps of {k} releases at delta = {delta_t}: {mp.nstr(epsilon_at(eps0, k, delta_t), 10)}')
