// Discrete Fourier transform of real sequences, and the circular convolution it diagonalises:
//   X_j = sum_{n<N} x_n e^{-2 pi i j n / N},   (x * y)_n = sum_{m<N} x_m y_{(n - m) mod N}.
// It knows nothing about privacy: the PLD engine uses it to compose distributions (cf.
// convolution.h in google/differential-privacy, which plays the same role there).
//
// Algorithm. A real transform of size N runs one complex FFT of size M = N/2 on
// z_m = x_2m + i x_2m+1 (so sum |z_m| <= sum |x_n|) and one recombination pass,
//   X_k = E_k - i w^k D_k,  X_{M-k} = conj(E_k + i w^k D_k),  E_k = (Z_k + conj Z_{M-k}) / 2,
//   D_k = (Z_k - conj Z_{M-k}) / 2,  w = e^{-2 pi i / N}.
// The complex FFT is Stockham's autosort Cooley-Tukey FFT (Van Loan 1992, "Computational
// Frameworks for the Fast Fourier Transform", Sec. 1.7) with radix-4 stages first, then radix 2,
// 3 and 5: stage i with radix r and stride L (the product of the radices before it) multiplies
// input r' of each butterfly by the twiddle e^{-2 pi i k r' / (L r)}, then takes a DFT of size r.
// Twiddles are read from one table of e^{-2 pi i j / N}, 0 <= j <= N/4, each evaluated by sin and
// cos of an angle in [0, pi/4] (the other octants by exact symmetries).
//
// Rounding error (the bounds forward_error_bound() and inverse_error_bound() return; u = 2^-53).
// In matrix form the complex FFT is X = A_s ... A_1 z: every row of the butterfly matrix A_i has r
// entries of modulus 1 and, since a Cooley-Tukey factorisation has exactly one path from each
// input to each output, every entry of |A_s| ... |A_1| equals 1. In floating point each stage
// computes (A_i + dA_i) y with |dA_i| <= alpha |A_i| componentwise, alpha bounding the relative
// error that one butterfly puts on one path:
//  * the twiddle: its angle 2 pi j / N is within 2.5u relative (<= 2u absolute on [0, pi/4]) and
//    sin and cos are within one ulp (2u), so the table entry is within 4u of e^{-i angle} in modulus;
//  * the complex product: sqrt(2) gamma_2 <= 2.9u (Higham 2002, "Accuracy and Stability of
//    Numerical Algorithms", 2nd ed., Lemma 3.5);
//  * each complex addition on the path: u (each part is rounded once); products with +-i, -1 and
//    1/2 are exact;
//  * radix 3 and 5 multiply by the inexact real constants sin(2 pi/3), cos(2 pi/5), ...: the rounded
//    constant and the product, 2u.
// Per path: radix 2: one addition; radix 4: two; radix 3: three additions or two and a constant;
// radix 5: four additions and a constant. With the twiddle (4u + 2.9u) that is within alpha_r =
// 12u, 14u, 20u, 24u for r = 2, 4, 3, 5 (real_fft.cpp; rounded up generously). Multiplying the
// perturbed stages out (Higham 2002, Sec. 24.1, the proof of Thm 24.2 done componentwise instead of
// in the 2-norm) gives, with g = prod_i (1 + alpha_i) - 1,
//   |computed Z - Z| <= g |A_s| ... |A_1| |z| = g sum_m |z_m|   in every entry.
// The recombination (a twiddle within 4u, a product, two additions: <= 20u on a path) at most
// doubles this and adds its own stage: forward bound 2 g'. The inverse runs the same passes in
// reverse: its pre-pass builds the M coefficients E_k + i conj(w^k) D_k (unhalved) of total
// modulus <= 4 full-spectrum sums, and the 1/N scaling is one more rounding (2u): inverse bound 4 g''.
// Two shortcuts compute the same doubles and so keep these bounds: the first stage's twiddles are
// exactly 1 (its products, which would return their inputs, are skipped; its alpha still counts
// them), and butterflies whose inputs are all exactly 0 (the stages' leading part of the inverse of
// a band-limited spectrum: RealFft::Plan::transform) write 0 without the arithmetic.
// Gradual underflow adds at most 2^-1075 per rounding in the subnormal range: below 1e-300 in
// every entry for N <= 2^22 (callers add that as an absolute term). These are a-priori,
// worst-case bounds (typical errors are about sqrt(log N) u); they make the PLD engine's delta
// floor certain. The tests check them against a long double DFT.
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <vector>

namespace dpcalc::fft {

// Smallest N >= minimum_size that is a multiple of 4 (the real transform halves N, and the
// recombination pairs k with N/2 - k) and has no prime factor other than 2, 3 and 5 (the radices
// of the butterflies). minimum_size >= 1.
std::size_t fast_real_size(std::size_t minimum_size);

// e^{-2 pi i j / n} for a multiple n of 4, within 4u of the exact value in modulus: sin and cos of
// an angle in [0, pi/4] (within 2u), the other octants by exact symmetries. The transforms' twiddles.
std::complex<double> root_of_unity(std::size_t j, std::size_t n);

// Real <-> half-spectrum transforms of one fixed size N (a value from fast_real_size).
// forward: N real values -> the N/2 + 1 non-redundant coefficients X_0 .. X_{N/2}.
// inverse: those N/2 + 1 coefficients -> the N real values, scaled by 1/N so that
//          inverse(forward(x)) == x up to rounding (relative error about 1e-16 * log N).
// An object holds its twiddle table and work space (about 24 bytes per point): build one per size
// and reuse it for every transform of that size.
class RealFft {
 public:
  explicit RealFft(std::size_t size);
  ~RealFft();
  RealFft(const RealFft&) = delete;
  RealFft& operator=(const RealFft&) = delete;

  std::size_t size() const { return size_; }
  std::size_t spectrum_size() const { return size_ / 2 + 1; }
  // root_of_unity(j, size()) for j < size(), the same double values, read from the twiddle table.
  std::complex<double> root(std::size_t j) const;

  // signal.size() must equal size(); spectrum is resized to spectrum_size().
  void forward(const std::vector<double>& signal, std::vector<std::complex<double>>& spectrum);
  // spectrum.size() must equal spectrum_size(); signal is resized to size().
  void inverse(const std::vector<std::complex<double>>& spectrum, std::vector<double>& signal);

  // Componentwise rounding-error bounds of the transforms (see the derivation above):
  //   forward:  |computed X_j - X_j| <= forward_error_bound() * sum_n |x_n|            for every j;
  //   inverse:  |computed x_n - x_n| <= inverse_error_bound() * (1/N) sum_{j<N} |X_j|  for every n,
  // where the inverse's sum runs over the full spectrum, |X_0| + 2 sum_{0<j<N/2} |X_j| + |X_{N/2}|;
  // each plus at most 1e-300 for gradual underflow.
  double forward_error_bound() const { return forward_error_bound_; }
  double inverse_error_bound() const { return inverse_error_bound_; }

 private:
  struct Plan;
  std::size_t size_;
  double forward_error_bound_ = 0, inverse_error_bound_ = 0;
  std::unique_ptr<Plan> plan_;
};

}  // namespace dpcalc::fft
