"""Reference answers of the Group privacy section's "largest group for a target" question
(tests/browser/group-solve.test.mjs), with mpmath at 50 digits.

- An (eps, delta)-DP record: a group of k is (k eps, delta (e^{k eps} - 1) / (e^eps - 1))-DP
  (the group privacy of Dwork, Roth 2014, Thm 2.2, with the delta of Vadhan 2017, Lemma 2.2's sum
  delta sum_{i<k} e^{i eps}).
- Laplace noise of scale b, sensitivity D: a group of k changes the query by k D, so it is
  (k D / b)-DP (Dwork, McSherry, Nissim, Smith 2006).
- Gaussian noise sigma, sensitivity D: a group of k is the Gaussian mechanism with sensitivity k D,
  whose exact delta at eps is Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = k D / sigma
  (Balle, Wang 2018, Thm 8).
The largest group is the largest k whose (eps, delta) stays within the target.

Run: /usr/bin/python3 tests/reference/group_solve_reference.py
"""
import mpmath as mp

mp.mp.dps = 50


def largest(fits):
  k = 1
  while fits(k + 1):
    k += 1
  return k


def approx_fits(eps, delta, eps_t, delta_t):
  eps = mp.mpf(eps)
  return lambda k: k * eps <= eps_t and delta * mp.expm1(k * eps) / mp.expm1(eps) <= delta_t


def gaussian_delta(mu, eps):
  return mp.ncdf(-eps / mu + mu / 2) - mp.exp(eps) * mp.ncdf(-eps / mu - mu / 2)


eps_t, delta_t = 10, mp.mpf('1e-4')
print('(0.5, 1e-6) per record:', largest(approx_fits(0.5, mp.mpf('1e-6'), eps_t, delta_t)))
print('Laplace b = 2, D = 1:', largest(lambda k: k * mp.mpf(1) / 2 <= eps_t))
k = largest(lambda k: gaussian_delta(mp.mpf(k) / 2, eps_t) <= delta_t)
print('Gaussian sigma = 2, D = 1:', k, 'delta at k:', mp.nstr(gaussian_delta(mp.mpf(k) / 2, eps_t), 6),
      'at k + 1:', mp.nstr(gaussian_delta(mp.mpf(k + 1) / 2, eps_t), 6))
