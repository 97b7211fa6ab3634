#include "dpcalc/closed_form/budget_split.hpp"

#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Bisection stops once the bracket is this tight (relative); far inside the promised 1%.
constexpr double kSplitBracketTolerance = 1e-12;

// The largest x with count·x <= total (the quotient, rounded down so the product never exceeds).
double divide_down(double total, double count) {
  double share = total / count;
  while (count * share > total) share = std::nextafter(share, 0.0);
  return share;
}

// The first value at or below `value`, by steps of 1, 2, 4, ... ulps of it, that meets; `floor`
// (which the caller knows to meet) when none above it does.
double lowered_until_met(const SoundPredicate& meets, double value, double floor) {
  const std::optional<Boundary> found = step_until_met(meets, value, floor, value * DBL_EPSILON);
  return found ? found->meeting : floor;
}

Error needs_positive_delta(double delta) {
  return invalid_argument("target_delta",
                          "The target δ must be greater than 0 for this method: only basic composition "
                          "can split a pure (δ = 0) budget " +
                              got(delta) + ".");
}

SplitResult split_basic(const ApproxDp& target, double count) {
  const ApproxDp per_item{divide_down(target.epsilon, count), divide_down(target.delta, count)};
  return SplitResult{per_item, kNaN, kNaN, compose_basic({ComposedItem{per_item, count}})};
}

SplitResult split_advanced(AdvancedVariant variant, const ApproxDp& target, double count) {
  const double slack = target.delta / 2;
  // Half of the target goes to the items; shrink their share if rounding pushes the total over
  // (items with δ = 0 leave exactly the slack).
  const double item_delta = lowered_until_met(
      [&](double delta) {
        return compose_advanced(variant, {ComposedItem{ApproxDp{0, delta}, count}}, slack).guarantee.delta <=
               target.delta;
      },
      divide_down(slack, count), 0);
  const auto compose = [&](double epsilon) {
    return compose_advanced(variant, {ComposedItem{ApproxDp{epsilon, item_delta}, count}}, slack);
  };
  // Advanced composition is never above basic, so the basic share always meets the target.
  const double epsilon =
      farthest_meeting([&](double trial) { return compose(trial).guarantee.epsilon <= target.epsilon; },
                       divide_down(target.epsilon, count), target.epsilon, kSplitBracketTolerance);
  const AdvancedResult achieved = compose(epsilon);
  return SplitResult{ApproxDp{epsilon, item_delta}, slack, kNaN, achieved.guarantee};
}

Result<SplitResult> split_optimal(const ApproxDp& target, double count) {
  Result<double> size = check_optimal_composition_size(target.epsilon, count, kMaxOptimalSplitCount);
  if (!size.ok()) {
    Error error = std::move(size).error();
    if (error.field == "epsilon0") error.field = "target_epsilon";  // the per-item ε is at most the target's
    return error;
  }
  const double item_delta = divide_down(target.delta / 2, count);
  const double basic_share = divide_down(target.epsilon, count);
  // For a fixed eps, delta is increasing in eps0, so "delta at the target eps meets the target
  // delta" is the monotone test to bisect on. The basic share meets it: no term of the sum is then
  // positive and delta is 1 − (1 − delta0)^k <= k delta0 <= target.delta / 2.
  const double epsilon = farthest_meeting(
      [&](double epsilon0) {
        return optimal_composition_delta(ApproxDp{epsilon0, item_delta}, count, target.epsilon) <= target.delta;
      },
      basic_share, target.epsilon, kSplitBracketTolerance);
  // The smallest eps meeting the target delta is at most target.epsilon up to its final rounding
  // (up to ~1e-13 above it): lower eps0 by ulps until composing it back lands at or below the
  // target, and report that recomposed value as it is. The basic share k·eps0 <= target.epsilon
  // always lands below, as the optimal eps never exceeds k·eps0 (its search is capped at that
  // breakpoint). The walk stops at the first value that lands below, so `achieved_epsilon` is its
  // recomposition; an error of the composition also stops it and is returned.
  double achieved_epsilon = 0;
  std::optional<Error> failure;
  const double epsilon0 = lowered_until_met(
      [&](double trial) {
        const Result<double> achieved = optimal_composition_epsilon(ApproxDp{trial, item_delta}, count, target.delta);
        if (!achieved.ok()) {
          failure = achieved.error();
          failure->field = "target_delta";
        }
        achieved_epsilon = achieved.ok() ? achieved.value() : 0;
        return failure || achieved_epsilon <= target.epsilon;
      },
      epsilon, basic_share);
  if (failure) return *failure;
  const ApproxDp per_item{epsilon0, item_delta};
  const ApproxDp achieved{achieved_epsilon, optimal_composition_delta(per_item, count, achieved_epsilon)};
  return SplitResult{per_item, target.delta / 2, kNaN, achieved};
}

SplitResult split_zcdp(const ApproxDp& target, double count) {
  const auto converted_epsilon = [&](double rho) {
    return zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, target.delta).epsilon;
  };
  // The inverse conversion is one maximisation over orders; bisection below it only guards the
  // rounding of the forward conversion, which searches the orders on its own.
  const double rho = farthest_meeting([&](double trial) { return converted_epsilon(trial) <= target.epsilon; }, 0,
                                      largest_zcdp_for_approx(target), kSplitBracketTolerance);
  // 0-zCDP items release nothing, whatever the conversion reports for rho = 0.
  if (rho == 0) return SplitResult{ApproxDp{0, 0}, kNaN, 0, ApproxDp{0, 0}};
  // eps0 = sqrt(2 rho / count), rounded down until the recomposed rho still meets the target.
  const auto recomposed_rho = [&](double epsilon) {
    return compose_zcdp({ZcdpItem{Zcdp{epsilon * epsilon / 2}, count}}).rho;
  };
  const double epsilon0 =
      lowered_until_met([&](double epsilon) { return converted_epsilon(recomposed_rho(epsilon)) <= target.epsilon; },
                        std::sqrt(2 * rho / count), 0);
  const double total_rho = recomposed_rho(epsilon0);
  return SplitResult{ApproxDp{epsilon0, 0}, kNaN, epsilon0 * epsilon0 / 2,
                     zcdp_to_approx_canonne_kamath_steinke(Zcdp{total_rho}, target.delta)};
}

}  // namespace

Result<SplitResult> split_budget(SplitMethod method, const ApproxDp& target, double count) {
  DPCALC_TRY(const double epsilon, check_epsilon(target.epsilon, "target_epsilon"));
  DPCALC_TRY(const double delta, check_delta(target.delta, "target_delta"));
  DPCALC_TRY(const double items, check_count(count, "count"));
  const ApproxDp checked{epsilon, delta};
  if (method != SplitMethod::kBasic && !(delta > 0)) return needs_positive_delta(delta);
  switch (method) {
    case SplitMethod::kBasic:
      return split_basic(checked, items);
    case SplitMethod::kAdvancedDworkRothblumVadhan:
      return split_advanced(AdvancedVariant::kDworkRothblumVadhan, checked, items);
    case SplitMethod::kAdvancedKairouzOhViswanath:
      return split_advanced(AdvancedVariant::kKairouzOhViswanath, checked, items);
    case SplitMethod::kOptimal:
      return split_optimal(checked, items);
    case SplitMethod::kZcdp:
      return split_zcdp(checked, items);
  }
  return invalid_argument("method", "Unknown budget split method.");
}

}  // namespace dpcalc
