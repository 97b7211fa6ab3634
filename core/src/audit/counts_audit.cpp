#include "dpcalc/audit/counts_audit.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/audit/clopper_pearson.hpp"
#include "dpcalc/audit/normal_bounds.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::audit {
namespace {

// ln((rate − δ) / other), rounded down, or 0 when rate ≤ δ (the line of (A3) says nothing).
double epsilon_from_line(double rate_lower, double delta, double other_upper) {
  const double numerator = subtract_down(rate_lower, delta);
  if (!(numerator > 0)) return 0;
  return std::max(0.0, log_ratio_down(numerator, other_upper));
}

// Φ⁻¹(TPR_lo) rounded down and Φ⁻¹(FPR_hi) rounded up, each from the side nearer 0: below 1/2 the
// rate itself, above it minus the quantile of its complement (Φ⁻¹(TPR) = −Φ⁻¹(FNR) exactly, and
// FNR_hi ≥ 1 − TPR_lo as computed), so a rate near 1 keeps its precision.
double mu_from_bounds(const RateBounds& bounds) {
  if (!(bounds.tpr_lower > 0) || !(bounds.fpr_upper < 1)) return 0;
  const double z_true_positive =
      bounds.tpr_lower <= 0.5 ? normal_quantile_down(bounds.tpr_lower) : -normal_quantile_up(bounds.fnr_upper);
  const double z_false_positive =
      bounds.fpr_upper <= 0.5 ? normal_quantile_up(bounds.fpr_upper) : -normal_quantile_down(bounds.tnr_lower);
  const double difference = z_true_positive - z_false_positive;
  if (!(difference > 0) || !std::isfinite(difference)) return 0;
  return difference * (1 - 2 * kUnitRoundoff);
}

Result<MembershipCounts> check_counts(const MembershipCounts& counts) {
  DPCALC_TRY(const double positives, check_audit_count(counts.positives, 1, "positives", "members tried (positives)"));
  DPCALC_TRY(const double negatives,
             check_audit_count(counts.negatives, 1, "negatives", "non-members tried (negatives)"));
  DPCALC_TRY(const double true_positives,
             check_audit_count(counts.true_positives, 0, "true_positives", "members flagged (true positives)"));
  DPCALC_TRY(const double false_positives,
             check_audit_count(counts.false_positives, 0, "false_positives", "non-members flagged (false positives)"));
  if (true_positives > positives) {
    return invalid_argument("true_positives", "The members flagged (" + format_number(true_positives) +
                                                  ") cannot outnumber the members tried (" + format_number(positives) +
                                                  ").");
  }
  if (false_positives > negatives) {
    return invalid_argument("false_positives", "The non-members flagged (" + format_number(false_positives) +
                                                   ") cannot outnumber the non-members tried (" +
                                                   format_number(negatives) + ").");
  }
  return MembershipCounts{true_positives, positives, false_positives, negatives};
}

}  // namespace

double subtract_down(double a, double b) {
  const double difference = a - b;
  // Fast2Sum (Dekker 1971): for |a| ≥ |b| the rounding error of a − b is exactly (a − difference) − b.
  if ((a - difference) - b < 0) return std::nextafter(difference, -1.0);
  return difference;
}

double log_ratio_down(double numerator, double denominator) {
  // Each logarithm is within an ulp (2u relative), the difference within u of its value.
  const double log_numerator = std::log(numerator), log_denominator = std::log(denominator);
  const double value = log_numerator - log_denominator;
  return value - 2 * kUnitRoundoff * (std::fabs(log_numerator) + std::fabs(log_denominator) + std::fabs(value)) -
         1e-300;
}

Result<CountsAudit> audit_counts_at(const MembershipCounts& counts, double member_significance,
                                    double nonmember_significance, double delta) {
  DPCALC_TRY(const MembershipCounts checked, check_counts(counts));
  DPCALC_TRY(const double member_a, check_significance(member_significance, "member_significance"));
  DPCALC_TRY(const double nonmember_a, check_significance(nonmember_significance, "nonmember_significance"));
  if (!(delta >= 0 && delta < 1)) {
    return invalid_argument("delta", "δ must be at least 0 and below 1 " + got(delta) + ".");
  }
  CountsAudit audit;
  audit.member_significance = member_a;
  audit.nonmember_significance = nonmember_a;
  const double false_negatives = checked.positives - checked.true_positives;
  const double true_negatives = checked.negatives - checked.false_positives;
  DPCALC_TRY(audit.bounds.tpr_lower, clopper_pearson_lower(checked.true_positives, checked.positives, member_a));
  DPCALC_TRY(audit.bounds.fnr_upper, clopper_pearson_upper(false_negatives, checked.positives, member_a));
  DPCALC_TRY(audit.bounds.fpr_upper, clopper_pearson_upper(checked.false_positives, checked.negatives, nonmember_a));
  DPCALC_TRY(audit.bounds.tnr_lower, clopper_pearson_lower(true_negatives, checked.negatives, nonmember_a));
  // Upper Clopper–Pearson bounds are positive and lower ones below 1 for trials ≥ 1, so both ratios
  // of (A3) are finite.
  audit.epsilon_direct = epsilon_from_line(audit.bounds.tpr_lower, delta, audit.bounds.fpr_upper);
  audit.epsilon_complementary = epsilon_from_line(audit.bounds.tnr_lower, delta, audit.bounds.fnr_upper);
  audit.epsilon_lower = std::max(audit.epsilon_direct, audit.epsilon_complementary);
  if (audit.epsilon_lower > 0) {
    audit.epsilon_test =
        audit.epsilon_direct >= audit.epsilon_complementary ? EpsilonTest::kDirect : EpsilonTest::kComplementary;
  }
  audit.mu_lower = mu_from_bounds(audit.bounds);
  return audit;
}

Result<CountsAudit> audit_counts(const MembershipCounts& counts, double confidence, double delta) {
  if (!(confidence > 0 && confidence < 1)) {
    return invalid_argument("confidence", "The confidence must be above 0 and below 1 " + got(confidence) + ".");
  }
  // α = 1 − confidence rounded down (a smaller α only makes the statement more cautious); α/2 is exact.
  const double half_significance = tradeoff::one_minus_down(confidence) / 2;
  return audit_counts_at(counts, half_significance, half_significance, delta);
}

}  // namespace dpcalc::audit
