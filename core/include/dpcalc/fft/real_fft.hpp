// Discrete Fourier transform of real sequences, and the circular convolution it diagonalises:
//   X_j = sum_{n<N} x_n e^{-2 pi i j n / N},   (x * y)_n = sum_{m<N} x_m y_{(n - m) mod N}.
// A thin wrapper around Eigen's header-only FFT (unsupported/Eigen/FFT, kissfft backend). It knows
// nothing about privacy: the PLD engine uses it to compose distributions (cf. convolution.h in
// google/differential-privacy, which plays the same role there).
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

namespace dpcalc::fft {

// Smallest N >= minimum_size that is a multiple of 4 (kissfft's fast real transform needs it) and
// has no prime factor other than 2, 3 and 5 (kissfft's fast radices). minimum_size >= 1.
std::size_t fast_real_size(std::size_t minimum_size);

// Real <-> half-spectrum transforms of one fixed size N (a value from fast_real_size).
// forward: N real values -> the N/2 + 1 non-redundant coefficients X_0 .. X_{N/2}.
// inverse: those N/2 + 1 coefficients -> the N real values, scaled by 1/N so that
//          inverse(forward(x)) == x up to rounding (relative error about 1e-16 * log N).
class RealFft {
 public:
  explicit RealFft(std::size_t size);
  ~RealFft();
  RealFft(const RealFft&) = delete;
  RealFft& operator=(const RealFft&) = delete;

  std::size_t size() const { return size_; }
  std::size_t spectrum_size() const { return size_ / 2 + 1; }

  // signal.size() must equal size(); spectrum is resized to spectrum_size().
  void forward(const std::vector<double>& signal, std::vector<std::complex<double>>& spectrum);
  // spectrum.size() must equal spectrum_size(); signal is resized to size().
  void inverse(const std::vector<std::complex<double>>& spectrum, std::vector<double>& signal);

 private:
  struct Engine;
  std::size_t size_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace dpcalc::fft
