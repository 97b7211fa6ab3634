#include "dpcalc/pld/pld.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/fft/real_fft.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::pld {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kUnit = 0x1p-53;       // unit roundoff u of double
constexpr double kExpUnderflow = -740;  // e^-740 < 1e-321: below this exp() returns (about) 0

Error cancelled() { return Error{kCancelled, "", "The computation was cancelled."}; }

// Spectrum coefficients between progress reports inside one term of a composition.
constexpr std::size_t kProgressCoefficients = 16384;

// log E[e^{lambda K}] of the finite part of a PLD, K its grid index (a sub-probability MGF), from
// the logs of its masses (-inf for empty cells).
double log_mgf(const std::vector<double>& log_masses, std::int64_t lowest_index, double lambda) {
  double largest = kNegativeInfinity;
  for (std::size_t i = 0; i < log_masses.size(); ++i) {
    largest = std::max(largest, log_masses[i] + lambda * static_cast<double>(i));
  }
  if (largest == kNegativeInfinity) return kNegativeInfinity;
  double sum = 0;
  for (std::size_t i = 0; i < log_masses.size(); ++i) {
    const double exponent = log_masses[i] + lambda * static_cast<double>(i) - largest;
    if (exponent > kExpUnderflow) sum += std::exp(exponent);  // smaller terms vanish next to the largest (1)
  }
  return largest + std::log(sum) + lambda * static_cast<double>(lowest_index);
}

// min over lambda > 0 of bound(lambda), a unimodal function of log(lambda) (its derivative is
// lambda^-2 times an increasing function, for the Chernoff bounds below), by golden-section search
// over lambda in [1e-8, 1e3] (index units). Any lambda gives a valid bound; this finds a good one.
template <class F>
double minimise_over_lambda(F bound) {
  const double ratio = 0.6180339887498949;
  double a = std::log(1e-8), b = std::log(1e3);
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double fc = bound(std::exp(c)), fd = bound(std::exp(d));
  double best = std::min(fc, fd);
  for (int i = 0; i < 24; ++i) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = bound(std::exp(c));
      best = std::min(best, fc);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = bound(std::exp(d));
      best = std::min(best, fd);
    }
  }
  return best;
}

// A computed spectral coefficient and a bound on its distance from the exact one.
struct BoundedComplex {
  std::complex<double> value;
  double error = 0;
};

// An upper bound on e^x - 1 for x >= 0, without a libm call for small x (e^x - 1 <= x + x^2 for
// x <= 1).
double expm1_upper(double x) { return x <= 1e-3 ? x + x * x : std::expm1(x) * (1 + 4 * kUnit); }

// z^count (count a whole number up to 2^53, |z| = magnitude) through polar form, with the error
// bound derived in pld.hpp: the propagated input error n (|z| + e)^(n-1) e plus the rounding of the
// power itself.
BoundedComplex power(const BoundedComplex& z, double magnitude, double count) {
  if (count == 1) return z;
  if (magnitude == 0) return {0.0, z.error == 0 ? 0.0 : std::exp(count * std::log(z.error) + 1e-9 * count)};
  const double log_magnitude = std::log(magnitude);
  const double exponent = count * log_magnitude;
  const double phase = count * std::arg(z.value);
  // exp() of a very negative argument underflows to 0 through libm's slow error path: skip it.
  const double result_magnitude = exponent < kExpUnderflow ? 0.0 : std::exp(exponent);
  const double exponent_error =
      count * (2 * kUnit * std::fabs(log_magnitude) + 2.02 * kUnit) + kUnit * std::fabs(exponent);
  const double phase_error = count * (2 * kUnit * 3.141592653589793 + 2 * kUnit) + kUnit * std::fabs(phase);
  const double magnitude_error = expm1_upper(exponent_error) + 4 * kUnit;  // relative, >= |computed - |z|^n|
  const double rounding = exponent < kExpUnderflow ? 1e-300                // >= the true |z|^n
                                                   : result_magnitude * (magnitude_error + std::min(2.0, phase_error));
  double propagated = 0;
  if (z.error > 0) {
    // (|z| + e)^(n-1) = |z|^n / |z| * (1 + e/|z|)^(n-1) <= |z|^n / |z| * e^x, x = (n-1) e / |z|.
    const double x = (count - 1) * z.error / magnitude * (1 + 4 * kUnit);
    // (Tight only while e / |z| is small: (1 + y)^(n-1) <= e^{(n-1) y} loses e^{(n-1) y^2 / 2}.)
    if (result_magnitude > 0 && z.error <= 1e-3 * magnitude && x <= 700) {
      propagated = count * z.error * result_magnitude * (1 + magnitude_error) / magnitude * (1 + expm1_upper(x));
    } else {
      const double log_base = std::log(magnitude + z.error);
      const double power_exponent = (count - 1) * log_base;
      const double slack =
          (count + 1) * (2 * kUnit * std::fabs(log_base) + 2.02 * kUnit) + kUnit * std::fabs(power_exponent);
      const double log_bound = power_exponent + slack;
      propagated = count * z.error * (log_bound < kExpUnderflow ? 1e-300 : std::exp(log_bound));
    }
  }
  return {std::polar(result_magnitude, phase), (rounding + propagated) * (1 + 8 * kUnit)};
}

std::int64_t positive_mod(std::int64_t value, std::int64_t modulus) {
  const std::int64_t r = value % modulus;
  return r < 0 ? r + modulus : r;
}

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

// e^{-2 pi i r / N}, with r reduced to |r| <= N/2 first: angle error <= 3u pi, plus one ulp per
// sin and cos, so within 11u of the exact value in modulus.
std::complex<double> twiddle(std::int64_t r, std::int64_t modulus) {
  r = positive_mod(r, modulus);
  if (2 * r > modulus) r -= modulus;
  const double angle = -2 * 3.141592653589793 * static_cast<double>(r) / static_cast<double>(modulus);
  return {std::cos(angle), std::sin(angle)};
}

// Coefficient j of the length-`modulus` DFT of the PLD's masses (placed as compose places them),
// summed directly. The twiddle of mass i is w^{j (i0 + i)} = w^{j (i0 + a B)} w^{j b} (i = a B + b,
// blocks of B ~ sqrt(K) masses), two twiddles within 11u and their product (sqrt(2) gamma_2 <= 3u):
// within 25u. Each product with a mass adds sqrt(2) u m and the compensated sums
// 2 sqrt(2) u |A_j| + O(K u^2): the error is <= 40u sum m (rounded up). This is several times
// tighter than the FFT's bound, and it is what the power n amplifies.
BoundedComplex direct_coefficient(const DiscretePld& pld, std::int64_t j, std::int64_t modulus, double mass,
                                  std::vector<std::complex<double>>& in_block) {
  const std::size_t size = pld.masses.size();
  const auto block = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(size))));
  in_block.resize(block);
  for (std::size_t b = 0; b < block; ++b) in_block[b] = twiddle(j * static_cast<std::int64_t>(b), modulus);
  CompensatedSum real, imaginary;
  for (std::size_t start = 0; start < size; start += block) {
    const std::complex<double> anchor =
        twiddle((j % modulus) * positive_mod(pld.lowest_index + static_cast<std::int64_t>(start), modulus), modulus);
    const double ar = anchor.real(), ai = anchor.imag();
    for (std::size_t b = 0; b < block && start + b < size; ++b) {
      const double m = pld.masses[start + b];
      if (m == 0) continue;
      // The textbook product (std::complex's adds inf/nan recovery, slow in wasm); both twiddles
      // have modulus 1, so nothing overflows.
      const double br = in_block[b].real(), bi = in_block[b].imag();
      real.add(m * (ar * br - ai * bi));
      imaginary.add(m * (ar * bi + ai * br));
    }
  }
  return {{real.value(), imaginary.value()}, 40 * kUnit * mass * (1 + 1e-6)};
}

// Directly summed coefficients cost one pass over a term's masses each; at most this many
// mass-twiddle products per term (a few milliseconds).
constexpr double kDirectBudget = 1 << 21;

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

Result<DiscretePld> compose(const std::vector<CompositionTerm>& terms, bool pessimistic, double tail_mass,
                            const ProgressCallback& progress) {
  const double h = terms.front().pld->discretization_interval;
  // Index range of the composed support: the trivial range, tightened by Chernoff bounds with half
  // of tail_mass on each side, minimised over a geometric grid of lambda (in index units).
  double trivial_lo = 0, trivial_hi = 0, log_survival = 0;
  for (const auto& term : terms) {
    trivial_lo += term.count * static_cast<double>(term.pld->lowest_index);
    trivial_hi += term.count *
                  static_cast<double>(term.pld->lowest_index + static_cast<std::int64_t>(term.pld->masses.size()) - 1);
    log_survival += term.count * std::log1p(-std::min(term.pld->infinite_mass, 1.0));
  }
  const double log_tail = std::log(0.5 * tail_mass);
  std::vector<std::vector<double>> log_masses;
  for (const auto& term : terms) {
    log_masses.emplace_back(term.pld->masses.size());
    for (std::size_t i = 0; i < term.pld->masses.size(); ++i) log_masses.back()[i] = std::log(term.pld->masses[i]);
  }
  // P[S >= u] <= exp(sum_i c_i log M_i(lambda) - lambda u) <= tail_mass / 2 for u >= the bound.
  // Each bound evaluation sums over every item's grid: report between them, so that long grids can
  // be cancelled (the fraction stays at 0: the range search is not measured).
  bool stopped = false;
  auto heartbeat = [&]() { stopped = stopped || (progress && !progress(0)); };
  const double hi = std::min(trivial_hi, std::ceil(minimise_over_lambda([&](double lambda) {
                               heartbeat();
                               double log_mgf_sum = 0;
                               for (std::size_t t = 0; t < terms.size(); ++t) {
                                 log_mgf_sum +=
                                     terms[t].count * log_mgf(log_masses[t], terms[t].pld->lowest_index, lambda);
                               }
                               return (log_mgf_sum - log_tail) / lambda;
                             })));
  double lo = std::max(trivial_lo, std::floor(-minimise_over_lambda([&](double lambda) {
                         heartbeat();
                         double log_mgf_sum = 0;
                         for (std::size_t t = 0; t < terms.size(); ++t) {
                           log_mgf_sum += terms[t].count * log_mgf(log_masses[t], terms[t].pld->lowest_index, -lambda);
                         }
                         return (log_mgf_sum - log_tail) / lambda;
                       })));
  if (stopped) return cancelled();
  lo = std::min(lo, hi);
  const double points = hi - lo + 1;
  if (!(points <= static_cast<double>(kMaxGridPoints))) {
    return Error{kNumeric, kGridTooLarge, format_number(points)};
  }
  if (progress && !progress(0.05)) return cancelled();

  const std::size_t size = fft::fast_real_size(static_cast<std::size_t>(points));
  const auto modulus = static_cast<std::int64_t>(size);
  fft::RealFft transform(size);
  std::vector<double> signal(size);
  std::vector<std::complex<double>> spectrum, product;
  std::vector<double> product_error;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const DiscretePld& pld = *terms[t].pld;
    std::fill(signal.begin(), signal.end(), 0.0);
    double mass = 0;
    for (std::size_t i = 0; i < pld.masses.size(); ++i) {
      signal[static_cast<std::size_t>(positive_mod(pld.lowest_index + static_cast<std::int64_t>(i), modulus))] +=
          pld.masses[i];
      mass += pld.masses[i];
    }
    transform.forward(signal, spectrum);
    // Every coefficient within e of the exact DFT of the masses (the sum rounded up generously;
    // one more u for the additions of masses that wrap onto the same point).
    const double input_error = (transform.forward_error_bound() + kUnit) * mass * (1 + 1e-6);
    if (t == 0) {
      product.assign(spectrum.size(), 1.0);
      product_error.assign(spectrum.size(), 0.0);
    }
    // The power n amplifies a coefficient's error by n |z|^(n-1), more than 1 where |z| exceeds
    // n^(-1/(n-1)): there the coefficient is summed directly, within the budget.
    const double count = terms[t].count;
    const double amplifying = count > 1 ? std::exp(-std::log(count) / (count - 1)) : kInfinity;
    const double direct_cost = static_cast<double>(pld.masses.size());
    double direct_budget = kDirectBudget;
    std::vector<std::complex<double>> twiddles;
    for (std::size_t j = 0; j < spectrum.size(); ++j) {
      // The powers (and direct sums) of a long spectrum take a while: keep the cancel alive.
      if (progress && j % kProgressCoefficients == kProgressCoefficients - 1 &&
          !progress(0.05 +
                    0.9 * (static_cast<double>(t) + static_cast<double>(j) / static_cast<double>(spectrum.size())) /
                        static_cast<double>(terms.size() + 1))) {
        return cancelled();
      }
      BoundedComplex coefficient{spectrum[j], input_error};
      double magnitude = count == 1 ? 0.0 : std::abs(spectrum[j]);
      if (magnitude + input_error > amplifying && direct_budget >= direct_cost) {
        direct_budget -= direct_cost;
        coefficient = direct_coefficient(pld, static_cast<std::int64_t>(j), modulus, mass, twiddles);
        magnitude = std::abs(coefficient.value);
      }
      const BoundedComplex factor = power(coefficient, magnitude, count);
      if (t == 0) {
        product[j] = factor.value;
        product_error[j] = factor.error;
        continue;
      }
      const double product_magnitude = std::abs(product[j]);
      const std::complex<double> next = product[j] * factor.value;
      product_error[j] = (product_error[j] * (std::abs(factor.value) + factor.error) +
                          product_magnitude * factor.error + 3 * kUnit * std::abs(next)) *
                         (1 + 4 * kUnit);
      product[j] = next;
    }
    if (progress && !progress(0.05 + 0.9 * static_cast<double>(t + 1) / static_cast<double>(terms.size() + 1))) {
      return cancelled();
    }
  }
  spectrum.clear();
  spectrum.shrink_to_fit();
  // Full-spectrum sums (coefficients 1 .. N/2 - 1 stand for their conjugates too).
  double error_sum = 0, error_square_sum = 0, magnitude_sum = 0;
  for (std::size_t j = 0; j < product.size(); ++j) {
    const double weight = (j == 0 || j + 1 == product.size()) ? 1.0 : 2.0;
    error_sum += weight * product_error[j];
    error_square_sum += weight * product_error[j] * product_error[j];
    magnitude_sum += weight * (std::fabs(product[j].real()) + std::fabs(product[j].imag()));  // >= |P_j|
  }
  const double n = static_cast<double>(size);
  const double transform_point_error = transform.inverse_error_bound() * magnitude_sum / n;
  const double point_error = error_sum / n + transform_point_error;
  const double l2_error = std::sqrt(error_square_sum / n) + std::sqrt(n) * transform_point_error;
  if (progress && !progress(0.96)) return cancelled();
  transform.inverse(product, signal);
  if (progress && !progress(0.98)) return cancelled();

  DiscretePld result;
  result.discretization_interval = h;
  result.lowest_index = static_cast<std::int64_t>(lo);
  result.masses.resize(static_cast<std::size_t>(points));
  for (std::size_t i = 0; i < result.masses.size(); ++i) {
    // Clamping at 0 only moves a mass towards its exact value (>= 0).
    result.masses[i] = std::max(
        0.0,
        signal[static_cast<std::size_t>(positive_mod(result.lowest_index + static_cast<std::int64_t>(i), modulus))]);
  }
  double input_truncated = 0, input_error = 0;
  for (const auto& term : terms) {
    input_truncated += term.count * term.pld->truncated_mass;
    input_error += term.count * term.pld->rounding_error;
  }
  const double kept = static_cast<double>(result.masses.size());
  result.rounding_error = (input_error + std::min(kept * point_error, std::sqrt(kept) * l2_error)) * (1 + 1e-6);
  // The composed loss is infinite as soon as one factor's is.
  result.infinite_mass = -std::expm1(log_survival);
  result.truncated_mass = std::min(1.0, input_truncated + tail_mass);
  if (pessimistic) result.infinite_mass = std::min(1.0, result.infinite_mass + tail_mass);
  if (progress && !progress(1.0)) return cancelled();
  return result;
}

DeltaEstimate hockey_stick_divergence(const DiscretePld& pld, double epsilon) {
  const double h = pld.discretization_interval;
  // Neumaier's compensated sum of m_k (1 - e^{eps - loss_k}) over the losses above eps.
  CompensatedSum sum;
  double weight_error = 0, terms = 0, absolute = 0;
  for (std::size_t i = pld.masses.size(); i-- > 0;) {
    const double loss = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(i)) * h;
    if (loss <= epsilon) break;
    const double term = pld.masses[i] * -std::expm1(epsilon - loss);
    sum.add(term);
    weight_error += pld.masses[i] * (kUnit * (std::fabs(epsilon) + std::fabs(loss)) + 4 * kUnit);
    absolute += std::fabs(term);
    terms += 1;
  }
  const double finite = sum.value();
  DeltaEstimate estimate;
  estimate.value = finite + pld.infinite_mass;
  estimate.error = (2 * kUnit * std::fabs(finite) + 4 * terms * kUnit * kUnit * absolute + weight_error +
                    pld.rounding_error + 2 * kUnit * estimate.value) *
                       (1 + 1e-6) +
                   1e-300;
  return estimate;
}

double delta_floor(const DiscretePld& pld) {
  return (pld.infinite_mass + pld.rounding_error) * (1 + 4 * kUnit) + 1e-300;
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
  const double margin = pld.rounding_error * (1 + 1e-6) + kUnit * (4 * top_loss + 16) + 8 * kUnit * delta;
  const double target = upper ? delta - margin : delta + margin;
  double epsilon = 0;
  if (target > pld.infinite_mass) {
    epsilon = solve_on_grid(pld, target);
  } else if (!upper) {
    epsilon = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(pld.masses.size())) *
              pld.discretization_interval;
  }
  for (int i = 0; i < 200; ++i) {
    if (certified(epsilon)) return epsilon;
    if (!upper && epsilon == 0) return 0;
    const double step = std::max(1e-15, 4e-16 * std::fabs(epsilon)) * std::ldexp(1.0, std::min(i, 60));
    epsilon = upper ? epsilon + step : std::max(0.0, epsilon - step);
  }
  return upper ? kInfinity : 0.0;
}

}  // namespace dpcalc::pld
