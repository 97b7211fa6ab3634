"""Reference values for truncated Poisson sampling (tests/core/dpsgd/truncated_poisson_test.cpp).

1. The probabilities of the analysis (docs/samplers.md, eqs. 1-5) at 40 digits with mpmath:
   w = Pr[Bin(N-1, q) >= C], rho = C Pr[Bin(N, q) >= C+1] / (N w), the inclusion probability
   q_in = q Pr[Bin(N-1, q) <= C-1] + C Pr[Bin(N, q) >= C+1] / N, checked against E[min(Bin(N, q), C)] / N
   summed term by term; and the relative error of Boost's ibeta / ibetac (as dpcalc calls them) on those tails.
2. dp_accounting run from source (google/differential-privacy, commit b5b0286e313b64a692abfc8c528d54ef47d960a0):
   PLDAccountant(neighboring_relation).compose(TruncatedSubsampledGaussianDpEvent(N, q, C, sigma), steps),
   get_epsilon(delta), for REPLACE_SPECIAL (zero-out) and REPLACE_ONE (substitute).
3. The zero-out pair of Ganesh 2025 as its statement reads (the truncated part (1-rho) N(0) + rho N(2) against
   (1-rho) N(0) + rho N(-1)), with dp_accounting's own discretisation and composition: its Poisson part from
   from_gaussian_mechanism, its truncated part through a two-mixture privacy loss written here (connect the dots,
   pessimistic, interval 1e-4), mixed with compute_mixture, self_compose(steps), get_epsilon_for_delta(delta).
4. The sampler's own pair: one example of gradient 1 among gradients 0, Poisson at q_in (dp_accounting
   PoissonSampledDpEvent, REPLACE_SPECIAL and REPLACE_ONE).

Run: PYTHONPATH=<google/differential-privacy>/python/dp_accounting /usr/bin/python3 \
       tests/reference/truncated_poisson_reference.py [path/to/boost_ibeta_values.txt]
(the optional file: lines "n k q ibeta ibetac" printed by a C++ program calling Boost as dpcalc does).
"""
import math
import sys

import mpmath as mp
import numpy as np
from scipy import optimize, special, stats

import dp_accounting
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.pld import privacy_loss_distribution as pld_lib
from dp_accounting.pld import privacy_loss_mechanism as plm

mp.mp.dps = 40
N, SIGMA, STEPS, DELTA = 60000, 1.0, 2344, 1e-5
Q = 256 / N


def tail_at_least(n, k, q):
  """Pr[Bin(n, q) >= k] at mpmath precision (regularised incomplete beta)."""
  return mp.betainc(k, n - k + 1, 0, q, regularized=True)


def probabilities(n, q, cap):
  q = mp.mpf(q)
  w = tail_at_least(n - 1, cap, q)
  a = tail_at_least(n, cap + 1, q)
  rho = cap * a / (n * w)
  q_in = q * (1 - w) + cap * a / n
  return w, rho, q_in


def expected_min_over_n(n, q, cap):
  """E[min(Bin(n, q), cap)] / n = sum_{k=1}^{cap} Pr[Bin >= k] / n."""
  return mp.fsum(tail_at_least(n, k, mp.mpf(q)) for k in range(1, cap + 1)) / n


class TwoMixturePrivacyLoss(plm.MonotonePrivacyLoss):
  """mu_upper = sum_i a_i N(m_i, s^2) against mu_lower = sum_j b_j N(n_j, s^2), with the privacy loss
  non-increasing in x (dp_accounting's convention): every upper mean at or below every lower mean."""

  def __init__(self, s, upper, lower, log_mass_truncation_bound=-50):
    super().__init__(is_discrete=False)
    self.s = s
    self.upper = [(m, w) for m, w in upper if w > 0]
    self.lower = [(m, w) for m, w in lower if w > 0]
    cut = s * stats.norm.ppf(0.5 * math.exp(log_mass_truncation_bound))
    self.lower_x = min(m for m, _ in self.upper) + cut
    self.upper_x = max(m for m, _ in self.upper) - cut

  def _cdf(self, comps, x):
    return sum(w * stats.norm.cdf((x - m) / self.s) for m, w in comps)

  def _log_pdf(self, comps, x):
    return special.logsumexp([math.log(w) + stats.norm.logpdf(x, m, self.s) for m, w in comps])

  def mu_upper_cdf(self, x):
    return self._cdf(self.upper, np.asarray(x, dtype=float))

  def mu_lower_log_cdf(self, x):
    x = np.atleast_1d(np.asarray(x, dtype=float))
    out = special.logsumexp([math.log(w) + stats.norm.logcdf((x - m) / self.s) for m, w in self.lower], axis=0)
    return out

  def privacy_loss(self, x):
    return self._log_pdf(self.upper, x) - self._log_pdf(self.lower, x)

  def inverse_privacy_loss(self, privacy_loss):
    lo, hi = self.lower_x - 50 * self.s, self.upper_x + 50 * self.s
    f = lambda x: self.privacy_loss(x) - privacy_loss
    if f(hi) >= 0:
      return hi
    if f(lo) < 0:
      return lo
    return optimize.brentq(f, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=500)

  def get_delta_for_epsilon(self, epsilon):
    out = []
    for eps in np.atleast_1d(epsilon):
      x = self.inverse_privacy_loss(eps)
      out.append(max(0.0, float(self.mu_upper_cdf(x) - math.exp(eps + self.mu_lower_log_cdf(x)[0]))))
    return np.array(out)

  def privacy_loss_tail(self):
    return plm.TailPrivacyLossDistribution(
        self.lower_x, self.upper_x,
        {math.inf: float(self.mu_upper_cdf(self.lower_x)),
         self.privacy_loss(self.upper_x): float(1 - self.mu_upper_cdf(self.upper_x))})

  def connect_dots_bounds(self):
    return plm.ConnectDotsBounds(epsilon_upper=self.privacy_loss(self.lower_x),
                                 epsilon_lower=self.privacy_loss(self.upper_x))


def two_mixture_pld(s, p_comps, q_comps, interval=1e-4):
  """PLD of P = p_comps against Q = q_comps (P's means above Q's), both directions, mirrored to dp_accounting's
  non-increasing convention."""
  mirror = lambda comps: [(-m, w) for m, w in comps]
  remove = TwoMixturePrivacyLoss(s, mirror(p_comps), mirror(q_comps))
  add = TwoMixturePrivacyLoss(s, q_comps, p_comps)
  make = lambda loss: pld_lib._create_pld_pmf_from_monotone_privacy_loss(
      loss, pessimistic_estimate=True, value_discretization_interval=interval, use_connect_dots=True)
  return pld_lib.PrivacyLossDistribution(make(remove), make(add))


def main():
  print('# 1. probabilities (mpmath, 40 digits)')
  for cap in (512, 384, 307, 281):
    w, rho, q_in = probabilities(N, Q, cap)
    check = expected_min_over_n(N, Q, cap)
    print(f'cap {cap}: w = {mp.nstr(w, 17)}, rho = {mp.nstr(rho, 17)}, q_in = {mp.nstr(q_in, 17)}, '
          f'E[min]/N = {mp.nstr(check, 17)}')
  if len(sys.argv) > 1:
    worst = 0
    for line in open(sys.argv[1]):
      n, k, q, p, pc = [mp.mpf(v) for v in line.split()]
      exact = tail_at_least(int(n), int(k), q)
      exact_c = mp.betainc(k, n - k + 1, q, 1, regularized=True)
      for got, want in ((p, exact), (pc, exact_c)):
        if want > mp.mpf('1e-290'):
          worst = max(worst, abs(got / want - 1))
    print('# Boost ibeta / ibetac worst relative error:', mp.nstr(worst, 3))

  print('# 2. dp_accounting TruncatedSubsampledGaussianDpEvent')
  nr = dp_accounting.NeighboringRelation
  for relation in (nr.REPLACE_SPECIAL, nr.REPLACE_ONE):
    for cap in (512, 384, 307, 281, N):
      acc = pld_privacy_accountant.PLDAccountant(neighboring_relation=relation)
      acc.compose(dp_event.TruncatedSubsampledGaussianDpEvent(N, Q, cap, SIGMA), STEPS)
      print(relation.name, cap, repr(acc.get_epsilon(DELTA)))

  print('# 3. Ganesh 2025 zero-out pair, dp_accounting discretisation')
  for cap in (307, 281):
    w, rho, _ = probabilities(N, Q, cap)
    poisson = pld_lib.from_gaussian_mechanism(SIGMA, sampling_prob=Q, value_discretization_interval=1e-4)
    rho = float(rho)
    truncated = two_mixture_pld(SIGMA, [(0.0, 1 - rho), (2.0, rho)], [(0.0, 1 - rho), (-1.0, rho)])
    mixed = truncated.compute_mixture(poisson, float(w))
    print('zero-out', cap, repr(mixed.self_compose(STEPS).get_epsilon_for_delta(DELTA)))

  print('# 4. the sampler pair: Poisson at q_in')
  for relation in (nr.REPLACE_SPECIAL, nr.REPLACE_ONE):
    for cap in (307, 281):
      _, _, q_in = probabilities(N, Q, cap)
      acc = pld_privacy_accountant.PLDAccountant(neighboring_relation=relation)
      acc.compose(dp_event.PoissonSampledDpEvent(float(q_in), dp_event.GaussianDpEvent(SIGMA)), STEPS)
      print(relation.name, cap, repr(acc.get_epsilon(DELTA)))


if __name__ == '__main__':
  main()
