"""dp_accounting 0.6.0 (google/differential-privacy, python/dp_accounting) values for the discrete
mechanisms' tests (tests/core/mechanisms/*_test.cpp):
 * PldAccountant(REPLACE_ONE) epsilon of n randomized-response events, composed one at a time: its
   compose(RandomizedResponseDpEvent, n) composes the event once whatever n (0.6.0 does not
   self-compose it; the first line printed shows it);
 * PldAccountant(ADD_OR_REMOVE_ONE) epsilon of n discrete-Laplace events (noise_parameter a = 1/scale)
   and of n permute-and-flip events (its Laplace pair of parameter 1/eps);
 * RdpAccountant(REPLACE_SPECIAL) epsilon of count single-epoch tree-aggregation events.
Default discretisation (1e-4) of the PLD accountant. Run:
  PYTHONPATH=/work/ref/dp/python/dp_accounting /usr/bin/python3 tests/reference/dp_accounting_discrete.py
"""
import dp_accounting
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant as pld
from dp_accounting.rdp import rdp_privacy_accountant as rdp

Rel = dp_accounting.NeighboringRelation


def pld_eps(event, n, delta, relation):
  accountant = pld.PLDAccountant(neighboring_relation=relation)
  accountant.compose(event, n)
  return accountant.get_epsilon(delta)


def pld_eps_one_at_a_time(event, n, delta, relation):
  accountant = pld.PLDAccountant(neighboring_relation=relation)
  for _ in range(n):
    accountant.compose(event)
  return accountant.get_epsilon(delta)


print('randomized_response p=0.5 k=2 count=365 in one compose call (count ignored): %.17g' %
      pld_eps(dp_event.RandomizedResponseDpEvent(0.5, 2), 365, 1e-5, Rel.REPLACE_ONE))
for p, k, n, delta in ((0.5, 2, 365, 1e-5), (0.2, 4, 10, 1e-6), (0.5, 10, 100, 1e-5)):
  print('randomized_response p=%g k=%d n=%d delta=%g: %.17g' %
        (p, k, n, delta, pld_eps_one_at_a_time(dp_event.RandomizedResponseDpEvent(p, k), n, delta, Rel.REPLACE_ONE)))
for b, D, n, delta in ((1, 1, 10, 1e-6), (2, 3, 20, 1e-5), (5, 1, 100, 1e-5)):
  print('discrete_laplace b=%g D=%d n=%d delta=%g: %.17g' %
        (b, D, n, delta, pld_eps(dp_event.DiscreteLaplaceDpEvent(1 / b, D), n, delta, Rel.ADD_OR_REMOVE_ONE)))
for eps, n, delta in ((0.5, 20, 1e-5), (1, 5, 1e-6)):
  print('permute_and_flip eps=%g n=%d delta=%g: %.17g' %
        (eps, n, delta, pld_eps(dp_event.PermuteAndFlipDpEvent(eps), n, delta, Rel.ADD_OR_REMOVE_ONE)))
for nm, steps, count, delta in ((1.0, 1000, 1, 1e-5), (2.0, 100, 5, 1e-6), (5.0, 1, 1, 1e-5)):
  accountant = rdp.RdpAccountant(neighboring_relation=Rel.REPLACE_SPECIAL)
  accountant.compose(dp_event.SingleEpochTreeAggregationDpEvent(nm, steps), count)
  print('tree_aggregation nm=%g steps=%d count=%d delta=%g: %.17g' % (nm, steps, count, delta,
                                                                      accountant.get_epsilon(delta)))
