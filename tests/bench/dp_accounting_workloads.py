"""The numeric workloads of tests/bench/requests.mjs (comparedWorkloads) through dp_accounting.

google/differential-privacy's python/dp_accounting, run from source (its path in PYTHONPATH), PLD
accountant, connect-the-dots, pessimistic, value_discretization_interval 1e-4; epsilon at
delta = 1e-5 (the larger of both adjacency directions, as dp_accounting reports it).

scripts/bench_dp_accounting.mjs starts this once and sends one workload key per line on stdin; each
answer is one JSON line {"key", "epsilon", "seconds"} timed in this process (import and start-up
excluded). Run alone: PYTHONPATH=<dp_accounting> /usr/bin/python3 tests/bench/dp_accounting_workloads.py
and type a key (dpsgd, laplace, gaussians, group_dpsgd, truncated_poisson_384, _307, _281), or
"numpy_pipeline <size> <power>" for numpy's rfft, complex power and irfft alone.
The key random_allocation needs the random-allocation PLD of dp_accounting's pull request 414
(google/differential-privacy commit 125d46c, its python/dp_accounting in PYTHONPATH instead).
"""
import json
import sys
import time

from scipy.stats import hypergeom
from dp_accounting.pld import privacy_loss_distribution as pld

STEP = 1e-4
DELTA = 1e-5


def dpsgd():
  # Poisson-subsampled Gaussian, sigma = 1, q = 0.01, T = 10^4.
  one = pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=STEP)
  return one.self_compose(10000).get_epsilon_for_delta(DELTA)


def laplace():
  # Laplace b = 10 (sensitivity 1), 1000 times.
  one = pld.from_laplace_mechanism(10.0, value_discretization_interval=STEP)
  return one.self_compose(1000).get_epsilon_for_delta(DELTA)


def gaussians():
  # 50 different Gaussians, sigma = 20 ... 69, composed one by one.
  composed = pld.from_gaussian_mechanism(20.0, value_discretization_interval=STEP)
  for sigma in range(21, 70):
    composed = composed.compose(pld.from_gaussian_mechanism(float(sigma), value_discretization_interval=STEP))
  return composed.get_epsilon_for_delta(DELTA)


def group_dpsgd():
  # DP-SGD for a group of k = 16 under fixed batches (N = 60000, B = 256), sigma = 2, T = 16384: the
  # mixture P = sum_j Hypergeom(j; N, k, B) N(j, sigma^2) against Q = N(0, sigma^2).
  k = 16
  weights = [float(hypergeom.pmf(j, 60000, k, 256)) for j in range(k + 1)]
  one = pld.from_mixture_gaussian_mechanism(2.0, list(range(k + 1)), weights, value_discretization_interval=STEP)
  return one.self_compose(16384).get_epsilon_for_delta(DELTA)


def truncated_poisson(cap):
  # Truncated Poisson sampling (Ganesh 2025, arXiv 2508.15089): N = 60000, q = 256/60000, batches
  # cut to at most `cap`, sigma = 1, 10 epochs (T = ceil(10 N / B) = 2344 steps), zero-out neighbours
  # (REPLACE_SPECIAL), dp_accounting's TruncatedSubsampledGaussianDpEvent through its PLD accountant.
  from dp_accounting import dp_event
  from dp_accounting.pld import pld_privacy_accountant
  from dp_accounting.privacy_accountant import NeighboringRelation
  accountant = pld_privacy_accountant.PLDAccountant(
      NeighboringRelation.REPLACE_SPECIAL, value_discretization_interval=STEP)
  event = dp_event.TruncatedSubsampledGaussianDpEvent(60000, 256 / 60000, cap, 1.0)
  accountant.compose(dp_event.SelfComposedDpEvent(event, 2344))
  return accountant.get_epsilon(DELTA)


def random_allocation():
  # Balls-and-bins batches (random allocation: every example in one uniformly random step of each
  # epoch), sigma = 1, 234 steps an epoch, 10 epochs: the upper (DOMINATES) PLD of pull request 414 at
  # its 1e-3 grid. Debian's scipy 1.10 overflows lognorm.isf to inf far in the tail, which that code
  # cannot take; isf of a log-normal is exp(s * isf of the standard normal), computed so here.
  import numpy as np
  from scipy import stats
  from scipy.stats import _continuous_distns
  _continuous_distns.lognorm_gen._isf = lambda self, q, s: np.exp(s * stats.norm.isf(q))
  from dp_accounting.pld.random_allocation import api, definitions
  params = definitions.PrivacyParams(sigma=1.0, num_steps=234, num_selected=1, num_epochs=10)
  config = definitions.AllocationSchemeConfig(value_discretization_interval=1e-3)
  upper = api.gaussian_allocation_pld(params, config, definitions.BoundType.DOMINATES)
  return upper.get_epsilon_for_delta(DELTA)


_PIPELINE_INPUT = {}


def numpy_pipeline(size, power):
  # One native numpy pipeline of the FFT composition, the floor of any FFT accountant at that grid:
  # rfft of `size` points, the pointwise complex power, irfft. The input is dp_accounting's own PMF
  # of one DP-SGD step above (remove direction, step 1e-4), zero-padded (built once, not timed).
  import numpy as np
  key = (size, power)
  if key not in _PIPELINE_INPUT:
    one = pld.from_gaussian_mechanism(1.0, sampling_prob=0.01, value_discretization_interval=STEP)
    probs = np.asarray(one._pmf_remove._probs, dtype=float)  # pylint: disable=protected-access
    signal = np.zeros(size)
    signal[:min(size, len(probs))] = probs[:size]
    _PIPELINE_INPUT[key] = signal
  signal = _PIPELINE_INPUT[key]
  start = time.perf_counter()
  np.fft.irfft(np.fft.rfft(signal) ** power, size)
  return time.perf_counter() - start


WORKLOADS = {
    'random_allocation': random_allocation,
    'dpsgd': dpsgd,
    'laplace': laplace,
    'gaussians': gaussians,
    'group_dpsgd': group_dpsgd,
    **{f'truncated_poisson_{cap}': (lambda cap=cap: truncated_poisson(cap)) for cap in (384, 307, 281)},
}

for line in sys.stdin:
  key = line.strip()
  if not key:
    continue
  if key.startswith('numpy_pipeline '):
    # "numpy_pipeline <size> <power>": times only the pipeline (its input is built once, untimed).
    _, size, power = key.split()
    seconds = numpy_pipeline(int(size), int(power))
    print(json.dumps({'key': key, 'epsilon': None, 'seconds': seconds}), flush=True)
    continue
  start = time.perf_counter()
  epsilon = WORKLOADS[key]()
  print(json.dumps({'key': key, 'epsilon': epsilon, 'seconds': time.perf_counter() - start}), flush=True)
