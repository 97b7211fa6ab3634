"""Reference values for tests/core/rdp_reference_test.cpp.

dp_accounting (google/differential-privacy b5b0286), RdpAccountant:
 * eps(alpha) of the Poisson-subsampled Gaussian, one step, at integer and fractional orders
   (rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian; T steps are T times this);
 * Sommer's (2021) over-approximation for fixed batches N=60000, B=256, group k, noise multiplier sigma,
   T steps: RdpAccountant(orders) composing PoissonSampledDpEvent(1 - hypergeom.cdf(0, N, k, B),
   GaussianDpEvent(sigma / k)) T times, get_epsilon_and_optimal_order(1e-5). The test's rows are this
   loop run on dp_accounting as it was before google/differential-privacy commit 0b109e9 (checkout
   0b109e9^), whose fractional-order series is TF Privacy's compute_rdp with signed terms; since that
   commit the series sums |C(alpha, i)| and gives larger values (e.g. 56.26 instead of 53.26 at k = 2,
   sigma = 1, T = 16384).
Run: PYTHONPATH=<google/differential-privacy checkout>/python/dp_accounting /usr/bin/python3 tests/reference/rdp_reference.py
"""
from scipy.stats import hypergeom
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp

ORDERS = [1.1, 1.5, 2, 3, 3.7, 8, 10.9, 16, 32, 63, 256, 1024]
for q in (1e-4, 1e-3, 0.01, 0.1, 0.5):
  for sigma in (0.5, 1, 2, 5, 10):
    values = rdp._compute_rdp_poisson_subsampled_gaussian(q, sigma, ORDERS)
    print('    {%r, %r, {%s}},' % (q, sigma, ', '.join('%.17g' % v for v in values)))

orders = [1 + x / 10. for x in range(1, 100)] + list(range(12, 65)) + [128, 256, 512, 1024]
for sigma in (1.0, 2.0):
  for k in (1, 2, 3, 5):
    for steps in (64, 16384, 1000000):
      qk = 1 - hypergeom.cdf(0, 60000, k, 256)
      accountant = rdp.RdpAccountant(orders)
      accountant.compose(dp_event.PoissonSampledDpEvent(qk, dp_event.GaussianDpEvent(sigma / k)), steps)
      eps, order = accountant.get_epsilon_and_optimal_order(1e-5)
      print('    {%r, %d, %d, %.17g, %r},' % (sigma, k, steps, eps, order))
