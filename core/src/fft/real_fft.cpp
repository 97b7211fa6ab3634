#include "dpcalc/fft/real_fft.hpp"

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

struct RealFft::Engine {
  Eigen::FFT<double> transform;
};

RealFft::RealFft(std::size_t size) : size_(size), engine_(std::make_unique<Engine>()) {
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
