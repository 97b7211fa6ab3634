#include "dpcalc/closed_form/advanced_composition.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc {

namespace {

// The sums both theorems are written in, with each item counted `count` times.
struct CompositionSums {
  double epsilon_sum = 0;     // Σ eps_i (basic composition)
  double squared_sum = 0;     // Σ eps_i²
  double drv_drift = 0;       // Σ eps_i (e^{eps_i} − 1)
  double kov_drift = 0;       // Σ eps_i tanh(eps_i / 2)
  double delta_sum = 0;       // Σ delta_i
  double log_no_failure = 0;  // Σ ln(1 − delta_i)
};

CompositionSums sum_items(const std::vector<ComposedItem>& items) {
  CompositionSums sums;
  for (const ComposedItem& item : items) {
    const double eps = item.guarantee.epsilon;
    sums.epsilon_sum += item.count * eps;
    sums.squared_sum += item.count * eps * eps;
    // +inf once e^eps overflows: the advanced bound is then useless and basic is reported.
    sums.drv_drift += item.count * eps * std::expm1(eps);
    sums.kov_drift += item.count * eps * std::tanh(eps / 2);
    sums.delta_sum += item.count * item.guarantee.delta;
    sums.log_no_failure += item.count * std::log1p(-item.guarantee.delta);
  }
  return sums;
}

// The closed forms below are a handful of correctly rounded operations each; a relative margin of
// 8 ulps keeps the reported value above the exact one.
double round_up_8_ulps(double value) { return value + 8 * DBL_EPSILON * value; }

double advanced_epsilon(AdvancedVariant variant, const CompositionSums& sums, double delta_slack) {
  const double log_inverse_slack = -std::log(delta_slack);
  double advanced;
  if (variant == AdvancedVariant::kDworkRothblumVadhan) {
    advanced = std::sqrt(2 * log_inverse_slack * sums.squared_sum) + sums.drv_drift;
  } else {
    const double root_squared_sum = std::sqrt(sums.squared_sum);
    const double second = std::sqrt(2 * sums.squared_sum * std::log(std::exp(1.0) + root_squared_sum / delta_slack));
    const double third = std::sqrt(2 * sums.squared_sum * log_inverse_slack);
    advanced = sums.kov_drift + std::min(second, third);
  }
  // Basic composition needs no slack, so it is a valid answer at every delta'.
  return std::min(round_up_8_ulps(advanced), sums.epsilon_sum);
}

double advanced_delta(AdvancedVariant variant, const CompositionSums& sums, double delta_slack) {
  if (variant == AdvancedVariant::kDworkRothblumVadhan) {
    return std::min(sums.delta_sum + delta_slack, 1.0);
  }
  const double log_no_failure = sums.log_no_failure + std::log1p(-delta_slack);
  return std::min(round_up_8_ulps(-std::expm1(log_no_failure)), 1.0);
}

}  // namespace

AdvancedResult compose_advanced(AdvancedVariant variant, const std::vector<ComposedItem>& items, double delta_slack) {
  const CompositionSums sums = sum_items(items);
  return AdvancedResult{
      ApproxDp{advanced_epsilon(variant, sums, delta_slack), advanced_delta(variant, sums, delta_slack)}, delta_slack};
}

Result<AdvancedResult> compose_advanced_for_total_delta(AdvancedVariant variant, const std::vector<ComposedItem>& items,
                                                        double total_delta) {
  DPCALC_TRY(const double target, check_positive_delta(total_delta, "total_delta"));
  const CompositionSums sums = sum_items(items);
  // Both bounds are decreasing in delta' and the total delta is increasing in it, so the optimal
  // delta' is the largest one whose total delta still meets the target:
  //   DRV: Σ delta_i + delta' <= target
  //   KOV: 1 − (1 − delta') Π (1 − delta_i) <= target  <=>  delta' <= 1 − (1 − target) / Π (1 − delta_i)
  const double items_delta = variant == AdvancedVariant::kDworkRothblumVadhan ? std::min(sums.delta_sum, 1.0)
                                                                              : -std::expm1(sums.log_no_failure);
  double slack = variant == AdvancedVariant::kDworkRothblumVadhan
                     ? target - sums.delta_sum
                     : -std::expm1(std::log1p(-target) - sums.log_no_failure);
  // The closed-form slack can overshoot the target by rounding: lower it by ulps until the reported
  // total, computed exactly as compose_advanced computes it, meets the target.
  if (slack > 0) {
    const std::optional<Boundary> lowered = step_until_met(
        [&](double trial) { return advanced_delta(variant, sums, trial) <= target; }, slack, 0, slack * DBL_EPSILON);
    slack = lowered ? lowered->meeting : 0;
  }
  if (!(slack > 0)) {
    return invalid_argument("total_delta",
                            "The total δ must be greater than " + format_number(items_delta) +
                                ": the composed items' own δ already add up to that, and advanced composition needs "
                                "a slack δ′ > 0 on top " +
                                got(total_delta) + ".");
  }
  return AdvancedResult{ApproxDp{advanced_epsilon(variant, sums, slack), advanced_delta(variant, sums, slack)}, slack};
}

}  // namespace dpcalc
