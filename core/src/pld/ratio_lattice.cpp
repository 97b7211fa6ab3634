// spread_onto_loss_grid and merge_onto_loss_grid (ratio_lattice.hpp): the law of a likelihood ratio
// on a linear lattice, mapped onto the geometric grid of ratios e^{jh} of the engine's loss grid.
#include "dpcalc/pld/ratio_lattice.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/floating_point.hpp"

namespace dpcalc::pld {
namespace {

// The loss grid indices [lowest, highest] whose ratios e^{jh} enclose every positive lattice point,
// with one spare index on each side, and those ratios as doubles (ratio(j) = e^{jh} rounded).
struct RatioGrid {
  std::int64_t lowest = 0, highest = 0;
  std::vector<double> ratios;
  double ratio(std::int64_t j) const { return ratios[static_cast<std::size_t>(j - lowest)]; }
  // The index j with ratio(j) <= w < ratio(j + 1) (w > 0 inside the grid).
  std::int64_t below(double w, double h) const {
    auto j = static_cast<std::int64_t>(std::floor(std::log(w) / h));
    j = std::clamp(j, lowest, highest - 1);
    while (j > lowest && ratio(j) > w) --j;
    while (j + 1 < highest && ratio(j + 1) <= w) ++j;
    return j;
  }
};

Result<RatioGrid> ratio_grid(const RatioLattice& lattice, double h) {
  double smallest = 0, largest = 0;
  for (std::size_t i = 0; i < lattice.q_masses.size(); ++i) {
    if (!(lattice.q_masses[i] > 0)) continue;
    const double w = static_cast<double>(lattice.lowest_index + static_cast<std::int64_t>(i)) * lattice.step;
    if (!(w > 0)) continue;
    if (smallest == 0) smallest = w;
    largest = w;
  }
  RatioGrid grid;
  if (smallest == 0) {  // no positive ratio: an empty grid around loss 0
    grid.lowest = -1;
    grid.highest = 1;
  } else {
    grid.lowest = static_cast<std::int64_t>(std::floor(std::log(smallest) / h)) - 2;
    grid.highest = static_cast<std::int64_t>(std::ceil(std::log(largest) / h)) + 2;
  }
  const double points = static_cast<double>(grid.highest - grid.lowest) + 1;
  if (!(points <= static_cast<double>(kMaxGridPoints))) return Error{kNumeric, kGridTooLarge, format_number(points)};
  if (!(std::fabs(static_cast<double>(grid.highest) * h) <= kMaxLoss &&
        std::fabs(static_cast<double>(grid.lowest) * h) <= kMaxLoss)) {
    return Error{kNumeric, kLossTooLarge,
                 format_number(std::max(std::fabs(static_cast<double>(grid.highest) * h),
                                        std::fabs(static_cast<double>(grid.lowest) * h)))};
  }
  grid.ratios.resize(static_cast<std::size_t>(points));
  for (std::int64_t j = grid.lowest; j <= grid.highest; ++j) {
    grid.ratios[static_cast<std::size_t>(j - grid.lowest)] = std::exp(static_cast<double>(j) * h);
  }
  return grid;
}

// Empty remove and add PLDs on the grid: the remove loss jh at remove.masses[j - lowest], the add
// loss -jh at add.masses[highest - j].
DirectionPlds empty_plds(const RatioGrid& grid, double h) {
  DirectionPlds plds;
  const auto points = static_cast<std::size_t>(grid.highest - grid.lowest + 1);
  plds.remove.discretization_interval = plds.add.discretization_interval = h;
  plds.remove.lowest_index = grid.lowest;
  plds.add.lowest_index = -grid.highest;
  plds.remove.masses.assign(points, 0.0);
  plds.add.masses.assign(points, 0.0);
  return plds;
}

double& remove_mass(DirectionPlds& plds, std::int64_t j) {
  return plds.remove.masses[static_cast<std::size_t>(j - plds.remove.lowest_index)];
}
double& add_mass(DirectionPlds& plds, std::int64_t j) {
  return plds.add.masses[static_cast<std::size_t>(-j - plds.add.lowest_index)];
}

void trim_zeros(DiscretePld& pld) {
  auto& m = pld.masses;
  std::size_t first = 0;
  while (first + 1 < m.size() && m[first] == 0) ++first;
  std::size_t last = m.size();
  while (last > first + 1 && m[last - 1] == 0) --last;
  m = std::vector<double>(m.begin() + static_cast<std::ptrdiff_t>(first),
                          m.begin() + static_cast<std::ptrdiff_t>(last));
  pld.lowest_index += static_cast<std::int64_t>(first);
}

// The largest ratio of the lattice (where its P-mass error is largest per unit of Q-mass error).
double largest_ratio(const RatioLattice& lattice) {
  return static_cast<double>(lattice.lowest_index + static_cast<std::int64_t>(lattice.q_masses.size())) * lattice.step;
}

// Floating-point error of the mapping itself: each mass is split into at most two products and sums
// (a few roundings of relative u each); 8u of the total mass covers them.
constexpr double kMappingRoundings = 8;

void finish_rounding(const RatioLattice& lattice, DirectionPlds& plds, double total_q, double total_p) {
  const double w_max = largest_ratio(lattice);
  plds.remove.rounding_error =
      (lattice.rounding_error * w_max + kMappingRoundings * kUnitRoundoff * total_p) * (1 + kBoundSlack);
  plds.add.rounding_error = (lattice.rounding_error + kMappingRoundings * kUnitRoundoff * total_q) * (1 + kBoundSlack);
  trim_zeros(plds.remove);
  trim_zeros(plds.add);
}

}  // namespace

Result<DirectionPlds> spread_onto_loss_grid(const RatioLattice& lattice, double loss_step) {
  const double h = loss_step;
  DPCALC_TRY(const RatioGrid grid, ratio_grid(lattice, h));
  DirectionPlds plds = empty_plds(grid, h);
  double at_zero = 0, total_q = 0, total_p = 0;
  for (std::size_t i = 0; i < lattice.q_masses.size(); ++i) {
    const double q = lattice.q_masses[i];
    if (!(q > 0)) continue;
    const double w = static_cast<double>(lattice.lowest_index + static_cast<std::int64_t>(i)) * lattice.step;
    total_q += q;
    total_p += q * w;
    if (!(w > 0)) {  // W = 0: P never produces it; an infinite add loss
      at_zero += q;
      continue;
    }
    // The share f of the Q-mass on e^{(j+1)h} keeps the mean: (1 - f) g_lo + f g_hi = w.
    const std::int64_t j = grid.below(w, h);
    const double g_lo = grid.ratio(j), g_hi = grid.ratio(j + 1);
    const double f = std::clamp((w - g_lo) / (g_hi - g_lo), 0.0, 1.0);
    remove_mass(plds, j) += (1 - f) * q * g_lo;
    remove_mass(plds, j + 1) += f * q * g_hi;
    add_mass(plds, j) += (1 - f) * q;
    add_mass(plds, j + 1) += f * q;
  }
  plds.remove.infinite_mass = std::min(1.0, lattice.p_at_infinity + lattice.p_lost);
  plds.remove.truncated_mass = plds.remove.infinite_mass;
  plds.add.infinite_mass = std::min(1.0, at_zero + lattice.q_lost);
  plds.add.truncated_mass = std::min(1.0, lattice.q_lost);
  finish_rounding(lattice, plds, total_q, total_p);
  return plds;
}

Result<DirectionPlds> merge_onto_loss_grid(const RatioLattice& lattice, double loss_step) {
  const double h = loss_step;
  DPCALC_TRY(const RatioGrid grid, ratio_grid(lattice, h));
  DirectionPlds plds = empty_plds(grid, h);
  // The running outcome: Q-mass q, P-mass p, ratio p / q at most ratio(target).
  struct Outcome {
    double p = 0, q = 0;
    std::int64_t target = 0;
  };
  Outcome carry;
  bool started = false;
  auto emit = [&](std::int64_t j, double p, double q) {
    remove_mass(plds, j) += p;
    add_mass(plds, j) += q;
  };
  double total_q = 0, total_p = 0;
  for (std::size_t i = 0; i < lattice.q_masses.size(); ++i) {
    const double q = lattice.q_masses[i];
    if (!(q > 0)) continue;
    const double w = static_cast<double>(lattice.lowest_index + static_cast<std::int64_t>(i)) * lattice.step;
    total_q += q;
    total_p += q * w;
    if (!(w > 0)) {  // exact: Q-mass where P has none, an infinite add loss
      plds.add.infinite_mass += q;
      continue;
    }
    std::int64_t target = grid.below(w, h);
    if (grid.ratio(target) < w) ++target;  // the smallest grid ratio >= w
    const Outcome next{q * w, q, target};
    if (!started) {
      carry = next;
      started = true;
      continue;
    }
    const double ratio = grid.ratio(carry.target);
    const double deficit = ratio * carry.q - carry.p;  // >= 0 while the carry lies below its target
    if (!(deficit > 0)) {
      emit(carry.target, carry.p, carry.q);
      carry = next;
      continue;
    }
    const double surplus = next.p - ratio * next.q;  // > 0 when next lies above the carry's target
    const double fraction = surplus > 0 ? deficit / surplus : 2.0;
    if (fraction >= 1) {  // all of next does not lift the carry to its target
      carry.p += next.p;
      carry.q += next.q;
      continue;
    }
    emit(carry.target, carry.p + fraction * next.p, carry.q + fraction * next.q);
    carry = Outcome{(1 - fraction) * next.p, (1 - fraction) * next.q, next.target};
  }
  if (started) {
    // Nothing above lifts the last remainder to its target: its remove loss is rounded down one step
    // (unless it reached the target), its add loss -ln(ratio) down to -target h; both are sound.
    const bool reached = !(grid.ratio(carry.target) * carry.q - carry.p > 0);
    remove_mass(plds, reached ? carry.target : carry.target - 1) += carry.p;
    add_mass(plds, carry.target) += carry.q;
  }
  plds.remove.truncated_mass = std::min(1.0, lattice.p_junk);
  plds.add.truncated_mass = std::min(1.0, lattice.q_junk);
  finish_rounding(lattice, plds, total_q, total_p);
  return plds;
}

}  // namespace dpcalc::pld
