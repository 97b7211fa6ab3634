"""Reference epsilons for the DP-SGD group accountant (tests/core/dpsgd_reference_test.cpp).

dp_accounting (google/differential-privacy b5b0286), mixture-of-Gaussians PLD, connect-the-dots,
pessimistic, value_discretization_interval 1e-4: the one-step pair of a group of k examples under
fixed batches (N = 60000, B = 256): P = sum_j Hypergeom(j; N, k, B) N(j, sigma^2) against
Q = N(0, sigma^2), both adjacency directions, self-composed T times, eps at delta = 1e-5.

Run: PYTHONPATH=/work/ref/dp/python/dp_accounting /usr/bin/python3 tests/reference/dpsgd_mixture_reference.py
"""
import json
import sys

from scipy.stats import hypergeom
from dp_accounting.pld import privacy_loss_distribution as pld

N, B, DELTA = 60000, 256, 1e-5
rows = []
for sigma in (1.0, 2.0, 4.0):
  for k in (1, 2, 3, 5):
    weights = [float(hypergeom.pmf(j, N, k, B)) for j in range(k + 1)]
    one_step = pld.from_mixture_gaussian_mechanism(
        sigma, list(range(k + 1)), weights, value_discretization_interval=1e-4)
    for steps in (1, 64, 1024, 16384):
      eps = one_step.self_compose(steps).get_epsilon_for_delta(DELTA)
      rows.append({"sigma": sigma, "k": k, "steps": steps, "epsilon": eps})
      print(json.dumps(rows[-1]), flush=True)
json.dump(rows, sys.stdout if len(sys.argv) < 2 else open(sys.argv[1], "w"), indent=1)
