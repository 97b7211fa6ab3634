// Discrete privacy loss distributions (PLDs) on the grid {k h : k integer} plus +infinity, and
// their composition. The PLD of a pair (P, Q) is the law of L = log(dP/dQ)(X), X ~ P; composing
// mechanisms adds independent losses, so the composed PLD is the convolution of the PLDs
// (Sommer, Meiser, Mohammadi 2019; Koskela, Jalko, Honkela 2020 for the FFT).
//   delta(eps) = P[L = inf] + sum_k m_k (1 - e^{eps - k h})_+        (hockey-stick divergence)
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "dpcalc/fft/real_fft.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

// Error code of a computation stopped by its progress callback (see ProgressCallback).
inline constexpr const char* kCancelled = "cancelled";

// Called with the fraction of the work done, in [0, 1]; returning false cancels the computation,
// which then returns Error{kCancelled, "", "The computation was cancelled."}.
using ProgressCallback = std::function<bool(double fraction)>;

// That error.
inline Error cancelled() { return Error{kCancelled, "", "The computation was cancelled."}; }

// Largest FFT length (and discretisation grid) the engine allocates: 2^21 points. Composition needs
// about 64 bytes per point at its peak, so this keeps the engine under about 140 MB (the wasm build
// must stay under 256 MB). Larger requests fail with code "numeric" on kGridTooLarge before
// allocating (the accountant turns that into an error on a field of the request).
inline constexpr std::int64_t kMaxGridPoints = std::int64_t{1} << 21;

// Error fields of the engine's internal limits (code "numeric"); the accountant (compose_items)
// rewrites both into an error on a field of the request before returning.
//  * kGridTooLarge: a grid of more than kMaxGridPoints would be needed; the message is just the
//    number of points needed (a decimal number, possibly inf).
//  * kLossTooLarge: a single privacy loss beyond +-kMaxLoss; the message is that loss.
inline constexpr const char* kGridTooLarge = "grid_too_large";
inline constexpr const char* kLossTooLarge = "loss_too_large";
inline constexpr double kMaxLoss = kMaxExpArgument;  // e^loss must stay a finite double
// kMaxLoss as messages write it ("700": format_number would write "7e+02").
inline std::string max_loss_text() { return std::to_string(static_cast<long>(kMaxLoss)); }

struct DiscretePld {
  double discretization_interval = 0;  // h > 0
  std::int64_t lowest_index = 0;       // masses[i] is the mass of the loss (lowest_index + i) * h
  std::vector<double> masses;          // >= 0
  // Mass of the loss +infinity. For a pessimistic PLD it includes the truncated tail mass.
  double infinite_mass = 0;
  // Upper bound on the mass that truncation moved: to +infinity (pessimistic PLDs, counted in
  // infinite_mass) or anywhere (optimistic PLDs, subtracted by the queries). Reported to users.
  double truncated_mass = 0;
  // The largest loss index any of the P-mass it stands for can have, the mass that truncation
  // counted at +infinity included: +infinity when some loss may be infinite or unbounded (a pair
  // with infinite loss, a tail cut from an unbounded loss). A pessimistic PLD's delta(eps) is 0 at
  // eps >= top_index * h, whatever its infinite_mass (the trade-off's mu_upper reads it).
  double top_index = std::numeric_limits<double>::infinity();
  // Rigorous bound on sum_k |computed m_k - m_k|, the floating-point error of the masses
  // (0 before composition; see compose). It bounds the error of delta(eps) for every eps.
  double rounding_error = 0;
  // Finer bounds that compose sets on its result (left at their defaults, rounding_error alone
  // holds): every kept mass is within point_error of its exact value and the errors' 2-norm over
  // them is within l2_error, on top of carried_error (the inputs' own rounding_error, count times).
  // delta(eps) weighs only the masses above eps, so its error is that of those K points
  // (rounding_error_above), which is what lets a small delta at a large eps be certified.
  double point_error = std::numeric_limits<double>::infinity();
  double l2_error = std::numeric_limits<double>::infinity();
  double carried_error = 0;
};

// Bound on sum |computed m_k - m_k| over any `points` kept masses of `pld`: min(rounding_error,
// carried_error + min(points * point_error, sqrt(points) * l2_error)) (Cauchy-Schwarz), rounded up.
double rounding_error_above(const DiscretePld& pld, double points);

// One factor of a composition: `count` copies of `pld` (count a whole number >= 1).
struct CompositionTerm {
  const DiscretePld* pld = nullptr;
  double count = 1;
};

// Work space that consecutive compose() calls can share: the FFT plan of the last size used (its
// twiddle table costs about as much as a transform) and the spectral buffers. Holds about 56 bytes
// per FFT point. It frees all of it when destroyed: no plan outlives the request that built it.
struct CompositionWorkspace {
  CompositionWorkspace() = default;
  CompositionWorkspace(const CompositionWorkspace&) = delete;
  CompositionWorkspace& operator=(const CompositionWorkspace&) = delete;
  ~CompositionWorkspace() = default;
  std::unique_ptr<fft::RealFft> transform;
  std::vector<double> input;   // all zero between uses (a term's masses are placed and removed)
  std::vector<double> signal;  // the inverse transform's output
  std::vector<std::complex<double>> spectrum, product;
  std::vector<double> product_error;
};

// The PLD of the composition prod_i pld_i^{count_i}: one FFT per term, pointwise powers and
// products, one inverse FFT. All terms must share the discretisation interval. One copy of one PLD
// is that PLD itself, returned as it is (no transform: no rounding error, no tail cut).
// Support: sized up front from Chernoff bounds (composed_support.hpp) so that at most `tail_mass`
// (> 0) lies outside it; that mass can only be misplaced by the circular convolution, and it is
// accounted for soundly: a pessimistic result adds it to infinite_mass, an optimistic result
// records it in truncated_mass.
// Rounding: the result's rounding_error is a proven bound, carried through every step. Each
// forward coefficient of term t is within e_t = fft::RealFft::forward_error_bound() * sum(masses
// of term t) of the exact DFT, or, where the power would amplify that (n |z|^(n-1) > 1), the
// coefficient is summed directly (within 40u sum(masses)); powers and products carry their bounds
// (spectral_power.hpp); the exact inverse DFT maps the spectral errors E_j to point errors bounded
// by (1/N) sum_j E_j in every point and by ||E||_2 / sqrt(N) in the 2-norm (Parseval), and the
// inverse transform adds its own bound. Summed over the K kept points: rounding_error = min(K *
// point bound, sqrt(K) * 2-norm bound) (Cauchy-Schwarz), plus count_t * rounding_error_t for
// inputs that carry one; the point and 2-norm bounds and that carried part are kept in the result
// (point_error, l2_error, carried_error) for the bound on fewer points (rounding_error_above).
// Errors: "numeric" on kGridTooLarge when more than kMaxGridPoints would be needed; kCancelled when
// `progress` returns false. `workspace` (optional) is reused when given.
Result<DiscretePld> compose(const std::vector<CompositionTerm>& terms, bool pessimistic, double tail_mass,
                            const ProgressCallback& progress = {}, CompositionWorkspace* workspace = nullptr);

// delta(eps) of the PLD with exact masses lies in [value - error, value + error]: `error` covers the
// masses' rounding_error and the rounding of the sum itself (compensated summation, Neumaier 1974:
// <= 2u |sum| + O(K u^2) sum |terms|; each term's weight 1 - e^{eps - loss} within
// u (|eps| + |loss|) + 4u).
struct DeltaEstimate {
  double value = 0;
  double error = 0;
  double upper() const { return value + error; }
  double lower() const { return value - error; }
};
DeltaEstimate hockey_stick_divergence(const DiscretePld& pld, double epsilon);

// Smallest delta that can be certified for this PLD: the upper estimate of delta(eps) as eps -> inf.
double delta_floor(const DiscretePld& pld);

enum class Bound { kUpper, kLower };

// kUpper: an eps >= 0 with delta(eps) <= delta certainly (upper estimate), close to the smallest;
// +infinity when delta <= delta_floor (unreachable). kLower: an eps with delta(eps') > delta for
// every eps' < eps certainly (lower estimate), 0 when there is none. Solved in closed form on the
// grid segment where delta(eps) crosses the target (relative to the grid point, so nothing
// overflows), then moved outward until the certificate holds.
double epsilon_for_delta(const DiscretePld& pld, double delta, Bound bound);

}  // namespace dpcalc::pld
