"""Cross-check of tests/reference/group_subsampled_laplace_reference.py against the code of
Schuchardt, Stoian, Kosmala, Günnemann 2024 (jan-schuchardt/group_amplification, run from source):
its quadrature of the hockey-stick divergence of a Poisson-subsampled Laplace mechanism for a group
(`adp_tight_group` with eval_method 'quadrature', Δ = 1), in both directions (k deletions: remove;
k insertions: add), and ε at δ = 1e-5 by bisection on the larger. Numbers only: its package imports
dp_accounting for its PLD classes, which this quadrature does not use, so that module is stubbed.

Run: PYTHONPATH=<checkout of jan-schuchardt/group_amplification> /usr/bin/python3 \
       tests/reference/schuchardt_laplace_group.py
"""
import json
import sys
import types

stub = types.ModuleType('group_amplification.privacy_analysis.composition.pld.accounting')
stub.DoubleMixtureGaussianPrivacyLoss = stub.DoubleMixtureLaplacePrivacyLoss = None
sys.modules[stub.__name__] = stub

from group_amplification.privacy_analysis.base_mechanisms import LaplaceMechanism  # noqa: E402
from group_amplification.privacy_analysis.subsampling.adp.poisson import adp_tight_group  # noqa: E402

PARAMS = {'dps': 30, 'subdivide': True}


def delta(eps, k, rate, scale):
  mechanism = LaplaceMechanism(scale)
  remove = adp_tight_group(eps, mechanism, rate, 0, k, 'quadrature', PARAMS)
  add = adp_tight_group(eps, mechanism, rate, k, 0, 'quadrature', PARAMS)
  return max(remove, add)


def epsilon(k, rate, scale, target=1e-5, steps=45):
  low, high = 0.0, k / scale
  for _ in range(steps):
    middle = (low + high) / 2
    low, high = (middle, high) if delta(middle, k, rate, scale) > target else (low, middle)
  return high


for k, rate, scale in ((4, 0.01, 1.0), (8, 0.1, 2.0), (32, 0.02, 1.5), (3, 0.5, 1.0)):
  print(json.dumps({'k': k, 'rate': rate, 'scale': scale, 'delta': 1e-5, 'epsilon': epsilon(k, rate, scale)}),
        flush=True)
