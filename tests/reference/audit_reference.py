"""Reference values for tests/core/audit/ (mpmath, 40 significant digits unless said otherwise).

Each section prints the values one test uses (docs/audit.md states the formulas):

1. Exact one-sided Clopper-Pearson bounds (Clopper, Pearson 1934): lower(k) solves
   Pr_p[X >= k] = a and upper(k) solves Pr_p[X <= k] = a for X ~ Binomial(n, p). The tails are the
   regularized incomplete beta function, evaluated by quadrature of the beta density in log space
   (mpmath's hypergeometric series does not converge for n ~ 1e6 and beyond); the quadrature is
   checked against mpmath.betainc where that converges. Roots by mpmath.findroot from scipy's
   beta quantile.
2. Counts audits (Jagielski, Ullman, Oprea 2020; Nasr et al. 2021; Nasr et al. 2023): TPR_lo,
   FPR_hi at alpha/2 each, TNR_lo = 1 - FPR_hi, FNR_hi = 1 - TPR_lo, eps = max(ln((TPR_lo -
   delta)/FPR_hi), ln((TNR_lo - delta)/FNR_hi), 0), mu = Phi^-1(TPR_lo) - Phi^-1(FPR_hi).
3. One-run audits (Steinke, Nasr, Jagielski 2023): the p-value
   f(v) + 2 m delta max_i (f(v - i) - f(v))/i, f(u) = Pr[Binomial(r, q) >= u], q = e^eps/(1 + e^eps),
   by exact sums, and the largest eps with p-value <= alpha by 200 bisection steps; p(eps) is checked
   to increase along a grid of 400 eps values in [0, eps*].
4. A scores audit on a small fixed data set: every distinct score tried as a threshold ("member" if
   score >= t), Clopper-Pearson bounds at alpha/(2P) (members) and alpha/(2N) (non-members), the
   threshold with the largest eps and the one with the largest mu.
5. Claim curves: min(1, e^eps FPR + delta, 1 - e^-eps (1 - delta - FPR)) and Phi(Phi^-1(FPR) + mu).

Run: /usr/bin/python3 tests/reference/audit_reference.py [section numbers, default all] (about 11 minutes of
wall time on a shared 2-core machine, 6.5 of CPU; section 1 takes most of it)
"""
import mpmath as mp
import warnings

import scipy.stats

warnings.filterwarnings('ignore', category=RuntimeWarning)  # scipy's quantile where it gives up

mp.mp.dps = 40


# --- binomial tails -------------------------------------------------------------------------------

def log_beta_density(a, b, t):
  return ((a - 1) * mp.log(t) + (b - 1) * mp.log1p(-t) -
          (mp.loggamma(a) + mp.loggamma(b) - mp.loggamma(a + b)))


def beta_tail(a, b, x, lower):
  """I_x(a, b) (lower) or 1 - I_x(a, b) (upper), for x on the far side of the density's mode."""
  a, b, x = mp.mpf(a), mp.mpf(b), mp.mpf(x)
  sd = mp.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
  slope = (a - 1) / x - (b - 1) / (1 - x)
  scale = min(sd, 1 / abs(slope)) if slope != 0 else sd
  density = lambda t: mp.exp(log_beta_density(a, b, t))
  steps = (100, 50, 25, 12, 6, 3, 1.5, 0.75, 0.3)
  if lower:
    start = max(mp.mpf(0), x - 200 * scale)
    points = [start] + [x - scale * s for s in steps if x - scale * s > start] + [x]
  else:
    end = min(mp.mpf(1), x + 200 * scale)
    points = [x] + [x + scale * s for s in reversed(steps) if x + scale * s < end] + [end]
    points = sorted(set(points))
  return mp.quad(density, points)


def upper_tail(k, n, p):  # Pr_p[X >= k] = I_p(k, n - k + 1)
  return beta_tail(k, n - k + 1, p, True)


def lower_tail(k, n, p):  # Pr_p[X <= k] = 1 - I_p(k + 1, n - k)
  return beta_tail(k + 1, n - k, p, False)


def refine_from_scipy(g, start, n):
  """The root of an increasing g from scipy's quantile: a small bracket around it, then the Illinois
  method; None when g does not confirm the bracket (scipy's quantile is wrong below significances of
  about 1e-200)."""
  if not 0 < start < 1:
    return None
  start = mp.mpf(start)
  width = min(start * mp.mpf(10) ** -6, mp.sqrt(start * (1 - start) / n) * mp.mpf(10) ** -3)
  below, above = start - width, start + width
  if not (0 < below and above < 1 and g(below) < 0 < g(above)):
    return None
  try:
    return mp.findroot(g, (below, above), solver='illinois', tol=mp.mpf(10) ** -36)
  except ValueError:  # no convergence to the tolerance (a root near the underflow of doubles)
    return None


def bisect_log(g, low, high):
  """The root of an increasing g(x) between low and high > 0 by 400 bisection steps in ln x."""
  log_low, log_high = mp.log(low), mp.log(high)
  for _ in range(400):
    middle = (log_low + log_high) / 2
    if g(mp.exp(middle)) < 0:
      log_low = middle
    else:
      log_high = middle
  return mp.exp((log_low + log_high) / 2)


def cp_lower(k, n, a):
  """lower(k) = 1 - upper(n - k) for the failures (an identity), used above n/2 for precision.
  Pr_p[X >= k] <= C(n, k) p^k brackets the root from below."""
  if k == 0:
    return mp.mpf(0)
  if 2 * k > n:
    return 1 - cp_upper(n - k, n, a)
  g = lambda p: mp.log(upper_tail(k, n, p)) - mp.log(a)
  root = refine_from_scipy(g, scipy.stats.beta.ppf(float(a), k, n - k + 1), n)
  if root is None:
    root = bisect_log(g, (mp.mpf(a) / mp.binomial(n, k)) ** (mp.mpf(1) / k), mp.mpf(k) / n)
  return root


def cp_upper(k, n, a):
  """Pr_p[X <= k] <= C(n, k) (1 - p)^(n - k) brackets 1 - p from below; where scipy fails, 1 - p is
  bisected at 130 digits (it may be 1e-80)."""
  if k == n:
    return mp.mpf(1)
  if k == 0:
    return 1 - mp.mpf(a) ** (mp.mpf(1) / n)
  if 2 * k > n:
    return 1 - cp_lower(n - k, n, a)
  root = refine_from_scipy(lambda p: mp.log(a) - mp.log(lower_tail(k, n, p)),
                           scipy.stats.beta.ppf(1 - float(a), k + 1, n - k), n)
  if root is not None:
    return root
  with mp.workdps(130):
    g = lambda q: mp.log(lower_tail(k, n, 1 - q)) - mp.log(a)  # increasing in q = 1 - p
    q = bisect_log(g, (mp.mpf(a) / mp.binomial(n, k)) ** (mp.mpf(1) / (n - k)), 1 - mp.mpf(k) / n)
    return 1 - q


def check_quadrature():
  for (k, n, p) in [(900, 1000, '0.8797'), (10, 1000, '0.0183'), (3, 40, '0.2')]:
    exact = mp.betainc(k, n - k + 1, 0, mp.mpf(p), regularized=True)
    assert abs(upper_tail(k, n, mp.mpf(p)) / exact - 1) < mp.mpf(10) ** -30
    exact = mp.betainc(k + 1, n - k, mp.mpf(p), 1, regularized=True)
    assert abs(lower_tail(k, n, mp.mpf(p)) / exact - 1) < mp.mpf(10) ** -30


# --- section 1 -----------------------------------------------------------------------------------

CP_CASES = [
    (900, 1000, '0.025'), (10, 1000, '0.025'), (100, 1000, '0.025'), (990, 1000, '0.025'),
    (1, 1000, '0.025'), (999, 1000, '0.025'), (0, 1000, '0.025'), (1000, 1000, '0.025'),
    (3, 7, '1e-9'), (17, 40, '0.5'), (1, 1, '0.05'), (0, 1, '0.05'),
    (500000, 1000000, '2.5e-8'), (20, 1000000, '2.5e-8'),
    (1, 2 ** 53, '0.025'), (10, 2 ** 53, '0.025'), (10 ** 6, 2 ** 53, '0.025'),
    (2 ** 52, 2 ** 53, '0.025'), (2 ** 53 - 10, 2 ** 53, '0.025'),
    (3 * 10 ** 7, 10 ** 9, '0.025'), (123456789, 10 ** 12, '1e-6'),
    (3, 7, '1e-300'), (500, 1000, '1e-300'), (1, 10 ** 6, '1e-300'), (40, 100, '1e-30'),
    # Lower bounds far below k/n > 1/2 (few trials, tiny significances), computed on their own side.
    (1, 1, '1e-12'), (3, 3, '1e-12'), (2, 3, '1e-12'), (1500, 2000, '1e-300'),
]


def section_1():
  print('# 1. Clopper-Pearson (k, n, a, lower, upper)')
  for (k, n, a) in CP_CASES:
    a = mp.mpf(a)
    print('{%d, %d, %s, %s, %s},' % (k, n, mp.nstr(a, 17), mp.nstr(cp_lower(k, n, a), 20),
                                      mp.nstr(cp_upper(k, n, a), 20)))


# --- section 2 -----------------------------------------------------------------------------------

def phi_inverse(p):
  return mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1)


def counts_audit(tp, positives, fp, negatives, confidence, delta, member_a=None, nonmember_a=None):
  alpha = 1 - mp.mpf(confidence)
  member_a = alpha / 2 if member_a is None else member_a
  nonmember_a = alpha / 2 if nonmember_a is None else nonmember_a
  delta = mp.mpf(delta)
  tpr = cp_lower(tp, positives, member_a)
  fpr = cp_upper(fp, negatives, nonmember_a)
  tnr, fnr = 1 - fpr, 1 - tpr
  direct = mp.log((tpr - delta) / fpr) if tpr > delta else mp.mpf(0)
  complementary = mp.log((tnr - delta) / fnr) if tnr > delta else mp.mpf(0)
  direct, complementary = max(direct, 0), max(complementary, 0)
  mu = max(phi_inverse(tpr) - phi_inverse(fpr), 0) if tpr > 0 and fpr < 1 else mp.mpf(0)
  return tpr, fpr, tnr, fnr, direct, complementary, mu


COUNTS_CASES = [
    (900, 1000, 10, 1000, '0.95', '0'),
    (900, 1000, 10, 1000, '0.95', '1e-5'),
    (900, 1000, 10, 1000, '0.99', '0'),
    (995, 1000, 300, 1000, '0.95', '0'),  # few members missed, many non-members flagged: complementary
    (995, 1000, 0, 1000, '0.95', '0'),
    (5, 10, 5, 10, '0.95', '0'),          # no evidence
    (1, 1, 0, 1, '0.5', '0'),
]


def section_2():
  print('# 2. Counts (tp, P, fp, N, confidence, delta, tpr_lo, fpr_hi, tnr_lo, fnr_hi, eps_direct, '
        'eps_complementary, mu)')
  for case in COUNTS_CASES:
    values = counts_audit(*case)
    print('{%s, %s},' % (', '.join(str(x) for x in case), ', '.join(mp.nstr(v, 20) for v in values)))


# --- section 3 -----------------------------------------------------------------------------------

def one_run_p_value(m, r, v, eps, delta):
  """f(v) + 2 m delta max_i (f(v - i) - f(v))/i with exact terms; the window scan stops when the
  terms (decreasing below the mode) drop under the best average, after which no average can rise."""
  if v == 0:
    return mp.mpf(1)
  q = mp.exp(eps) / (1 + mp.exp(eps))
  log_q, log_1q = mp.log(q), mp.log(1 - q)

  def pmf(j):
    return mp.exp(mp.loggamma(r + 1) - mp.loggamma(j + 1) - mp.loggamma(r - j + 1) + j * log_q +
                  (r - j) * log_1q)

  # f(v): terms from v upward until negligible (they decrease once j > rq).
  tail, term, j = mp.mpf(0), pmf(v), v
  while True:
    tail += term
    if j == r or (j > r * q and term < tail * mp.mpf(10) ** -45):
      break
    term *= mp.mpf(r - j) / (j + 1) * q / (1 - q)
    j += 1
  if delta == 0:
    return min(tail, 1)
  best, window, term = mp.mpf(0), mp.mpf(0), pmf(v - 1)
  for i in range(1, v + 1):
    j = v - i
    window += term
    best = max(best, window / i)
    if j == 0:
      break
    ratio = mp.mpf(j) / (r - j + 1) * (1 - q) / q
    term *= ratio
    if ratio < 1 and term <= best:
      break
  return min(tail + 2 * m * mp.mpf(delta) * best, 1)


def one_run_epsilon(m, r, v, delta, alpha):
  alpha = mp.mpf(alpha)
  if one_run_p_value(m, r, v, 0, delta) > alpha:
    return mp.mpf(0)
  low, high = mp.mpf(0), mp.mpf(1)
  while one_run_p_value(m, r, v, high, delta) <= alpha:
    low, high = high, 2 * high
  for _ in range(200):
    middle = (low + high) / 2
    if one_run_p_value(m, r, v, middle, delta) <= alpha:
      low = middle
    else:
      high = middle
  return low


ONE_RUN_CASES = [
    (1000, 100, 100, 0), (1000, 100, 100, 1e-5), (1000, 100, 75, 1e-4), (100000, 1510, 1439, 1e-5),
    (1000, 1000, 700, 1e-5), (10 ** 6, 10 ** 5, 70000, 1e-6), (1000, 100, 60, 0), (50, 10, 3, 0),
]


def section_3():
  mp.mp.dps = 30
  print('# 3. One run (m, r, v, delta, eps at alpha = 0.05; p-value increasing on the grid)')
  for (m, r, v, delta) in ONE_RUN_CASES:
    eps = one_run_epsilon(m, r, v, delta, '0.05')
    grid = [eps * i / 400 for i in range(401)]
    values = [one_run_p_value(m, r, v, e, delta) for e in grid[::20]]
    increasing = all(a <= b for a, b in zip(values, values[1:]))
    print('{%d, %d, %d, %r, %s},  // increasing: %s' % (m, r, v, delta, mp.nstr(eps, 17), increasing))
  mp.mp.dps = 40


# --- section 4 -----------------------------------------------------------------------------------

MEMBER_SCORES = [(i * 7) % 23 + 5 for i in range(40)]
NONMEMBER_SCORES = [(i * 5) % 19 for i in range(60)]


def section_4():
  mp.mp.dps = 30
  alpha = 1 - mp.mpf('0.95')
  positives, negatives = len(MEMBER_SCORES), len(NONMEMBER_SCORES)
  member_a, nonmember_a = alpha / (2 * positives), alpha / (2 * negatives)
  best_eps = best_mu = None
  for t in sorted(set(MEMBER_SCORES + NONMEMBER_SCORES), reverse=True):
    tp = sum(1 for s in MEMBER_SCORES if s >= t)
    fp = sum(1 for s in NONMEMBER_SCORES if s >= t)
    values = counts_audit(tp, positives, fp, negatives, '0.95', 0, member_a, nonmember_a)
    eps, mu = max(values[4], values[5]), values[6]
    if best_eps is None or eps > best_eps[0]:
      best_eps = (eps, t, tp, fp, values)
    if best_mu is None or mu > best_mu[0]:
      best_mu = (mu, t, tp, fp, values)
  print('# 4. Scores: member_a %s nonmember_a %s' % (mp.nstr(member_a, 17), mp.nstr(nonmember_a, 17)))
  for name, best in (('epsilon', best_eps), ('mu', best_mu)):
    _, t, tp, fp, values = best
    print('best %s: threshold %s tp %d fp %d tpr_lo %s fpr_hi %s eps %s mu %s' %
          (name, t, tp, fp, mp.nstr(values[0], 20), mp.nstr(values[1], 20), mp.nstr(max(values[4], values[5]), 20),
           mp.nstr(values[6], 20)))
  mp.mp.dps = 40


# --- section 5 -----------------------------------------------------------------------------------

def section_5():
  print('# 5. Claim curves')
  for (eps, delta, fpr) in [(3, '1e-5', '0.0183'), (4, '1e-5', '0.0183'), (0.5, 0, '0.3'), (1, '0.1', '0.95')]:
    eps, delta, fpr = mp.mpf(eps), mp.mpf(delta), mp.mpf(fpr)
    value = min(1, mp.exp(eps) * fpr + delta, 1 - mp.exp(-eps) * (1 - delta - fpr))
    print('approx dp eps %s delta %s fpr %s: %s' % (eps, delta, fpr, mp.nstr(value, 20)))
  for (mu, fpr) in [(1, '0.01'), (3.2634519271580977, '0.01831324305511306'), (0.5, '1e-9'), (2, '0.9')]:
    mu, fpr = mp.mpf(mu), mp.mpf(fpr)
    print('gdp mu %s fpr %s: %s' % (mu, fpr, mp.nstr(mp.ncdf(phi_inverse(fpr) + mu), 20)))


if __name__ == '__main__':
  import sys
  check_quadrature()
  chosen = sys.argv[1:] or ['1', '2', '3', '4', '5']
  for number, section in (('1', section_1), ('2', section_2), ('3', section_3), ('4', section_4), ('5', section_5)):
    if number in chosen:
      section()
