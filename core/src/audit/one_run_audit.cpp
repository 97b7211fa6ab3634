#include "dpcalc/audit/one_run_audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "dpcalc/audit/binomial_terms.hpp"
#include "dpcalc/audit/clopper_pearson.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::audit {
namespace {

// p(ε) ≥ f(v) ≥ q^r is within r e^-64 < 10^-20 of 1 at ε = 64, so no significance below 1 refutes
// more; the search stays below it (and e^ε times r stays far inside the double range).
constexpr double kLargestSearchedEpsilon = 64;
// The bisection stops when the bracket is this narrow relative to max(1, ε).
constexpr double kEpsilonResolution = 1e-10;

// ln of an upper bound on max_{1 ≤ i ≤ v} Σ_{j = v − i}^{v − 1} Pr[X = j] / i, X ~ Binomial(r, q): the
// windows below v, averaged. Terms are scanned downward from j = v − 1 by (B2), relative to
// Pr[X = v − 1] and rescaled by 2^-600 as they grow. Their ratio t_{j−1}/t_j decreases as j falls, so
// once it is below 1 every later term is below the current one; once that term is also at most the
// best average, every later average (a mix of the current window and smaller terms) is too, and the
// scan stops: at most v terms.
double window_log_upper(double guesses, double correct, const SuccessProbability& probability) {
  constexpr double kRescaleLog = 600 * 0.693147180559945309417232121458;
  const BoundedLog anchor = binomial_log_pmf(correct - 1, guesses, probability);
  const double inverse_odds = 1 / probability.odds;
  double term = 1, sum = 0, best = 0;
  int rescalings = 0;
  std::int64_t steps = 0;
  for (double width = 1; width <= correct; ++width) {
    const double j = correct - width;
    sum += term;
    best = std::max(best, sum / width);
    if (j == 0) break;
    const double ratio = j / (guesses - j + 1) * inverse_odds;
    const double next = term * ratio;
    if (ratio < 1 && next <= best) break;
    term = next;
    ++steps;
    if (term > 0x1p600) {
      term *= 0x1p-600;
      sum *= 0x1p-600;
      best *= 0x1p-600;
      ++rescalings;
    }
  }
  // Each term within steps (4u + e) relative (ratio, product, odds), the sums within steps u, the
  // average within u; the stopping test compares computed values, so the true later averages may
  // exceed `best` by the same relative amount again: three times it covers both.
  const double relative_error =
      3 * (static_cast<double>(steps) * (5 * kUnitRoundoff + probability.relative_error) + 2 * kUnitRoundoff) *
      (1 + kBoundSlack);
  const double log_best = std::log(best);
  return anchor.value + anchor.error + log_best + rescalings * kRescaleLog + relative_error +
         2 * kUnitRoundoff * (std::fabs(log_best) + 1);
}

// ln of an upper bound on the p-value of (O1), at most 0 (p ≤ 1).
double log_p_value_upper(const OneRunEvidence& evidence, double epsilon, double delta) {
  const double r = evidence.guesses, v = evidence.correct;
  if (v == 0) return 0;  // f(0) = 1
  const SuccessProbability probability = SuccessProbability::logistic(epsilon);
  const BoundedLog anchor = binomial_log_pmf(v, r, probability);
  const TermSum tail = binomial_term_sum(v, r, probability, true, static_cast<std::int64_t>(r) + 2);
  if (!tail.complete) return 0;
  const double log_tail = anchor.value + anchor.error + tail.log_sum.value + tail.log_sum.error;
  if (delta == 0) return std::min(0.0, log_tail);
  // 2mδ is within u; its logarithm within an ulp.
  const double log_weight = std::log(2 * evidence.canaries * delta);
  const double log_weight_upper = log_weight + 2 * kUnitRoundoff * (std::fabs(log_weight) + 1);
  const double log_window = log_weight_upper + window_log_upper(r, v, probability);
  // log_add_exp: one exp, one log1p and a sum, each within an ulp of a value at most its result's size.
  const double total = log_add_exp(log_tail, log_window);
  return std::min(0.0, total + 6 * kUnitRoundoff * (std::fabs(total) + 1));
}

struct CheckedOneRun {
  OneRunEvidence evidence;
  double delta;
};
Result<CheckedOneRun> check_one_run(const OneRunEvidence& evidence, double delta) {
  DPCALC_TRY(const double canaries, check_audit_count(evidence.canaries, 1, "canaries", "canaries"));
  DPCALC_TRY(const double guesses, check_audit_count(evidence.guesses, 0, "guesses", "guesses"));
  DPCALC_TRY(const double correct, check_audit_count(evidence.correct, 0, "correct", "correct guesses"));
  if (guesses > canaries) {
    return invalid_argument("guesses", "The guesses (" + format_number(guesses) + ") cannot outnumber the canaries (" +
                                           format_number(canaries) + ").");
  }
  if (guesses > kMaxOneRunGuesses) {
    return invalid_argument("guesses", "At most 10^7 guesses are supported (got " + format_number(guesses) +
                                           "): the exact binomial sums would take too long.");
  }
  if (correct > guesses) {
    return invalid_argument("correct", "The correct guesses (" + format_number(correct) +
                                           ") cannot outnumber the guesses (" + format_number(guesses) + ").");
  }
  if (!(delta >= 0 && delta < 1)) {
    return invalid_argument("delta", "δ must be at least 0 and below 1 " + got(delta) + ".");
  }
  return CheckedOneRun{{canaries, guesses, correct}, delta};
}

}  // namespace

Result<double> one_run_p_value_upper(const OneRunEvidence& evidence, double epsilon, double delta) {
  DPCALC_TRY(const CheckedOneRun checked, check_one_run(evidence, delta));
  if (!(epsilon >= 0 && epsilon <= kLargestSearchedEpsilon)) {
    return invalid_argument("epsilon", "ε must be from 0 to 64 " + got(epsilon) + ".");
  }
  return std::min(1.0, std::exp(log_p_value_upper(checked.evidence, epsilon, checked.delta)) * (1 + 4 * kUnitRoundoff));
}

Result<OneRunAudit> audit_one_run(const OneRunEvidence& evidence, double confidence, double delta) {
  DPCALC_TRY(const CheckedOneRun checked, check_one_run(evidence, delta));
  if (!(confidence > 0 && confidence < 1)) {
    return invalid_argument("confidence", "The confidence must be above 0 and below 1 " + got(confidence) + ".");
  }
  OneRunAudit audit;
  audit.significance = tradeoff::one_minus_down(confidence);
  const double log_significance = std::log(audit.significance);
  const double log_significance_down = log_significance - 2 * kUnitRoundoff * std::fabs(log_significance) - 1e-300;
  auto log_p = [&](double epsilon) { return log_p_value_upper(checked.evidence, epsilon, checked.delta); };
  auto report = [&](double epsilon, double log_p_value) {
    audit.epsilon_lower = epsilon;
    audit.p_value_upper = std::min(1.0, std::exp(log_p_value) * (1 + 4 * kUnitRoundoff));
    return audit;
  };
  double low = 0;
  double log_p_low = log_p(low);
  if (!(log_p_low <= log_significance_down)) return report(0, log_p_low);
  // Bracket: double the upper end while it is still refuted.
  double high = 1;
  double log_p_high = log_p(high);
  while (log_p_high <= log_significance_down && high < kLargestSearchedEpsilon) {
    low = high;
    log_p_low = log_p_high;
    high = std::min(2 * high, kLargestSearchedEpsilon);
    log_p_high = log_p(high);
  }
  if (log_p_high <= log_significance_down) return report(high, log_p_high);
  while (high - low > kEpsilonResolution * std::max(1.0, low)) {
    const double middle = low + (high - low) / 2;
    const double log_p_middle = log_p(middle);
    if (log_p_middle <= log_significance_down) {
      low = middle;
      log_p_low = log_p_middle;
    } else {
      high = middle;
    }
  }
  return report(low, log_p_low);
}

}  // namespace dpcalc::audit
