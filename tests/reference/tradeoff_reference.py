"""Reference trade-off values for tests/core/tradeoff/ (mpmath, 30 digits).

f(alpha) is the smallest false-negative rate beta of a membership test with false-positive rate
alpha (Dong, Roth, Su 2019). Each section prints the values one test uses:

1. mu-GDP: G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) (Dong, Roth, Su 2019, Def. 2.6); its
   advantage 2 Phi(mu/2) - 1.
2. Laplace with sensitivity / scale = eps, the closed form restated in
   /work/shared/science/mechanisms_and_tradeoffs.md: 1 - e^eps alpha for alpha < e^-eps / 2,
   e^-eps / (4 alpha) up to 1/2, e^-eps (1 - alpha) above; advantage 1 - e^{-eps/2}.
3. Randomized response composed T times (the pair P = (e^eps, 1)/(1 + e^eps), Q reversed, per
   round): exact Neyman-Pearson over the outcomes. The number K of rounds that report the true
   bit is Binomial(T, p) under P and Binomial(T, 1 - p) under Q, p = e^eps/(1 + e^eps); the loss
   (2K - T) eps grows with K, so the best tests reject for K >= k (randomising at k - 1):
   the curve is linear between the points (Q[K >= k], P[K < k]).
4. zCDP and RDP: the envelope over eps of the lines 1 - delta(eps) - e^eps alpha and
   e^-eps (1 - delta(eps) - alpha) of the privacy profile delta(eps) = min over orders lambda of
   delta_lambda(eps) = exp((lambda - 1)(eps_lambda - eps)) (1 - 1/lambda)^(lambda - 1) / lambda
   (Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21), found numerically: for each order the
   envelope over eps in [-60, 60] is maximised by golden-section search (each line family is
   unimodal in eps for a fixed order), and the best order is taken over the RDP curve's orders or,
   for zCDP (eps_lambda = rho lambda), by a scan of log(lambda - 1) over [-10, 30] in steps of
   0.25 refined by golden-section search. This checks the closed forms of
   core/include/dpcalc/tradeoff/renyi_tradeoff.hpp independently.
5. (eps, delta) only: f(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha))
   (Kairouz, Oh, Viswanath 2015, Thm 2.1); advantage delta + (1 - delta) tanh(eps/2); for pure
   eps-DP and prior pi the largest posterior pi e^eps / (pi e^eps + 1 - pi).

Run: /usr/bin/python3 tests/reference/tradeoff_reference.py
"""
import mpmath as mp

mp.mp.dps = 30
ALPHAS = ['1e-9', '1e-6', '1e-3', '0.01', '0.1', '0.3', '0.5', '0.9']


def phi_cdf(x):
  return mp.ncdf(x)


def phi_inverse(p):
  return mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1)


def gaussian_beta(mu, alpha):
  return phi_cdf(phi_inverse(1 - mp.mpf(alpha)) - mu)


def laplace_beta(eps, alpha):
  eps, alpha = mp.mpf(eps), mp.mpf(alpha)
  if alpha < mp.exp(-eps) / 2:
    return 1 - mp.exp(eps) * alpha
  if alpha <= mp.mpf(1) / 2:
    return mp.exp(-eps) / (4 * alpha)
  return mp.exp(-eps) * (1 - alpha)


def randomized_response_beta(eps, rounds, alpha):
  eps, alpha = mp.mpf(eps), mp.mpf(alpha)
  p = mp.exp(eps) / (1 + mp.exp(eps))
  def pmf(k, q):
    return mp.binomial(rounds, k) * q**k * (1 - q)**(rounds - k)
  # Points (alpha_k, beta_k) for k = rounds + 1 (reject nothing) down to 0 (reject everything).
  points = []
  for k in range(rounds + 1, -1, -1):
    a = mp.fsum(pmf(j, 1 - p) for j in range(k, rounds + 1))
    b = mp.fsum(pmf(j, p) for j in range(0, k))
    points.append((a, b))
  for (a0, b0), (a1, b1) in zip(points, points[1:]):
    if a0 <= alpha <= a1:
      return b0 + (b1 - b0) * (alpha - a0) / (a1 - a0)
  raise ValueError('alpha out of range')


def golden_max(f, lo, hi, steps=200):
  ratio = (mp.sqrt(5) - 1) / 2
  a, b = mp.mpf(lo), mp.mpf(hi)
  c, d = b - ratio * (b - a), a + ratio * (b - a)
  fc, fd = f(c), f(d)
  for _ in range(steps):
    if fc > fd:
      b, d, fd = d, c, fc
      c = b - ratio * (b - a)
      fc = f(c)
    else:
      a, c, fc = c, d, fd
      d = a + ratio * (b - a)
      fd = f(d)
  return max(fc, fd)


def order_delta(order, eps_order, eps):
  order = mp.mpf(order)
  return mp.exp((order - 1) * (eps_order - eps)) * (1 - 1 / order)**(order - 1) / order


def order_beta(order, eps_order, alpha):
  alpha = mp.mpf(alpha)
  steep = golden_max(lambda e: 1 - order_delta(order, eps_order, e) - mp.exp(e) * alpha, -60, 60)
  flat = golden_max(lambda e: mp.exp(-e) * (1 - order_delta(order, eps_order, e) - alpha), -60, 60)
  return max(0, steep, flat)


def zcdp_beta(rho, alpha):
  rho = mp.mpf(rho)
  def at(s):
    return order_beta(1 + mp.exp(s), rho * (1 + mp.exp(s)), alpha)
  best = max((at(mp.mpf(i) / 4), mp.mpf(i) / 4) for i in range(-40, 121))[1]
  return golden_max(at, best - mp.mpf(1) / 4, best + mp.mpf(1) / 4, steps=80)


def rdp_beta(orders, epsilons, alpha):
  return max(order_beta(o, mp.mpf(e), alpha) for o, e in zip(orders, epsilons))


def approx_beta(eps, delta, alpha):
  eps, delta, alpha = mp.mpf(eps), mp.mpf(delta), mp.mpf(alpha)
  return max(0, 1 - delta - mp.exp(eps) * alpha, mp.exp(-eps) * (1 - delta - alpha))


def show(name, values):
  print(name)
  for alpha, value in values:
    print('  {%s, %s},' % (alpha, mp.nstr(value, 20)))


if __name__ == '__main__':
  for mu in ['0.5', '1', '3']:
    show('gaussian mu = %s' % mu, [(a, gaussian_beta(mp.mpf(mu), a)) for a in ALPHAS])
    print('  advantage', mp.nstr(2 * phi_cdf(mp.mpf(mu) / 2) - 1, 20))
  for eps in ['0.5', '1', '3']:
    show('laplace eps = %s' % eps, [(a, laplace_beta(eps, a)) for a in ALPHAS])
    print('  advantage', mp.nstr(1 - mp.exp(-mp.mpf(eps) / 2), 20))
  for eps, rounds in [('1', 1), ('0.5', 10), ('0.1', 100)]:
    show('randomized response eps = %s, T = %d' % (eps, rounds),
         [(a, randomized_response_beta(eps, rounds, a)) for a in ALPHAS])
  for rho in ['0.01', '0.5', '2']:
    show('zcdp rho = %s' % rho, [(a, zcdp_beta(rho, a)) for a in ALPHAS[:-1]])
  orders = [1.5, 2, 4, 8, 16, 32, 64]
  epsilons = [0.2, 0.3, 0.7, 1.6, 3.5, 7.5, 15.8]
  show('rdp orders %s epsilons %s' % (orders, epsilons), [(a, rdp_beta(orders, epsilons, a)) for a in ALPHAS])
  for eps, delta in [('1', '1e-5'), ('2', '0')]:
    show('approx eps = %s, delta = %s' % (eps, delta), [(a, approx_beta(eps, delta, a)) for a in ALPHAS])
    print('  advantage', mp.nstr(mp.mpf(delta) + (1 - mp.mpf(delta)) * mp.tanh(mp.mpf(eps) / 2), 20))
  prior = mp.mpf('0.1')
  print('pure eps = 2, prior 0.1: max posterior', mp.nstr(prior * mp.e**2 / (prior * mp.e**2 + 1 - prior), 20))
