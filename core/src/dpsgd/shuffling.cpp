#include "dpcalc/dpsgd/shuffling.hpp"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/discretization.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/pld/privacy_loss.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr double kShuffleSqrtHalf = 0.70710678118654752440;
// Boost's erfc in double (no promotion) is within a few ulps; the bounds below allow this many.
constexpr double kErfcUlps = 16;
// Below -kShuffleMillsFrom, log Φ(x) comes from the continued fraction of the Mills ratio, which
// reaches double precision within kShuffleMillsTerms terms there (as in analytic_gaussian.cpp).
constexpr double kShuffleMillsFrom = 12;
constexpr int kShuffleMillsTerms = 160;
// An absolute allowance on every logarithm, for underflow (erfc below the normal range gives a
// log Φ of 0 where the exact one is above -1e-300).
constexpr double kLogUnderflow = 1e-300;
// Upper bounds on masses are never below this: a mass that underflows is below it (a product of
// at most 2^53 terms of a probability below 1e-308).
constexpr double kMassFloor = 1e-290;
// Threshold search: grid points over the window, its width in noise standard deviations, and
// golden-section steps after the grid.
constexpr int kThresholdGrid = 512;
constexpr double kThresholdWindow = 16;
constexpr int kGoldenSteps = 60;
constexpr double kGoldenRatio = 0.6180339887498949;
// Bisection steps for the ends of the search and of the bins (each halves an interval of at most
// a few hundred standard deviations).
constexpr int kEndSteps = 100;
// Largest relative error accepted for a bin's mass; a bin that cannot be certified to it is merged
// with the next one.
constexpr double kBinTolerance = 1e-9;
// The bins cover the line of M between the points where Q's lower tail and P's upper tail are
// kBinTailShare times the smaller of δ and kBinTailCap (the tails are outcomes of their own, so
// their size only costs resolution, never soundness).
constexpr double kBinTailShare = 1e-6;
constexpr double kBinTailCap = 1e-8;
// The engine's tail budgets, as its accountant spends them (pld/accountant.cpp).
constexpr double kShuffleItemTailShare = 0.5;
constexpr double kShuffleCompositionTailShare = 0.25;
// The default grid step is coarsened (4 times each) at most this many times to fit the engine's grid.
constexpr int kShuffleCoarsenings = 4;
// A whole number of grid steps below a sum of optimistic offsets (as the accountant does).
constexpr double kShuffleOffsetMargin = 1e-9;

// A logarithm and a bound on its absolute error.
struct ShuffleLog {
  double value = 0;
  double error = 0;
};

// Φ at one point: log Φ(x) with a bound on its absolute error, and the other side Φ(−x) with a
// bound on its relative error. The argument x = (c − m)/σ arrives with a relative error of 2u,
// which moves Φ(−x) by a relative 2u x² or so (d log Φ(−x)/dx ~ −x) and log Φ(x), for x < 0, by an
// absolute 2u x² (d log Φ/dx ~ |x|); erfc's own argument x/√2 adds as much again.
struct ShuffleNormal {
  ShuffleLog log_cdf;
  double tail = 0, tail_error = 0;
};

ShuffleNormal shuffle_normal(double x) {
  const double u = kUnitRoundoff;
  ShuffleNormal n;
  double cdf = 0, cdf_error = 0;  // Φ(x) and its relative error, for x < 0
  if (x >= 0) {
    n.tail = 0.5 * boost::math::erfc(x * kShuffleSqrtHalf);
    n.tail_error = (kErfcUlps + 4 * x * x + 4) * u;
    // log1p(−y), y = Φ(−x) <= 1/2: the relative error of y at most doubles (1/(1 − y) <= 2).
    n.log_cdf.value = boost::math::log1p(-n.tail);
    n.log_cdf.error = std::fabs(n.log_cdf.value) * (2 * n.tail_error + 2 * u);
  } else if (x > -kShuffleMillsFrom) {
    cdf = 0.5 * boost::math::erfc(-x * kShuffleSqrtHalf);
    cdf_error = (kErfcUlps + 4 * x * x + 4) * u;
    n.log_cdf.value = std::log(cdf);
    n.log_cdf.error = cdf_error + 2 * u * std::fabs(n.log_cdf.value);
  } else {
    // Φ(x) = φ(x) M(−x), M(t) = 1/(t + 1/(t + 2/(t + ...))) evaluated backwards (positive terms).
    const double t = -x;
    double fraction = 0;
    for (int k = kShuffleMillsTerms; k >= 1; --k) fraction = k / (t + fraction);
    n.log_cdf.value = -0.5 * x * x - kLogSqrtTwoPi - std::log(t + fraction);
    n.log_cdf.error = (32 + 5 * x * x) * u + 2 * u * std::fabs(n.log_cdf.value);
    cdf = std::exp(n.log_cdf.value);
    cdf_error = n.log_cdf.error + 2 * u;
  }
  if (x < 0) {
    // Φ(−x) = 1 − Φ(x) >= 1/2: Φ(x)'s error shrinks by Φ(x)/Φ(−x) <= 1.
    n.tail = 1 - cdf;
    n.tail_error = cdf_error + 2 * u;
  }
  n.log_cdf.error = n.log_cdf.error * (1 + kBoundSlack) + kLogUnderflow;
  n.tail_error *= 1 + kBoundSlack;
  return n;
}

// The shares of the epoch the example takes part in (γ) or sits out (1 − γ), each within 2u
// relative, and their logarithms within an absolute 4u (|log|+1).
struct ShuffleParticipation {
  bool everyone = true;  // γ = 1
  double in = 1, out = 0;
  ShuffleLog log_in, log_out;
};

ShuffleParticipation shuffle_participation(const MaxCoordinatePair& pair, const ShuffleSetting& s) {
  ShuffleParticipation part;
  const double left_over = s.dataset_size - pair.steps * s.batch_size;  // exact: whole numbers below 2^53
  if (!(left_over > 0)) return part;
  part.everyone = false;
  part.out = left_over / s.dataset_size;
  part.in = 1 - part.out;
  part.log_out = {std::log(part.out), 4 * kUnitRoundoff * (std::fabs(std::log(part.out)) + 1)};
  part.log_in = {boost::math::log1p(-part.out), 4 * kUnitRoundoff * (std::fabs(boost::math::log1p(-part.out)) + 1)};
  return part;
}

// log(γ Φ(x_seat) + (1 − γ) Φ(x_rest)) (the seat's coordinate, taken part or sat out). Near 1 it is
// log1p of minus the two tails' mixture, a sum of positive terms, so that its error stays relative
// to its (tiny) size; below 1/2, the log-sum-exp of the two logarithms.
ShuffleLog seat_log_cdf(const ShuffleParticipation& part, const ShuffleNormal& seat, const ShuffleNormal& rest) {
  if (part.everyone) return seat.log_cdf;
  const double u = kUnitRoundoff;
  const double tails = part.in * seat.tail + part.out * rest.tail;
  ShuffleLog result;
  if (tails <= 0.5) {
    const double tails_error = std::max(seat.tail_error, rest.tail_error) + 4 * u;
    result.value = boost::math::log1p(-tails);
    result.error = std::fabs(result.value) * (2 * tails_error + 2 * u) * (1 + kBoundSlack) + kLogUnderflow;
    return result;
  }
  result.value = log_add_exp(part.log_in.value + seat.log_cdf.value, part.log_out.value + rest.log_cdf.value);
  // The weights of the two terms sum to 1: the error is at most the larger one, plus the rounding.
  result.error = std::max(part.log_in.error + seat.log_cdf.error, part.log_out.error + rest.log_cdf.error) +
                 2 * u * (std::fabs(result.value) + 1);
  return result;
}

// log Pr[M <= c] under P and under Q (eq. 8), with error bounds.
struct ShuffleCdfLogs {
  ShuffleLog p, q;
};

ShuffleCdfLogs shuffle_cdf_logs(const MaxCoordinatePair& pair, const ShuffleParticipation& part, double c) {
  const ShuffleNormal rest = shuffle_normal(c / pair.sigma);
  const double others = pair.steps - 1;
  // A sum of terms <= 0: its error is the terms' errors, plus the rounding of the product and sum.
  auto with_shift = [&](double shift) {
    const ShuffleLog seat = seat_log_cdf(part, shuffle_normal((c - shift) / pair.sigma), rest);
    ShuffleLog total;
    total.value = others * rest.log_cdf.value + seat.value;
    total.error = (others * rest.log_cdf.error + seat.error +
                   2 * kUnitRoundoff * (others * std::fabs(rest.log_cdf.value) + std::fabs(total.value))) *
                  (1 + kBoundSlack);
    return total;
  };
  return ShuffleCdfLogs{with_shift(pair.p_shift), with_shift(pair.q_shift)};
}

// Bounds on a probability from a bounded logarithm of it (exp within one ulp: 2u relative).
struct ShuffleMass {
  double estimate = 0, lower = 0, upper = 0;
};

ShuffleMass mass_from_log(const ShuffleLog& log_mass) {
  ShuffleMass m;
  m.estimate = std::exp(log_mass.value);
  m.lower = std::exp(log_mass.value - log_mass.error) * (1 - 2 * kUnitRoundoff);
  m.upper = std::max(kMassFloor, std::min(1.0, std::exp(log_mass.value + log_mass.error) * (1 + 2 * kUnitRoundoff)));
  return m;
}

// 1 − e^s for a bounded logarithm s <= 0 (expm1 within one ulp).
ShuffleMass complement_from_log(const ShuffleLog& log_mass) {
  ShuffleMass m;
  m.estimate = -std::expm1(log_mass.value);
  m.lower = std::max(0.0, -std::expm1(log_mass.value + log_mass.error) * (1 - 2 * kUnitRoundoff));
  m.upper = std::max(kMassFloor, std::min(1.0, -std::expm1(log_mass.value - log_mass.error) * (1 + 2 * kUnitRoundoff)));
  return m;
}

// e^{s2} − e^{s1} for bounded logarithms s1 <= s2: e^{s2} (1 − e^{s1 − s2}).
ShuffleMass difference_from_logs(const ShuffleLog& low, const ShuffleLog& high) {
  const double gap = low.value - high.value;
  const double gap_error = low.error + high.error + kUnitRoundoff * std::fabs(gap);
  ShuffleMass m;
  m.estimate = std::exp(high.value) * -std::expm1(gap);
  m.lower = std::max(
      0.0, std::exp(high.value - high.error) * -std::expm1(std::min(0.0, gap + gap_error)) * (1 - 4 * kUnitRoundoff));
  m.upper = std::min(1.0, std::exp(high.value + high.error) * -std::expm1(gap - gap_error) * (1 + 4 * kUnitRoundoff));
  return m;
}

// log(numerator) − log(denominator) rounded down (each log within one ulp, the difference within u).
double log_ratio_down(double numerator, double denominator) {
  const double a = std::log(numerator), b = std::log(denominator);
  return (a - b) - 4 * kUnitRoundoff * (std::fabs(a) + std::fabs(b)) - kLogUnderflow;
}

// The certified ε of the event {M > c} (remove direction: δ >= P(S) − e^ε Q(S)) or {M <= c} (add
// direction: δ >= Q(S) − e^ε P(S)): every ε below log((P(S) − δ)/Q(S)) has δ(ε) > δ. −infinity
// when the event's mass is not above δ.
double threshold_epsilon(const MaxCoordinatePair& pair, const ShuffleParticipation& part, double c, double delta,
                         bool upper_tail) {
  const ShuffleCdfLogs logs = shuffle_cdf_logs(pair, part, c);
  const ShuffleMass p = upper_tail ? complement_from_log(logs.p) : mass_from_log(logs.p);
  const ShuffleMass q = upper_tail ? complement_from_log(logs.q) : mass_from_log(logs.q);
  const double first = upper_tail ? p.lower : q.lower;
  const double second = upper_tail ? q.upper : p.upper;
  const double excess = (first - delta) * (1 - 2 * kUnitRoundoff);
  if (!(excess > 0)) return kNegativeInfinity;
  return log_ratio_down(excess, second);
}

// The smallest c (to bisection accuracy) at which `decreasing(c)` is at most `level`, searched in
// [low, high] (decreasing(low) > level assumed; high returned when never met).
template <class F>
double shuffle_crossing(F decreasing, double level, double low, double high) {
  for (int i = 0; i < kEndSteps; ++i) {
    const double mid = 0.5 * (low + high);
    (decreasing(mid) > level ? low : high) = mid;
  }
  return high;
}

struct ThresholdBound {
  double epsilon = kNegativeInfinity;
  double threshold = 0;
  bool upper_tail = true;
};

// The best threshold event of one direction: a grid over a window of kThresholdWindow standard
// deviations next to where the event's mass falls to δ, then golden-section refinement around the
// best grid point. Every c evaluated is a certified bound; the search only decides how good.
ThresholdBound best_threshold(const MaxCoordinatePair& pair, const ShuffleParticipation& part, double delta,
                              bool upper_tail) {
  const double span = kThresholdWindow * pair.sigma;
  const double low_end = -span - pair.sigma * std::sqrt(2 * std::log(pair.steps + 1));
  const double high_end = pair.p_shift + span + pair.sigma * std::sqrt(2 * std::log(pair.steps + 1) + 80);
  double low, high;
  if (upper_tail) {
    // P(M > c) decreases in c: the window ends where it reaches δ.
    high = shuffle_crossing([&](double c) { return -std::expm1(shuffle_cdf_logs(pair, part, c).p.value); }, delta,
                            low_end, high_end);
    low = high - span;
  } else {
    // Q(M <= c) increases in c: the window starts where it reaches δ.
    low = shuffle_crossing([&](double c) { return -std::exp(shuffle_cdf_logs(pair, part, c).q.value); }, -delta,
                           low_end, high_end);
    high = low + span;
  }
  ThresholdBound best;
  best.upper_tail = upper_tail;
  const double step = (high - low) / kThresholdGrid;
  int best_index = 0;
  for (int i = 0; i <= kThresholdGrid; ++i) {
    const double c = low + step * i;
    const double epsilon = threshold_epsilon(pair, part, c, delta, upper_tail);
    if (epsilon > best.epsilon) {
      best.epsilon = epsilon;
      best.threshold = c;
      best_index = i;
    }
  }
  if (!(best.epsilon > kNegativeInfinity)) return best;
  double a = low + step * std::max(0, best_index - 1), b = low + step * std::min(kThresholdGrid, best_index + 1);
  for (int i = 0; i < kGoldenSteps; ++i) {
    const double c1 = b - kGoldenRatio * (b - a), c2 = a + kGoldenRatio * (b - a);
    const double e1 = threshold_epsilon(pair, part, c1, delta, upper_tail);
    const double e2 = threshold_epsilon(pair, part, c2, delta, upper_tail);
    for (const auto& [c, e] : {std::pair{c1, e1}, std::pair{c2, e2}}) {
      if (e > best.epsilon) {
        best.epsilon = e;
        best.threshold = c;
      }
    }
    (e1 >= e2 ? b : a) = e1 >= e2 ? c2 : c1;
  }
  return best;
}

ThresholdBound single_epoch_bound(const MaxCoordinatePair& pair, const ShuffleParticipation& part, double delta) {
  const ThresholdBound remove = best_threshold(pair, part, delta, true);
  const ThresholdBound add = best_threshold(pair, part, delta, false);
  return add.epsilon > remove.epsilon ? add : remove;
}

// One epoch's pair binned on the line of M: outcome masses (estimates, as the engine takes them) and
// the largest relative error of any of them.
struct BinnedEpoch {
  std::vector<double> p, q;
  double relative_error = 0;
};

double relative_error_of(const ShuffleMass& m) {
  if (!(m.estimate > 0)) return kInfinity;
  return std::max(m.upper / m.estimate - 1, 1 - m.lower / m.estimate);
}

// The bins: (−∞, c_0], (c_{j−1}, c_j] of width `width`, (c_K, ∞); a bin whose masses are not
// certified to kBinTolerance is merged with the next (the last with the one before).
BinnedEpoch binned_epoch(const MaxCoordinatePair& pair, const ShuffleParticipation& part, double first, double last,
                         double width) {
  BinnedEpoch binned;
  const auto count = static_cast<std::int64_t>(std::ceil((last - first) / width));
  std::vector<ShuffleCdfLogs> at;
  at.reserve(static_cast<std::size_t>(count) + 1);
  for (std::int64_t j = 0; j <= count; ++j) at.push_back(shuffle_cdf_logs(pair, part, first + width * double(j)));
  double error = 0;
  auto add_bin = [&](const ShuffleMass& p, const ShuffleMass& q) {
    binned.p.push_back(p.estimate);
    binned.q.push_back(q.estimate);
    error = std::max({error, relative_error_of(p), relative_error_of(q)});
  };
  add_bin(mass_from_log(at.front().p), mass_from_log(at.front().q));
  std::size_t start = 0;
  for (std::size_t j = 1; j < at.size(); ++j) {
    const ShuffleMass p = difference_from_logs(at[start].p, at[j].p);
    const ShuffleMass q = difference_from_logs(at[start].q, at[j].q);
    const bool certified = relative_error_of(p) <= kBinTolerance && relative_error_of(q) <= kBinTolerance;
    if (!certified && j + 1 < at.size()) continue;  // widen the bin to the next point
    if (!certified) {
      // The last points: reach back into the tail bin instead of leaving an uncertified one.
      break;
    }
    add_bin(p, q);
    start = j;
  }
  add_bin(complement_from_log(at[start].p), complement_from_log(at[start].q));
  binned.relative_error = error;
  return binned;
}

Error grid_error(const Error& error, const ShuffleLowerOptions& options, double interval) {
  if (error.field == pld::kGridTooLarge) {
    return Error{kNumeric, "discretization_interval",
                 "Composing the epochs with discretization_interval = " + format_number(interval) + " needs about " +
                     error.message + " grid points (limit " + std::to_string(pld::kMaxGridPoints) +
                     "); give a larger discretization_interval" +
                     (options.discretization_interval == 0 ? "" : ", or fewer epochs") + "."};
  }
  if (error.field == pld::kLossTooLarge) {
    return Error{kNumeric, "noise_multiplier",
                 "The epochs' privacy loss reaches " + error.message + ", beyond ±" + pld::max_loss_text() +
                     ", where e^loss no longer fits a double: the lower bound of the composed epochs needs more noise "
                     "(its ε is in the hundreds)."};
  }
  return error;
}

// ε lower bound of E re-shuffled epochs from the binned pair (docs/samplers.md, eq. 10).
Result<double> reshuffled_epsilon(const BinnedEpoch& binned, double epochs, double delta, double interval,
                                  double tail_mass, const ShuffleLowerOptions& options,
                                  const pld::ProgressCallback& progress, pld::Discretization& discretization) {
  // The engine renormalises the lists: each mass is then within R of the exact binned mass.
  const double r = 2 * binned.relative_error + 4 * kUnitRoundoff;
  const double target = delta * std::pow(1 + r, epochs) * (1 + 4 * kUnitRoundoff);
  const double shift = epochs * (boost::math::log1p(r) - boost::math::log1p(-r)) * (1 + 4 * kUnitRoundoff);
  const pld::DominatingPair pair{pld::FinitePair{binned.p, binned.q}, 1.0};
  double best = 0;
  int done = 0;
  for (const pld::Direction direction : {pld::Direction::kRemove, pld::Direction::kAdd}) {
    DPCALC_TRY(const pld::PrivacyLossPair loss, pld::PrivacyLossPair::create(pair, direction));
    Result<pld::DiscretizedPair> discretized =
        pld::discretize(loss, interval, kShuffleItemTailShare * tail_mass / epochs);
    if (!discretized.ok()) return grid_error(discretized.error(), options, interval);
    pld::ProgressCallback part;
    if (progress) part = [&](double f) { return progress((done + f) / 2); };
    Result<pld::DiscretePld> composed = pld::compose({pld::CompositionTerm{&discretized.value().optimistic, epochs}},
                                                     false, kShuffleCompositionTailShare * tail_mass, part);
    if (!composed.ok()) return grid_error(composed.error(), options, interval);
    pld::DiscretePld& lower = composed.value();
    // The copies' optimistic offsets add up: a whole number of steps at or below their sum.
    const double offset_steps =
        std::floor(epochs * discretized.value().optimistic_offset / interval * (1 - kShuffleOffsetMargin));
    if (offset_steps >= 1 && offset_steps <= 1e15) lower.lowest_index += static_cast<std::int64_t>(offset_steps);
    const double epsilon = pld::epsilon_for_delta(lower, target + lower.truncated_mass, pld::Bound::kLower);
    best = std::max(best, epsilon - shift);
    discretization.discretization_interval = interval;
    discretization.grid_size = std::max(discretization.grid_size, static_cast<std::int64_t>(lower.masses.size()));
    discretization.truncated_mass = std::max(discretization.truncated_mass, lower.truncated_mass);
    ++done;
  }
  return best;
}

}  // namespace

Result<ShuffleSetting> check_shuffle(const ShuffleSetting& setting) {
  DPCALC_TRY(const double n, check_count(setting.dataset_size, "dataset_size"));
  DPCALC_TRY(const double b, check_whole_number(setting.batch_size, 1, n, "batch_size"));
  DPCALC_TRY(const double epochs, check_count(setting.epochs, "epochs"));
  return ShuffleSetting{n, b, epochs, setting.order, setting.relation};
}

double shuffle_steps_per_epoch(const ShuffleSetting& checked) {
  return std::floor(checked.dataset_size / checked.batch_size);
}

Result<ShuffleUpperBound> shuffle_epsilon_upper(const ShuffleSetting& setting, double noise_multiplier, double delta,
                                                double group_size) {
  DPCALC_TRY(const ShuffleSetting checked, check_shuffle(setting));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  DPCALC_TRY(const double k, check_whole_number(group_size, 1, checked.dataset_size, "group_size"));
  const double sensitivity = checked.relation == Relation::kZeroOut ? 1.0 : 2.0;
  ShuffleUpperBound bound;
  // Rounded up: √E (one ulp), the products and the quotient (u each); ε grows with μ.
  bound.mu = std::sqrt(checked.epochs) * k * sensitivity / sigma * (1 + 8 * kUnitRoundoff);
  bound.epsilon = gaussian_epsilon_for_delta(bound.mu, target);
  if (!std::isfinite(bound.epsilon)) {
    return Error{kNumeric, "noise_multiplier",
                 "With μ = " + format_number(bound.mu) +
                     " the Gaussian's ε exceeds the range of a double; give more "
                     "noise."};
  }
  return bound;
}

MaxCoordinatePair shuffle_max_coordinate_pair(const ShuffleSetting& checked, double noise_multiplier) {
  MaxCoordinatePair pair;
  pair.sigma =
      checked.order == ShuffleOrder::kPersistent ? noise_multiplier / std::sqrt(checked.epochs) : noise_multiplier;
  pair.steps = shuffle_steps_per_epoch(checked);
  pair.p_shift = 2;
  pair.q_shift = checked.relation == Relation::kZeroOut ? 1.0 : 0.0;
  pair.participation = pair.steps * checked.batch_size / checked.dataset_size;
  return pair;
}

namespace {

// shuffle_epsilon_lower on the grid options.discretization_interval (> 0 for re-shuffled epochs).
Result<ShuffleLowerBound> lower_on_grid(const ShuffleSetting& setting, double noise_multiplier, double delta,
                                        const ShuffleLowerOptions& options, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const ShuffleSetting checked, check_shuffle(setting));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  if (!(options.discretization_interval >= 0 && options.discretization_interval <= 10)) {
    return invalid_argument("discretization_interval",
                            "discretization_interval must be 0 (automatic) or a number in (0, 10] (got " +
                                format_number(options.discretization_interval) + ").");
  }
  if (!(options.tail_mass_truncation > 0 && options.tail_mass_truncation < 1e-3)) {
    return invalid_argument("tail_mass_truncation", "tail_mass_truncation must be a number in (0, 0.001) (got " +
                                                        format_number(options.tail_mass_truncation) + ").");
  }
  const MaxCoordinatePair pair = shuffle_max_coordinate_pair(checked, sigma);
  const ShuffleParticipation part = shuffle_participation(pair, checked);
  // The single epoch (persistent shuffling: one epoch at σ/√E) by its best threshold event.
  const ThresholdBound single = single_epoch_bound(pair, part, target);
  ShuffleLowerBound bound;
  bound.single_epoch_epsilon = std::max(0.0, single.epsilon);
  bound.threshold = single.threshold;
  bound.upper_tail = single.upper_tail;
  bound.epsilon_lower = bound.single_epoch_epsilon;
  if (checked.order == ShuffleOrder::kPersistent || checked.epochs == 1) return bound;
  if (progress && !progress(0)) return pld::cancelled();

  // Re-shuffled: E independent epochs. Bins of M a loss step wide (the loss of M grows at about
  // (a − b)/σ² per unit of M), fewer if there would be more than kMaxShuffleBins.
  const double interval = options.discretization_interval;
  const double tail_mass = std::min(options.tail_mass_truncation, target / 10);
  const double bin_tail = kBinTailShare * std::min(target, kBinTailCap);
  const double low_end = -kThresholdWindow * pair.sigma - pair.sigma * std::sqrt(2 * std::log(pair.steps + 1));
  const double high_end =
      pair.p_shift + kThresholdWindow * pair.sigma + pair.sigma * std::sqrt(2 * std::log(pair.steps + 1) + 80);
  const double first = shuffle_crossing([&](double c) { return -std::exp(shuffle_cdf_logs(pair, part, c).q.value); },
                                        -bin_tail, low_end, high_end);
  const double last = shuffle_crossing([&](double c) { return -std::expm1(shuffle_cdf_logs(pair, part, c).p.value); },
                                       bin_tail, first, high_end);
  double width = interval * pair.sigma * pair.sigma / (pair.p_shift - pair.q_shift);
  if ((last - first) / width > kMaxShuffleBins) width = (last - first) / kMaxShuffleBins;
  const BinnedEpoch binned = binned_epoch(pair, part, first, std::max(last, first + width), width);
  bound.bins = static_cast<double>(binned.p.size());
  DPCALC_TRY(const double composed, reshuffled_epsilon(binned, checked.epochs, target, interval, tail_mass, options,
                                                       progress, bound.discretization));
  bound.epsilon_lower = std::max(bound.epsilon_lower, composed);
  return bound;
}

}  // namespace

Result<ShuffleLowerBound> shuffle_epsilon_lower(const ShuffleSetting& setting, double noise_multiplier, double delta,
                                                const ShuffleLowerOptions& options,
                                                const pld::ProgressCallback& progress) {
  if (options.discretization_interval != 0) return lower_on_grid(setting, noise_multiplier, delta, options, progress);
  // The default step, coarsened while the composition would exceed the engine's grid (many epochs):
  // a coarser grid only loosens the lower bound.
  ShuffleLowerOptions coarser = options;
  coarser.discretization_interval = kDefaultShuffleInterval;
  for (int i = 0;; ++i) {
    Result<ShuffleLowerBound> bound = lower_on_grid(setting, noise_multiplier, delta, coarser, progress);
    const bool too_fine =
        !bound.ok() && bound.error().field == "discretization_interval" && bound.error().code == kNumeric;
    if (!too_fine || i == kShuffleCoarsenings) return bound;
    coarser.discretization_interval *= 4;
  }
}

}  // namespace dpcalc::dpsgd
