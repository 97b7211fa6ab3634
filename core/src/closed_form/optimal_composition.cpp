#include "dpcalc/closed_form/optimal_composition.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc {

namespace {

// The bound of a pass that cannot bound its sum (the forward walk must).
constexpr double kNoBound = std::numeric_limits<double>::infinity();

constexpr double kLn2 = 0.693147180559945309417232121458;

// The walks below bound their own rounding (walk_error_factor); Loader's log-binomial that scales
// them is accurate to a few ulps at any k. Reporting every sum 1e-10 larger covers both with a wide
// margin, so every delta is an upper bound.
constexpr double kSumRoundUp = 1e-10;

// A walk ends once a geometric bound on everything left is below e^-30 (~1e-13) of its total; the
// bound is added, so the sum stays an upper bound, loosened by far less than kSumRoundUp.
constexpr double kNegligibleLogRatio = -30;

// ln(n!) − ln(sqrt(2 pi n) (n/e)^n) for integers n >= 1 (Loader 2000, "Fast and accurate
// computation of binomial probabilities": Stirling series for large n, direct below 16).
double stirling_error(double n) {
  if (n <= 15) return std::lgamma(n + 1) - (n + 0.5) * std::log(n) + n - kLogSqrtTwoPi;
  constexpr double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
  const double nn = n * n;
  if (n > 500) return (s0 - s1 / nn) / n;
  if (n > 80) return (s0 - (s1 - s2 / nn) / nn) / n;
  if (n > 35) return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
  return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

// The deviance series' terms shrink by v² < 0.01 each, so it stops (a term no longer changes the sum)
// within ten terms; this cap only guards the loop.
constexpr int kMaxDevianceTerms = 1000;

// x ln(x / mean) + mean − x, without the cancellation of the direct form when x is near the mean
// (Loader 2000): a series in v = (x − mean)/(x + mean).
double deviance(double x, double mean) {
  if (std::fabs(x - mean) < 0.1 * (x + mean)) {
    const double v = (x - mean) / (x + mean);
    const double v2 = v * v;
    double sum = (x - mean) * v;
    double power = 2 * x * v;
    for (int j = 1; j < kMaxDevianceTerms; ++j) {
      power *= v2;
      const double next = sum + power / (2 * j + 1);
      if (next == sum) break;
      sum = next;
    }
    return sum;
  }
  return x * std::log(x / mean) + mean - x;
}

// The k-fold composition of the binary randomized response with parameter eps0 (which dominates
// every (eps0, 0)-DP mechanism, KOV 2015 Thm 3.3). With p = e^{eps0}/(1 + e^{eps0}), q = 1 − p:
//   a_l = C(k,l) e^{(k−l) eps0} / (1 + e^{eps0})^k = Binomial(k, q) pmf at l
//   b_l = C(k,l) e^{l eps0} / (1 + e^{eps0})^k     = a_l e^{−(k−2l) eps0}
// The a_l are log-concave in l: a_{l−1}/a_l falls as l falls below the mode and a_{l+1}/a_l falls
// as l rises above it, which bounds every tail of a sum by a geometric series.
class RandomizedResponse {
 public:
  RandomizedResponse(double epsilon0, double count)
      : epsilon0_(epsilon0),
        count_(count),
        log_p_(-std::log1p(std::exp(-epsilon0))),
        log_q_(-epsilon0 - std::log1p(std::exp(-epsilon0))),
        q_(1 / (1 + std::exp(epsilon0))),
        p_(1 / (1 + std::exp(-epsilon0))),
        exp_epsilon0_(std::exp(epsilon0)),
        count_stirling_error_(stirling_error(count)) {}

  // ln a_l to a few ulps at any k (Loader 2000).
  double log_a(double l) const {
    if (l == 0) return count_ * log_p_;
    if (l == count_) return count_ * log_q_;
    const double rest = count_ - l;
    return count_stirling_error_ - stirling_error(l) - stirling_error(rest) - deviance(l, count_ * q_) -
           deviance(rest, count_ * p_) - kLogSqrtTwoPi + 0.5 * (std::log(count_) - std::log(l) - std::log(rest));
  }
  // a_{l−1}/a_l and a_{l+1}/a_l; each is 3 roundings and exp's (< 1 ulp) away from the exact ratio.
  double ratio_down(double l) const { return l / (count_ - l + 1) * exp_epsilon0_; }
  double ratio_up(double l) const { return (count_ - l) / (l + 1) / exp_epsilon0_; }
  // (k − 2l) eps0: the privacy loss of outcome l, and the breakpoints of delta(eps).
  double loss(double l) const { return (count_ - 2 * l) * epsilon0_; }
  // eps − loss(l) with a single rounding (2l − k is an exact integer), so its sign is exact and
  // 1 − e^{eps − loss(l)} = −expm1(excess) keeps full relative accuracy next to a breakpoint.
  double excess(double l, double epsilon) const { return std::fma(2 * l - count_, epsilon0_, epsilon); }
  // The largest l with loss(l) > eps, or −1 when there is none.
  double last_positive_term(double epsilon) const {
    if (!(epsilon0_ > 0)) return -1;
    double l = std::floor((count_ - epsilon / epsilon0_) / 2);
    l = std::min(std::max(l, -1.0), count_);
    while (l >= 0 && !(excess(l, epsilon) < 0)) --l;
    while (l + 1 <= count_ && excess(l + 1, epsilon) < 0) ++l;
    return l;
  }
  double mode() const { return std::floor((count_ + 1) * q_); }
  // The standard deviation of l: walks to e^-30 of the total take about 8 of it each way.
  double spread() const { return std::sqrt(count_ * p_ * q_); }
  double count() const { return count_; }
  double epsilon0() const { return epsilon0_; }

 private:
  double epsilon0_, count_, log_p_, log_q_, q_, p_, exp_epsilon0_, count_stirling_error_;
};

// Bounds the relative rounding error of the walks below after `steps` steps: each term carries at
// most 4 roundings per step in its a-ratio product, 3 per step in the recurrence for 1 − e^{eps−loss},
// a few more in its product, and the running sum one per term (Higham 2002, Lemma 3.1 and §4.2);
// 16 per step and 1024 more (the ulps of the logarithms that scale the sum) cover them.
double walk_error_factor(double steps) { return 1 + (16 * steps + 1024) * (DBL_EPSILON / 2); }

// ln Σ_{l <= last} a_l (1 − e^{eps − loss(l)}): the sum in KOV's delta(eps), rounded up. The walk
// starts at the largest a_l it needs (the mode, or `last` below it) and moves away from it with the
// exact ratios a_{l±1}/a_l in linear scale, so a step costs a few flops instead of a log-binomial.
// A direction ends when the geometric bound on everything left (log-concavity) falls below
// e^kNegligibleLogRatio of the total; that bound is added, so the result stays an upper bound.
double log_positive_sum(const RandomizedResponse& response, double epsilon) {
  const double last = response.last_positive_term(epsilon);
  if (last < 0) return kNegativeInfinity;
  const double eps0 = response.epsilon0();
  const double start = std::min(response.mode(), last);
  const double gap = -std::expm1(-2 * eps0);  // 1 − e^{−2 eps0}: how much 1 − e^{eps−loss} grows a step down
  const double shrink = std::exp(-2 * eps0);
  const double negligible = std::exp(kNegligibleLogRatio);
  const double first_excess = response.excess(start, epsilon);
  // When eps0 is tiny the factors 1 − e^{eps−loss} are too (gap = 2 eps0 down to subnormal ones,
  // which are exact here): they are kept scaled by 2^scale (exactly), so that no product of the
  // walk is subnormal.
  const int scale = std::max(0, -60 - std::ilogb(gap));
  const double scaled_gap = std::ldexp(gap, scale);
  // The end test costs divisions, so it runs every kEndTestEvery steps (any step's bound is valid).
  constexpr int kEndTestEvery = 16;
  double sum = 0;

  // Downwards from start: 1 − e^{eps−loss(l−1)} = (1 − e^{eps−loss(l)}) + e^{eps−loss(l)} gap, a sum
  // of positive terms, so no cancellation however small eps0 is.
  double scaled_a = 1, gain = std::ldexp(-std::expm1(first_excess), scale), kept = std::exp(first_excess);
  double l = start;
  for (int since_test = 0;; --l, ++since_test) {
    sum += scaled_a * gain;
    if (l == 0) break;
    const double ratio = response.ratio_down(l);
    if (since_test == kEndTestEvery && ratio < 1) {
      since_test = 0;
      // Below l: a_{l−j} <= a_l ratio^j and the factor grows by at most gap a step.
      const double rest =
          2 * scaled_a * (gain * ratio / (1 - ratio) + scaled_gap * ratio / ((1 - ratio) * (1 - ratio)));
      if (rest < sum * negligible) {
        sum += rest;
        break;
      }
    }
    scaled_a *= ratio;
    gain += kept * scaled_gap;
    kept *= shrink;
  }
  const double steps_down = start - l;

  // Upwards from the mode to `last`, where the factor 1 − e^{eps−loss(l)} falls towards 0.
  scaled_a = 1;
  for (l = start + 1; l <= last; ++l) {
    scaled_a *= response.ratio_up(l - 1);
    const double gain_here = std::ldexp(-std::expm1(response.excess(l, epsilon)), scale);
    sum += scaled_a * gain_here;
    const double ratio = response.ratio_up(l);
    if (ratio < 1) {
      const double rest = 2 * scaled_a * gain_here * ratio / (1 - ratio);
      if (rest < sum * negligible) {
        sum += rest;
        break;
      }
    }
  }
  const double steps = std::max(steps_down, l - start);
  return response.log_a(start) + std::log(sum) - scale * kLn2 + std::log(walk_error_factor(steps));
}

// What one pass knows of the breakpoint segment [loss(i), loss(i−1)] that holds its answer: for any
// eps there, with x = eps − loss(i−1) <= 0, the sum Σ_{l: loss(l) > eps} a_l (1 − e^{eps−loss(l)}) is
// R_{i−1} + (1 − e^x) W, positive terms, with R_{i−1} and W = Q_{i−1} + a_{i−1} in units of e^{log_unit},
// plus at most mass_below for the terms below the pass's start.
struct Segment {
  const RandomizedResponse* response;
  double i, log_unit, r_previous, weight, mass_below, error_factor;
  bool bounded;  // false when the pass took a step that is not a recurrence of positive terms

  // An upper bound on ln of the sum at eps, in O(1); kNoBound outside the segment.
  double log_sum_bound(double epsilon) const {
    if (!bounded) return kNoBound;
    // The formula needs exactly the terms l < i positive (signs of the single-rounding excess).
    const double x = response->excess(i - 1, epsilon);
    if (x > 0 || response->excess(i, epsilon) < 0) return kNoBound;
    const double sum = (r_previous - std::expm1(x) * weight + mass_below) * error_factor;
    return std::isfinite(sum) ? log_unit + std::log(sum) : kNoBound;
  }
};

struct OnePassAnswer {
  double epsilon;
  Segment segment;
};

// Where the one pass starts: the largest l in [0, min(mode, half)] below which all terms are
// negligible against the aim (a_l ratio/(1 − ratio) bounds the mass below l). A whole-number
// bisection, as that bound grows with l up to the mode; it holds at l = 0, where nothing is below.
double first_term_that_matters(const RandomizedResponse& response, double log_aim, double half) {
  const SoundPredicate negligible_below = [&](double l) {
    const double ratio = response.ratio_down(l);
    return ratio < 1 && response.log_a(l) + std::log(ratio / (1 - ratio)) <= log_aim + kNegligibleLogRatio;
  };
  return farthest_meeting(negligible_below, 0, std::min(response.mode(), half), 0, Midpoint::kWhole);
}

// The smallest eps whose sum Σ_{l: loss(l) > eps} a_l (1 − e^{eps−loss(l)}) is at most e^{log_aim},
// and its segment. One upward pass over l keeps the sum at every breakpoint eps = loss(i) by
// recurrences of positive terms (no cancellation):
//   R_i = Σ_{l<i} a_l (1 − e^{−2(i−l) eps0})   (the sum at breakpoint i)
//   Q_i = Σ_{l<i} a_l e^{−2(i−l) eps0}          (= e^{loss(i)} Σ_{l<i} b_l)
//   R_{i+1} = R_i + (1 − e^{−2 eps0}) (Q_i + a_i),   Q_{i+1} = e^{−2 eps0} (Q_i + a_i).
// The first breakpoint i with R_i above the aim ends the pass: the answer lies in [loss(i), loss(i−1)]
// and is solved there in closed form. Its rounding is bounded like a walk's, so the Segment
// certifies the answer without a second walk.
OnePassAnswer solve_in_one_pass(const RandomizedResponse& response, double log_aim) {
  const double count = response.count();
  const double eps0 = response.epsilon0();
  const double half = std::floor(count / 2);  // loss(i) >= 0 up to here
  const double gap = -std::expm1(-2 * eps0);
  const double shrink = std::exp(-2 * eps0);

  const double start = first_term_that_matters(response, log_aim, half);

  // Sums in units of a_start, rescaled by 2^-500 (exactly) before the a_l can overflow. `q_before`
  // is W (Q_i before its last factor e^{−2 eps0}): it cannot underflow even when eps0 > 354.
  double aim = std::exp(log_aim - response.log_a(start));
  double scaled_a = 1, r_sum = 0, q_sum = 0, q_before = 0, r_previous = 0;
  // False once a step was not a recurrence of positive terms, or when eps0 is so small that gap × W
  // can be subnormal (then the walk, which scales, certifies).
  bool bounded = gap >= 0x1p-900;
  double i = start;
  for (; i <= half && !(r_sum > aim); ++i) {
    const double ratio = response.ratio_up(i);
    if (i > response.mode() && ratio < 1 && scaled_a / (1 - ratio) < (r_sum + q_sum) * 1e-20) {
      // The a_l left are negligible: from here R_{i+j} = P − Q_i e^{−2 j eps0} with P = R_i + Q_i,
      // which exceeds the aim from j > ln(Q_i / (P − aim)) / (2 eps0) on (Q_i >= P − aim here).
      const double total = r_sum + q_sum;
      double jump = half + 1 - i;
      if (total > aim) jump = std::min(jump, std::floor(std::log(q_sum / (total - aim)) / (2 * eps0)) + 1);
      q_before = q_sum * std::exp(-2 * eps0 * (jump - 1));
      q_sum = q_before * shrink;
      r_sum = total - q_sum;
      i += jump;
      bounded = false;
      break;
    }
    r_previous = r_sum;
    q_before = q_sum + scaled_a;
    r_sum += gap * q_before;
    q_sum = shrink * q_before;
    scaled_a *= ratio;
    if (scaled_a > 0x1p500) {
      scaled_a = std::ldexp(scaled_a, -500), r_sum = std::ldexp(r_sum, -500), q_sum = std::ldexp(q_sum, -500);
      q_before = std::ldexp(q_before, -500), aim = std::ldexp(aim, -500);
      bounded = false;  // ldexp is exact only while nothing becomes subnormal: leave it to the walk
    }
  }
  // In [loss(i), loss(i−1)] the sum is P − e^{eps − loss(i−1)} W, P = R_i + Q_i, Q_i = (1 − gap) W:
  // solved as e^{eps − loss(i−1)} = 1 + ((R_i − aim)/W − gap).
  const double low = std::max(0.0, response.loss(i));
  double epsilon = response.loss(i - 1) + std::log1p((r_sum - aim) / q_before - gap);
  epsilon = epsilon >= low ? std::min(epsilon, response.loss(i - 1)) : low;

  const double mass_below = start > 0 ? 2 * response.ratio_down(start) / (1 - response.ratio_down(start)) : 0;
  return {epsilon, Segment{&response, i, response.log_a(start), r_previous, q_before, mass_below,
                           walk_error_factor(i - start), bounded}};
}

double round_up_4_ulps(double value) { return value + 4 * DBL_EPSILON * value; }

// 1 − (1 − delta0)^k, the delta the composition has at every eps, rounded up.
double failure_delta(const ApproxDp& per_step, double count) {
  return round_up_4_ulps(-std::expm1(count * std::log1p(-per_step.delta)));
}

// KOV's delta from an upper bound on ln of its sum: base + (1 − delta0)^k (1 + kSumRoundUp) sum,
// rounded up.
double delta_from_log_sum(const ApproxDp& per_step, double count, double log_sum) {
  const double base = failure_delta(per_step, count);
  if (log_sum == kNegativeInfinity) return std::min(base, 1.0);
  const double log_keep = count * std::log1p(-per_step.delta);
  const double delta = base + std::exp(log_keep + log_sum + std::log1p(kSumRoundUp));
  // A positive delta below the smallest double is reported as that double, not as 0.
  return std::min(std::max(round_up_4_ulps(delta), std::numeric_limits<double>::denorm_min()), 1.0);
}

}  // namespace

Result<double> check_optimal_composition_size(double epsilon0, double count, double max_count) {
  if (count > max_count) {
    return invalid_argument("count",
                            "Exact optimal composition handles at most " + format_number(max_count) +
                                " compositions in total, because its cost grows with √count " + got(count) +
                                ". For more, use method 'pld' (numeric, close to optimal), 'advanced' or 'zcdp'.");
  }
  if (!std::isfinite(count * epsilon0)) {
    return invalid_argument("epsilon0", "ε is too large: count × ε = " + format_number(count) + " × " +
                                            format_number(epsilon0) +
                                            " exceeds the largest double (about 1.8e308), so the composition "
                                            "gives no meaningful guarantee.");
  }
  return count;
}

double optimal_composition_delta(const ApproxDp& per_step, double count, double epsilon) {
  return delta_from_log_sum(per_step, count, log_positive_sum(RandomizedResponse(per_step.epsilon, count), epsilon));
}

Result<double> optimal_composition_epsilon(const ApproxDp& per_step, double count, double total_delta) {
  DPCALC_TRY(const double target, check_delta(total_delta, "total_delta"));
  const double base = failure_delta(per_step, count);
  if (target < base) {
    return invalid_argument("total_delta", "δ must be at least " + format_number(base) +
                                               ", the δ = 1 − (1 − δ₀)^k that composing mechanisms with δ₀ = " +
                                               format_number(per_step.delta) + " reaches at every ε " +
                                               got(total_delta) + ".");
  }
  // From the first breakpoint k eps0 on (the double at or above it), delta is `base`: the answer is
  // at most there.
  const RandomizedResponse response(per_step.epsilon, count);
  double ceiling = response.loss(0);
  if (response.excess(0, ceiling) < 0) ceiling = std::nextafter(ceiling, DBL_MAX);
  if (!(target > base)) return ceiling;

  // Aim a little inside the target, past the rounding up (a relative kSumRoundUp and the pass's bound
  // on its rounding on the sum, 4 ulps on the total), so that the pass usually certifies its answer.
  const double room = target * (1 - 8 * DBL_EPSILON) - base;
  const double log_keep = count * std::log1p(-per_step.delta);
  const double log_aim = std::log(room > 0 ? room : target - base) - log_keep - std::log1p(kSumRoundUp) -
                         std::log(walk_error_factor(12 * response.spread() + 64)) - 1e-11;
  const OnePassAnswer pass = solve_in_one_pass(response, log_aim);
  // Certified by the pass's bound inside its segment (O(1)), else by a walk.
  const SoundPredicate meets_target = [&](double epsilon) {
    const double bound = pass.segment.log_sum_bound(epsilon);
    return delta_from_log_sum(per_step, count, bound == kNoBound ? log_positive_sum(response, epsilon) : bound) <=
           target;
  };

  // Round up, by steps that start at an ulp and double, until it is certified (next to a breakpoint
  // one ulp of eps can move the sum by a relative 1e-5). Delta is `base` at the ceiling, so this ends
  // there at the latest, unless the inputs were outside check_optimal_composition_size.
  const std::optional<Boundary> certified =
      step_until_met(meets_target, pass.epsilon, ceiling, std::max(pass.epsilon, per_step.epsilon) * DBL_EPSILON);
  if (!certified || !std::isfinite(certified->meeting)) {
    return Error{kNumeric, "total_delta",
                 "Optimal composition could not certify an ε for this δ: count × ε₀ is outside the range it "
                 "computes (see check_optimal_composition_size)."};
  }
  return certified->meeting;
}

}  // namespace dpcalc
