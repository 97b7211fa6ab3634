"""Exact epsilons of a Poisson-subsampled Laplace mechanism for a group of k records
(tests/core/pld/laplace_mixture_loss_test.cpp, tests/core/api/group_engine_test.cpp,
tests/node/group.test.mjs).

The pair of the group (Schuchardt, Stoian, Kosmala, Günnemann 2024): J ~ Binomial(k, q) of the k
records are in the subsample, P = sum_j Pr[J = j] Lap(j Δ, b) against Q = Lap(0, b) (add/remove).
Its likelihood ratio r(x) = sum_j Pr[J = j] exp((|x| - |x - j Δ|) / b) is constant for x <= 0 and
for x >= k Δ and increases in between, where on [m Δ, (m + 1) Δ] it is A_m + B_m e^{2x/b} with
A_m = sum_{j <= m} w_j e^{jΔ/b}, B_m = sum_{j > m} w_j e^{-jΔ/b}: its root is in closed form. So
  remove: δ(ε) = P[X > x+] - e^ε Q[X > x+]  with L(x+) = ε  (1 - e^ε below the loss range, 0 above),
  add:    δ(ε) = Q[X < x-] - e^ε P[X < x-]  with L(x-) = -ε (0 when -ε is at or below the range),
exactly, with mpmath at 50 digits; ε(δ) is the root of the larger δ(ε) = δ (bisection).
Two releases (T = 2): δ₂(ε) = E_{X~P}[δ₁(ε - L(X))], where δ₁(s) = P[L > s] - e^s Q[L > s] for any
real s, is integrated with mpmath's quadrature on the pieces where the integrand is smooth (split at
each jΔ and where ε - L(x) is the loss at some jΔ, the kinks of δ₁), the atoms x <= 0 and x >= kΔ
weighted by their masses; the quadrature's own error estimate is printed beside it (below 1e-50).
The add direction is the same with P and Q swapped and L negated.
The trade-off of the remove direction at α <= 1/2 (Neyman–Pearson: reject where x is large, the top
atom split at random, which gives the same β): x = -b log(2α) has Q[X > x] = α, β = P[X <= x].

Run: /usr/bin/python3 tests/reference/group_subsampled_laplace_reference.py
"""
import json

import mpmath as mp

mp.mp.dps = 50


class Pair:
  def __init__(self, k, q, scale, sensitivity=1):
    self.b = mp.mpf(scale)
    self.shifts = [j * mp.mpf(sensitivity) for j in range(k + 1)]
    q = mp.mpf(q)
    self.w = [mp.binomial(k, j) * q**j * (1 - q)**(k - j) for j in range(k + 1)]
    if q == 1:
      self.w = [mp.mpf(0)] * k + [mp.mpf(1)]
    self.top = max(a for a, w in zip(self.shifts, self.w) if w > 0)
    self.infimum = self.loss(0)
    self.supremum = self.loss(self.top)

  def loss(self, x):
    return mp.log(sum(w * mp.exp((abs(x) - abs(x - a)) / self.b) for a, w in zip(self.shifts, self.w)))

  def root(self, t):
    """x in (0, top) with L(x) = t, for t strictly inside the loss range."""
    for m in range(len(self.shifts)):
      lo = mp.mpf(0) if m == 0 else self.shifts[m - 1]
      hi = self.shifts[m]
      if hi <= lo or self.loss(hi) < t:
        continue
      a = sum(w * mp.exp(s / self.b) for s, w in zip(self.shifts, self.w) if s <= lo)
      bb = sum(w * mp.exp(-s / self.b) for s, w in zip(self.shifts, self.w) if s > lo)
      return self.b / 2 * mp.log((mp.exp(t) - a) / bb)
    raise ValueError(t)

  def p_above(self, x):
    return sum(w * laplace_above(a, self.b, x) for a, w in zip(self.shifts, self.w))

  def q_above(self, x):
    return laplace_above(0, self.b, x)

  def delta_remove(self, eps):
    """P[L > eps] - e^eps Q[L > eps] for any real eps."""
    if eps < self.infimum:
      return 1 - mp.exp(eps)
    if eps >= self.supremum:
      return mp.mpf(0)
    x = self.root(eps)
    return self.p_above(x) - mp.exp(eps) * self.q_above(x)

  def delta_add(self, eps):
    """Q[L < -eps] - e^eps P[L < -eps] for any real eps (the swapped pair)."""
    if -eps <= self.infimum:
      return mp.mpf(0)
    if -eps > self.supremum:
      return 1 - mp.exp(eps)
    x = self.root(-eps)
    return (1 - self.q_above(x)) - mp.exp(eps) * (1 - self.p_above(x))

  def delta(self, eps):
    return max(self.delta_remove(eps), self.delta_add(eps))

  def breakpoints(self):
    return sorted({mp.mpf(0)} | {a for a, w in zip(self.shifts, self.w) if w > 0 and a > 0})

  def pieces(self, levels):
    """(lo, hi) intervals of (0, top) on which L is smooth and does not cross any of `levels`."""
    edges = set(self.breakpoints())
    edges |= {self.root(t) for t in levels if self.infimum < t < self.supremum}
    edges = sorted(edges)
    return list(zip(edges[:-1], edges[1:]))

  def twice(self, eps, direction):
    """(δ of two releases, the quadrature's error estimate) in one direction."""
    one = self.delta_remove if direction == 'remove' else self.delta_add
    sign = 1 if direction == 'remove' else -1
    # Under the direction's first law: P (remove) or Q (add), with loss sign * L.
    density = ((lambda x: sum(w * mp.exp(-abs(x - a) / self.b) for a, w in zip(self.shifts, self.w)) / (2 * self.b))
               if direction == 'remove' else (lambda x: mp.exp(-abs(x) / self.b) / (2 * self.b)))
    below = 1 - (self.p_above(0) if direction == 'remove' else self.q_above(0))
    above = self.p_above(self.top) if direction == 'remove' else self.q_above(self.top)
    total = below * one(eps - sign * self.infimum) + above * one(eps - sign * self.supremum)
    error = mp.mpf(0)
    # δ₁(s) has a kink wherever s (or -s, adding) is the loss at a breakpoint: split there too.
    kinks = [self.loss(c) for c in self.breakpoints()]
    levels = [eps - t for t in kinks] if direction == 'remove' else [-eps - t for t in kinks]
    for lo, hi in self.pieces(levels):
      value, err = mp.quad(lambda x: density(x) * one(eps - sign * self.loss(x)), [lo, hi], error=True)
      total += value
      error += err
    return total, error

  def beta_remove(self, alpha):
    x = -self.b * mp.log(2 * mp.mpf(alpha))
    return 1 - self.p_above(x)


def laplace_above(mean, scale, x):
  z = (x - mean) / scale
  return mp.exp(-z) / 2 if z >= 0 else 1 - mp.exp(z) / 2


def bisect(decreasing_gap, low, high, steps=170):
  """The root of a decreasing function on [low, high]."""
  low, high = mp.mpf(low), mp.mpf(high)
  for _ in range(steps):
    middle = (low + high) / 2
    if decreasing_gap(middle) > 0:
      low = middle
    else:
      high = middle
  return (low + high) / 2


def epsilon(pair, delta):
  return bisect(lambda eps: pair.delta(eps) - delta, 0, pair.supremum + 1)


if __name__ == '__main__':
  for k, q, b in ((4, 0.01, 1.0), (8, 0.1, 2.0), (32, 0.02, 1.5), (3, 0.5, 1.0), (1, 0.01, 1.0), (2, 1, 4.0)):
    pair = Pair(k, q, b)
    row = {'k': k, 'rate': q, 'scale': b, 'delta': 1e-5, 'epsilon': float(epsilon(pair, mp.mpf('1e-5'))),
           'infimum': float(pair.infimum), 'supremum': float(pair.supremum)}
    print(json.dumps(row), flush=True)
  pair = Pair(8, 0.1, 2.0)
  print(json.dumps({'k': 8, 'rate': 0.1, 'scale': 2.0, 'remove_beta': {
      str(alpha): float(pair.beta_remove(alpha)) for alpha in (0.001, 0.01, 0.1)}}))
  # Hockey-stick values of one and of two releases (both directions).
  pair = Pair(3, 0.5, 1.0)
  for eps in (0.5, 1.0):
    one = {'remove': float(pair.delta_remove(eps)), 'add': float(pair.delta_add(eps))}
    two = {}
    for direction in ('remove', 'add'):
      value, error = pair.twice(eps, direction)
      two[direction] = float(value)
      two[direction + '_quadrature_error'] = float(error)
    print(json.dumps({'k': 3, 'rate': 0.5, 'scale': 1.0, 'epsilon': eps, 'one_release': one, 'two_releases': two}))
