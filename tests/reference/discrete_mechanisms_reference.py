"""Exact references for tests/core/mechanisms/{randomized_response,discrete_laplace,discrete_gaussian,
permute_and_flip,tree_aggregation}_test.cpp: epsilon(delta) of n-fold compositions, each from the
mechanism's exact privacy loss distribution, by direct summation (no discretisation).

 * randomized response (p, k buckets), substitution: the net count j = #(+L) - #(-L) of n reports
   has the trinomial law; delta(eps) = sum_j P(j) (1 - e^{eps - jL})_+ (mpmath, 50 digits).
 * discrete Laplace (scale b, sensitivity D): the loss of one use is m/b with m in {-D, -D+2, ..., D}
   (the pair of discrete_laplace.cpp, its geometric tails in closed form); the n-fold law of m by exact
   convolution in mpmath, or for D = 1 and many uses by its binomial law.
 * discrete Gaussian (sigma, sensitivity D): the loss of one use is (2xD - D^2)/(2 sigma^2), x ~ N_Z(D,
   sigma^2); the n-fold law of S = sum x_i by exact lattice convolution in mpmath over |x - D| <= 40 sigma
   (the cut mass, below 1e-340, cannot move delta at the digits printed).
 * epsilon-DP randomized-response pair (the pair of permute-and-flip): binomial sums (Kairouz, Oh,
   Viswanath 2015, Thm 3.3); and the exact two-candidate instance of permute-and-flip (scores 0 and
   -2 Delta_u against 0 and 0), P = (1/2, 1/2) vs Q = (1 - e^{-eps}/2, e^{-eps}/2), both directions:
   a lower bound on the mechanism's worst case.
 * tree aggregation: the analytic Gaussian (Balle & Wang 2018, Thm 8) at mu = sqrt(count *
   ceil(log2(steps + 1))) / noise_multiplier.
epsilon(delta) is found by bisection to 1e-12 relative. Run with Debian's python3:
  /usr/bin/python3 tests/reference/discrete_mechanisms_reference.py
"""
import mpmath as mp

mp.mp.dps = 50


def delta_of(losses_probs, eps):
  eps = mp.mpf(eps)
  return mp.fsum(p * (1 - mp.e**(eps - l)) for l, p in losses_probs if l > eps)


def eps_of(losses_probs_list, delta):
  """Smallest eps with max over directions of delta(eps) <= delta."""
  delta = mp.mpf(delta)
  f = lambda e: max(delta_of(lp, e) for lp in losses_probs_list)
  if f(0) <= delta:
    return mp.mpf(0)
  lo, hi = mp.mpf(0), mp.mpf(1)
  while f(hi) > delta:
    hi *= 2
  while hi - lo > hi * mp.mpf('1e-13'):
    mid = (lo + hi) / 2
    if f(mid) > delta:
      lo = mid
    else:
      hi = mid
  return hi


def compose_pmf(single, n):
  """single: dict integer -> prob; n-fold convolution."""
  result = {0: mp.mpf(1)}
  power, base = n, dict(single)
  while power:
    if power & 1:
      result = convolve(result, base)
    power >>= 1
    if power:
      base = convolve(base, base)
  return result


def convolve(a, b):
  out = {}
  for i, pa in a.items():
    for j, pb in b.items():
      out[i + j] = out.get(i + j, 0) + pa * pb
  return out


def randomized_response(p, k, n):
  p, k = mp.mpf(p), mp.mpf(k)
  plus, minus, zero = 1 - p + p / k, p / k, (k - 2) * p / k
  L = mp.log(plus / minus)
  pmf = {}
  for a in range(n + 1):
    for b in range(n - a + 1):
      c = n - a - b
      w = mp.factorial(n) / (mp.factorial(a) * mp.factorial(b) * mp.factorial(c))
      term = w * plus**a * minus**b * (zero**c if c else 1)
      pmf[a - b] = pmf.get(a - b, 0) + term
  return [[(j * L, q) for j, q in pmf.items()]]


def discrete_laplace(b, D, n):
  b = mp.mpf(b)
  r = mp.e**(-1 / b)
  single = {-D: r**D / (1 + r), D: 1 / (1 + r)}
  for x in range(1, D):
    single[2 * x - D] = mp.tanh(1 / (2 * b)) * r**(D - x)
  pmf = compose_pmf(single, n)
  return [[(m / b, q) for m, q in pmf.items()]]


def discrete_laplace_binomial(b, n):
  """discrete_laplace(b, 1, n) for large n: the loss of one use is +1/b with probability 1/(1 + r) and
  -1/b with r/(1 + r), so n uses give (2m - n)/b with m ~ Binomial(n, 1/(1 + r))."""
  b = mp.mpf(b)
  up = 1 / (1 + mp.e**(-1 / b))
  return [[(mp.mpf(2 * m - n) / b, mp.binomial(n, m) * up**m * (1 - up)**(n - m)) for m in range(n + 1)]]


def discrete_gaussian(sigma, D, n):
  sigma = mp.mpf(sigma)
  width = int(mp.ceil(40 * sigma))
  weights = {x: mp.e**(-mp.mpf(x)**2 / (2 * sigma**2)) for x in range(-width, width + 1)}
  z = mp.fsum(weights.values())
  single = {x + D: w / z for x, w in weights.items()}  # P = N_Z(D, sigma^2)
  pmf = compose_pmf(single, n)
  return [[((2 * s * D - n * D * D) / (2 * sigma**2), q) for s, q in pmf.items()]]


def pure_pair(eps, n):
  eps = mp.mpf(eps)
  hi = mp.e**eps / (1 + mp.e**eps)
  return [[((2 * j - n) * eps, mp.binomial(n, j) * hi**j * (1 - hi)**(n - j)) for j in range(n + 1)]]


def permute_and_flip_two_candidates(eps, n):
  eps = mp.mpf(eps)
  P = [mp.mpf(1) / 2, mp.mpf(1) / 2]
  Q = [1 - mp.e**(-eps) / 2, mp.e**(-eps) / 2]
  out = []
  for A, B in ((P, Q), (Q, P)):
    l0, l1 = mp.log(A[0] / B[0]), mp.log(A[1] / B[1])
    out.append([(j * l1 + (n - j) * l0, mp.binomial(n, j) * A[1]**j * A[0]**(n - j)) for j in range(n + 1)])
  return out


def analytic_gaussian_eps(mu, delta):
  mu, delta = mp.mpf(mu), mp.mpf(delta)
  f = lambda e: mp.ncdf(-e / mu + mu / 2) - mp.e**e * mp.ncdf(-e / mu - mu / 2)
  lo, hi = mp.mpf(0), mp.mpf(1)
  while f(hi) > delta:
    hi *= 2
  while hi - lo > hi * mp.mpf('1e-14'):
    mid = (lo + hi) / 2
    if f(mid) > delta:
      lo = mid
    else:
      hi = mid
  return hi


def show(name, value):
  print('%-60s %s' % (name, mp.nstr(value, 17)))


if __name__ == '__main__':
  for p, k, n, delta in ((0.5, 2, 365, 1e-5), (0.2, 4, 10, 1e-6), (0.5, 10, 100, 1e-5)):
    show('randomized_response p=%g k=%d n=%d delta=%g' % (p, k, n, delta), eps_of(randomized_response(p, k, n), delta))
  for b, D, n, delta in ((1, 1, 10, 1e-6), (2, 3, 20, 1e-5), (5, 1, 100, 1e-5)):
    show('discrete_laplace b=%g D=%d n=%d delta=%g' % (b, D, n, delta), eps_of(discrete_laplace(b, D, n), delta))
  for b, n, delta in ((1, 100, 1e-5), (1, 10000, 1e-5)):
    show('discrete_laplace b=%g D=1 n=%d delta=%g (binomial)' % (b, n, delta),
         eps_of(discrete_laplace_binomial(b, n), delta))
  for sigma, D, n, delta in ((5, 1, 12, 1e-5), (2, 1, 4, 1e-6), (3, 2, 6, 1e-5)):
    show('discrete_gaussian sigma=%g D=%d n=%d delta=%g' % (sigma, D, n, delta),
         eps_of(discrete_gaussian(sigma, D, n), delta))
  # op 'group' of k records: the exact pair at sensitivity k (tests/core/api/group_profile_test.cpp).
  for sigma, k, delta in ((1, 1, 1e-6), (1, 2, 1e-6), (3, 4, 1e-5), (5, 3, 1e-5)):
    show('group of discrete_gaussian sigma=%g k=%d delta=%g' % (sigma, k, delta),
         eps_of(discrete_gaussian(sigma, k, 1), delta))
  for eps, n, delta in ((0.5, 20, 1e-5), (1, 5, 1e-6)):
    show('pure_pair eps=%g n=%d delta=%g' % (eps, n, delta), eps_of(pure_pair(eps, n), delta))
    show('permute_and_flip_two_candidates eps=%g n=%d delta=%g' % (eps, n, delta),
         eps_of(permute_and_flip_two_candidates(eps, n), delta))
  for nm, steps, count, delta in ((1.0, 1000, 1, 1e-5), (2.0, 100, 5, 1e-6), (5.0, 1, 1, 1e-5), (1.0, 2**53, 1, 1e-5)):
    depth = int(mp.ceil(mp.log(steps + 1, 2)))
    mu = mp.sqrt(count * depth) / nm
    show('tree_aggregation nm=%g steps=%d count=%d delta=%g (mu=%s)' % (nm, steps, count, delta, mp.nstr(mu, 10)),
         analytic_gaussian_eps(mu, delta))
