#include "dpcalc/audit/scores_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "dpcalc/audit/binomial_terms.hpp"
#include "dpcalc/audit/clopper_pearson.hpp"
#include "dpcalc/audit/normal_bounds.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::audit {
namespace {

constexpr double kNothing = -std::numeric_limits<double>::infinity();

// A threshold and its counts.
struct ScoreCorner {
  double threshold;
  double true_positives;
  double false_positives;
};

// Scores sorted ascending, with the sizes as doubles.
struct SortedScores {
  std::vector<double> members, nonmembers;
  double positives, negatives;
};

Result<std::vector<double>> sorted_finite(const std::vector<double>& scores, const char* name, const char* what) {
  if (scores.empty()) return invalid_argument(name, std::string("At least one ") + what + " score is needed.");
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i])) {
      return about_item(invalid_argument(name, std::string("Every ") + what + " score must be a finite number (score " +
                                                   std::to_string(i) + " " + got(scores[i]) + ")."),
                        i);
    }
  }
  std::vector<double> sorted = scores;
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// Number of entries of an ascending list at or above t.
double count_at_least(const std::vector<double>& ascending, double t) {
  return static_cast<double>(ascending.end() - std::lower_bound(ascending.begin(), ascending.end(), t));
}

// The corners of the staircase: walking down the distinct scores, the thresholds where the last step
// added members and the next one adds a non-member (or nothing follows). The others are dominated:
// a threshold that adds only non-members keeps TP and raises FP; one followed by members only is
// beaten by the next, with more TP at the same FP.
std::vector<ScoreCorner> staircase_corners(const SortedScores& scores) {
  std::vector<ScoreCorner> corners;
  const auto& members = scores.members;
  const auto& nonmembers = scores.nonmembers;
  std::size_t i = members.size(), j = nonmembers.size();  // entries above the current value are done
  double tp = 0, fp = 0;
  while (i > 0 || j > 0) {
    const double value = i == 0   ? nonmembers[j - 1]
                         : j == 0 ? members[i - 1]
                                  : std::max(members[i - 1], nonmembers[j - 1]);
    double added_members = 0;
    while (i > 0 && members[i - 1] == value) {
      --i;
      ++added_members;
    }
    while (j > 0 && nonmembers[j - 1] == value) --j;
    tp += added_members;
    fp = static_cast<double>(nonmembers.size() - j);
    const bool next_has_nonmember = j > 0 && (i == 0 || nonmembers[j - 1] >= members[i - 1]);
    if (added_members > 0 && (next_has_nonmember || (i == 0 && j == 0))) corners.push_back({value, tp, fp});
  }
  return corners;
}

// The p ≠ x with n H(x, p) = c for x = count/n (below x or above it), by safeguarded Newton steps:
// nH = bd0(count, np) + bd0(n − count, nq) is convex in p, zero at x, with slope n (p − x)/(p q).
double zs_root(double count, double n, double c, bool below) {
  const double x = count / n;
  if (below && count == 0) return 0;
  if (!below && count == n) return 1;
  if (below && count == n) return std::exp(-c / n);      // n H(1, p) = −n ln p
  if (!below && count == 0) return -std::expm1(-c / n);  // n H(0, p) = −n ln(1 − p)
  double low = below ? 0 : x, high = below ? x : 1;
  double p = below ? x - std::sqrt(2 * c * x * (1 - x) / n) : x + std::sqrt(2 * c * x * (1 - x) / n);
  if (!(p > low && p < high)) p = low + (high - low) / 2;
  for (int i = 0; i < 60; ++i) {
    const double f = binomial_deviance(count, n * p).value + binomial_deviance(n - count, n * (1 - p)).value - c;
    // nH falls towards x: above the target, the root is on the far side of p from x.
    if ((f > 0) == below) {
      low = p;
    } else {
      high = p;
    }
    const double slope = n * (p - x) / (p * (1 - p));
    double next = p - f / slope;
    if (!(next > low && next < high)) next = low + (high - low) / 2;
    if (std::fabs(next - p) <= 1e-15 * p) return next;
    p = next;
  }
  return p;
}

// Estimates of the four bounds at a candidate (Boost's quantiles; not certified), and optimistic
// versions that each bound cannot pass, by (ZS) one success over: Pr_p[X ≥ k] ≥ Φ(−√(2nH(k/n, p)))
// for p < k/n, so lower(k) is at most the p where that reaches a, and Pr_p[X ≤ k] ≥ Φ(−√(2nH(k/n, p)))
// for p > k/n puts upper(k) at least at its root; upper(k) ≥ upper(0) = 1 − a^(1/n) as well. They
// are within about one count of the bounds, so the ranking evaluates few candidates beyond the best.
struct BoundsEstimator {
  double positives, negatives, member_a, nonmember_a;
  double member_target, nonmember_target;  // z²/2 with z = −Φ⁻¹(a), rounded down
  double member_floor, nonmember_floor;    // upper(0) on each side

  BoundsEstimator(double p, double n, double ma, double na)
      : positives(p),
        negatives(n),
        member_a(ma),
        nonmember_a(na),
        member_target(0.5 * normal_quantile_up(ma) * normal_quantile_up(ma)),
        nonmember_target(0.5 * normal_quantile_up(na) * normal_quantile_up(na)),
        member_floor(-std::expm1(std::log(ma) / p)),
        nonmember_floor(-std::expm1(std::log(na) / n)) {}

  RateBounds estimate(const ScoreCorner& corner) const {
    RateBounds bounds;
    bounds.tpr_lower = clopper_pearson_lower_estimate(corner.true_positives, positives, member_a);
    bounds.fnr_upper = clopper_pearson_upper_estimate(positives - corner.true_positives, positives, member_a);
    bounds.fpr_upper = clopper_pearson_upper_estimate(corner.false_positives, negatives, nonmember_a);
    bounds.tnr_lower = clopper_pearson_lower_estimate(negatives - corner.false_positives, negatives, nonmember_a);
    return bounds;
  }

  RateBounds optimistic(const ScoreCorner& corner) const {
    const double false_negatives = positives - corner.true_positives;
    const double true_negatives = negatives - corner.false_positives;
    RateBounds bounds;
    bounds.tpr_lower = std::min(zs_root(corner.true_positives, positives, member_target, true), 1 - member_floor);
    bounds.fnr_upper = std::max(zs_root(false_negatives, positives, member_target, false), member_floor);
    bounds.fpr_upper = std::max(zs_root(corner.false_positives, negatives, nonmember_target, false), nonmember_floor);
    bounds.tnr_lower = std::min(zs_root(true_negatives, negatives, nonmember_target, true), 1 - nonmember_floor);
    return bounds;
  }
};

double safe_objective(const ThresholdObjective& objective, const RateBounds& bounds) {
  for (double value : {bounds.tpr_lower, bounds.fpr_upper, bounds.tnr_lower, bounds.fnr_upper}) {
    if (std::isnan(value)) return kNothing;
  }
  const double value = objective(bounds);
  return std::isnan(value) ? kNothing : value;
}

// The candidates and the significances of (S1).
struct ScoresSetup {
  SortedScores scores;
  std::vector<ScoreCorner> candidates;
  std::vector<RateBounds> optimistic;  // per candidate
  double member_a, nonmember_a;
};

Result<ScoresSetup> set_up(const std::vector<double>& member_scores, const std::vector<double>& nonmember_scores,
                           double confidence, double delta, const std::vector<double>& preregistered) {
  if (!(confidence > 0 && confidence < 1)) {
    return invalid_argument("confidence", "The confidence must be above 0 and below 1 " + got(confidence) + ".");
  }
  if (!(delta >= 0 && delta < 1)) {
    return invalid_argument("delta", "δ must be at least 0 and below 1 " + got(delta) + ".");
  }
  ScoresSetup setup;
  DPCALC_TRY(setup.scores.members, sorted_finite(member_scores, "member_scores", "member"));
  DPCALC_TRY(setup.scores.nonmembers, sorted_finite(nonmember_scores, "nonmember_scores", "non-member"));
  setup.scores.positives = static_cast<double>(setup.scores.members.size());
  setup.scores.negatives = static_cast<double>(setup.scores.nonmembers.size());
  const double alpha = tradeoff::one_minus_down(confidence);
  double member_events = setup.scores.positives, nonmember_events = setup.scores.negatives;
  if (preregistered.empty()) {
    setup.candidates = staircase_corners(setup.scores);
  } else {
    for (std::size_t i = 0; i < preregistered.size(); ++i) {
      if (!std::isfinite(preregistered[i])) {
        return about_item(invalid_argument("preregistered_thresholds",
                                           "Every preregistered threshold must be a finite number (threshold " +
                                               std::to_string(i) + " " + got(preregistered[i]) + ")."),
                          i);
      }
    }
    std::vector<double> thresholds = preregistered;
    std::sort(thresholds.begin(), thresholds.end(), std::greater<double>());
    thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
    for (double t : thresholds) {
      setup.candidates.push_back(
          {t, count_at_least(setup.scores.members, t), count_at_least(setup.scores.nonmembers, t)});
    }
    const double distinct = static_cast<double>(thresholds.size());
    member_events = std::min(member_events, distinct);
    nonmember_events = std::min(nonmember_events, distinct);
  }
  // α/2 per side, divided among its events; a significance above 1/2 cannot occur (α < 1).
  setup.member_a = alpha / 2 / member_events;
  setup.nonmember_a = alpha / 2 / nonmember_events;
  if (!(setup.member_a > 0 && setup.nonmember_a > 0)) {
    return Error(kNumeric, "confidence", "The confidence is too close to 1 for this many scores.");
  }
  const BoundsEstimator estimator(setup.scores.positives, setup.scores.negatives, setup.member_a, setup.nonmember_a);
  setup.optimistic.reserve(setup.candidates.size());
  for (const ScoreCorner& corner : setup.candidates) setup.optimistic.push_back(estimator.optimistic(corner));
  return setup;
}

// The best candidate by the objective on estimated bounds: candidates in decreasing order of their
// optimistic value, stopping at the first that cannot beat the best estimate so far.
struct RankedBest {
  std::size_t index;
  std::int64_t ranked;
};
RankedBest rank_candidates(const ScoresSetup& setup, const ThresholdObjective& objective) {
  const BoundsEstimator estimator(setup.scores.positives, setup.scores.negatives, setup.member_a, setup.nonmember_a);
  const std::size_t count = setup.candidates.size();
  std::vector<double> optimistic(count);
  for (std::size_t i = 0; i < count; ++i) optimistic[i] = safe_objective(objective, setup.optimistic[i]);
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Ties in the optimistic value keep the higher threshold (earlier index) first.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return optimistic[a] > optimistic[b]; });
  RankedBest best{order.empty() ? 0 : order[0], 0};
  double best_value = kNothing;
  for (std::size_t index : order) {
    if (best.ranked > 0 && !(optimistic[index] > best_value)) break;
    ++best.ranked;
    const double value = safe_objective(objective, estimator.estimate(setup.candidates[index]));
    if (value > best_value || (value == best_value && index < best.index)) {
      best_value = value;
      best.index = index;
    }
  }
  return best;
}

// The audit of a candidate's counts with certified bounds (there is always one: the lowest member
// score is a corner, and a preregistered list is not empty).
Result<ScoresThreshold> audit_candidate(const ScoresSetup& setup, std::size_t index, double delta) {
  ScoresThreshold result;
  const ScoreCorner& corner = setup.candidates[index];
  result.threshold = corner.threshold;
  result.counts = {corner.true_positives, setup.scores.positives, corner.false_positives, setup.scores.negatives};
  DPCALC_TRY(result.audit, audit_counts_at(result.counts, setup.member_a, setup.nonmember_a, delta));
  return result;
}

}  // namespace

double epsilon_objective(const RateBounds& bounds, double delta) {
  double value = kNothing;
  if (bounds.tpr_lower > delta) value = std::log(bounds.tpr_lower - delta) - std::log(bounds.fpr_upper);
  if (bounds.tnr_lower > delta)
    value = std::max(value, std::log(bounds.tnr_lower - delta) - std::log(bounds.fnr_upper));
  return value;
}

double mu_objective(const RateBounds& bounds) {
  if (!(bounds.tpr_lower > 0) || !(bounds.fpr_upper < 1)) return kNothing;
  const double z_true_positive =
      bounds.tpr_lower <= 0.5 ? normal_quantile_down(bounds.tpr_lower) : -normal_quantile_up(bounds.fnr_upper);
  const double z_false_positive =
      bounds.fpr_upper <= 0.5 ? normal_quantile_up(bounds.fpr_upper) : -normal_quantile_down(bounds.tnr_lower);
  return z_true_positive - z_false_positive;
}

Result<ScoresThreshold> best_scores_threshold(const std::vector<double>& member_scores,
                                              const std::vector<double>& nonmember_scores, double confidence,
                                              double delta, const ThresholdObjective& objective,
                                              const std::vector<double>& preregistered_thresholds) {
  DPCALC_TRY(const ScoresSetup setup,
             set_up(member_scores, nonmember_scores, confidence, delta, preregistered_thresholds));
  const RankedBest best = rank_candidates(setup, objective);
  return audit_candidate(setup, best.index, delta);
}

Result<ScoresAudit> audit_scores(const std::vector<double>& member_scores, const std::vector<double>& nonmember_scores,
                                 double confidence, double delta, const std::vector<double>& preregistered_thresholds) {
  DPCALC_TRY(const ScoresSetup setup,
             set_up(member_scores, nonmember_scores, confidence, delta, preregistered_thresholds));
  ScoresAudit audit;
  audit.member_significance = setup.member_a;
  audit.nonmember_significance = setup.nonmember_a;
  audit.candidate_thresholds = static_cast<std::int64_t>(setup.candidates.size());
  const RankedBest by_epsilon =
      rank_candidates(setup, [delta](const RateBounds& bounds) { return epsilon_objective(bounds, delta); });
  const RankedBest by_mu = rank_candidates(setup, mu_objective);
  audit.ranked_thresholds = by_epsilon.ranked + by_mu.ranked;
  DPCALC_TRY(audit.best_epsilon, audit_candidate(setup, by_epsilon.index, delta));
  DPCALC_TRY(audit.best_mu, audit_candidate(setup, by_mu.index, delta));
  return audit;
}

}  // namespace dpcalc::audit
