// Discrete privacy loss distributions (PLDs) on the grid {k h : k integer} plus +infinity, and
// their composition. The PLD of a pair (P, Q) is the law of L = log(dP/dQ)(X), X ~ P; composing
// mechanisms adds independent losses, so the composed PLD is the convolution of the PLDs
// (Sommer, Meiser, Mohammadi 2019; Koskela, Jalko, Honkela 2020 for the FFT).
//   delta(eps) = P[L = inf] + sum_k m_k (1 - e^{eps - k h})_+        (hockey-stick divergence)
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "dpcalc/result.hpp"

namespace dpcalc::pld {

// Error code of a computation stopped by its progress callback (see ProgressCallback).
inline constexpr const char* kCancelled = "cancelled";

// Called with the fraction of the work done, in [0, 1]; returning false cancels the computation,
// which then returns Error{kCancelled, "", "The computation was cancelled."}.
using ProgressCallback = std::function<bool(double fraction)>;

// Largest FFT length (and discretisation grid) the engine allocates: 2^21 points. Composition needs
// about 64 bytes per point at its peak, so this keeps the engine under about 140 MB (the wasm build
// must stay under 256 MB). Larger requests fail with code "numeric" on field
// "discretization_interval" before allocating.
inline constexpr std::int64_t kMaxGridPoints = std::int64_t{1} << 21;

struct DiscretePld {
  double discretization_interval = 0;  // h > 0
  std::int64_t lowest_index = 0;       // masses[i] is the mass of the loss (lowest_index + i) * h
  std::vector<double> masses;          // >= 0
  // Mass of the loss +infinity. For a pessimistic PLD it includes the truncated tail mass.
  double infinite_mass = 0;
  // Upper bound on the mass that truncation moved: to +infinity (pessimistic PLDs, counted in
  // infinite_mass) or anywhere (optimistic PLDs, subtracted by the queries). Reported to users.
  double truncated_mass = 0;
  // Estimate of the absolute rounding noise of the FFT in the masses (0 before composition);
  // added to delta by pessimistic queries and subtracted by optimistic ones.
  double numerical_noise = 0;
};

// One factor of a composition: `count` copies of `pld` (count a whole number >= 1).
struct CompositionTerm {
  const DiscretePld* pld = nullptr;
  double count = 1;
};

// The PLD of the composition prod_i pld_i^{count_i}: one FFT per term, pointwise powers and
// products, one inverse FFT. All terms must share the discretisation interval. The support is
// sized up front from Chernoff bounds P[S >= u] <= e^{-lambda u} E[e^{lambda S}] so that at most
// `tail_mass` (> 0) lies outside it; that mass can only be misplaced by the circular convolution,
// and it is accounted for soundly: a pessimistic result adds it to infinite_mass, an optimistic
// result records it in truncated_mass. Errors: "numeric" on "discretization_interval" when more
// than kMaxGridPoints would be needed; kCancelled when `progress` returns false.
Result<DiscretePld> compose(const std::vector<CompositionTerm>& terms, bool pessimistic, double tail_mass,
                            const ProgressCallback& progress = {});

// delta(eps) of the discrete PLD (exact for the PLD; rounding noise not included).
double hockey_stick_divergence(const DiscretePld& pld, double epsilon);

// Smallest eps >= 0 with delta(eps) <= delta for the discrete PLD, exact up to rounding (solved in
// closed form on the grid segment where delta(eps) crosses the target, working relative to the
// grid point so that nothing overflows). +infinity when delta <= infinite_mass (unreachable).
double epsilon_for_delta(const DiscretePld& pld, double delta);

}  // namespace dpcalc::pld
