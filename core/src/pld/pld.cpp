// compose(): the FFT composition of discrete PLDs with its proven rounding bound (pld.hpp), in
// stages: the composed support, each term's spectrum raised into the running product, the inverse
// transform and the composed PLD with its error bound.
#include "dpcalc/pld/pld.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/checks.hpp"
#include "dpcalc/fft/complex_vector.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/composed_support.hpp"
#include "dpcalc/pld/spectral_power.hpp"

namespace dpcalc::pld {
namespace {

// Progress of one composition: the support search reports 0 (it only keeps the cancel alive), the
// terms' spectra share kSpectraShare after kSupportDone, the inverse transform runs from
// kInverseStart to kInverseDone; a report every kProgressCoefficients spectral coefficients.
constexpr double kSupportDone = 0.05;
constexpr double kSpectraShare = 0.9;
constexpr double kInverseStart = 0.96;
constexpr double kInverseDone = 0.98;
constexpr std::size_t kProgressCoefficients = 16384;

// A workspace's FFT plan up to this factor larger than the smallest fast size is used as it is
// (the support then just has more room): building a plan costs about two transforms.
constexpr double kPlanReuse = 1.25;

// Directly summed coefficients cost one pass over a term's masses each; at most this many
// mass-twiddle products per term (a few milliseconds).
constexpr double kDirectBudget = 1 << 21;

// Whether a plan of `size` points serves a composition that needs `needed` (see kPlanReuse).
bool plan_fits(std::size_t size, std::size_t needed) {
  return size >= needed && static_cast<double>(size) <= kPlanReuse * static_cast<double>(needed);
}

std::int64_t positive_mod(std::int64_t value, std::int64_t modulus) {
  const std::int64_t r = value % modulus;
  return r < 0 ? r + modulus : r;
}

// Kahan's compensated summation, two lanes at a time: |computed - exact| <= (2u + O(K u^2)) sum |terms|
// in each lane for K terms (Higham 2002, Sec. 4.3); branch-free, unlike Neumaier's variant.
struct KahanSum {
  fft::Vec2 sum{0, 0}, compensation{0, 0};
  void add(fft::Vec2 term) {
    const fft::Vec2 corrected = term - compensation;
    const fft::Vec2 next = sum + corrected;
    compensation = (next - sum) - corrected;
    sum = next;
  }
};

// e^{-2 pi i r / N} for any integer r (N the transform's size), within 4u (fft::root_of_unity, read
// from the transform's table).
fft::Vec2 twiddle(std::int64_t r, const fft::RealFft& transform) {
  const std::complex<double> root =
      transform.root(static_cast<std::size_t>(positive_mod(r, static_cast<std::int64_t>(transform.size()))));
  return fft::load(&root);
}

// Coefficient j of the length-`modulus` DFT of the PLD's masses (placed as compose places them),
// summed directly. The twiddle of mass i is w^{j (i0 + i)} = w^{j (i0 + a B)} w^{j b} (i = a B + b,
// blocks of B ~ sqrt(K) masses): each block sums m w^{j b} (twiddle within 4u, product u) by Kahan's
// summation (2 sqrt(2) u per unit of mass in modulus), times its anchor w^{j (i0 + a B)} (4u,
// product 2.9u), and the blocks are summed alike: within 17.5u sum m plus O(K u^2), 20u rounded up.
// For j = 0 every twiddle is exactly 1 and only the sums round: 5u. This is far tighter than the
// FFT's bound, and it is what the power n amplifies.
// kDirectLanes coefficients are summed side by side, each by exactly the operations above in the
// same order (the same doubles as one at a time): a Kahan sum is a chain of four dependent
// additions per term, and independent chains overlap. (4 at a time, the rest by 2 and 1: padded
// lanes would redo the whole sum of the masses.)
template <std::size_t kDirectLanes>
void direct_coefficients(const DiscretePld& pld, const std::int64_t* js, const fft::RealFft& transform, double mass,
                         std::vector<fft::Vec2>& in_block, BoundedComplex* out) {
  const auto modulus = static_cast<std::int64_t>(transform.size());
  const std::size_t size = pld.masses.size();
  const auto block = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(size))));
  in_block.resize(kDirectLanes * block);  // in_block[kDirectLanes b + c]: the twiddle of lane c
  for (std::size_t b = 0; b < block; ++b) {
    for (std::size_t c = 0; c < kDirectLanes; ++c) {
      in_block[kDirectLanes * b + c] = twiddle(js[c] * static_cast<std::int64_t>(b), transform);
    }
  }
  KahanSum total[kDirectLanes];
  for (std::size_t start = 0; start < size; start += block) {
    KahanSum block_sum[kDirectLanes];
    const std::size_t end = std::min(size, start + block);
    for (std::size_t i = start; i < end; ++i) {
      const double m = pld.masses[i];
      const fft::Vec2* w = &in_block[kDirectLanes * (i - start)];
      for (std::size_t c = 0; c < kDirectLanes; ++c) block_sum[c].add(w[c] * fft::Vec2{m, m});
    }
    const std::int64_t placed = positive_mod(pld.lowest_index + static_cast<std::int64_t>(start), modulus);
    for (std::size_t c = 0; c < kDirectLanes; ++c) {
      const std::int64_t anchor_index = (js[c] % modulus) * placed;
      total[c].add(fft::multiply(block_sum[c].sum, twiddle(anchor_index, transform)));
    }
  }
  for (std::size_t c = 0; c < kDirectLanes; ++c) {
    const double error = (js[c] == 0 ? 5 : 20) * kUnitRoundoff * mass * (1 + kBoundSlack);
    out[c] = {{total[c].sum[0], total[c].sum[1]}, error};
  }
}

// direct_coefficients of every index in `js`, in order.
std::vector<BoundedComplex> direct_coefficients(const DiscretePld& pld, const std::vector<std::int64_t>& js,
                                                const fft::RealFft& transform, double mass) {
  std::vector<BoundedComplex> values(js.size());
  std::vector<fft::Vec2> in_block;
  std::size_t first = 0;
  for (; first + 4 <= js.size(); first += 4)
    direct_coefficients<4>(pld, &js[first], transform, mass, in_block, &values[first]);
  for (; first + 2 <= js.size(); first += 2)
    direct_coefficients<2>(pld, &js[first], transform, mass, in_block, &values[first]);
  if (first < js.size()) direct_coefficients<1>(pld, &js[first], transform, mass, in_block, &values[first]);
  return values;
}

// Adds the PLD's masses to `signal` at their grid index modulo the FFT length (they wrap onto
// the same point when the PLD is longer than the FFT), or, with `remove`, sets those points back
// to 0. Returns the sum of the masses.
double place_masses(const DiscretePld& pld, std::vector<double>& signal, bool remove = false) {
  double mass = 0;
  auto at = static_cast<std::size_t>(positive_mod(pld.lowest_index, static_cast<std::int64_t>(signal.size())));
  for (const double m : pld.masses) {
    signal[at] = remove ? 0.0 : signal[at] + m;
    mass += m;
    if (++at == signal.size()) at = 0;
  }
  return mass;
}

// Raises the spectrum of `term` (in work.spectrum, the DFT of masses summing to `mass`) to its
// count and multiplies it into work.product (the first term starts it), every coefficient with
// its error bound (spectral_power.hpp). The power amplifies a coefficient's error by
// n |z|^(n-1), more than 1 where |z| exceeds n^(-1/(n-1)): there the coefficient is summed
// directly, while kDirectBudget lasts. Where the running product is exactly 0 (an earlier factor was
// negligible), the term is not evaluated: |P Z - 0| <= E_P |Z| and |Z| <= (sum of the exact masses)^count,
// so the product stays 0 and its bound E_P is scaled by that power. `tick` is called every
// kProgressCoefficients coefficients with the fraction done; false when it cancelled.
bool multiply_term_in(const CompositionTerm& term, bool first, double mass, CompositionWorkspace& work,
                      const std::function<bool(double)>& tick) {
  const std::vector<std::complex<double>>& spectrum = work.spectrum;
  // Every coefficient within e of the exact DFT of the masses (the sum rounded up generously; one
  // more u for the additions of masses that wrap onto the same point).
  const double input_error =
      (work.transform->forward_error_bound() + kUnitRoundoff) * mass * (1 + kBoundSlack) + kUnderflowAllowance;
  const double count = term.count;
  const SpectralPower power(count);
  const double negligible_square = power.negligible_square(input_error);
  const double amplifying = count > 1 ? std::exp(-std::log(count) / (count - 1)) : kInfinity;
  const double direct_cost = static_cast<double>(term.pld->masses.size());
  // The exact masses sum to at most mass (1 + (K + 1) u) (a sum of K non-negative doubles); pow is
  // within an ulp, which the factor 1 + 1e-9 covers. Not finite: zeros are evaluated like the rest.
  const double exact_mass = mass * (1 + static_cast<double>(term.pld->masses.size() + 1) * kUnitRoundoff);
  const double power_bound = std::pow(std::max(1.0, exact_mass), count) * (1 + 1e-9);
  const bool skip_zeros = !first && std::isfinite(power_bound);
  if (first) {
    work.product.resize(spectrum.size());
    work.product_error.resize(spectrum.size());
  }
  // The coefficients summed directly, chosen first (in order of j, while the budget lasts) so that
  // they are summed side by side.
  std::vector<std::int64_t> direct;
  double direct_budget = kDirectBudget;
  for (std::size_t j = 0; j < spectrum.size() && direct_budget >= direct_cost; ++j) {
    if (skip_zeros && work.product[j] == std::complex<double>{}) continue;
    const double re = spectrum[j].real(), im = spectrum[j].imag();
    if (!(re * re + im * im <= negligible_square) && modulus_upper(spectrum[j]) + input_error > amplifying) {
      direct_budget -= direct_cost;
      direct.push_back(static_cast<std::int64_t>(j));
    }
  }
  const std::vector<BoundedComplex> direct_values = direct_coefficients(*term.pld, direct, *work.transform, mass);
  std::size_t next_direct = 0;
  for (std::size_t j = 0; j < spectrum.size(); ++j) {
    if (j % kProgressCoefficients == kProgressCoefficients - 1 &&
        !tick(static_cast<double>(j) / static_cast<double>(spectrum.size()))) {
      return false;
    }
    if (skip_zeros && work.product[j] == std::complex<double>{}) {
      work.product_error[j] = (work.product_error[j] * power_bound + kUnderflowAllowance) * (1 + 4 * kUnitRoundoff);
      continue;
    }
    BoundedComplex coefficient{spectrum[j], input_error};
    BoundedComplex factor{0.0, kUnderflowAllowance};
    const double re = spectrum[j].real(), im = spectrum[j].imag();
    if (!(re * re + im * im <= negligible_square)) {
      if (next_direct < direct.size() && direct[next_direct] == static_cast<std::int64_t>(j)) {
        coefficient = direct_values[next_direct++];
      }
      factor = power(coefficient);
    }
    if (!first) factor = multiply(BoundedComplex{work.product[j], work.product_error[j]}, factor);
    work.product[j] = factor.value;
    work.product_error[j] = factor.error;
  }
  return true;
}

// Bounds on the error that the spectral errors E_j and the inverse transform put on the composed
// masses: in every point and in the 2-norm over all N points (pld.hpp).
struct PointErrors {
  double point = 0, l2 = 0;
};
PointErrors inverse_error_bounds(const CompositionWorkspace& work) {
  // Full-spectrum sums (coefficients 1 .. N/2 - 1 stand for their conjugates too).
  double error_sum = 0, error_square_sum = 0, magnitude_sum = 0;
  const std::size_t last = work.product.size() - 1;
  for (std::size_t j = 0; j <= last; ++j) {
    const double weight = (j == 0 || j == last) ? 1.0 : 2.0;
    const double error = work.product_error[j];
    error_sum += weight * error;
    error_square_sum += weight * error * error;
    magnitude_sum += weight * (std::fabs(work.product[j].real()) + std::fabs(work.product[j].imag()));  // >= |P_j|
  }
  const double n = static_cast<double>(work.transform->size());
  const double transform_point_error = work.transform->inverse_error_bound() * magnitude_sum / n + kUnderflowAllowance;
  return {error_sum / n + transform_point_error,
          std::sqrt(error_square_sum / n) + std::sqrt(n) * transform_point_error};
}

// The composed PLD on `range` from the inverse transform in work.signal, with its infinite mass,
// truncated mass and rounding bound.
DiscretePld composed_pld(const std::vector<CompositionTerm>& terms, const IndexRange& range, bool pessimistic,
                         double tail_mass, const PointErrors& errors, const CompositionWorkspace& work) {
  const auto modulus = static_cast<std::int64_t>(work.transform->size());
  DiscretePld result;
  result.discretization_interval = terms.front().pld->discretization_interval;
  result.lowest_index = static_cast<std::int64_t>(range.lowest);
  const auto points = static_cast<std::size_t>(range.points());
  result.masses.reserve(points);  // written once, not zeroed first
  auto at = static_cast<std::size_t>(positive_mod(result.lowest_index, modulus));
  for (std::size_t i = 0; i < points; ++i) {
    // Clamping at 0 only moves a mass towards its exact value (>= 0).
    result.masses.push_back(std::max(0.0, work.signal[at]));
    if (++at == work.signal.size()) at = 0;
  }
  double input_truncated = 0, input_error = 0, log_survival = 0, top_index = 0;
  for (const auto& term : terms) {
    // Whole numbers, exact below 2^53; above, a relative margin keeps the sum an upper bound.
    top_index += term.count * term.pld->top_index;
    input_truncated += term.count * term.pld->truncated_mass;
    input_error += term.count * term.pld->rounding_error;
    log_survival += term.count * std::log1p(-std::min(term.pld->infinite_mass, 1.0));
  }
  const double kept = static_cast<double>(result.masses.size());
  result.rounding_error =
      (input_error + std::min(kept * errors.point, std::sqrt(kept) * errors.l2)) * (1 + kBoundSlack);
  result.point_error = errors.point;
  result.l2_error = errors.l2;
  result.carried_error = input_error;
  // The composed loss is infinite as soon as one factor's is.
  result.infinite_mass = -std::expm1(log_survival);
  result.truncated_mass = std::min(1.0, input_truncated + tail_mass);
  if (pessimistic) result.infinite_mass = std::min(1.0, result.infinite_mass + tail_mass);
  // The composed losses are sums of the factors' (composed_support keeps their range, its cut tails
  // included): the factors' largest indices add.
  result.top_index = top_index + 1e-15 * std::fabs(top_index);
  return result;
}

}  // namespace

Result<DiscretePld> compose(const std::vector<CompositionTerm>& terms, bool pessimistic, double tail_mass,
                            const ProgressCallback& progress, CompositionWorkspace* workspace) {
  const auto report = [&](double fraction) { return !progress || progress(fraction); };
  DPCALC_TRY(const IndexRange range, composed_support(terms, tail_mass, [&]() { return report(0); }));
  if (!(range.points() <= static_cast<double>(kMaxGridPoints))) {
    return Error{kNumeric, kGridTooLarge, format_number(range.points())};
  }
  if (!report(kSupportDone)) return cancelled();
  // The FFT's rounding bound (about 1e-13 of the mass) would otherwise be the smallest δ that one
  // mechanism's PLD can certify, which group privacy over its profile needs far smaller.
  if (terms.size() == 1 && terms.front().count == 1) {
    if (!report(1.0)) return cancelled();
    return *terms.front().pld;
  }

  CompositionWorkspace local;
  CompositionWorkspace& work = workspace ? *workspace : local;
  const std::size_t needed = fft::fast_real_size(static_cast<std::size_t>(range.points()));
  if (!work.transform || !plan_fits(work.transform->size(), needed)) {
    work.transform.reset();  // one plan at a time bounds the memory
    work.transform = std::make_unique<fft::RealFft>(needed);
  }
  const std::size_t size = work.transform->size();
  if (work.input.size() != size) work.input.assign(size, 0.0);
  const double terms_count = static_cast<double>(terms.size());
  // The largest counts first: their powers are negligible at the most coefficients, and the terms
  // after them skip the coefficients where the product is already 0 (multiply_term_in).
  std::vector<std::size_t> order(terms.size());
  for (std::size_t t = 0; t < order.size(); ++t) order[t] = t;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return terms[a].count > terms[b].count; });
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const CompositionTerm& term = terms[order[t]];
    const double start = kSupportDone + kSpectraShare * static_cast<double>(t) / (terms_count + 1);
    const auto tick = [&](double fraction) { return report(start + kSpectraShare * fraction / (terms_count + 1)); };
    const double mass = place_masses(*term.pld, work.input);
    work.transform->forward(work.input, work.spectrum);
    place_masses(*term.pld, work.input, true);
    if (!multiply_term_in(term, t == 0, mass, work, tick)) return cancelled();
    if (!report(kSupportDone + kSpectraShare * static_cast<double>(t + 1) / (terms_count + 1))) return cancelled();
  }
  const PointErrors errors = inverse_error_bounds(work);
  if (!report(kInverseStart)) return cancelled();
  work.transform->inverse(work.product, work.signal);
  if (!report(kInverseDone)) return cancelled();
  DiscretePld result = composed_pld(terms, range, pessimistic, tail_mass, errors, work);
  if (!report(1.0)) return cancelled();
  return result;
}

}  // namespace dpcalc::pld
