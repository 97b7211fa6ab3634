#include "dpcalc/closed_form/analytic_gaussian.hpp"

#include <boost/math/special_functions/erf.hpp>
#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>

#include "dpcalc/log_math.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc {
namespace {

// With a = mu/2 − eps/mu and b = a − mu one has e^eps φ(b) = φ(a), so with z = −a = eps/mu − mu/2
// and the Mills ratio M(x) = Φ(−x)/φ(x):
//   delta(eps) = φ(z) · (M(z) − M(z + mu)).
// Working with log φ and log M keeps every term finite: no e^eps (overflows for eps > 709, i.e.
// mu around 38) and no Φ tail below the double range (delta down to 1e-300 and less).
//
// Every quantity below is a logarithm carried with a bound on its absolute rounding error, so the
// inverse can test "delta(eps) <= target" pessimistically and return an eps that is sound.

constexpr double kRoundoff = DBL_EPSILON;
// The inverse stops once its bracket is this tight (relative) and returns the feasible end.
constexpr double kBracketTolerance = 1e-13;
constexpr double kSqrtHalf = 0.70710678118654752440;

// The continued fraction of the Mills ratio converges to double precision within these terms for
// x >= kContinuedFractionFrom; below that, erfc has no cancellation problem and is much cheaper
// than 160 divisions.
constexpr double kContinuedFractionFrom = 12;
constexpr int kContinuedFractionTerms = 160;

struct LogBound {
  double value;  // log of the quantity
  double error;  // bound on |computed value − exact value|
};

// log M(x) and log I(x), where I(x) = 1 − x M(x) = −M'(x) = ∫_0^∞ s e^{−xs − s²/2} ds > 0.
struct MillsLogs {
  LogBound ratio;
  LogBound slope;
};

MillsLogs mills_logs(double x) {
  if (x >= kContinuedFractionFrom) {
    // M(x) = 1/(x + t1), t_n = n/(x + t_{n+1}), evaluated backwards (stable: all terms positive).
    // Then I(x) = 1 − x/(x + t1) = t1 M(x): no cancellation for large x, where I(x) ≈ 1/x².
    double tail = 0;
    for (int n = kContinuedFractionTerms; n >= 1; --n) tail = n / (x + tail);
    const double log_ratio = -std::log(x + tail);
    const double error = 16 * kRoundoff;
    return MillsLogs{{log_ratio, error}, {std::log(tail) + log_ratio, 2 * error}};
  }
  // Φ(−x) = erfc(x/√2)/2 in [1e-33, 1]: Boost's erfc is accurate to a few ulps here; the x²/2 term
  // carries a rounding error proportional to its size.
  const double log_tail = std::log(0.5 * boost::math::erfc(x * kSqrtHalf));
  const double log_ratio = log_tail + 0.5 * x * x + kLogSqrtTwoPi;
  const double ratio_error = 4 * kRoundoff * (4 + x * x);
  if (x <= 0) {
    // I(x) = 1 + |x| M(x): a sum of positive terms.
    const double log_slope = log_add_exp(0, std::log(-x) + log_ratio);
    return MillsLogs{{log_ratio, ratio_error}, {log_slope, ratio_error + 4 * kRoundoff}};
  }
  // 0 < x < 12: 1 − x M(x) cancels by a factor x M(x)/I(x) < 144, which slope_error carries.
  const double x_ratio = x * std::exp(log_ratio);
  const double slope = 1 - x_ratio;
  const double slope_error = (x_ratio * (ratio_error + 4 * kRoundoff) + kRoundoff) / slope;
  return MillsLogs{{log_ratio, ratio_error}, {std::log(slope), slope_error}};
}

// Bounds on |d log M/dx| = I(x)/M(x) = 1/M(x) − x (below 0.8 for x >= 0, below |x| + 0.8 for x < 0)
// and on |d log I/dx| = |M(x)/I(x) − x| (1.26 at 0, about 2/x for large x, about |x| for x << 0).
double mills_log_slope(double x) { return x >= 0 ? 1 : 1 - x; }
double slope_log_slope(double x) { return x >= 0 ? 3 : 3 - x; }

// log delta(eps): an estimate and a range [low, high] certainly holding the exact value.
struct GaussianLogDelta {
  double estimate, low, high;
};

// log delta(eps) from two evaluations, each end the tighter (pessimistically) of them:
//  - the exact difference log(M(z) − M(z + mu)), which cancels when mu is small;
//  - the bounds mu I(z + mu) <= M(z) − M(z + mu) = ∫_z^{z+mu} I <= mu I(z) (I is decreasing),
//    whose gap is a relative O(mu (|z| + 1)): tight exactly where the difference cancels. Only the
//    upper one may serve the upper end, the lower one the lower end (mu I(z) alone put the lower
//    ends above the exact value by 3e-9 relatively at mu = 1e-5).
// NaN (mu or eps so large that z² overflows) is reported as delta in [0, 1], which is always sound.
GaussianLogDelta log_gaussian_delta(double mu, double epsilon) {
  const double half_mu = mu / 2;
  // z = (eps − mu²/2)/mu with the difference rounded once (fma): for large mu, eps and mu²/2 are
  // both huge and z is their small difference.
  const double z = std::fma(-half_mu, mu, epsilon) / mu;
  const double z_plus_mu = z + mu;
  // Rounding of z and z + mu; the slopes below turn them into errors of the logs. The denormal
  // term covers an fma result that lands among the subnormals.
  const double z_shift = 2 * kRoundoff * std::fabs(z) + std::numeric_limits<double>::denorm_min() / mu;
  const double z_plus_mu_shift = z_shift + kRoundoff * std::fabs(z_plus_mu);
  const double log_density = -0.5 * z * z - kLogSqrtTwoPi;
  const double density_error = kRoundoff * (z * z + 2) + std::fabs(z) * z_shift;

  const MillsLogs at_z = mills_logs(z);
  const MillsLogs at_z_plus_mu = mills_logs(z_plus_mu);

  const double first_error = at_z.ratio.error + mills_log_slope(z) * z_shift;
  const double second_error = at_z_plus_mu.ratio.error + mills_log_slope(z_plus_mu) * z_plus_mu_shift;
  // log(e^A − e^B) = A + log(1 − e^{B−A}) moves by at most (eA + eB)/(1 − e^{B−A}) to first
  // order; when that is not small the difference is unusable.
  const double gap = -std::expm1(at_z_plus_mu.ratio.value - at_z.ratio.value);
  const double difference_error =
      gap > 4 * (first_error + second_error) ? (first_error + second_error) / gap + kRoundoff : kInfinity;
  const LogBound difference{log_sub_exp(at_z.ratio.value, at_z_plus_mu.ratio.value), difference_error};

  const double log_mu = std::log(mu);
  const LogBound slope_above{log_mu + at_z.slope.value,
                             at_z.slope.error + slope_log_slope(z) * z_shift + 2 * kRoundoff};
  const LogBound slope_below{log_mu + at_z_plus_mu.slope.value,
                             at_z_plus_mu.slope.error + slope_log_slope(z_plus_mu) * z_plus_mu_shift + 2 * kRoundoff};

  // An unusable difference (infinite error, its log perhaps −inf) bounds nothing on either side.
  const bool usable = difference.error < kInfinity;
  const double difference_high = usable ? difference.value + difference.error : kInfinity;
  const double difference_low = usable ? difference.value - difference.error : -kInfinity;
  const double high = std::min(difference_high, slope_above.value + slope_above.error);
  const double low = std::max(difference_low, slope_below.value - slope_below.error);
  const bool difference_is_better = difference_high <= slope_above.value + slope_above.error;
  const double estimate = difference_is_better ? difference.value : slope_above.value;
  return GaussianLogDelta{log_density + estimate, log_density - density_error + low,
                          log_density + density_error + high};
}

bool gaussian_delta_unusable(const GaussianLogDelta& log_delta) {
  return std::isnan(log_delta.estimate) || std::isnan(log_delta.low) || std::isnan(log_delta.high);
}

// log delta(eps) for the search's Newton slope: NaN, or a value that cannot be below 1, as 1.
double newton_log_delta(const GaussianLogDelta& log_delta) {
  return gaussian_delta_unusable(log_delta) || log_delta.high > 0 ? 0 : log_delta.estimate;
}

// Which end of the root eps* (delta(eps*) = target) a search returns: an eps certainly >= eps*
// (its delta, every rounding error against it, meets the target: an upper bound), or one certainly
// < eps* (its delta, every rounding error for it, still exceeds the target: a lower bound).
enum class Side { kUpper, kLower };

// Whether log delta(eps) is classified as meeting the target log_aim (the target moved by its own
// rounding, down for the upper end, up for the lower end), pessimistically for the side asked: for
// the upper end only when it certainly meets it (NaN does not); for the lower end unless it
// certainly does not (NaN does).
bool classified_feasible(const GaussianLogDelta& log_delta, double log_aim, Side side) {
  if (side == Side::kUpper) return log_delta.high <= log_aim;
  return !(log_delta.low > log_aim);
}

// The root of delta(eps) = delta, bracketed; returns the end for `side`.
double epsilon_search(double mu, double delta, Side side) {
  const double log_requested = std::log(delta);
  // Newton aims at the target lowered (upper end) or raised (lower end) by its own rounding.
  const double log_rounding = 2 * kRoundoff * std::fabs(log_requested);
  const double log_aim = side == Side::kUpper ? log_requested - log_rounding : log_requested + log_rounding;
  const auto feasible_at = [&](double epsilon) {
    return classified_feasible(log_gaussian_delta(mu, epsilon), log_aim, side);
  };
  // delta(eps) decreases in eps: steps 1, 2, 4, ... from 0 bracket the root, with hi feasible.
  const std::optional<Boundary> bracket = step_until_met(feasible_at, 0, DBL_MAX, 1);
  // mu²/2 beyond the double range (mu > 1.9e154): no finite eps.
  if (!bracket) return side == Side::kUpper ? kInfinity : DBL_MAX;
  if (bracket->meeting == 0) return 0;
  double lo = bracket->failing;
  double hi = bracket->meeting;
  // Safeguarded Newton on log delta(eps). Its slope is −e^eps Φ(−mu/2 − eps/mu)/delta(eps)
  // = −φ(z) M(z + mu)/delta(eps) (the derivative of the hockey-stick divergence); a step that
  // leaves the bracket bisects instead. Points are classified pessimistically for the side asked, so
  // the end returned (hi for the upper end, lo for the lower) is certainly on its side of the root.
  // Far from the root with large mu, z²/2 swamps the other terms of the slope and Newton crawls
  // (mu = 1e12 stopped 1.5% above the root after 200 steps): as in rtsafe (Press et al.,
  // Numerical Recipes §9.4), a Newton step longer than half the step before last bisects instead.
  // Not solve_boundary (TOMS 748) on the same classification: over mu in [1e-3, 1e12] and delta in
  // [1e-15, 0.3] (3660 solves) it took as long and returned ε up to 6e-13 relatively looser, as this
  // Newton aims a hair past the root and so closes its bracket nearer to it.
  double epsilon = lo + (hi - lo) / 2;
  double step_before_last = hi - lo;
  double last_step = hi - lo;
  for (int i = 0; i < 200 && hi - lo > kBracketTolerance * hi; ++i) {
    const GaussianLogDelta raw = log_gaussian_delta(mu, epsilon);
    const bool feasible = classified_feasible(raw, log_aim, side);
    const double log_delta = newton_log_delta(raw);
    (feasible ? hi : lo) = epsilon;
    const double z = std::fma(-mu / 2, mu, epsilon) / mu;
    const double log_slope = -0.5 * z * z - kLogSqrtTwoPi + mills_logs(z + mu).ratio.value - log_delta;
    // Newton converges to the root from one side and would never close the bracket; aiming a hair
    // past the root puts the next point on the other side.
    const double overshoot = (feasible ? -0.25 : 0.25) * kBracketTolerance * hi;
    const double newton = epsilon + (log_delta - log_aim) / std::exp(log_slope) + overshoot;
    const bool converging = std::fabs(newton - epsilon) <= step_before_last / 2;
    const double next = converging && newton > lo && newton < hi && std::isfinite(newton) ? newton : lo + (hi - lo) / 2;
    step_before_last = last_step;
    last_step = std::fabs(next - epsilon);
    epsilon = next;
  }
  return side == Side::kUpper ? hi : lo;
}

}  // namespace

double gaussian_delta_for_epsilon(double mu, double epsilon) {
  const GaussianLogDelta log_delta = log_gaussian_delta(mu, epsilon);
  if (gaussian_delta_unusable(log_delta)) return 1;
  return std::fmin(1.0, std::exp(log_delta.high));
}

double gaussian_delta_lower_for_epsilon(double mu, double epsilon) {
  const GaussianLogDelta log_delta = log_gaussian_delta(mu, epsilon);
  if (gaussian_delta_unusable(log_delta)) return 0;  // nothing is certain
  return std::fmin(1.0, std::exp(log_delta.low));
}

double gaussian_epsilon_for_delta(double mu, double delta) { return epsilon_search(mu, delta, Side::kUpper); }

double gaussian_epsilon_lower_for_delta(double mu, double delta) { return epsilon_search(mu, delta, Side::kLower); }

}  // namespace dpcalc
