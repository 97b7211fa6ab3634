#include "dpcalc/closed_form/optimal_composition.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc {

namespace {

constexpr double kLogSqrtTwoPi = 0.918938533204672741780329736406;

// The sums below are evaluated to a relative error far below 1e-12 (Loader's log-binomials are
// accurate to a few ulps at any k, and the sums are compensated); reporting them 1e-10 larger keeps
// every delta an upper bound.
constexpr double kSumRoundUp = 1e-10;

// Terms smaller than the running total by this factor (e^-46 ~ 1e-20) end a walk, after a
// geometric bound on everything left is added.
constexpr double kNegligibleLogRatio = -46;

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

// x ln(x / mean) + mean − x, without the cancellation of the direct form when x is near the mean
// (Loader 2000): a series in v = (x − mean)/(x + mean).
double deviance(double x, double mean) {
  if (std::fabs(x - mean) < 0.1 * (x + mean)) {
    const double v = (x - mean) / (x + mean);
    const double v2 = v * v;
    double sum = (x - mean) * v;
    double power = 2 * x * v;
    for (int j = 1; j < 1000; ++j) {
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
// Both, and the terms a_l − e^eps b_l of delta(eps), are log-concave in l.
class RandomizedResponse {
 public:
  RandomizedResponse(double epsilon0, double count)
      : epsilon0_(epsilon0),
        count_(count),
        log_p_(-std::log1p(std::exp(-epsilon0))),
        log_q_(-epsilon0 - std::log1p(std::exp(-epsilon0))),
        q_(1 / (1 + std::exp(epsilon0))),
        p_(1 / (1 + std::exp(-epsilon0))),
        count_stirling_error_(stirling_error(count)) {}

  double log_a(double l) const {
    if (l == 0) return count_ * log_p_;
    if (l == count_) return count_ * log_q_;
    const double rest = count_ - l;
    return count_stirling_error_ - stirling_error(l) - stirling_error(rest) -
           deviance(l, count_ * q_) - deviance(rest, count_ * p_) - kLogSqrtTwoPi +
           0.5 * (std::log(count_) - std::log(l) - std::log(rest));
  }
  // (k − 2l) eps0: the privacy loss of outcome l, and the breakpoints of delta(eps).
  double loss(double l) const { return (count_ - 2 * l) * epsilon0_; }
  double log_b(double l) const { return log_a(l) - loss(l); }
  // ln(a_l − e^eps b_l), for l with loss(l) > eps.
  double log_term(double l, double epsilon) const {
    return log_a(l) + std::log(-std::expm1(epsilon - loss(l)));
  }
  // The largest l with loss(l) > eps, or −1 when there is none.
  double last_positive_term(double epsilon) const {
    if (!(epsilon0_ > 0)) return -1;
    double l = std::floor((count_ - epsilon / epsilon0_) / 2);
    l = std::min(std::max(l, -1.0), count_);
    while (l >= 0 && !(loss(l) > epsilon)) --l;
    while (l + 1 <= count_ && loss(l + 1) > epsilon) ++l;
    return l;
  }
  double mode_a() const { return std::floor((count_ + 1) * q_); }
  double mode_b() const { return std::floor((count_ + 1) * p_); }
  double count() const { return count_; }
  double epsilon0() const { return epsilon0_; }

 private:
  double epsilon0_, count_, log_p_, log_q_, q_, p_, count_stirling_error_;
};

// A sum of positive terms given by their logarithms: scaled by the largest seen so far and
// compensated (Neumaier), so that long sums of tiny terms keep full relative accuracy.
class LogSum {
 public:
  explicit LogSum(double log_first) : reference_(log_first), sum_(1), compensation_(0) {}
  void add(double log_term) {
    if (log_term == kNegativeInfinity) return;
    if (log_term > reference_) {
      const double scale = std::exp(reference_ - log_term);
      sum_ *= scale;
      compensation_ *= scale;
      reference_ = log_term;
    }
    const double term = std::exp(log_term - reference_);
    const double total = sum_ + term;
    compensation_ += std::fabs(sum_) >= term ? (sum_ - total) + term : (term - total) + sum_;
    sum_ = total;
  }
  double log_total() const { return reference_ + std::log(sum_ + compensation_); }

 private:
  double reference_, sum_, compensation_;
};

// ln Σ_{l=first}^{last} e^{log_term(l)} for a log-concave sequence, walking outwards from `start`
// (near its largest term). A walk stops once the terms fall geometrically below e^-46 of the total;
// by log-concavity the rest is at most the geometric series with the current ratio, which is added,
// so the result stays an upper bound.
template <class LogTerm>
double log_sum_log_concave(const LogTerm& log_term, double first, double last, double start) {
  start = std::min(std::max(start, first), last);
  const double log_start = log_term(start);
  if (log_start == kNegativeInfinity) return kNegativeInfinity;
  LogSum total(log_start);
  for (double direction : {-1.0, 1.0}) {
    double previous = log_start;
    for (double l = start + direction; l >= first && l <= last; l += direction) {
      const double current = log_term(l);
      if (current == kNegativeInfinity) break;  // the support of a log-concave sequence is an interval
      total.add(current);
      const double log_ratio = current - previous;
      previous = current;
      if (log_ratio < 0) {
        const double log_rest = current + log_ratio - std::log(-std::expm1(log_ratio));
        if (log_rest < total.log_total() + kNegligibleLogRatio) {
          total.add(log_rest);
          break;
        }
      }
    }
  }
  return total.log_total();
}

double round_up(double value) { return value + 4 * DBL_EPSILON * value; }

// 1 − (1 − delta0)^k, the delta the composition has at every eps, rounded up.
double failure_delta(const ApproxDp& per_step, double count) {
  return round_up(-std::expm1(count * std::log1p(-per_step.delta)));
}

}  // namespace

Result<double> check_optimal_composition_size(double epsilon0, double count, const std::string& count_field,
                                              const std::string& epsilon_field, double max_count) {
  if (count > max_count) {
    return invalid_argument(count_field,
                            "Exact optimal composition handles at most " + format_number(max_count) +
                                " compositions in total, because its cost grows with √count " + got(count) +
                                ". For more, use method 'pld' (numeric, close to optimal), 'advanced' or 'zcdp'.");
  }
  if (!std::isfinite(count * epsilon0)) {
    return invalid_argument(epsilon_field, describe_field(epsilon_field) +
                                               " is too large: count × ε = " + format_number(count) + " × " +
                                               format_number(epsilon0) +
                                               " exceeds the largest double (about 1.8e308), so the composition "
                                               "gives no meaningful guarantee.");
  }
  return count;
}

double optimal_composition_delta(const ApproxDp& per_step, double count, double epsilon) {
  const double base = failure_delta(per_step, count);
  const RandomizedResponse response(per_step.epsilon, count);
  const double last = response.last_positive_term(epsilon);
  if (last < 0) return std::min(base, 1.0);
  const double log_sum = log_sum_log_concave(
      [&](double l) { return response.log_term(l, epsilon); }, 0, last, response.mode_a());
  const double log_keep = count * std::log1p(-per_step.delta);
  const double delta = base + std::exp(log_keep + log_sum + std::log1p(kSumRoundUp));
  return std::min(round_up(delta), 1.0);
}

Result<double> optimal_composition_epsilon(const ApproxDp& per_step, double count, double total_delta,
                                           const std::string& delta_field) {
  DPCALC_TRY(const double target, check_delta(total_delta, delta_field));
  const double base = failure_delta(per_step, count);
  if (target < base) {
    return invalid_argument(
        delta_field, describe_field(delta_field) + " must be at least " + format_number(base) +
                         ", the δ = 1 − (1 − δ₀)^k that composing mechanisms with δ₀ = " +
                         format_number(per_step.delta) + " reaches at every ε " + got(total_delta) + ".");
  }
  const auto meets_target = [&](double epsilon) {
    return optimal_composition_delta(per_step, count, epsilon) <= target;
  };
  if (meets_target(0)) return 0.0;

  // Find the segment between breakpoints (k − 2i) eps0 that holds the answer: the largest i whose
  // breakpoint meets the target (i = 0, eps = k eps0, always does: delta there is `base`).
  const RandomizedResponse response(per_step.epsilon, count);
  const auto breakpoint = [&](double i) { return std::max(0.0, response.loss(i)); };
  double feasible = 0;
  double infeasible = std::floor(count / 2) + 1;  // its breakpoint is eps = 0
  while (infeasible - feasible > 1) {
    const double middle = std::floor((feasible + infeasible) / 2);
    (meets_target(breakpoint(middle)) ? feasible : infeasible) = middle;
  }
  const double segment_high = breakpoint(feasible);
  const double segment_low = breakpoint(infeasible);

  // Inside the segment the terms l <= i are exactly the positive ones, so
  //   delta(eps) = base + (1 − delta0)^k (1 + margin) (A − e^eps B),  A = Σ_{l<=i} a_l, B = Σ_{l<=i} b_l,
  // is linear in e^eps: solve it for e^eps in closed form.
  const double log_a_sum = log_sum_log_concave([&](double l) { return response.log_a(l); }, 0,
                                               feasible, response.mode_a());
  const double log_b_sum = log_sum_log_concave([&](double l) { return response.log_b(l); }, 0,
                                               feasible, response.mode_b());
  const double log_keep = count * std::log1p(-per_step.delta);
  const double log_target_sum = std::log(target - base) - log_keep - std::log1p(kSumRoundUp);
  double epsilon = log_sub_exp(log_a_sum, log_target_sum) - log_b_sum;
  if (!(epsilon >= segment_low)) epsilon = segment_low;
  epsilon = std::min(epsilon, segment_high);

  // Round up, by steps that start at an ulp and double, until the forward function confirms it;
  // the segment's upper end meets the target, so this ends there at the latest (within the ~2100
  // doublings from DBL_MIN to DBL_MAX, unless the inputs were outside check_optimal_composition_size).
  double step = std::max(epsilon * DBL_EPSILON, DBL_MIN);
  for (int attempt = 0; attempt < 2200 && !meets_target(epsilon); ++attempt) {
    epsilon = std::min(epsilon + step, segment_high);
    step *= 2;
  }
  if (!(std::isfinite(epsilon) && meets_target(epsilon))) {
    return Error{kNumeric, delta_field,
                 "Optimal composition could not certify an ε for this δ: count × ε₀ is outside the range it "
                 "computes (see check_optimal_composition_size)."};
  }
  return epsilon;
}

}  // namespace dpcalc
