"""Reference answers for solving DP-SGD for an unknown (tests/node/solve.test.mjs).

dp_accounting (google/differential-privacy b5b0286), PLD, connect-the-dots, pessimistic,
value_discretization_interval 1e-4, eps at delta = 1e-5, Poisson sampling at rate q = 0.01:
  * the most steps T with eps(T) <= 3 at noise multiplier 1, group of one example (the Poisson-
    subsampled Gaussian, from_gaussian_mechanism with sampling_prob, both adjacency directions);
  * the largest group k with eps <= 2 at noise multiplier 2 and T = 1000 steps (the group's pair
    sum_j Binomial(j; k, q) N(j, sigma^2) against N(0, sigma^2), from_mixture_gaussian_mechanism).
Each by bisection on the integer, printing eps at the answer and one beyond.

Run: PYTHONPATH=/work/ref/dp/python/dp_accounting /usr/bin/python3 tests/reference/dpsgd_solve_reference.py
"""
import json

from scipy.stats import binom
from dp_accounting.pld import privacy_loss_distribution as pld

DELTA, Q, INTERVAL = 1e-5, 0.01, 1e-4


def largest(meets_epsilon):
  """Largest n >= 1 with meets_epsilon(n), given it holds at 1: doubling, then bisection."""
  low, high = 1, 2
  while meets_epsilon(high):
    low, high = high, 2 * high
  while high - low > 1:
    middle = (low + high) // 2
    if meets_epsilon(middle):
      low = middle
    else:
      high = middle
  return low


one_step = pld.from_gaussian_mechanism(1.0, sampling_prob=Q, value_discretization_interval=INTERVAL)
steps_eps = lambda steps: one_step.self_compose(steps).get_epsilon_for_delta(DELTA)
steps = largest(lambda t: steps_eps(t) <= 3)
print(json.dumps({"sigma": 1, "q": Q, "target": 3, "most_steps": steps, "eps": steps_eps(steps),
                  "eps_beyond": steps_eps(steps + 1)}), flush=True)


def group_eps(k):
  weights = [float(binom.pmf(j, k, Q)) for j in range(k + 1)]
  pair = pld.from_mixture_gaussian_mechanism(2.0, list(range(k + 1)), weights,
                                             value_discretization_interval=INTERVAL)
  return pair.self_compose(1000).get_epsilon_for_delta(DELTA)


group = largest(lambda k: group_eps(k) <= 2)
print(json.dumps({"sigma": 2, "q": Q, "steps": 1000, "target": 2, "largest_group": group, "eps": group_eps(group),
                  "eps_beyond": group_eps(group + 1)}), flush=True)
