// The queries on a discrete PLD declared in pld.hpp: delta(eps), the delta floor, eps(delta).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/pld.hpp"

namespace dpcalc::pld {
namespace {

// epsilon_for_delta moves a candidate outward until it is certified: first by kFirstStep (absolute)
// or kFirstRelativeStep (relative), doubling up to kMaxStepDoublings times, at most
// kMaxCertificationSteps steps (the closed-form start is usually certified at once).
constexpr double kFirstStep = 1e-15;
constexpr double kFirstRelativeStep = 4e-16;
constexpr int kMaxStepDoublings = 60;
constexpr int kMaxCertificationSteps = 200;
// Where the whole grid's rounding bound exceeds this share of δ less the infinite mass (the finite
// part δ(ε) must come down to), epsilon_for_delta bisects on the
// certificate instead (smallest_certified_epsilon), at most kMaxBisections steps within a segment.
constexpr double kGlobalMarginShare = 1e-3;
constexpr int kMaxBisections = 80;
// hockey_stick_divergence evaluates exp once per this many grid points.
constexpr std::size_t kWeightBlock = 64;

// Neumaier's compensated summation (Neumaier 1974): |result - exact| <= 2u |exact| +
// 4 K u^2 sum |terms| for K terms (Higham 2002, Sec. 4.3).
struct CompensatedSum {
  double sum = 0, compensation = 0;
  void add(double term) {
    const double next = sum + term;
    compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  double value() const { return sum + compensation; }
};

// eps >= 0 where delta(eps) of the computed masses crosses `target` (> infinite_mass), in closed
// form on the grid segment: on [e_{j-1}, e_j], delta(eps) = inf + A_j - e^{eps - e_j} B_j with
// A_j = sum_{k>=j} m_k and B_j = sum_{k>=j} m_k e^{e_j - e_k} = m_j + e^{-h} B_{j+1}.
double solve_on_grid(const DiscretePld& pld, double target) {
  const double h = pld.discretization_interval;
  const double decay = std::exp(-h);
  double a = 0, b = 0;
  for (std::size_t j = pld.masses.size(); j-- > 0;) {
    a += pld.masses[j];
    b = pld.masses[j] + decay * b;
    const double at_lower_end = pld.infinite_mass + a - decay * b;
    if (at_lower_end > target || j == 0) {
      const double loss = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(j)) * h;
      if (b <= 0) return std::max(0.0, loss);
      return std::max(0.0, loss + std::log((pld.infinite_mass + a - target) / b));
    }
  }
  return 0;
}

// The loss one grid step above the highest point: no mass lies at or above it.
double top_of_grid(const DiscretePld& pld) {
  return static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(pld.masses.size())) *
         pld.discretization_interval;
}

// The loss of grid point `index` of the PLD's masses.
double grid_loss(const DiscretePld& pld, std::size_t index) {
  return static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(index)) * pld.discretization_interval;
}

}  // namespace

DeltaEstimate hockey_stick_divergence(const DiscretePld& pld, double epsilon) {
  const double h = pld.discretization_interval;
  // The weights 1 - e^{eps - loss} of the losses above eps, from the top down: e^{eps - loss} by exp
  // once per block of up to kWeightBlock grid points spanning at most one loss unit, times e^{b h}
  // within the block. With the rounding of the loss itself that is within
  // u (|eps| + 2 |loss|) + 6u relative, so the weight within u (|eps| + 2 |loss|) + 8u.
  const auto block = static_cast<std::size_t>(std::clamp(std::floor(1 / h), 1.0, static_cast<double>(kWeightBlock)));
  std::array<double, kWeightBlock> growth;
  for (std::size_t b = 0; b < block; ++b) growth[b] = std::exp(static_cast<double>(b) * h);
  // Neumaier's compensated sum of m_k (1 - e^{eps - loss_k}) over the losses above eps.
  CompensatedSum sum;
  double weight_error = 0, terms = 0, absolute = 0, anchor = 0;
  std::size_t in_block = block;
  for (std::size_t i = pld.masses.size(); i-- > 0;) {
    const double loss = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(i)) * h;
    if (loss <= epsilon) break;
    if (in_block == block) {
      anchor = std::exp(epsilon - loss);
      in_block = 0;
    }
    const double term = pld.masses[i] * (1 - anchor * growth[in_block++]);
    sum.add(term);
    weight_error += pld.masses[i] * (kUnitRoundoff * (std::fabs(epsilon) + 2 * std::fabs(loss)) + 8 * kUnitRoundoff);
    absolute += std::fabs(term);
    terms += 1;
  }
  const double finite = sum.value();
  DeltaEstimate estimate;
  estimate.value = finite + pld.infinite_mass;
  estimate.error = (2 * kUnitRoundoff * std::fabs(finite) + 4 * terms * kUnitRoundoff * kUnitRoundoff * absolute +
                    weight_error + rounding_error_above(pld, terms) + 2 * kUnitRoundoff * estimate.value) *
                       (1 + kBoundSlack) +
                   kUnderflowAllowance;
  return estimate;
}

double rounding_error_above(const DiscretePld& pld, double points) {
  // Without compose's finer bounds, only the total is known.
  if (!(pld.point_error < kInfinity) && !(pld.l2_error < kInfinity)) return pld.rounding_error;
  double spread = 0;  // no error on no points
  if (points > 0) spread = std::min(points * pld.point_error, std::sqrt(points) * pld.l2_error);
  return std::min(pld.rounding_error, (pld.carried_error + spread) * (1 + kBoundSlack));
}

// The upper estimate at the top of the grid, where no finite loss lies above eps (δ is flat beyond).
double delta_floor(const DiscretePld& pld) { return hockey_stick_divergence(pld, top_of_grid(pld)).upper(); }

namespace {

// The smallest eps found certified, for a δ near the certifiable floor: the margin of the whole
// grid's rounding bound would then move the answer far out, while δ(eps) only carries the error of
// the masses above eps (rounding_error_above), which shrinks as eps grows. The upper estimate
// never rises with eps (every term of it is a sum over the losses above eps), so a bisection finds
// its crossing: on the grid points first, then within the segment to the certification step.
// `certified` holds at the top of the grid (δ is above delta_floor).
template <typename Certified>
double smallest_certified_epsilon(const DiscretePld& pld, const Certified& certified) {
  if (certified(0.0)) return 0.0;
  // Grid points: certified(loss of point `high`) holds, of `low` not (or low is below the grid).
  std::size_t low = 0, high = pld.masses.size();  // high = size stands for the top of the grid
  const auto loss_at = [&](std::size_t index) {
    return index == pld.masses.size() ? top_of_grid(pld) : std::max(0.0, grid_loss(pld, index));
  };
  if (certified(loss_at(0))) {
    high = 0;
  } else {
    while (high - low > 1) {
      const std::size_t middle = low + (high - low) / 2;
      (certified(loss_at(middle)) ? high : low) = middle;
    }
  }
  double below = high == 0 ? 0.0 : loss_at(low), above = loss_at(high);
  for (int i = 0; i < kMaxBisections; ++i) {
    if (!(above - below > std::max(kFirstStep, kFirstRelativeStep * above))) break;
    const double middle = below + (above - below) / 2;
    (certified(middle) ? above : below) = middle;
  }
  return above;
}

}  // namespace

double epsilon_for_delta(const DiscretePld& pld, double delta, Bound bound) {
  const bool upper = bound == Bound::kUpper;
  if (upper && !(delta > delta_floor(pld))) return kInfinity;
  auto certified = [&](double epsilon) {
    const DeltaEstimate estimate = hockey_stick_divergence(pld, epsilon);
    return upper ? estimate.upper() <= delta : estimate.lower() > delta;
  };
  // Solve delta(eps) = target for the computed masses, the target shifted by the error bound,
  // then move outward (up for kUpper, down for kLower) until the certificate holds.
  // The margin covers the sum's own rounding (see DeltaEstimate), so that one check usually suffices.
  const double top_loss =
      std::fabs(static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(pld.masses.size())) *
                pld.discretization_interval);
  const double margin =
      pld.rounding_error * (1 + kBoundSlack) + kUnitRoundoff * (4 * top_loss + 16) + 8 * kUnitRoundoff * delta;
  const double target = upper ? delta - margin : delta + margin;
  if (upper && margin > kGlobalMarginShare * (delta - pld.infinite_mass))
    return smallest_certified_epsilon(pld, certified);
  double epsilon = 0;
  if (target > pld.infinite_mass) {
    epsilon = solve_on_grid(pld, target);
  } else if (!upper) {
    epsilon = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(pld.masses.size())) *
              pld.discretization_interval;
  }
  for (int i = 0; i < kMaxCertificationSteps; ++i) {
    if (certified(epsilon)) return epsilon;
    if (!upper && epsilon == 0) return 0;
    const double step =
        std::max(kFirstStep, kFirstRelativeStep * std::fabs(epsilon)) * std::ldexp(1.0, std::min(i, kMaxStepDoublings));
    epsilon = upper ? epsilon + step : std::max(0.0, epsilon - step);
  }
  return upper ? kInfinity : 0.0;
}

}  // namespace dpcalc::pld
