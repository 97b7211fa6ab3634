"""Exact epsilons of one release of a Poisson-subsampled Gaussian for a group of k records
(tests/node/group.test.mjs).

The pair of the group (Schuchardt, Stoian, Kosmala, Günnemann 2024): J ~ Binomial(k, q) of the k
records are in the subsample, P = sum_j Pr[J = j] N(j Δ, σ²) against Q = N(0, σ²) (add/remove).
Its privacy loss L(x) = log sum_j Pr[J = j] exp((2 j Δ x - j² Δ²) / (2σ²)) increases in x, so
  remove: δ(ε) = P[X > x+] - e^ε Q[X > x+]  with L(x+) = ε,
  add:    δ(ε) = Q[X < x-] - e^ε P[X < x-]  with L(x-) = -ε,
evaluated with mpmath at 50 digits; ε(δ) is the root of the larger δ(ε) = δ.
The trade-off of the remove direction at α (Neyman–Pearson: reject where x is large): the threshold
x = σ Φ⁻¹(1 − α) has Q[X > x] = α, and β = P[X ≤ x] = Σ_j Pr[J = j] Φ((x − jΔ)/σ). (The add
direction, rejecting where x is small, gives a higher β at the α printed here.)

Run: /usr/bin/python3 tests/reference/group_subsampled_reference.py
"""
import json

import mpmath as mp

mp.mp.dps = 50


def weights(k, q):
  return [mp.binomial(k, j) * mp.mpf(q)**j * (1 - mp.mpf(q))**(k - j) for j in range(k + 1)]


def epsilon(k, q, sigma, sensitivity, delta):
  w = weights(k, q)
  s = mp.mpf(sigma)
  d = mp.mpf(sensitivity)
  loss = lambda x: mp.log(sum(wj * mp.exp((2 * j * d * x - (j * d)**2) / (2 * s**2)) for j, wj in enumerate(w)))
  p_above = lambda x: sum(wj * mp.ncdf(-(x - j * d) / s) for j, wj in enumerate(w))
  p_below = lambda x: sum(wj * mp.ncdf((x - j * d) / s) for j, wj in enumerate(w))

  def worse_delta(eps):
    upper = bisect(lambda x: loss(x) - eps, -1000, 1000)
    remove = p_above(upper) - mp.exp(eps) * mp.ncdf(-upper / s)
    # L >= log Pr[J = 0] everywhere: below it the add direction has nothing above e^ε.
    if -eps <= mp.log(w[0]):
      return remove
    lower = bisect(lambda x: loss(x) + eps, -1000, 1000)
    add = mp.ncdf(lower / s) - mp.exp(eps) * p_below(lower)
    return max(remove, add)

  return bisect(lambda eps: delta - worse_delta(eps), 0, 50)


def bisect(increasing, low, high, steps=200):
  """The root of an increasing function on [low, high], to 50 digits."""
  low, high = mp.mpf(low), mp.mpf(high)
  for _ in range(steps):
    middle = (low + high) / 2
    if increasing(middle) > 0:
      high = middle
    else:
      low = middle
  return (low + high) / 2


def remove_beta(k, q, sigma, sensitivity, alpha):
  w = weights(k, q)
  x = mp.mpf(sigma) * mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf(alpha))
  return sum(wj * mp.ncdf((x - j * sensitivity) / mp.mpf(sigma)) for j, wj in enumerate(w))


print(json.dumps({"k": 8, "rate": 0.1, "sigma": 2.0, "remove_beta": {
    str(alpha): float(remove_beta(8, 0.1, 2.0, 1, alpha)) for alpha in (0.001, 0.01, 0.1)}}))

rows = []
for k, q, sigma in ((4, 0.01, 1.0), (8, 0.1, 2.0), (32, 0.02, 1.5)):
  rows.append({"k": k, "rate": q, "sigma": sigma, "delta": 1e-5, "epsilon": float(epsilon(k, q, sigma, 1, 1e-5))})
  print(json.dumps(rows[-1]), flush=True)
