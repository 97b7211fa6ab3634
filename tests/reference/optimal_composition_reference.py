"""Reference epsilons for exact optimal composition (tests/core/optimal_composition_test.cpp, "tiny
and huge eps0 keep full accuracy").

Kairouz, Oh, Viswanath 2015, Thm 3.3, evaluated with mpmath: the k-fold composition of
(eps0, delta0)-DP mechanisms has, at eps >= 0,
  delta(eps) = 1 - (1 - delta0)^k (1 - S(eps)),
  S(eps) = sum over l with (k - 2l) eps0 > eps of a_l (1 - e^{eps - (k - 2l) eps0}),
  a_l = C(k, l) e^{(k - l) eps0} / (1 + e^{eps0})^k.
Between two breakpoints (k - 2i) eps0 the positive terms are fixed, so S is linear in e^eps there:
the script finds the segment whose ends bracket the target and solves that linear equation. The
terms 1 - e^{...} are evaluated with expm1 and the precision is high enough (700 digits) that
eps0 = 1e-300 keeps all its digits.

Run: /usr/bin/python3 tests/reference/optimal_composition_reference.py
"""
import mpmath as mp

mp.mp.dps = 700


def smallest_epsilon(eps0, count, delta0, target):
  eps0, target = mp.mpf(eps0), mp.mpf(target)
  keep = (1 - mp.mpf(delta0)) ** count
  base = 1 - keep
  log_p = -mp.log1p(mp.exp(-eps0))
  a = [mp.binomial(count, l) * mp.exp(count * log_p - l * eps0) for l in range(count + 1)]
  loss = [(count - 2 * l) * eps0 for l in range(count + 1)]

  def delta_at(eps, terms):
    return base + keep * mp.fsum(a[l] * -mp.expm1(eps - loss[l]) for l in range(terms))

  # Breakpoint i (eps = loss[i]) has the terms l < i positive; delta grows with i.
  for i in range(count // 2 + 2):
    eps_i = max(loss[i], 0) if i <= count else mp.mpf(0)
    if delta_at(eps_i, i) > target:
      # In [loss[i], loss[i-1]]: base + keep (A - e^eps B) = target with the terms l < i.
      a_sum = mp.fsum(a[:i])
      b_sum = mp.fsum(a[l] * mp.exp(-loss[l]) for l in range(i))
      return mp.log((a_sum - (target - base) / keep) / b_sum)
  return mp.mpf(0)


for case in [(2.2504330953850607e-12, 29, 0, 2.3972203379930218e-12),
             (1e-9, 1000, 0, 1e-8),
             (3e-7, 200, 1e-14, 1e-6),
             (1e-300, 100, 0, 1e-300)]:
  print(case, mp.nstr(smallest_epsilon(*case), 22))
