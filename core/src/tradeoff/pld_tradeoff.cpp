#include "dpcalc/tradeoff/pld_tradeoff.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dpcalc/pld/pld.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

using pld::DiscretePld;

// Walks the grid of a PLD from its highest loss down to one point below the lowest (a point of no
// mass, whose line is still valid), keeping the sums the curve needs for the PLD's masses as given,
// each with a bound on its rounding error:
//   A_j = sum_{k >= j} m_k: Neumaier's compensated sum, error <= 2u A_j + 4 K u^2 A_j <= 3u A_j
//     (Higham 2002, Sec. 4.3).
//   b_j = sum_{k >= j} m_k e^{l_j - l_k} = m_j + e^-h b_{j+1} (so Q[L >= l_j] = b_j e^{-l_j}): each
//     term passes at most K - j multiplications by the computed e^-h (2u, and u for the product) and
//     K - j + 1 additions of nonnegative numbers, so the relative error is at most 4 (K - j + 1) u.
//   D_j = sum_{k > j} m_k (1 - e^{l_j - l_k}) = delta(l_j) - m_inf, by D_{j-1} = (1 - e^-h) A_j +
//     e^-h D_j: nonnegative terms, no cancellation. With the computed factors e1 = -expm1(-h) and
//     d = exp(-h) (2u each), the step adds to the error E at most e1 err(A_j) + d E_j + 4u (e1 A_j +
//     d D_j) + u D_{j-1}; multiplying by the exact factors instead of the computed ones (2u each,
//     compounded over K steps) and the rounding of E itself are covered by the factor
//     kSpreadErrorSlack while K u < 1e-8.
//   F_j >= e^{-l_j}: exp_up one point above the highest, then F_{j-1} = F_j g plus two subnormal ulps
//     (where rounding is absolute), with g >= e^h (1 + 4u) (exp_up, then round_up): the product's
//     own rounding (u) then keeps it above F_j e^h. One exp per walk instead of one per grid
//     point, at a relative cost of at most (1 + 6u)^K - 1 < 2e-9.
// A walk keeps D and E only kWithSpread, b and F only kWithScaledQ (what its reader uses).
constexpr double kSpreadErrorSlack = 1 + 1e-6;

// l = (lowest_index + index) h.
double grid_loss(const DiscretePld& pld, std::int64_t index) {
  return static_cast<double>(pld.lowest_index + index) * pld.discretization_interval;
}

// The sums of a line at a grid point: D_j, E_j (before kSpreadErrorSlack) and the point's index.
struct LineAt {
  double spread, spread_error;
  std::int64_t index;
};

template <bool kWithSpread, bool kWithScaledQ>
class DownwardWalk {
 public:
  explicit DownwardWalk(const DiscretePld& pld)
      : pld_(pld),
        index_(static_cast<std::int64_t>(pld.masses.size())),
        decay_(std::exp(-pld.discretization_interval)),
        complement_(-std::expm1(-pld.discretization_interval)),
        growth_(round_up(exp_up(pld.discretization_interval, 0), 2)),
        exp_minus_loss_(exp_up(-loss(), kUnit * std::fabs(loss()))) {}  // at the point above the highest

  // Moves to the next grid point down (the first call: the highest); false after the point below
  // the lowest.
  bool next() {
    if (index_ < 0) return false;
    if constexpr (kWithSpread) {
      const double spread = complement_ * mass_ + decay_ * spread_;
      // 4u (e1 A_j + d D_j) + u D_{j-1} is 5u D_{j-1}; the recurrent term last (shortest chain).
      spread_error_ = complement_ * mass_error() + 5 * kUnit * spread + decay_ * spread_error_;
      spread_ = spread;
    }
    --index_;
    const double mass = index_ >= 0 ? pld_.masses[static_cast<std::size_t>(index_)] : 0.0;
    // Neumaier's step (the sum is nonnegative).
    const double sum = sum_ + mass;
    compensation_ += sum_ >= mass ? (sum_ - sum) + mass : (mass - sum) + sum_;
    sum_ = sum;
    mass_ = sum_ + compensation_;
    if constexpr (kWithScaledQ) {
      scaled_q_ = mass + decay_ * scaled_q_;
      exp_minus_loss_ = exp_minus_loss_ * growth_ + 2 * kSubnormalUlp;
    }
    ++steps_;
    return true;
  }

  // l_j = (lowest_index + j) h.
  double loss() const { return grid_loss(pld_, index_); }
  // The line at l_j (kWithSpread).
  LineAt line() const { return LineAt{spread_, spread_error_, index_}; }
  // A_j and a bound on its error.
  double mass_at_or_above() const { return mass_; }
  double mass_error() const { return 3 * kUnit * mass_; }
  // b_j and a bound on its relative error (kWithScaledQ, as the two below).
  double scaled_q_at_or_above() const { return scaled_q_; }
  double scaled_q_relative_error() const { return 4 * static_cast<double>(steps_ + 1) * kUnit; }
  // F_j, an upper bound on e^{-l_j}.
  double exp_minus_loss_upper() const { return exp_minus_loss_; }
  // Q[L >= l_j] = b_j e^{-l_j}, rounded up.
  double q_mass_upper() const {
    return round_up(scaled_q_at_or_above() * (1 + scaled_q_relative_error()) * exp_minus_loss_, 2);
  }
  // True at the point below the lowest (no mass of its own).
  bool below_grid() const { return index_ < 0; }

 private:
  const DiscretePld& pld_;
  std::int64_t index_;
  double decay_, complement_, growth_;
  double exp_minus_loss_;                         // F
  double sum_ = 0, compensation_ = 0, mass_ = 0;  // A
  double scaled_q_ = 0;                           // b
  double spread_ = 0, spread_error_ = 0;          // D, E
  double steps_ = 0;
};

// Every line is a sound bound; the walk only chooses which to evaluate. Each query takes the
// line at the Neyman-Pearson vertex the walk assigns it to and that line's two neighbours. A line
// keeps the walk's sums at its point; its delta and loss are computed only for the queries that take it.

// The lines a query takes (at most three): the walk collects them, the bounds are computed after.
struct QueryLines {
  std::array<LineAt, 3> lines;
  int count = 0;
  void add(const LineAt& line) { lines[count++] = line; }
};

// Upper bound on delta(l_j) at a line's point: m_inf + D_j + its error + the PLD's rounding_error
// (m_inf taken within 8u: it is itself computed).
double delta_upper(const DiscretePld& pld, const LineAt& line) {
  return round_up(
      pld.infinite_mass * (1 + 8 * kUnit) + line.spread + line.spread_error * kSpreadErrorSlack + pld.rounding_error,
      4);
}

// The remove-direction line at loss l: TPR <= delta(l) + e^l alpha (l's rounding u |l|, log's 2u).
double remove_line_tpr(double delta, double loss, double alpha, double log_alpha) {
  if (alpha == 0) return delta;
  return round_up(delta + exp_up(loss + log_alpha, 2 * kUnit * (std::fabs(loss) + std::fabs(log_alpha))), 1);
}

// The add-direction line at loss l: beta >= e^-l (1 - delta'(l) - alpha), as a TPR bound. The room
// 1 - delta' - alpha takes two roundings of magnitude at most 1 + alpha.
double add_line_tpr(double delta, double loss, double alpha) {
  const double room = (1 - delta) - alpha - 3 * kUnit * (1 + alpha);
  if (!(room > 0)) return 1;
  const double beta = round_down(exp_down(-loss, kUnit * std::fabs(loss)) * room, 1);
  return std::isfinite(beta) ? one_minus_up(std::min(beta, 1.0)) : 1.0;
}

// Remove direction (pessimistic PLD): the line at l_j is the best for alpha in
// [Q[L >= l_{j+1}], Q[L >= l_j]]; the walk meets those intervals in increasing alpha.
void remove_lines(const DiscretePld& pld, const std::vector<double>& alphas, const std::vector<double>& log_alphas,
                  std::vector<double>& upper) {
  DownwardWalk<true, true> walk(pld);
  std::vector<QueryLines> taken(alphas.size());
  LineAt previous{};
  std::size_t next = 0, pending = 0;  // [pending, next): the queries assigned at the previous point
  const std::size_t count = alphas.size();
  double next_alpha = count > 0 ? alphas[0] : kInfinity;
  for (bool first = true; walk.next(); first = false) {
    const LineAt line = walk.line();
    for (std::size_t q = pending; q < next; ++q) taken[q].add(line);
    pending = next;
    // alpha <= Q[L >= l_j] = b_j e^{-l_j}, tested in double (the choice need not be exact: every line
    // is sound; a NaN product, 0 times an F_j that overflowed, counts as reached).
    const double q_mass = walk.scaled_q_at_or_above() * walk.exp_minus_loss_upper();
    for (; next < count && !(q_mass < next_alpha); ++next) {
      taken[next].add(line);
      if (!first) taken[next].add(previous);
      next_alpha = next + 1 < count ? alphas[next + 1] : kInfinity;
    }
    previous = line;
  }
  for (std::size_t q = next; q < count; ++q) taken[q].add(previous);
  for (std::size_t q = 0; q < count; ++q) {
    for (int i = 0; i < taken[q].count; ++i) {
      const LineAt& line = taken[q].lines[i];
      upper[q] = std::min(
          upper[q], remove_line_tpr(delta_upper(pld, line), grid_loss(pld, line.index), alphas[q], log_alphas[q]));
    }
  }
  // Beyond the lowest vertex, delta(eps) -> m_inf + A_0 as eps -> -infinity.
  const double limit = round_up(
      pld.infinite_mass * (1 + 8 * kUnit) + walk.mass_at_or_above() + walk.mass_error() + pld.rounding_error, 3);
  for (std::size_t q = next; q < count; ++q) upper[q] = std::min(upper[q], limit);
}

// Add direction (pessimistic PLD): mirrored, the line at l_j is the best for alpha in
// [1 - m_inf - A_j, 1 - m_inf - A_{j+1}]; the walk meets those intervals in decreasing alpha.
void add_lines(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& upper) {
  DownwardWalk<true, false> walk(pld);
  std::vector<QueryLines> taken(alphas.size());
  LineAt previous{};
  std::size_t remaining = alphas.size();  // queries [0, remaining) not assigned yet
  std::size_t pending = remaining;        // [remaining, pending): those assigned at the previous point
  double highest_unassigned = remaining > 0 ? alphas[remaining - 1] : -kInfinity;
  for (bool first = true; walk.next(); first = false) {
    const LineAt line = walk.line();
    for (std::size_t q = remaining; q < pending; ++q) taken[q].add(line);
    pending = remaining;
    const double threshold = 1 - pld.infinite_mass - walk.mass_at_or_above();
    for (; highest_unassigned >= threshold; --remaining) {
      taken[remaining - 1].add(line);
      if (!first) taken[remaining - 1].add(previous);
      highest_unassigned = remaining > 1 ? alphas[remaining - 2] : -kInfinity;
    }
    previous = line;
  }
  for (std::size_t q = 0; q < remaining; ++q) taken[q].add(previous);
  for (std::size_t q = 0; q < alphas.size(); ++q) {
    for (int i = 0; i < taken[q].count; ++i) {
      const LineAt& line = taken[q].lines[i];
      upper[q] = std::min(upper[q], add_line_tpr(delta_upper(pld, line), grid_loss(pld, line.index), alphas[q]));
    }
  }
}

// Lower bounds at sorted queries from points that lie below a concave nondecreasing curve (the
// true TPR), offered in order of alpha, increasing or decreasing: the chord of two consecutive
// points lies below the curve between them (and never below the left point, the curve being
// nondecreasing). A point out of order is dropped (dropping points keeps every chord sound).
class ChordSweep {
 public:
  ChordSweep(const std::vector<double>& alphas, std::vector<double>& lower, bool increasing)
      : alphas_(alphas), lower_(lower), increasing_(increasing), count_(alphas.size()), remaining_(alphas.size()) {}

  void add(double alpha, double tpr) {
    if (!(tpr >= 0)) tpr = 0;  // (alpha, 0) lies below every trade-off curve; also catches -inf
    // Most points pass no query: in order, they only become the left end of the next chord.
    if (increasing_ ? alpha >= previous_alpha_ && (next_ == count_ || alphas_[next_] > alpha)
                    : alpha <= previous_alpha_ && (remaining_ == 0 || alphas_[remaining_ - 1] < alpha)) {
      previous_alpha_ = alpha;
      previous_tpr_ = tpr;
      return;
    }
    add_passing(alpha, tpr);
  }

 private:
  // add() for the first point, a point out of order, or one that passes queries.
  void add_passing(double alpha, double tpr) {
    if (std::isnan(previous_alpha_)) {  // the first point: queries beyond it get no bound
      if (increasing_) {
        while (next_ < alphas_.size() && alphas_[next_] < alpha) ++next_;
      } else {
        while (remaining_ > 0 && alphas_[remaining_ - 1] > alpha) --remaining_;
      }
    } else if (increasing_ ? alpha < previous_alpha_ : alpha > previous_alpha_) {
      return;
    } else if (increasing_) {
      for (; next_ < alphas_.size() && alphas_[next_] <= alpha; ++next_) {
        if (alphas_[next_] >= previous_alpha_) take(next_, previous_alpha_, previous_tpr_, alpha, tpr);
      }
    } else {
      for (; remaining_ > 0 && alphas_[remaining_ - 1] >= alpha; --remaining_) {
        const std::size_t q = remaining_ - 1;
        if (alphas_[q] <= previous_alpha_) take(q, alpha, tpr, previous_alpha_, previous_tpr_);
      }
    }
    previous_alpha_ = alpha;
    previous_tpr_ = tpr;
  }

  // The chord from (left_alpha, left_tpr) to (right_alpha, right_tpr) at query q, rounded down.
  void take(std::size_t q, double left_alpha, double left_tpr, double right_alpha, double right_tpr) {
    double value = left_tpr;
    const double rise = right_tpr - left_tpr, width = right_alpha - left_alpha;
    if (rise > 0 && width > 0 && std::isfinite(width)) {
      const double increment = round_down(rise * ((alphas_[q] - left_alpha) / width), 5);
      value = left_tpr + increment - 2 * kUnit * (std::fabs(left_tpr) + increment);
    } else if (width == 0) {
      value = std::max(left_tpr, right_tpr);
    }
    lower_[q] = std::max(lower_[q], value);
  }

  const std::vector<double>& alphas_;
  std::vector<double>& lower_;
  bool increasing_;
  std::size_t count_, next_ = 0, remaining_;
  double previous_alpha_ = std::nan(""), previous_tpr_ = 0;
};

// Bound on the distance between the optimistic PLD's hockey-stick curve and the exact one: the
// truncated mass and the masses' rounding error (accountant.hpp), rounded up.
double optimistic_slack(const DiscretePld& pld) { return round_up(pld.truncated_mass + pld.rounding_error, 1); }

// m_inf rounded down (it is itself computed).
double infinite_mass_lower(const DiscretePld& pld) { return pld.infinite_mass * (1 - 8 * kUnit); }

// Remove direction (optimistic PLD): the vertices (Q[L >= l_j], P[L >= l_j] + m_inf) of its curve,
// moved right (Q rounded up) and down (P rounded down, less the slack c), from (0, m_inf - c) up to
// the point (1, 1) that every trade-off curve passes through.
void remove_chords(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& lower) {
  const double slack = optimistic_slack(pld), infinite = infinite_mass_lower(pld);
  ChordSweep chords(alphas, lower, true);
  chords.add(0, infinite - slack - 3 * kUnit * (infinite + slack));
  DownwardWalk<false, true> walk(pld);
  while (walk.next() && !walk.below_grid()) {
    const double p_mass = round_down(infinite + walk.mass_at_or_above() - walk.mass_error(), 2);
    chords.add(walk.q_mass_upper(), p_mass - slack - 3 * kUnit * (p_mass + slack));
  }
  chords.add(1, 1);
}

// Add direction (optimistic PLD): its curve mirrored into the membership test's plane has the
// vertices (1 - m_inf - A_j, 1 - Q'[L' >= l_j]); the true curve lies above them moved right by the
// slack c. From (1, 1) down to (0, 0), which every trade-off curve lies above.
void add_chords(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& lower) {
  const double slack = optimistic_slack(pld), infinite = infinite_mass_lower(pld);
  ChordSweep chords(alphas, lower, false);
  chords.add(1, 1);
  // All magnitudes are at most 2: 8u absolute covers the three roundings.
  chords.add(1 - infinite + slack + 8 * kUnit, 1);
  DownwardWalk<false, true> walk(pld);
  while (walk.next() && !walk.below_grid()) {
    const double p_mass = walk.mass_at_or_above() - walk.mass_error();
    const double q_mass = walk.q_mass_upper();
    chords.add(1 - (infinite + p_mass) + slack + 8 * kUnit, (1 - q_mass) - 2 * kUnit * (1 + q_mass));
  }
  chords.add(0, 0);
}

TprBounds evaluate(const pld::ComposedPlds& plds, const std::vector<double>& alphas) {
  std::vector<double> log_alphas;
  for (double alpha : alphas) log_alphas.push_back(std::log(alpha));
  TprBounds bounds{std::vector<double>(alphas.size(), 1.0), std::vector<double>(alphas.size(), 0.0)};
  remove_lines(plds.upper_remove, alphas, log_alphas, bounds.upper);
  add_lines(plds.upper_add, alphas, bounds.upper);
  remove_chords(plds.lower_remove, alphas, bounds.lower);
  add_chords(plds.lower_add, alphas, bounds.lower);
  return bounds;
}

// sup_alpha TPR(alpha) / alpha of the remove lines: unbounded when TPR(0) = m_inf + rounding > 0,
// else at most the slope e^{l_top} of the highest line.
double likelihood_ratio_upper(const DiscretePld& pld) {
  if (pld.infinite_mass + pld.rounding_error > 0 || pld.masses.empty()) return kInfinity;
  const double top = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(pld.masses.size()) - 1) *
                     pld.discretization_interval;
  return exp_up(top, kUnit * std::fabs(top));
}

}  // namespace

std::vector<CurvePoint> answer_points(const pld::ComposedPlds& plds, double epsilon, double delta) {
  std::vector<CurvePoint> points;
  if (!(std::isfinite(epsilon) && delta >= 0 && delta < 1)) return points;
  // The masses at or above the first grid loss l above eps: Q-mass of the remove PLD (b e^-l, b as in
  // DownwardWalk: one exp), P-mass of the add one. Only where the point sits depends on them.
  const auto above = [epsilon](const DiscretePld& pld, bool q_mass) {
    const double decay = std::exp(-pld.discretization_interval);
    double sum = 0, scaled = 0, lowest = 0;
    for (std::size_t k = pld.masses.size(); k-- > 0;) {
      const double loss =
          static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(k)) * pld.discretization_interval;
      if (!(loss > epsilon)) break;
      sum += pld.masses[k];
      scaled = pld.masses[k] + decay * scaled;
      lowest = loss;
    }
    if (!q_mass) return sum;
    return scaled > 0 ? scaled * std::exp(-lowest) : 0.0;
  };
  // A small relative margin keeps the answer's line above the rounding of log((tpr - delta) / alpha).
  constexpr double kMargin = 1e-12;
  const double remove_alpha = std::min(1.0, above(plds.upper_remove, true));
  if (remove_alpha > 0) {
    const double log_alpha = std::log(remove_alpha);
    const double scaled = exp_up(epsilon + log_alpha, 2 * kUnit * (std::fabs(epsilon) + std::fabs(log_alpha)));
    const double tpr = round_up(delta + scaled, 1) * (1 + kMargin);
    if (tpr < 1) points.push_back({remove_alpha, tpr});
  }
  const double add_alpha = 1 - plds.upper_add.infinite_mass - above(plds.upper_add, false);
  if (add_alpha > 0 && add_alpha < 1) {
    // The room 1 - delta - alpha takes two roundings of magnitude at most 1 + alpha.
    const double room = (1 - delta) - add_alpha - 3 * kUnit * (1 + add_alpha);
    const double beta = round_down(exp_down(-epsilon, kUnit * std::fabs(epsilon)) * room, 1) * (1 - kMargin);
    if (beta > 0) points.push_back({add_alpha, std::min(1.0, one_minus_up(beta))});
  }
  std::sort(points.begin(), points.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.alpha < b.alpha; });
  return points;
}

Result<TradeoffResult> pld_tradeoff(const pld::ComposedPlds& plds, const TradeoffOptions& options) {
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  CurveSource source;
  source.evaluate = [&plds](const std::vector<double>& alphas) { return evaluate(plds, alphas); };
  // Either direction's delta(0) bounds the total variation distance.
  source.advantage = std::min(1.0, pld::hockey_stick_divergence(plds.upper_remove, 0).upper());
  source.likelihood_ratio = likelihood_ratio_upper(plds.upper_remove);
  source.method = kPldTradeoff;
  TradeoffResult result = summarize(source, checked);
  result.discretization = plds.discretization;
  return result;
}

}  // namespace dpcalc::tradeoff
