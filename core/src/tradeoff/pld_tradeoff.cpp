#include "dpcalc/tradeoff/pld_tradeoff.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "dpcalc/fft/complex_vector.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

using pld::DiscretePld;

// Walks the grid of a PLD from its highest loss down to one point below the lowest (a point of no
// mass, whose line is still valid), with the sums the curve needs at a grid index j (loss
// l_j = (lowest_index + j) h; j = K, one above the highest, starts with every sum 0):
//   A_j = sum_{k >= j} m_k,
//   b_j = sum_{k >= j} m_k e^{l_j - l_k}             (so Q[L >= l_j] = b_j e^{-l_j}),
//   D_j = sum_{k > j} m_k (1 - e^{l_j - l_k})         (= delta(l_j) - m_inf),
//   F_j >= e^{-l_j}.
// Moving down s points, from j to j' = j - s (the masses m_{j'}, ..., m_{j-1} join), with the weights
// w_i = e^{-i h} and c_i = 1 - e^{-i h}:
//   A_j' = A_j + sum_{i<s} m_{j'+i},   b_j' = sum_{i<s} m_{j'+i} w_i + w_s b_j,
//   D_j' = sum_{0<i<s} m_{j'+i} c_i + c_s A_j + w_s D_j
// (for k >= j, 1 - e^{l_j' - l_k} = c_s + w_s (1 - e^{l_j - l_k})): sums of nonnegative terms only,
// so no cancellation, and each rounding error is relative to the sum it lands in.
//
// Most grid points hold no query of the curve (a few hundred queries, thousands of points), so the
// walk moves a block of B points at a time, by these sums (s = B: sums of B products, with no chain
// of dependent steps from point to point). A reader that has a query in a block (its "event": the
// choice of a line, or a chord's end) finds it by cheap running sums, then takes the point it needs
// by the same sums from the block's top (s < B). So every bound comes from the analysis below, from
// a block's top, itself the end of a chain of whole blocks (u = 2^-53; libm's exp and expm1 within
// 2u; the weights, as i h <= B h <= 1, within 3u with the rounding of i h; first order: the
// higher-order terms are covered by kSpreadErrorSlack and by the margins of round_up while K u < 1e-8):
//   A: each block's sum of at most B masses (B - 1 additions: (B - 1) u A in all) is added to the
//     running A by Neumaier's compensated sum (2u A + 4 K u^2 A <= 3u A; Higham 2002, Sec. 4.3), so
//     every A is within (B + 2) u A (mass_error_units adds 2u: the bound is applied to the computed A).
//   b: a move's products pass at most s + 3 roundings (weight, product, s - 1 additions) and the
//     carried b_j five (w_s, product, addition): after `steps` = K - j points, b is within
//     5 (steps + 1) u, relative (s + 4 <= 5 (s + 1) and 5 <= 5s).
//   D: a move turns the bound E_j on |D_j - exact| into c_s errA_j + w_s E_j + (s + 10) u D_j' (the
//     products (s + 3) u, c_s A_j and w_s D_j 4u each, two additions, and the computed D_j'); the
//     computed c_s and w_s enter with 4u more. Products may underflow (absolute errors):
//     delta_upper adds kUnderflowAllowance.
//   F: exp_up at the top, then F times G_s >= e^{s h} (1 + 4u) plus two subnormal ulps (where
//     rounding is absolute): the product's own rounding (u) keeps it above e^{-l}. At most
//     (1 + 6u)^{K/B + 1} - 1 < 1e-9 relative above e^{-l_j}.
constexpr double kSpreadErrorSlack = 1 + 1e-6;
// The largest block (B h <= 1 as well). With about 200 queries on 10^4 points, blocks of 16 hold a
// query of a given reader about once in three.
constexpr int kMaxBlock = 16;

// l = (lowest_index + index) h.
double grid_loss(const DiscretePld& pld, std::int64_t index) {
  return static_cast<double>(pld.lowest_index + index) * pld.discretization_interval;
}

// B: kMaxBlock points, fewer when they would span more than one loss unit.
int block_size(const DiscretePld& pld) {
  return static_cast<int>(std::clamp(std::floor(1 / pld.discretization_interval), 1.0, double{kMaxBlock}));
}

// mass_error_units(pld) A bounds the error of any A_j of the walk (see above).
double mass_error_units(const DiscretePld& pld) { return (block_size(pld) + 4) * kUnit; }

// 1 + the bound on b's relative error `steps` = K - j points down.
double q_error_factor(double steps) { return 1 + 5 * (steps + 1) * kUnit; }

// The sums of a line at a grid point: D_j, E_j (before kSpreadErrorSlack) and the point's index.
struct LineAt {
  double spread, spread_error;
  std::int64_t index;
};

// The walk at a grid index: A_j (the sum and compensation of Neumaier's sum, and their total), b_j,
// F_j, D_j and E_j as above.
struct WalkPoint {
  std::int64_t index = 0;
  double sum = 0, compensation = 0, mass = 0;
  double scaled_q = 0, exp_minus_loss = 0, spread = 0, spread_error = 0;

  LineAt line() const { return LineAt{spread, spread_error, index}; }
  // Q[L >= l_j], for choosing (the choice need not be exact: every line and chord point is sound; a
  // NaN product, 0 times an F_j that overflowed, compares as reached).
  double q_mass() const { return scaled_q * exp_minus_loss; }
  // Q[L >= l_j] rounded up (b's relative error at `steps` = K - j, then the two products).
  double q_mass_upper(double grid_size) const {
    return round_up(scaled_q * q_error_factor(grid_size - static_cast<double>(index)) * exp_minus_loss, 2) +
           kUnderflowAllowance;
  }
};

using BlockMasses = std::array<double, kMaxBlock + 1>;

// kWithSpread: D and E too (the lines readers); the chord readers need A, b and F only.
template <bool kWithSpread>
class DownwardWalk {
 public:
  explicit DownwardWalk(const DiscretePld& pld) : pld_(pld), block_(block_size(pld)) {
    const double h = pld.discretization_interval;
    for (int i = 0; i <= block_; ++i) {
      const double width = i * h;
      decay_[i] = std::exp(-width);
      complement_[i] = -std::expm1(-width);
      growth_[i] = round_up(exp_up(width, kUnit * width), 2);
    }
    mass_error_units_ = mass_error_units(pld);
    top_.index = static_cast<std::int64_t>(pld.masses.size());
    const double top_loss = grid_loss(pld, top_.index);
    top_.exp_minus_loss = exp_up(-top_loss, kUnit * std::fabs(top_loss));
  }

  const WalkPoint& top() const { return top_; }
  // The points below the top in the next block: B, or fewer down to the point below the grid.
  int next_block() const { return static_cast<int>(std::min<std::int64_t>(block_, top_.index + 1)); }
  // The point s <= B points below the top (the point below the grid has no mass).
  WalkPoint below(int s) const { return sum_below<0>(s); }
  // The next block's last point: below(next_block()), its loop unrolled for a whole block of
  // kMaxBlock points (every block but the last ones when B = kMaxBlock).
  WalkPoint block_bottom() const {
    const int count = next_block();
    return count == kMaxBlock && top_.index >= kMaxBlock ? sum_below<kMaxBlock>(count) : sum_below<0>(count);
  }
  // Moves the top down to a point below() gave.
  void move_to(const WalkPoint& point) { top_ = point; }

  // For a reader's running sums (choices only): the masses of the `count` points below the top, in
  // walking order (masses[i] at the i-th point; 0 below the grid), w_1 and G_1.
  void masses_below(int count, BlockMasses& masses) const {
    const int with_mass = static_cast<int>(std::min<std::int64_t>(count, top_.index));
    const double* above = pld_.masses.data() + (top_.index - with_mass);
    for (int i = 1; i <= with_mass; ++i) masses[i] = above[with_mass - i];
    for (int i = with_mass + 1; i <= count; ++i) masses[i] = 0;
  }
  double step_decay() const { return decay_[1]; }
  double step_growth() const { return growth_[1]; }

 private:
  // below(s); kSteps > 0: s = kSteps points, all on the grid (a trip count the compiler unrolls).
  template <int kSteps>
  WalkPoint sum_below(int s) const {
    WalkPoint point;
    point.index = top_.index - s;
    // masses[i] = m_{j'+i}, i in [first, s): two interleaved partial sums of each, one per SIMD
    // lane (fft::Vec2 rounds as the scalar code does); a term passes at most s - 1 additions.
    if constexpr (kSteps > 0) s = kSteps;
    const int first = kSteps == 0 && point.index < 0 ? 1 : 0;
    const double* masses = pld_.masses.data() + (point.index + first);  // m_{j'+i} = masses[i - first]
    fft::Vec2 sums{0, 0}, scaleds{0, 0}, spreads{0, 0};
    int i = first;
    for (; i + 2 <= s; i += 2) {
      const fft::Vec2 pair = fft::load(masses + (i - first));
      sums += pair;
      scaleds += pair * fft::load(decay_.data() + i);
      if constexpr (kWithSpread) spreads += pair * fft::load(complement_.data() + i);
    }
    if (i < s) {
      const double mass = masses[i - first];
      sums[0] += mass;
      scaleds[0] += mass * decay_[i];
      if constexpr (kWithSpread) spreads[0] += mass * complement_[i];
    }
    const double sum = sums[0] + sums[1];
    // Neumaier's step (the sums are nonnegative).
    point.sum = top_.sum + sum;
    point.compensation =
        top_.compensation + (top_.sum >= sum ? (top_.sum - point.sum) + sum : (sum - point.sum) + top_.sum);
    point.mass = point.sum + point.compensation;
    point.scaled_q = (scaleds[0] + scaleds[1]) + decay_[s] * top_.scaled_q;
    point.exp_minus_loss = top_.exp_minus_loss * growth_[s] + 2 * kSubnormalUlp;
    if constexpr (kWithSpread) {
      point.spread = (spreads[0] + spreads[1]) + complement_[s] * top_.mass + decay_[s] * top_.spread;
      point.spread_error =
          (complement_[s] * mass_error_units_ * top_.mass + decay_[s] * top_.spread_error) * (1 + 4 * kUnit) +
          (s + 10) * kUnit * point.spread;
    }
    return point;
  }

  const DiscretePld& pld_;
  int block_;
  double mass_error_units_ = 0;
  std::array<double, kMaxBlock + 1> decay_{}, complement_{}, growth_{};  // w_i, c_i, G_i
  WalkPoint top_;
};

// Walks the grid of `pld` once for all the readers given, block by block. Each reader says whether
// it has an event in the block that ends at a point (wants); if so it reads the block (read), else
// it only takes that point (pass). finish gets the point below the grid.
template <class... Readers>
void walk_grid(const DiscretePld& pld, Readers&... readers) {
  DownwardWalk<(Readers::kReadsSpread || ...)> walk(pld);
  while (walk.top().index >= 0) {
    const int count = walk.next_block();
    const WalkPoint bottom = walk.block_bottom();
    ((readers.wants(bottom) ? readers.read(walk, count, bottom) : readers.pass(bottom)), ...);
    walk.move_to(bottom);
  }
  (readers.finish(walk.top()), ...);
}

// Upper bound on delta(l_j) at a line's point: m_inf + D_j + its error + the rounding bound of the
// masses D_j weighs, those at index j and above (pld::rounding_error_above; m_inf taken within 8u:
// it is itself computed).
double delta_upper(const DiscretePld& pld, const LineAt& line) {
  const auto size = static_cast<std::int64_t>(pld.masses.size());
  const double weighed = static_cast<double>(std::clamp<std::int64_t>(size - line.index, 0, size));
  return round_up(pld.infinite_mass * (1 + 8 * kUnit) + line.spread + line.spread_error * kSpreadErrorSlack +
                      pld::rounding_error_above(pld, weighed),
                  4) +
         kUnderflowAllowance;
}

// Every line is a sound bound; the readers only choose which to evaluate: each query takes the line
// at the Neyman-Pearson vertex its reader assigns it to, chosen with running sums (a choice off by
// one vertex where rounding blurs a tie costs a rounding-level amount: the two lines cross there).
// A line's delta and loss are computed once for all the queries that take it.

// Remove direction (pessimistic PLD): the line at l_j is the best for alpha in
// [Q[L >= l_{j+1}], Q[L >= l_j]]; the walk meets those intervals in increasing alpha. The line is
// TPR <= delta(l) + e^l alpha: e^l rounded up once per line (l within u |l|), then the product and
// the sum each rounded up (two subnormal ulps where the product's rounding is absolute); where e^l
// overflows, e^{l + log alpha} per query (log's 2u on log alpha).
class RemoveLines {
 public:
  static constexpr bool kReadsSpread = true;
  RemoveLines(const DiscretePld& pld, const std::vector<double>& alphas, const std::vector<double>& log_alphas,
              std::vector<double>& upper)
      : pld_(pld), alphas_(alphas), log_alphas_(log_alphas), upper_(upper) {}

  bool wants(const WalkPoint& bottom) const { return reaches(bottom.q_mass()); }
  template <class Walk>
  void read(const Walk& walk, int count, const WalkPoint& bottom) {
    BlockMasses masses;
    walk.masses_below(count, masses);
    double scaled_q = walk.top().scaled_q, exp_minus_loss = walk.top().exp_minus_loss, alpha = next_alpha();
    for (int i = 1; i <= count; ++i) {
      scaled_q = masses[i] + walk.step_decay() * scaled_q;
      exp_minus_loss *= walk.step_growth();
      const double q = scaled_q * exp_minus_loss;
      if (q < alpha) continue;
      const std::size_t from = next_;
      while (reaches(q)) ++next_;
      apply(from, next_, (i == count ? bottom : walk.below(i)).line());
      alpha = next_alpha();
      if (!wants(bottom)) break;  // no other query is reached in this block
    }
    pass(bottom);
  }
  void pass(const WalkPoint& bottom) { last_ = bottom.line(); }

  void finish(const WalkPoint& last) {
    // Beyond the lowest vertex: its line, and delta(eps) -> m_inf + A_0 as eps -> -infinity.
    apply(next_, alphas_.size(), last_);
    const double limit = round_up(
        pld_.infinite_mass * (1 + 8 * kUnit) + last.mass * (1 + mass_error_units(pld_)) + pld_.rounding_error, 3);
    for (std::size_t q = next_; q < alphas_.size(); ++q) upper_[q] = std::min(upper_[q], limit);
  }

 private:
  // alpha <= Q[L >= l_j] for the next query.
  bool reaches(double q) const { return next_ < alphas_.size() && !(q < alphas_[next_]); }
  double next_alpha() const { return next_ < alphas_.size() ? alphas_[next_] : kInfinity; }
  void apply(std::size_t from, std::size_t to, const LineAt& line) {
    const double delta = delta_upper(pld_, line), loss = grid_loss(pld_, line.index);
    const double growth = exp_up(loss, kUnit * std::fabs(loss));
    for (std::size_t q = from; q < to; ++q) {
      const double alpha = alphas_[q];
      double tpr = delta;
      if (alpha > 0 && std::isfinite(growth)) {
        tpr = round_up(delta + (round_up(growth * alpha, 1) + 2 * kSubnormalUlp), 1);
      } else if (alpha > 0) {
        const double log_alpha = log_alphas_[q];
        tpr = round_up(delta + exp_up(loss + log_alpha, 2 * kUnit * (std::fabs(loss) + std::fabs(log_alpha))), 1);
      }
      upper_[q] = std::min(upper_[q], tpr);
    }
  }

  const DiscretePld& pld_;
  const std::vector<double>&alphas_, &log_alphas_;
  std::vector<double>& upper_;
  std::size_t next_ = 0;  // queries [0, next_) are assigned
  LineAt last_{0, 0, 0};  // the lowest line so far
};

// Add direction (pessimistic PLD): mirrored, the line at l_j is the best for alpha in
// [1 - m_inf - A_j, 1 - m_inf - A_{j+1}]; the walk meets those intervals in decreasing alpha. The
// line is beta >= e^-l (1 - delta'(l) - alpha), as a TPR bound: e^-l rounded down once per line;
// the room 1 - delta' - alpha takes two roundings of magnitude at most 1 + alpha.
class AddLines {
 public:
  static constexpr bool kReadsSpread = true;
  AddLines(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& upper)
      : pld_(pld), alphas_(alphas), upper_(upper), remaining_(alphas.size()) {}

  bool wants(const WalkPoint& bottom) const { return reaches(bottom.mass); }
  template <class Walk>
  void read(const Walk& walk, int count, const WalkPoint& bottom) {
    BlockMasses masses;
    walk.masses_below(count, masses);
    double mass = walk.top().mass, alpha = highest_unassigned();
    for (int i = 1; i <= count; ++i) {
      mass += masses[i];
      if (alpha < 1 - pld_.infinite_mass - mass) continue;
      const std::size_t to = remaining_;
      while (reaches(mass)) --remaining_;
      apply(remaining_, to, (i == count ? bottom : walk.below(i)).line());
      alpha = highest_unassigned();
      if (!wants(bottom)) break;  // no other query is reached in this block
    }
    pass(bottom);
  }
  void pass(const WalkPoint& bottom) { last_ = bottom.line(); }

  void finish(const WalkPoint& /*last*/) { apply(0, remaining_, last_); }

 private:
  // The highest query not assigned yet is at least 1 - m_inf - A_j.
  bool reaches(double mass) const { return remaining_ > 0 && alphas_[remaining_ - 1] >= 1 - pld_.infinite_mass - mass; }
  double highest_unassigned() const { return remaining_ > 0 ? alphas_[remaining_ - 1] : -kInfinity; }
  void apply(std::size_t from, std::size_t to, const LineAt& line) {
    const double delta = delta_upper(pld_, line), loss = grid_loss(pld_, line.index);
    const double shrink = exp_down(-loss, kUnit * std::fabs(loss));
    for (std::size_t q = from; q < to; ++q) {
      const double alpha = alphas_[q];
      const double room = (1 - delta) - alpha - 3 * kUnit * (1 + alpha);
      if (!(room > 0)) continue;  // TPR <= 1: nothing to add
      const double beta = round_down(shrink * room, 1);
      if (std::isfinite(beta)) upper_[q] = std::min(upper_[q], one_minus_up(std::min(beta, 1.0)));
    }
  }

  const DiscretePld& pld_;
  const std::vector<double>& alphas_;
  std::vector<double>& upper_;
  std::size_t remaining_;  // queries [0, remaining_) are not assigned yet
  LineAt last_{0, 0, 0};   // the lowest line so far
};

// The remove direction's delta(0) (pessimistic PLD), an upper bound on the total variation distance
// and so on the advantage: the line at the grid point of loss 0; m_inf when every loss is below 0;
// when every loss is above 0, carried from the point below the grid (l_{-1} = a > 0) down to loss 0:
// D(0) = c(a) A + w(a) D_{-1}, as a move with no mass of its own, with w(a) = e^{-a} within (a + 2) u
// through the rounding of a, c(a) within 3u.
class ZeroLossLine {
 public:
  static constexpr bool kReadsSpread = true;
  explicit ZeroLossLine(const DiscretePld& pld) : pld_(pld), zero_index_(-pld.lowest_index) {
    found_ = zero_index_ >= static_cast<std::int64_t>(pld.masses.size());
  }

  // The grid point of loss 0 lies in the block that ends at `bottom` (at its end, pass reads it).
  bool wants(const WalkPoint& bottom) const { return !found_ && bottom.index < zero_index_; }
  template <class Walk>
  void read(const Walk& walk, int /*count*/, const WalkPoint& /*bottom*/) {
    take(walk.below(static_cast<int>(walk.top().index - zero_index_)).line());
  }
  void pass(const WalkPoint& bottom) {
    if (!found_ && bottom.index == zero_index_) take(bottom.line());
  }
  void finish(const WalkPoint& last) {
    if (found_) return;
    const double a = grid_loss(pld_, last.index);
    const double complement = -std::expm1(-a), decay = std::exp(-a);
    line_.spread = complement * last.mass + decay * last.spread;
    line_.spread_error = complement * mass_error_units(pld_) * last.mass * (1 + 4 * kUnit) +
                         decay * last.spread_error * (1 + (a + 4) * kUnit) + (a + 10) * kUnit * line_.spread;
  }
  double advantage_upper() const { return std::min(1.0, delta_upper(pld_, line_)); }

 private:
  void take(const LineAt& line) {
    line_ = line;
    found_ = true;
  }

  const DiscretePld& pld_;
  std::int64_t zero_index_;
  bool found_ = false;
  LineAt line_{0, 0, 0};
};

// Lower bounds at sorted queries from points that lie below a concave nondecreasing curve (the
// true TPR), offered in order of alpha, increasing or decreasing: the chord of two consecutive
// points lies below the curve between them (and never below the left point, the curve being
// nondecreasing). A point out of order is dropped (dropping points keeps every chord sound).
template <bool kIncreasing>
class ChordSweep {
 public:
  ChordSweep(const std::vector<double>& alphas, std::vector<double>& lower)
      : alphas_(alphas), lower_(lower), count_(alphas.size()), remaining_(alphas.size()) {}

  // The query the next points move towards (increasing: the lowest not passed yet, +inf when none;
  // decreasing: the highest, -inf when none).
  double next_query() const {
    if constexpr (kIncreasing) return next_ < count_ ? alphas_[next_] : kInfinity;
    return remaining_ > 0 ? alphas_[remaining_ - 1] : -kInfinity;
  }
  // True when a point at `alpha` passes `query` (not only becomes the left end of the next chord).
  bool passes(double alpha, double query) const { return kIncreasing ? alpha >= query : alpha <= query; }
  bool passes(double alpha) const { return passes(alpha, next_query()); }

  void add(double alpha, double tpr) {
    if (!(tpr >= 0)) tpr = 0;  // (alpha, 0) lies below every trade-off curve; also catches -inf
    // Most points pass no query: in order, they only become the left end of the next chord.
    if (kIncreasing ? alpha >= previous_alpha_ && (next_ == count_ || alphas_[next_] > alpha)
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
      if constexpr (kIncreasing) {
        while (next_ < alphas_.size() && alphas_[next_] < alpha) ++next_;
      } else {
        while (remaining_ > 0 && alphas_[remaining_ - 1] > alpha) --remaining_;
      }
    } else if (kIncreasing ? alpha < previous_alpha_ : alpha > previous_alpha_) {
      return;
    } else if constexpr (kIncreasing) {
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
  std::size_t count_, next_ = 0, remaining_;
  double previous_alpha_ = std::nan(""), previous_tpr_ = 0;
};

// Bound on the distance between the optimistic PLD's hockey-stick curve and the exact one: the
// truncated mass and the masses' rounding error (accountant.hpp), rounded up.
double optimistic_slack(const DiscretePld& pld) { return round_up(pld.truncated_mass + pld.rounding_error, 1); }

// m_inf rounded down (it is itself computed).
double infinite_mass_lower(const DiscretePld& pld) { return pld.infinite_mass * (1 - 8 * kUnit); }

// The chord readers' events: a point whose (alpha, TPR) passes a query of the sweep. A reader finds
// them with running sums, which may differ from the walk's by rounding (at most 1e-8 relative, for
// K < 2^21): it tests with that margin, so that it never finds a pair of points late (finding one
// early only adds a point, and any point is sound). It then adds the pair around each query, and the
// block's last point (a point that passes no query only moves the left end of the next chord).
// Below the grid the lowest vertex comes again: it is left out. `alpha_at(i)` is the i-th point's
// alpha by running sums (moved by the margin towards the queries), `alpha(point)` a walk point's,
// `add(point)` adds a walk point.
constexpr double kChoiceMargin = 1e-8;
template <class Chords, class Walk, class AlphaAt, class Alpha, class Add>
void add_chord_points(const Chords& chords, const Walk& walk, int count, const WalkPoint& bottom, AlphaAt&& alpha_at,
                      Alpha&& alpha, Add&& add) {
  const int last = bottom.index < 0 ? count - 1 : count;
  const double bottom_alpha = alpha(bottom);
  double query = chords.next_query();
  int added = 0;
  for (int i = 1; i <= last; ++i) {
    if (!chords.passes(alpha_at(i), query)) continue;
    if (added < i - 1 && i > 1) add(walk.below(i - 1));
    add(i == count ? bottom : walk.below(i));
    added = i;
    query = chords.next_query();
    if (!chords.passes(bottom_alpha, query)) break;  // no other query is passed in this block
  }
  if (added < last) add(last == count ? bottom : walk.below(last));
}

// What both chord readers keep of the optimistic PLD (its grid size K, for b's error; A's error
// units; the slack c; m_inf rounded down), and their sweep over the queries.
template <bool kIncreasing>
class ChordReader {
 public:
  static constexpr bool kReadsSpread = false;

 protected:
  ChordReader(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& lower)
      : grid_size_(static_cast<double>(pld.masses.size())),
        mass_error_units_(mass_error_units(pld)),
        slack_(optimistic_slack(pld)),
        infinite_(infinite_mass_lower(pld)),
        chords_(alphas, lower) {}

  double grid_size_, mass_error_units_, slack_, infinite_;
  ChordSweep<kIncreasing> chords_;
};

// Remove direction (optimistic PLD): the vertices (Q[L >= l_j], P[L >= l_j] + m_inf) of its curve,
// moved right (Q rounded up) and down (P rounded down, less the slack c), from (0, m_inf - c) up to
// the point (1, 1) that every trade-off curve passes through. Any two such points give a sound
// chord, consecutive ones the tightest.
class RemoveChords : public ChordReader<true> {
 public:
  RemoveChords(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& lower)
      : ChordReader(pld, alphas, lower) {
    chords_.add(0, infinite_ - slack_ - 3 * kUnit * (infinite_ + slack_));
  }

  bool wants(const WalkPoint& bottom) const { return chords_.passes(alpha(bottom)); }
  template <class Walk>
  void read(const Walk& walk, int count, const WalkPoint& bottom) {
    BlockMasses masses;
    walk.masses_below(count, masses);
    double scaled_q = walk.top().scaled_q, exp_minus_loss = walk.top().exp_minus_loss;
    const auto alpha_at = [&](int i) {
      scaled_q = masses[i] + walk.step_decay() * scaled_q;
      exp_minus_loss *= walk.step_growth();
      return scaled_q * exp_minus_loss * (1 + kChoiceMargin);
    };
    add_chord_points(
        chords_, walk, count, bottom, alpha_at, [this](const WalkPoint& point) { return alpha(point); },
        [this](const WalkPoint& point) { pass(point); });
  }
  void pass(const WalkPoint& point) {
    if (point.index < 0) return;
    const double p_mass = round_down(infinite_ + point.mass * (1 - mass_error_units_), 2);
    chords_.add(alpha(point), p_mass - slack_ - 3 * kUnit * (p_mass + slack_));
  }
  void finish(const WalkPoint& /*last*/) { chords_.add(1, 1); }

 private:
  double alpha(const WalkPoint& point) const { return point.q_mass_upper(grid_size_); }
};

// Add direction (optimistic PLD): its curve mirrored into the membership test's plane has the
// vertices (1 - m_inf - A_j, 1 - Q'[L' >= l_j]); the true curve lies above them moved right by the
// slack c. From (1, 1) down to (0, 0), which every trade-off curve lies above.
class AddChords : public ChordReader<false> {
 public:
  AddChords(const DiscretePld& pld, const std::vector<double>& alphas, std::vector<double>& lower)
      : ChordReader(pld, alphas, lower) {
    chords_.add(1, 1);
    chords_.add(1 - infinite_ + slack_ + 8 * kUnit, 1);
  }

  bool wants(const WalkPoint& bottom) const { return chords_.passes(alpha(bottom.mass)); }
  template <class Walk>
  void read(const Walk& walk, int count, const WalkPoint& bottom) {
    BlockMasses masses;
    walk.masses_below(count, masses);
    double mass = walk.top().mass;
    const auto alpha_at = [&](int i) {
      mass += masses[i];
      return alpha(mass) - kChoiceMargin;
    };
    add_chord_points(
        chords_, walk, count, bottom, alpha_at, [this](const WalkPoint& point) { return alpha(point.mass); },
        [this](const WalkPoint& point) { pass(point); });
  }
  void pass(const WalkPoint& point) {
    if (point.index < 0) return;
    const double q_mass = point.q_mass_upper(grid_size_);
    chords_.add(alpha(point.mass), (1 - q_mass) - 2 * kUnit * (1 + q_mass));
  }
  void finish(const WalkPoint& /*last*/) { chords_.add(0, 0); }

 private:
  // All magnitudes are at most 2: 8u absolute covers the three roundings (and that of A's product).
  double alpha(double mass) const { return 1 - (infinite_ + mass * (1 - mass_error_units_)) + slack_ + 8 * kUnit; }
};

// True when the two PLDs are the same (a symmetric pair's directions): one walk then reads both.
// The masses are compared eight at a time in SIMD lanes, stopping at the first group that differs.
bool same_pld(const DiscretePld& a, const DiscretePld& b) {
  if (!(a.discretization_interval == b.discretization_interval && a.lowest_index == b.lowest_index &&
        a.infinite_mass == b.infinite_mass && a.truncated_mass == b.truncated_mass &&
        a.rounding_error == b.rounding_error && a.masses.size() == b.masses.size())) {
    return false;
  }
  typedef long long Mask2 __attribute__((vector_size(16)));  // the lanes of fft::Vec2 compared
  const double *x = a.masses.data(), *y = b.masses.data();
  const std::size_t size = a.masses.size();
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    Mask2 differs = fft::load(x + i) != fft::load(y + i);
    for (std::size_t k = 2; k < 8; k += 2) differs |= fft::load(x + i + k) != fft::load(y + i + k);
    if (differs[0] | differs[1]) return false;
  }
  for (; i < size; ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}

// Bounds at the queries, and the advantage bound: one walk over each distinct PLD.
TprBounds evaluate(const pld::ComposedPlds& plds, const std::vector<double>& alphas) {
  std::vector<double> log_alphas;
  log_alphas.reserve(alphas.size());
  for (double alpha : alphas) log_alphas.push_back(std::log(alpha));
  TprBounds bounds{std::vector<double>(alphas.size(), 1.0), std::vector<double>(alphas.size(), 0.0)};
  RemoveLines remove_lines(plds.upper_remove, alphas, log_alphas, bounds.upper);
  ZeroLossLine zero_loss(plds.upper_remove);
  walk_grid(plds.upper_remove, remove_lines, zero_loss);
  // A symmetric pair's add lines would read the same pessimistic PLD as the pair with P and Q
  // swapped: the mirror image of the remove lines' curve. Sound, but no tighter where that curve is
  // symmetric, and the pessimistic (connect-the-dots) curve of a symmetric pair is, up to rounding
  // and truncation: measured on 100 random compositions of Laplace, Gaussian, discrete Laplace and
  // (eps, delta) items, they moved no beta by more than 3.1e-11. So they are read for asymmetric
  // pairs only. The optimistic PLD's two mirror images do differ (dropping either chord reader moved
  // beta_upper by up to 0.14 on the same compositions): both chord readers stay.
  if (!(plds.symmetric || same_pld(plds.upper_remove, plds.upper_add))) {
    AddLines add_lines(plds.upper_add, alphas, bounds.upper);
    walk_grid(plds.upper_add, add_lines);
  }
  RemoveChords remove_chords(plds.lower_remove, alphas, bounds.lower);
  AddChords add_chords(plds.lower_add, alphas, bounds.lower);
  if (plds.symmetric || same_pld(plds.lower_remove, plds.lower_add)) {
    walk_grid(plds.lower_remove, remove_chords, add_chords);
  } else {
    walk_grid(plds.lower_remove, remove_chords);
    walk_grid(plds.lower_add, add_chords);
  }
  bounds.advantage = zero_loss.advantage_upper();
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
  const auto first_above = [epsilon](const DiscretePld& pld) {
    const auto size = static_cast<std::int64_t>(pld.masses.size());
    if (size == 0 || !(grid_loss(pld, size - 1) > epsilon)) return size;
    if (grid_loss(pld, 0) > epsilon) return std::int64_t{0};
    auto k = static_cast<std::int64_t>(std::floor(epsilon / pld.discretization_interval)) - pld.lowest_index;
    k = std::clamp<std::int64_t>(k, 1, size - 1);
    while (k > 1 && grid_loss(pld, k - 1) > epsilon) --k;
    while (!(grid_loss(pld, k) > epsilon)) ++k;
    return k;
  };
  const auto q_mass_above = [&first_above](const DiscretePld& pld) {
    const std::int64_t first = first_above(pld);
    const double decay = std::exp(-pld.discretization_interval);
    double scaled = 0;
    for (auto k = static_cast<std::int64_t>(pld.masses.size()); k-- > first;) {
      scaled = pld.masses[static_cast<std::size_t>(k)] + decay * scaled;
    }
    return scaled > 0 ? scaled * std::exp(-grid_loss(pld, first)) : 0.0;
  };
  const auto p_mass_above = [&first_above](const DiscretePld& pld) {
    return std::accumulate(pld.masses.begin() + first_above(pld), pld.masses.end(), 0.0);
  };
  // A small relative margin keeps the answer's line above the rounding of log((tpr - delta) / alpha).
  constexpr double kMargin = 1e-12;
  const double remove_alpha = std::min(1.0, q_mass_above(plds.upper_remove));
  if (remove_alpha > 0) {
    const double log_alpha = std::log(remove_alpha);
    const double scaled = exp_up(epsilon + log_alpha, 2 * kUnit * (std::fabs(epsilon) + std::fabs(log_alpha)));
    const double tpr = round_up(delta + scaled, 1) * (1 + kMargin);
    if (tpr < 1) points.push_back({remove_alpha, tpr});
  }
  const double add_alpha = 1 - plds.upper_add.infinite_mass - p_mass_above(plds.upper_add);
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
  source.likelihood_ratio = likelihood_ratio_upper(plds.upper_remove);
  source.method = kPldTradeoff;
  TradeoffResult result = summarize(source, checked);
  result.discretization = plds.discretization;
  result.gdp = pld_gdp_bound(plds);
  return result;
}

}  // namespace dpcalc::tradeoff
