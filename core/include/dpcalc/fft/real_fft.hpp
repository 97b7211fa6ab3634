// Discrete Fourier transform of real sequences, and the circular convolution it diagonalises:
//   X_j = sum_{n<N} x_n e^{-2 pi i j n / N},   (x * y)_n = sum_{m<N} x_m y_{(n - m) mod N}.
// A thin wrapper around Eigen's header-only FFT (unsupported/Eigen/FFT, kissfft backend). It knows
// nothing about privacy: the PLD engine uses it to compose distributions (cf. convolution.h in
// google/differential-privacy, which plays the same role there).
//
// Rounding error (the bound error_bound() returns; u = 2^-53, gamma(k) = (1 + alpha)^k - 1).
// A real transform of size N runs one complex FFT of size M = N/2 on z_m = x_2m + i x_2m+1 (so
// sum |z_m| <= sum |x_n|) and one recombination pass. kissfft factors M into s stages of radix
// r in {4, 2, 3, 5}: X = A_s ... A_1 Pi z, where every row of the butterfly matrix A_i has r
// entries of modulus 1 and, since the Cooley-Tukey factorisation has exactly one path from each
// input to each output, every entry of |A_s| ... |A_1| equals 1. In floating point each stage
// computes (A_i + dA_i) y with |dA_i| <= alpha |A_i| componentwise, alpha bounding the relative
// error that one butterfly puts on one path: the twiddle factor (Eigen evaluates it after octant
// reduction: angle error <= 3u pi/4 plus sin/cos within one ulp, so mu <= 5u; the real pass's
// twiddles have angles up to pi computed from k/M + 1/2 with four roundings, mu <= 14u), the complex product (sqrt(2)
// gamma_2 <= 2.9u, Higham 2002, Lemma 3.5), the butterfly's additions (<= 1.5u each in modulus) and, for radix 3 and 5,
// products with inexact real constants (<= 6u); real_fft.cpp lists alpha_r per radix (12u to 24u, each rounded up).
// Multiplying the perturbed stages out (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed. 2002,
// Sec. 24.1, the proof of Thm 24.2 done componentwise instead of in the 2-norm) gives, with g = prod_i (1 + alpha_i) -
// 1,
//   |computed Z - Z| <= g |A_s| ... |A_1| |z| = g sum_m |z_m|   in every entry.
// The recombination X_k = (F_k + conj F_{M-k})/2 + w_k (F_k - conj F_{M-k})/2 at most doubles
// this and adds its own stage (20u): forward bound 2 g'. The inverse runs the same passes in
// reverse: its pre-pass builds M coefficients of total modulus <= 4 full-spectrum sums, and the
// 1/N scaling is one more rounding (2u): inverse bound 4 g''. These are a-priori, worst-case
// bounds (typical errors are about sqrt(log N) u); they make the PLD engine's delta floor certain.
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

  // Componentwise rounding-error bounds of the transforms (see the derivation above):
  //   forward:  |computed X_j - X_j| <= forward_error_bound() * sum_n |x_n|            for every j;
  //   inverse:  |computed x_n - x_n| <= inverse_error_bound() * (1/N) sum_{j<N} |X_j|  for every n,
  // where the inverse's sum runs over the full spectrum, |X_0| + 2 sum_{0<j<N/2} |X_j| + |X_{N/2}|.
  double forward_error_bound() const { return forward_error_bound_; }
  double inverse_error_bound() const { return inverse_error_bound_; }

 private:
  struct Engine;
  std::size_t size_;
  double forward_error_bound_ = 0, inverse_error_bound_ = 0;
  std::unique_ptr<Engine> engine_;
};

}  // namespace dpcalc::fft
