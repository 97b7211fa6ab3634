#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "approx.hpp"
#include "dpcalc/fft/real_fft.hpp"

using dpcalc::fft::fast_real_size;
using dpcalc::fft::RealFft;

TEST_CASE("[fft] fast sizes are multiples of 4 with factors 2, 3, 5 only") {
  CHECK(fast_real_size(1) == 4);
  CHECK(fast_real_size(5) == 8);
  CHECK(fast_real_size(9) == 12);
  for (std::size_t n : {1u, 7u, 13u, 100u, 1000u, 4097u, 123457u}) {
    const std::size_t size = fast_real_size(n);
    CHECK(size >= n);
    CHECK(size % 4 == 0);
    std::size_t rest = size;
    for (std::size_t p : {2u, 3u, 5u})
      while (rest % p == 0) rest /= p;
    CHECK(rest == 1);
    CHECK(size <= 2 * n + 8);
  }
}

TEST_CASE("[fft] inverse of forward is the identity") {
  RealFft transform(60);
  std::vector<double> signal(60), back;
  for (std::size_t i = 0; i < signal.size(); ++i) signal[i] = std::sin(0.3 * static_cast<double>(i * i)) + 1.5;
  std::vector<std::complex<double>> spectrum;
  transform.forward(signal, spectrum);
  CHECK(spectrum.size() == 31);
  transform.inverse(spectrum, back);
  for (std::size_t i = 0; i < signal.size(); ++i) CHECK(std::fabs(back[i] - signal[i]) <= 1e-14);
}

TEST_CASE("[fft] products of spectra are circular convolutions") {
  // (1, 2, 3) * (4, 5) = (4, 13, 22, 15) computed by hand; size 8 leaves room, so no wrap-around.
  RealFft transform(8);
  std::vector<double> a{1, 2, 3, 0, 0, 0, 0, 0}, b{4, 5, 0, 0, 0, 0, 0, 0}, out;
  std::vector<std::complex<double>> sa, sb;
  transform.forward(a, sa);
  transform.forward(b, sb);
  for (std::size_t j = 0; j < sa.size(); ++j) sa[j] *= sb[j];
  transform.inverse(sa, out);
  const std::vector<double> expected{4, 13, 22, 15, 0, 0, 0, 0};
  for (std::size_t i = 0; i < 8; ++i) CHECK(std::fabs(out[i] - expected[i]) <= 1e-13);
}

TEST_CASE("[fft] the rounding-error bounds hold against a long double DFT") {
  // Non-negative signals like the PLD engine's (sum 1), sizes whose half (the complex FFT) takes
  // every mix of radix 4, 2, 3 and 5 stages. The reference DFT is summed in long double with
  // twiddles from long double sin/cos.
  for (std::size_t size :
       {4u, 8u, 12u, 20u, 24u, 36u, 40u, 60u, 72u, 100u, 120u, 180u, 200u, 256u, 360u, 500u, 720u, 1080u, 3000u}) {
    CAPTURE(size);
    RealFft transform(size);
    std::vector<double> signal(size);
    double total = 0;
    for (std::size_t i = 0; i < size; ++i)
      total += signal[i] =
          std::exp(-0.5 * std::pow((static_cast<double>(i) - 0.3 * static_cast<double>(size)) / 9.0, 2)) +
          1e-3 * static_cast<double>(i % 7);
    for (double& x : signal) x /= total;
    std::vector<std::complex<double>> spectrum;
    transform.forward(signal, spectrum);
    const long double pi = 3.141592653589793238462643383279502884L;
    double forward_error = 0, magnitude_sum = 0;
    std::vector<std::complex<long double>> exact(size / 2 + 1);
    for (std::size_t j = 0; j <= size / 2; ++j) {
      for (std::size_t n = 0; n < size; ++n) {
        const long double angle = -2 * pi * static_cast<long double>((j * n) % size) / static_cast<long double>(size);
        exact[j] += static_cast<long double>(signal[n]) * std::complex<long double>(std::cos(angle), std::sin(angle));
      }
      forward_error =
          std::max(forward_error, static_cast<double>(std::abs(std::complex<long double>(spectrum[j]) - exact[j])));
      magnitude_sum += (j == 0 || j == size / 2 ? 1 : 2) * std::abs(spectrum[j]);
    }
    CHECK(forward_error <= transform.forward_error_bound());  // sum of the signal is 1
    std::vector<double> back;
    transform.inverse(spectrum, back);
    // The inverse of the computed spectrum, exactly, is within the forward error of the signal
    // (Parseval bounds each point by the spectral 1-norm / N); the bound covers the rest.
    double inverse_error = 0;
    for (std::size_t n = 0; n < size; ++n) inverse_error = std::max(inverse_error, std::fabs(back[n] - signal[n]));
    CHECK(inverse_error <= transform.inverse_error_bound() * magnitude_sum / static_cast<double>(size) + forward_error);
  }
}

TEST_CASE("[fft] the bounds are a few dozen u per stage, not vacuous") {
  // 2^21 points: complex FFT of 2^20 = 4^10, ten radix-4 stages (14u each) and the recombination
  // (20u): forward 2 ((1 + 14u)^10 (1 + 20u) - 1) = 320u.
  const RealFft large(1u << 21);
  CHECK_REL(large.forward_error_bound(), 320 * 0x1p-53, 1e-5);
  CHECK(large.inverse_error_bound() < 700 * 0x1p-53);
}

TEST_CASE("[fft] the inverse of a band-limited spectrum, whose first stages skip zero butterflies") {
  // A composed PLD's spectrum is 0 beyond its first few coefficients: the inverse transform then
  // skips the butterflies whose inputs are all 0 (real_fft.hpp). Its output must still be the
  // inverse DFT within the bound: against a long double inverse DFT, for spectra nonzero on
  // X_0 .. X_{J-1} only (J from a single coefficient to past the point where every stage is dense),
  // and with one more coefficient at N/2 (nonzero inputs in the middle of the complex FFT: no skip).
  const long double pi = 3.141592653589793238462643383279502884L;
  for (std::size_t size : {24u, 120u, 360u, 1080u, 3000u, 4096u}) {
    for (std::size_t band : {1u, 2u, 3u, 7u, 40u, 300u}) {
      for (bool nyquist : {false, true}) {
        if (band > size / 2) continue;
        CAPTURE(size);
        CAPTURE(band);
        CAPTURE(nyquist);
        RealFft transform(size);
        std::vector<std::complex<double>> spectrum(size / 2 + 1);
        for (std::size_t j = 0; j < band; ++j) {
          const double decay = std::exp(-0.5 * static_cast<double>(j * j) / 50.0);
          spectrum[j] = j == 0 ? std::complex<double>(1.0, 0.0)
                               : decay * std::complex<double>(std::cos(0.7 * static_cast<double>(j)),
                                                              std::sin(0.7 * static_cast<double>(j)));
        }
        if (nyquist) spectrum[size / 2] = 0.25;
        double magnitude_sum = 0;
        for (std::size_t j = 0; j <= size / 2; ++j)
          magnitude_sum += (j == 0 || j == size / 2 ? 1 : 2) * std::abs(spectrum[j]);
        std::vector<double> signal;
        transform.inverse(spectrum, signal);
        REQUIRE(signal.size() == size);
        double error = 0;
        for (std::size_t n = 0; n < size; ++n) {
          // x_n = (1/N) (X_0 + X_{N/2} (-1)^n + 2 Re sum_{0<j<N/2} X_j e^{2 pi i j n / N}).
          long double exact =
              spectrum[0].real() + (n % 2 == 0 ? 1 : -1) * static_cast<long double>(spectrum[size / 2].real());
          for (std::size_t j = 1; j < size / 2; ++j) {
            const long double angle =
                2 * pi * static_cast<long double>((j * n) % size) / static_cast<long double>(size);
            exact += 2 * (static_cast<long double>(spectrum[j].real()) * std::cos(angle) -
                          static_cast<long double>(spectrum[j].imag()) * std::sin(angle));
          }
          exact /= static_cast<long double>(size);
          error = std::max(error, static_cast<double>(std::fabs(static_cast<long double>(signal[n]) - exact)));
        }
        CHECK(error <= transform.inverse_error_bound() * magnitude_sum / static_cast<double>(size));
        // Not vacuous: the signal is of order 1 / N and the error far below it.
        CHECK(error <= 1e-12 / static_cast<double>(size));
      }
    }
  }
}
