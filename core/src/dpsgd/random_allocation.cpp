// Random allocation (balls-and-bins batches) in stages (random_allocation.hpp,
// docs/random_allocation.md): the lattice law of one factor V, its t-fold sum by FFT, the law of
// W = sum / t on the loss grid, E epochs composed, and the refinement of the grid.
#include "dpcalc/dpsgd/random_allocation.hpp"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <cstdlib>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/composed_support.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr double kAllocationSqrtHalf = 0.70710678118654752440;
// The lattice of V holds at most this many points: beyond it the step is coarsened (a wider but
// still sound bracket) so that the t-fold sum keeps room within pld::kMaxGridPoints.
constexpr double kMaxFactorPoints = 1 << 20;
// How the tail budget is spent (eq (11)): a quarter on the factor's cut P-tail per epoch (over all
// epochs), a quarter on the t-fold sum's support per epoch, a quarter on the epochs' composition.
constexpr double kFactorTailShare = 0.25;
constexpr double kSumTailShare = 0.25;
constexpr double kEpochTailShare = 0.25;
// The budget is at most this, and a tenth of delta (as the engine's epsilon_for_delta).
constexpr double kLargestTailMass = 1e-14;
// The spread puts Q-mass at W = 0 (an infinite add loss) only when all t factors sit at 0: the
// factor step keeps Q[V < step]^t below this share of delta (eq (13)).
constexpr double kBottomShare = 1e-3;
// Refinement: at most this many halvings of both steps, until the bracket is this many
// relative_accuracy wide (as the engine's epsilon_for_delta).
constexpr int kMaxRandomAllocationRefinements = 4;
constexpr double kRandomAllocationWidth = 4;
// Bounds of the automatic loss step.
constexpr double kSmallestLossStep = 1e-6;
constexpr double kLargestLossStep = 0.05;
// lambda (index units) tried for the Chernoff bound on the P-mass above the sum's support.
constexpr double kSmallestTilt = 1e-9;
constexpr double kLargestTilt = 10;
constexpr int kTiltPoints = 64;

// Phi(x) and 1 - Phi(x), each without cancellation.
double standard_normal_below(double x) { return 0.5 * std::erfc(-x * kAllocationSqrtHalf); }
double standard_normal_above(double x) { return 0.5 * std::erfc(x * kAllocationSqrtHalf); }

// The factor V = exp(s Z - s^2 / 2), s = 1 / sigma: under B (the laws' Q coordinate) Z ~ N(0, 1);
// under A (the differing coordinate, dA = V dB) Z ~ N(s, 1). Its masses below / above v.
struct FactorLaw {
  double s;
  double b_below(double v) const { return v > 0 ? standard_normal_below((std::log(v) + 0.5 * s * s) / s) : 0.0; }
  double b_above(double v) const { return v > 0 ? standard_normal_above((std::log(v) + 0.5 * s * s) / s) : 1.0; }
  double a_below(double v) const { return v > 0 ? standard_normal_below((std::log(v) - 0.5 * s * s) / s) : 0.0; }
  double a_above(double v) const { return v > 0 ? standard_normal_above((std::log(v) - 0.5 * s * s) / s) : 1.0; }
  // The smallest v with A[V > v] <= tail (eq (10)).
  double top(double tail) const {
    return std::exp(s * (boost::math::erfc_inv(2 * tail) / kAllocationSqrtHalf) + 0.5 * s * s);
  }
};

// Mass of (a, b] from the masses above and below a and b, through the smaller complement.
double interval_mass(double above_a, double above_b, double below_a, double below_b) {
  return std::max(0.0, above_a <= 0.5 ? above_a - above_b : below_b - below_a);
}

// The lattice law of V under B (masses at k step), the A-mass it puts at +infinity (upper bound)
// and the masses the lower bound drops (eqs (3)-(5)).
struct FactorLattice {
  pld::DiscretePld b_law;  // masses at V = (lowest_index + i) factor_step; discretization_interval = step
  double a_at_infinity = 0;
};

Result<FactorLattice> factor_lattice(const FactorLaw& law, double step, double tail, bool pessimistic) {
  const double top = law.top(tail);
  const double cells = std::ceil(top / step);
  if (!(std::isfinite(top) && cells + 2 <= kMaxFactorPoints)) {
    return Error{kNumeric, "noise_multiplier",
                 "The likelihood ratio of one step reaches " + format_number(top) +
                     " (noise_multiplier = " + format_number(1 / law.s) + "), which needs more than " +
                     format_number(kMaxFactorPoints) + " lattice points at step " + format_number(step) +
                     " (a limit of memory and time); increase noise_multiplier."};
  }
  const auto k_top = static_cast<std::size_t>(cells);
  std::vector<double> b_lo(k_top + 1), b_hi(k_top + 1), a_lo(k_top + 1), a_hi(k_top + 1);
  for (std::size_t k = 0; k <= k_top; ++k) {
    const double v = static_cast<double>(k) * step;
    b_lo[k] = law.b_below(v);
    b_hi[k] = law.b_above(v);
    a_lo[k] = law.a_below(v);
    a_hi[k] = law.a_above(v);
  }
  FactorLattice lattice;
  pld::DiscretePld& b = lattice.b_law;
  b.discretization_interval = step;
  b.masses.assign(k_top + 1, 0.0);
  const double q_top = b_hi[k_top], p_top = a_hi[k_top];
  if (pessimistic) {
    // Cell (k step, (k + 1) step] with masses (p, q): the share of q on its upper end that keeps the
    // cell's P-mass, (p - k step q) / step, in [0, q] since the cell's ratio lies in it (eq (3)).
    for (std::size_t k = 0; k < k_top; ++k) {
      const double q = interval_mass(b_hi[k], b_hi[k + 1], b_lo[k], b_lo[k + 1]);
      const double p = interval_mass(a_hi[k], a_hi[k + 1], a_lo[k], a_lo[k + 1]);
      const double up = std::clamp((p - static_cast<double>(k) * step * q) / step, 0.0, q);
      b.masses[k + 1] += up;
      b.masses[k] += q - up;
    }
    // Above the top: its Q-mass on the top point, the P-mass that this leaves over at +infinity (eq (4)).
    b.masses[k_top] += q_top;
    lattice.a_at_infinity = std::max(0.0, p_top - static_cast<double>(k_top) * step * q_top);
    return lattice;
  }
  // Merging (eq (5)): each cell is one outcome; a fraction of the next is mixed into the running
  // outcome so that its ratio is the lattice point `target` exactly; the last remainder (at the top,
  // nothing above it) is dropped.
  double carry_p = 0, carry_q = 0;
  std::size_t target = 1;
  bool started = false;
  auto absorb = [&](double p, double q, std::size_t next_target) {
    if (!(q > 0)) return;
    if (!started) {
      carry_p = p, carry_q = q, target = next_target, started = true;
      return;
    }
    const double ratio = static_cast<double>(target) * step;
    const double deficit = ratio * carry_q - carry_p;
    if (!(deficit > 0)) {
      if (target <= k_top) b.masses[target] += carry_q;
      carry_p = p, carry_q = q, target = next_target;
      return;
    }
    const double surplus = p - ratio * q;
    const double fraction = surplus > 0 ? deficit / surplus : 2.0;
    if (fraction >= 1) {
      carry_p += p, carry_q += q;
      return;
    }
    if (target <= k_top) b.masses[target] += carry_q + fraction * q;
    carry_p = (1 - fraction) * p, carry_q = (1 - fraction) * q, target = next_target;
  };
  for (std::size_t k = 0; k < k_top; ++k) {
    absorb(interval_mass(a_hi[k], a_hi[k + 1], a_lo[k], a_lo[k + 1]),
           interval_mass(b_hi[k], b_hi[k + 1], b_lo[k], b_lo[k + 1]), k + 1);
  }
  absorb(p_top, q_top, k_top + 1);
  return lattice;
}

// log of sum_i m_i x_i e^{lambda x_i} over a PLD's indices x_i = lowest_index + i >= 0 (rounded up,
// as pld::log_index_mgf), for the derivative of its moment generating function.
double log_index_mgf_derivative(const pld::DiscretePld& b_law, double lambda) {
  pld::DiscretePld weighted = b_law;
  for (std::size_t i = 0; i < weighted.masses.size(); ++i) {
    weighted.masses[i] *= static_cast<double>(b_law.lowest_index + static_cast<std::int64_t>(i)) * (1 + kUnitRoundoff);
  }
  return pld::log_index_mgf(weighted, lambda);
}

// Upper bound on E_B[(N step / t) 1{N > highest}] for N the sum of t lattice indices: the P-mass of W
// above the sum's support (eq (8)). For lambda > 0, 1{N > c} <= e^{lambda (N - c)} and
// E[N e^{lambda N}] = t M(lambda)^{t - 1} M'(lambda); minimised over a grid of lambda.
double sum_p_mass_above(const pld::DiscretePld& b_law, double t, double highest) {
  double best = kInfinity;
  for (int i = 0; i < kTiltPoints; ++i) {
    const double lambda =
        kSmallestTilt * std::pow(kLargestTilt / kSmallestTilt, static_cast<double>(i) / (kTiltPoints - 1));
    const double log_bound = std::log(b_law.discretization_interval) - lambda * highest +
                             (t - 1) * pld::log_index_mgf(b_law, lambda) + log_index_mgf_derivative(b_law, lambda);
    best = std::min(best, log_bound);
  }
  return best > kExpUnderflow ? std::exp(best) * (1 + 1e-9) : kUnderflowAllowance;
}

// A grid limit of the engine met at one stage, as an error on this function's parameter.
Error limit_error(const Error& error, const std::string& parameter, const std::string& stage, double value,
                  const std::string& remedy) {
  if (error.field != pld::kGridTooLarge && error.field != pld::kLossTooLarge) return error;
  const bool counted = std::isfinite(std::strtod(error.message.c_str(), nullptr));
  const std::string what = error.field != pld::kGridTooLarge ? "reaches a privacy loss of " + error.message
                           : counted                         ? "needs about " + error.message + " grid points"
                                                             : "needs more grid points than can be counted";
  return Error{kNumeric, parameter,
               "The " + stage + " (" + parameter + " = " + format_number(value) + ") " + what +
                   ", beyond the limit of " + std::to_string(pld::kMaxGridPoints) + " points and a loss of ±" +
                   pld::max_loss_text() + " (which bound memory and time); " + remedy + "."};
}

// One epoch's PLDs of one bound (both directions).
Result<pld::DirectionPlds> epoch_direction_plds(double t, double sigma, const RandomAllocationGrid& grid, double epochs,
                                                bool pessimistic) {
  const FactorLaw law{1 / sigma};
  const double factor_tail = kFactorTailShare * grid.tail_mass / epochs;
  const double sum_tail = kSumTailShare * grid.tail_mass / epochs;
  DPCALC_TRY(const FactorLattice factor, factor_lattice(law, grid.factor_step, factor_tail, pessimistic));
  Result<pld::DiscretePld> summed = pld::compose({pld::CompositionTerm{&factor.b_law, t}}, false, sum_tail);
  if (!summed.ok())
    return limit_error(summed.error(), "steps_per_epoch", "sum of the steps' likelihood ratios", t,
                       "increase noise_multiplier or reduce steps_per_epoch");
  const pld::DiscretePld& sum = summed.value();
  pld::RatioLattice lattice;
  lattice.step = grid.factor_step / t;
  lattice.lowest_index = sum.lowest_index;
  lattice.q_masses = sum.masses;
  lattice.rounding_error = sum.rounding_error;
  const double w_low = static_cast<double>(sum.lowest_index) * lattice.step;
  const double highest = static_cast<double>(sum.lowest_index + static_cast<std::int64_t>(sum.masses.size()) - 1);
  const double w_high = (highest + 1) * lattice.step;
  // Outside the support lies at most sum_tail of Q-mass (composed_support.hpp), which the circular
  // convolution may also have wrapped onto it (eq (8)).
  lattice.q_lost = lattice.q_junk = sum_tail;
  lattice.p_junk = w_high * sum_tail;
  if (pessimistic) {
    lattice.p_at_infinity = factor.a_at_infinity;
    lattice.p_lost = sum_p_mass_above(factor.b_law, t, highest) + w_low * sum_tail;
  }
  Result<pld::DirectionPlds> plds = pessimistic ? pld::spread_onto_loss_grid(lattice, grid.loss_step)
                                                : pld::merge_onto_loss_grid(lattice, grid.loss_step);
  if (!plds.ok())
    return limit_error(plds.error(), "loss_step", "loss grid of one epoch", grid.loss_step,
                       "give a larger loss_step or a larger relative_accuracy");
  return plds;
}

Result<pld::ComposedPlds> epoch_plds(double t, double sigma, const RandomAllocationGrid& grid, double epochs) {
  DPCALC_TRY(pld::DirectionPlds upper, epoch_direction_plds(t, sigma, grid, epochs, true));
  DPCALC_TRY(pld::DirectionPlds lower, epoch_direction_plds(t, sigma, grid, epochs, false));
  pld::ComposedPlds plds;
  plds.upper_remove = std::move(upper.remove);
  plds.upper_add = std::move(upper.add);
  plds.lower_remove = std::move(lower.remove);
  plds.lower_add = std::move(lower.add);
  plds.discretization.discretization_interval = grid.loss_step;
  return plds;
}

void set_discretization(pld::ComposedPlds& plds, double loss_step) {
  plds.discretization.discretization_interval = loss_step;
  plds.discretization.grid_size =
      static_cast<std::int64_t>(std::max(plds.upper_remove.masses.size(), plds.upper_add.masses.size()));
  plds.discretization.truncated_mass = std::max(plds.upper_remove.truncated_mass, plds.upper_add.truncated_mass);
}

Result<double> check_steps(double value, const std::string& name) { return check_count(value, name); }

Result<RandomAllocationGrid> check_grid(const RandomAllocationGrid& grid) {
  DPCALC_TRY(const double factor_step, check_positive(grid.factor_step, "factor_step"));
  DPCALC_TRY(const double loss_step, check_positive(grid.loss_step, "loss_step"));
  if (!(grid.tail_mass > 0 && grid.tail_mass < 1e-3)) {
    return invalid_argument("tail_mass", "tail_mass must be in (0, 0.001) " + got(grid.tail_mass) + ".");
  }
  return RandomAllocationGrid{factor_step, loss_step, grid.tail_mass};
}

Result<pld::ComposedPlds> allocation_composed_plds(double t, double sigma, double epochs,
                                                   const RandomAllocationGrid& grid) {
  DPCALC_TRY(pld::ComposedPlds plds, epoch_plds(t, sigma, grid, epochs));
  if (epochs > 1) {
    const double tail = kEpochTailShare * grid.tail_mass;
    pld::CompositionWorkspace workspace;
    for (auto [pld_of, pessimistic] : {std::pair<pld::DiscretePld*, bool>{&plds.upper_remove, true},
                                       {&plds.upper_add, true},
                                       {&plds.lower_remove, false},
                                       {&plds.lower_add, false}}) {
      Result<pld::DiscretePld> composed =
          pld::compose({pld::CompositionTerm{pld_of, epochs}}, pessimistic, tail, {}, &workspace);
      if (!composed.ok())
        return limit_error(composed.error(), "epochs", "composition of the epochs", epochs,
                           "reduce epochs or ask for a larger relative_accuracy");
      *pld_of = std::move(composed.value());
    }
  }
  set_discretization(plds, grid.loss_step);
  return plds;
}

// The first grid (eqs (12)-(13)): the factor step from the variance a spread adds (at most
// step^2 / 4 per factor against Var V = e^{1/sigma^2} - 1), no coarser than keeps Q[V < step]^t
// below kBottomShare delta and no finer than kMaxFactorPoints lattice points; the loss step as the
// engine's default step for a composition of E Gaussian-like losses of the epoch's spread.
RandomAllocationGrid first_grid(double t, double sigma, double epochs, double delta, double relative_accuracy) {
  const FactorLaw law{1 / sigma};
  const double s = law.s;
  const double variance = std::expm1(s * s);
  const double tail = std::min(kLargestTailMass, delta / 10);
  double step = 2 * std::sqrt(relative_accuracy * variance);
  // Q[V < v] = Phi((ln v + s^2/2) / s) <= (kBottomShare delta)^{1/t}.
  const double bottom_probability = std::exp(std::log(kBottomShare * delta) / t);
  if (bottom_probability < 0.5) {
    const double z = -boost::math::erfc_inv(2 * bottom_probability) / kAllocationSqrtHalf;
    if (std::isfinite(z)) step = std::min(step, std::exp(s * z - 0.5 * s * s));
  }
  const double top = law.top(kFactorTailShare * tail / epochs);
  if (std::isfinite(top)) step = std::max(step, top / (0.5 * kMaxFactorPoints));
  const double epoch_sd = std::sqrt(std::log1p(variance / t));
  const double sd = std::sqrt(epochs) * epoch_sd;
  const double estimate = 0.5 * epochs * epoch_sd * epoch_sd + 4 * sd;
  const double loss_step = std::clamp(std::sqrt(8 * relative_accuracy * estimate * sd / (epochs * (sd + 4))),
                                      kSmallestLossStep, kLargestLossStep);
  return RandomAllocationGrid{step, loss_step, tail};
}

}  // namespace

Result<pld::ComposedPlds> random_allocation_epoch_plds(double steps_per_epoch, double noise_multiplier,
                                                       const RandomAllocationGrid& grid) {
  DPCALC_TRY(const double t, check_steps(steps_per_epoch, "steps_per_epoch"));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const RandomAllocationGrid checked, check_grid(grid));
  DPCALC_TRY(pld::ComposedPlds plds, epoch_plds(t, sigma, checked, 1));
  set_discretization(plds, checked.loss_step);
  return plds;
}

Result<pld::ComposedPlds> random_allocation_plds(double steps_per_epoch, double noise_multiplier, double epochs,
                                                 const RandomAllocationGrid& grid) {
  DPCALC_TRY(const double t, check_steps(steps_per_epoch, "steps_per_epoch"));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double e, check_steps(epochs, "epochs"));
  DPCALC_TRY(const RandomAllocationGrid checked, check_grid(grid));
  return allocation_composed_plds(t, sigma, e, checked);
}

Result<RandomAllocationEpsilon> random_allocation_epsilon(double steps_per_epoch, double noise_multiplier,
                                                          double epochs, double delta, double relative_accuracy) {
  DPCALC_TRY(const double t, check_steps(steps_per_epoch, "steps_per_epoch"));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double e, check_steps(epochs, "epochs"));
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  if (!(relative_accuracy > 0 && relative_accuracy <= 0.1)) {
    return invalid_argument("relative_accuracy",
                            "relative_accuracy must be a number in (0, 0.1] " + got(relative_accuracy) + ".");
  }
  RandomAllocationEpsilon answer;
  if (t == 1) {
    // One step per epoch: the Gaussian mechanism, composed E times (mu = sqrt(E) / sigma).
    const double mu = std::sqrt(e) / sigma;
    answer.bracket.epsilon_upper = gaussian_epsilon_for_delta(mu, target);
    answer.bracket.epsilon_lower = gaussian_epsilon_lower_for_delta(mu, target);
    answer.exact = true;
    return answer;
  }
  RandomAllocationGrid grid = first_grid(t, sigma, e, target, relative_accuracy);
  for (int pass = 0; pass <= kMaxRandomAllocationRefinements; ++pass) {
    Result<pld::ComposedPlds> plds = allocation_composed_plds(t, sigma, e, grid);
    if (!plds.ok()) {
      if (pass > 0 && plds.error().code == kNumeric) break;
      return plds.error();
    }
    const double floor = pld::smallest_certifiable_delta(plds.value());
    if (!(target > floor)) {
      if (pass > 0) break;
      return invalid_argument("delta", "delta must be larger than " + format_number(floor) +
                                           ", the smallest delta these privacy loss distributions certify (their "
                                           "infinite-loss mass and the proven bound on their rounding error); got " +
                                           format_number(target) + ".");
    }
    const pld::EpsilonBracket bracket = pld::epsilon_bracket(plds.value(), target);
    if (pass == 0) {
      answer.bracket = bracket;
    } else {
      answer.bracket.epsilon_upper = std::min(answer.bracket.epsilon_upper, bracket.epsilon_upper);
      answer.bracket.epsilon_lower = std::max(answer.bracket.epsilon_lower, bracket.epsilon_lower);
      answer.bracket.discretization = bracket.discretization;
    }
    answer.grid = grid;
    answer.passes = pass + 1;
    const double width = answer.bracket.epsilon_upper - answer.bracket.epsilon_lower;
    answer.bracket.accuracy_met = width <= kRandomAllocationWidth * relative_accuracy * answer.bracket.epsilon_upper;
    if (answer.bracket.accuracy_met) break;
    grid.factor_step *= 0.5;
    grid.loss_step *= 0.5;
  }
  return answer;
}

}  // namespace dpcalc::dpsgd
