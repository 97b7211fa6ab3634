"""Group privacy over an exact privacy profile (tests/core/pld/group_over_profile_test.cpp,
tests/core/api/group_profile_test.cpp, tests/node/group.test.mjs).

Vadhan 2017, Lemma 2.2: an (ε, δ)-DP mechanism is (kε, δ (e^{kε} − 1)/(e^ε − 1))-DP for groups of k
(the geometric sum of the lemma's proof, at most its k e^{(k−1)ε} δ; dpcalc's group_privacy). Applied
at every ε of the mechanism's exact profile δ(ε), the best group ε at a target δ_g is
    k · min { ε ≥ 0 : δ(ε) (e^{kε} − 1)/(e^ε − 1) ≤ δ_g },
found here by a scan of ε (steps of 1e-3 of the loss range) for the first point that meets, then
bisection to 40 digits between it and the point before (mpmath at 50 digits). The profiles, both
directions being equal for these symmetric pairs:
  * Gaussian, μ = Δ/σ (Balle & Wang 2018, Thm 8): δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ);
  * Laplace, ε₀ = Δ/b: δ(ε) = 1 − e^{(ε − ε₀)/2} on [0, ε₀], 0 beyond;
  * discrete Gaussian (Canonne, Kamath, Steinke 2020), P = N_Z(Δ, σ²), Q = N_Z(0, σ²):
    δ(ε) = Σ_x (P(x) − e^ε Q(x))₊ over |x| ≤ 40σ + Δ (the rest is below 1e-300);
  * randomized response over m buckets with probability p of a random report, substitution
    (Warner 1965): the true bucket has probability 1 − p + p/m, every other p/m, so
    δ(ε) = (1 − p + p/m) − e^ε p/m below its ε₀ = ln(1 + m(1 − p)/p), 0 beyond.
The k e^{(k−1)ε} δ form of the lemma is printed beside (it is never smaller). Last, the exact trade-off
of the group of 3 of the Gaussian with μ = 0.5 under substitution (the Gaussian at 3Δ, Dong, Roth, Su
2019): β(α) = Φ(Φ⁻¹(1 − α) − 1.5), which no sound curve of that group may exceed.

Run: /usr/bin/python3 tests/reference/group_over_profile_reference.py
"""
import mpmath as mp

mp.mp.dps = 50


def gaussian(mu):
  mu = mp.mpf(mu)
  return lambda e: mp.ncdf(mu / 2 - e / mu) - mp.exp(e) * mp.ncdf(-mu / 2 - e / mu), 2 * mu * mu + 40 * mu


def laplace(epsilon0):
  epsilon0 = mp.mpf(epsilon0)
  return lambda e: (1 - mp.exp((e - epsilon0) / 2)) if e < epsilon0 else mp.mpf(0), epsilon0


def discrete_gaussian(sigma, sensitivity):
  sigma, delta = mp.mpf(sigma), int(sensitivity)
  xs = range(-int(40 * sigma) - delta, int(40 * sigma) + 2 * delta + 1)
  z = mp.fsum(mp.exp(-mp.mpf(x)**2 / (2 * sigma**2)) for x in xs)
  p = [mp.exp(-mp.mpf(x - delta)**2 / (2 * sigma**2)) / z for x in xs]
  q = [mp.exp(-mp.mpf(x)**2 / (2 * sigma**2)) / z for x in xs]

  def profile(e):
    return mp.fsum(max(mp.mpf(0), a - mp.exp(e) * b) for a, b in zip(p, q))

  return profile, delta * (2 * int(40 * sigma) + delta) / (2 * sigma**2)


def randomized_response(p, buckets):
  p, m = mp.mpf(p), buckets
  top, rest = 1 - p + p / m, p / m
  epsilon0 = mp.log(top / rest)
  return lambda e: (top - mp.exp(e) * rest) if e < epsilon0 else mp.mpf(0), epsilon0


def growth(k, e):
  return k if e == 0 else mp.expm1(k * e) / mp.expm1(e)


def best_group(profile, top, k, delta_g):
  delta_g = mp.mpf(delta_g)
  meets = lambda e: profile(e) * growth(k, e) <= delta_g
  steps = 1000
  previous = mp.mpf(0)
  if meets(previous):
    return previous
  for i in range(1, steps + 1):
    e = top * i / steps
    if meets(e):
      low, high = previous, e
      while high - low > mp.mpf(10)**-40:
        middle = (low + high) / 2
        if meets(middle):
          high = middle
        else:
          low = middle
      return high
    previous = e
  raise ValueError('no ε meets')


CASES = [
    ('Gaussian mu = 0.5 (sigma 2), delta 1e-5', gaussian(0.5), [1, 2, 4, 8], 1e-5),
    ('Laplace eps0 = 1 (b 1), delta 1e-5', laplace(1), [1, 3], 1e-5),
    ('discrete Gaussian sigma 1, sensitivity 1, delta 1e-5', discrete_gaussian(1, 1), [1, 3], 1e-5),
    ('randomized response p 0.5, 4 buckets, delta 1e-5', randomized_response(0.5, 4), [1, 2], 1e-5),
]

for name, (profile, top), ks, delta_g in CASES:
  print(name)
  for k in ks:
    e = best_group(profile, top, k, delta_g)
    lemma_form = best_group(lambda x: profile(x) * k * mp.exp((k - 1) * x) / growth(k, x), top, k, delta_g)
    print(f'  k = {k}: group epsilon {mp.nstr(k * e, 17)} (per record epsilon {mp.nstr(e, 17)}, '
          f'delta {mp.nstr(profile(e), 17)}); k e^((k-1)eps) form: {mp.nstr(k * lemma_form, 17)}')

print('Exact trade-off of the Gaussian at mu = 1.5 (a group of 3 at mu = 0.5)')
for alpha in ['0.001', '0.01', '0.1']:
  a = mp.mpf(alpha)
  print(f'  alpha {alpha}: beta {mp.nstr(mp.ncdf(mp.sqrt(2) * mp.erfinv(1 - 2 * a) - mp.mpf(1.5)), 17)}')
