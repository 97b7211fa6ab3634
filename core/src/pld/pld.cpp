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

Error cancelled() { return Error{kCancelled, "", "The computation was cancelled."}; }

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
    sum += std::exp(log_masses[i] + lambda * static_cast<double>(i) - largest);
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
      b = d; d = c; fd = fc; c = b - ratio * (b - a); fc = bound(std::exp(c)); best = std::min(best, fc);
    } else {
      a = c; c = d; fc = fd; d = a + ratio * (b - a); fd = bound(std::exp(d)); best = std::min(best, fd);
    }
  }
  return best;
}

// z^count for a complex z, through polar form (count can be up to 2^53).
std::complex<double> power(std::complex<double> z, double count) {
  const double magnitude = std::abs(z);
  if (magnitude == 0) return 0;
  return std::polar(std::exp(count * std::log(magnitude)), count * std::arg(z));
}

std::int64_t positive_mod(std::int64_t value, std::int64_t modulus) {
  const std::int64_t r = value % modulus;
  return r < 0 ? r + modulus : r;
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
    trivial_hi += term.count * static_cast<double>(term.pld->lowest_index + static_cast<std::int64_t>(term.pld->masses.size()) - 1);
    log_survival += term.count * std::log1p(-std::min(term.pld->infinite_mass, 1.0));
  }
  const double log_tail = std::log(0.5 * tail_mass);
  std::vector<std::vector<double>> log_masses;
  for (const auto& term : terms) {
    log_masses.emplace_back(term.pld->masses.size());
    for (std::size_t i = 0; i < term.pld->masses.size(); ++i) log_masses.back()[i] = std::log(term.pld->masses[i]);
  }
  // P[S >= u] <= exp(sum_i c_i log M_i(lambda) - lambda u) <= tail_mass / 2 for u >= the bound.
  const double hi = std::min(trivial_hi, std::ceil(minimise_over_lambda([&](double lambda) {
    double log_mgf_sum = 0;
    for (std::size_t t = 0; t < terms.size(); ++t) {
      log_mgf_sum += terms[t].count * log_mgf(log_masses[t], terms[t].pld->lowest_index, lambda);
    }
    return (log_mgf_sum - log_tail) / lambda;
  })));
  double lo = std::max(trivial_lo, std::floor(-minimise_over_lambda([&](double lambda) {
    double log_mgf_sum = 0;
    for (std::size_t t = 0; t < terms.size(); ++t) {
      log_mgf_sum += terms[t].count * log_mgf(log_masses[t], terms[t].pld->lowest_index, -lambda);
    }
    return (log_mgf_sum - log_tail) / lambda;
  })));
  lo = std::min(lo, hi);
  const double points = hi - lo + 1;
  if (!(points <= static_cast<double>(kMaxGridPoints))) {
    return Error{kNumeric, "discretization_interval",
                 "The composition needs " + format_number(points) + " grid points (limit " +
                     std::to_string(kMaxGridPoints) + "); use a larger discretization_interval."};
  }
  if (progress && !progress(0.05)) return cancelled();

  const std::size_t size = fft::fast_real_size(static_cast<std::size_t>(points));
  const auto modulus = static_cast<std::int64_t>(size);
  fft::RealFft transform(size);
  std::vector<double> signal(size);
  std::vector<std::complex<double>> spectrum, product;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const DiscretePld& pld = *terms[t].pld;
    std::fill(signal.begin(), signal.end(), 0.0);
    for (std::size_t i = 0; i < pld.masses.size(); ++i) {
      signal[static_cast<std::size_t>(positive_mod(pld.lowest_index + static_cast<std::int64_t>(i), modulus))] += pld.masses[i];
    }
    transform.forward(signal, spectrum);
    if (t == 0) product.assign(spectrum.size(), 1.0);
    for (std::size_t j = 0; j < spectrum.size(); ++j) product[j] *= power(spectrum[j], terms[t].count);
    if (progress && !progress(0.05 + 0.9 * static_cast<double>(t + 1) / static_cast<double>(terms.size() + 1))) {
      return cancelled();
    }
  }
  spectrum.clear();
  spectrum.shrink_to_fit();
  transform.inverse(product, signal);

  DiscretePld result;
  result.discretization_interval = h;
  result.lowest_index = static_cast<std::int64_t>(lo);
  result.masses.resize(static_cast<std::size_t>(points));
  double negative = 0;
  for (std::size_t i = 0; i < result.masses.size(); ++i) {
    const double value = signal[static_cast<std::size_t>(positive_mod(result.lowest_index + static_cast<std::int64_t>(i), modulus))];
    if (value < 0) negative -= value;
    result.masses[i] = std::max(0.0, value);
  }
  double input_truncated = 0, input_noise = 0;
  for (const auto& term : terms) {
    input_truncated += term.count * term.pld->truncated_mass;
    input_noise += term.count * term.pld->numerical_noise;
  }
  // Rounding noise of the transform is roughly symmetric, so twice the negative mass estimates it.
  result.numerical_noise = input_noise + 2 * negative;
  // The composed loss is infinite as soon as one factor's is.
  result.infinite_mass = -std::expm1(log_survival);
  result.truncated_mass = std::min(1.0, input_truncated + tail_mass);
  if (pessimistic) result.infinite_mass = std::min(1.0, result.infinite_mass + tail_mass);
  if (progress && !progress(1.0)) return cancelled();
  return result;
}

double hockey_stick_divergence(const DiscretePld& pld, double epsilon) {
  const double h = pld.discretization_interval;
  double delta = 0;
  for (std::size_t i = pld.masses.size(); i-- > 0;) {
    const double loss = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(i)) * h;
    if (loss <= epsilon) break;
    delta += pld.masses[i] * -std::expm1(epsilon - loss);
  }
  return std::min(1.0, delta + pld.infinite_mass);
}

double epsilon_for_delta(const DiscretePld& pld, double delta) {
  if (!(delta > pld.infinite_mass)) return kInfinity;
  if (hockey_stick_divergence(pld, 0) <= delta) return 0;
  const double h = pld.discretization_interval;
  const double decay = std::exp(-h);
  // On [e_{j-1}, e_j]: delta(eps) = inf + A_j - e^{eps - e_j} B_j with A_j = sum_{k>=j} m_k and
  // B_j = sum_{k>=j} m_k e^{e_j - e_k} = m_j + e^{-h} B_{j+1}.
  double a = 0, b = 0;
  for (std::size_t j = pld.masses.size(); j-- > 0;) {
    a += pld.masses[j];
    b = pld.masses[j] + decay * b;
    const double at_lower_end = pld.infinite_mass + a - decay * b;
    if (at_lower_end > delta || j == 0) {
      const double loss = static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(j)) * h;
      if (b <= 0) return std::max(0.0, loss);
      double epsilon = std::max(0.0, loss + std::log((pld.infinite_mass + a - delta) / b));
      // Round outward: the returned eps must satisfy delta(eps) <= delta in floating point too.
      for (int i = 0; i < 64 && hockey_stick_divergence(pld, epsilon) > delta; ++i) {
        epsilon += std::max(1e-15, 4e-16 * epsilon) * (1 << std::min(i, 30));
      }
      return epsilon;
    }
  }
  return 0;
}

}  // namespace dpcalc::pld
