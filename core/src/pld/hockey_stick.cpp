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
                    weight_error + pld.rounding_error + 2 * kUnitRoundoff * estimate.value) *
                       (1 + kBoundSlack) +
                   kUnderflowAllowance;
  return estimate;
}

double delta_floor(const DiscretePld& pld) {
  return (pld.infinite_mass + pld.rounding_error) * (1 + 4 * kUnitRoundoff) + kUnderflowAllowance;
}

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
