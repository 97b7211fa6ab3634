#include "dpcalc/fft/real_fft.hpp"

#include <cmath>
#include <unsupported/Eigen/FFT>

namespace dpcalc::fft {

std::size_t fast_real_size(std::size_t minimum_size) {
  std::size_t best = 0;
  // Enumerate 4 * 2^a 3^b 5^c >= minimum_size and keep the smallest.
  for (std::size_t power5 = 4;; power5 *= 5) {
    for (std::size_t power35 = power5;; power35 *= 3) {
      std::size_t candidate = power35;
      while (candidate < minimum_size) candidate *= 2;
      if (best == 0 || candidate < best) best = candidate;
      if (power35 >= minimum_size) break;
    }
    if (power5 >= minimum_size) break;
  }
  return best;
}

namespace {

constexpr double kUnit = 0x1p-53;

// prod over kissfft's butterfly stages of (1 + alpha_r), for a complex transform of size m: it
// takes factors 4 first, then 2, then odd factors (3 and 5 for fast sizes). alpha_r, the relative
// error one radix-r butterfly puts on one path (see real_fft.hpp), rounded up: radix 2: twiddle
// 5u + product 2.9u + one addition 1.5u -> 12u; radix 4: one more addition -> 14u; radix 3 and 5:
// up to four additions and a product with an inexact constant (6u) -> 20u and 24u.
double stage_growth(std::size_t m) {
  double growth = 1;
  for (const auto& [radix, alpha] : {std::pair<std::size_t, double>{4, 14}, {2, 12}, {3, 20}, {5, 24}}) {
    while (m % radix == 0 && m > 1) {
      m /= radix;
      growth *= 1 + alpha * kUnit;
    }
  }
  return m > 1 ? growth * (1 + 64 * kUnit * static_cast<double>(m)) : growth;
}

}  // namespace

struct RealFft::Engine {
  Eigen::FFT<double> transform;
};

RealFft::RealFft(std::size_t size) : size_(size), engine_(std::make_unique<Engine>()) {
  // The recombination pass (twiddles within 14u, a product, two additions): 20u. Rounded up by
  // 1e-6 relative for the rounding of this very computation.
  const double growth = stage_growth(size / 2) * (1 + 20 * kUnit);
  forward_error_bound_ = 2 * (growth - 1) * (1 + 1e-6);
  inverse_error_bound_ = 4 * (growth * (1 + 2 * kUnit) - 1) * (1 + 1e-6);
  engine_->transform.SetFlag(Eigen::FFT<double>::HalfSpectrum);
}

RealFft::~RealFft() = default;

void RealFft::forward(const std::vector<double>& signal, std::vector<std::complex<double>>& spectrum) {
  spectrum.resize(spectrum_size());
  engine_->transform.fwd(spectrum.data(), signal.data(), static_cast<Eigen::Index>(size_));
}

void RealFft::inverse(const std::vector<std::complex<double>>& spectrum, std::vector<double>& signal) {
  signal.resize(size_);
  engine_->transform.inv(signal.data(), spectrum.data(), static_cast<Eigen::Index>(size_));
}

}  // namespace dpcalc::fft
