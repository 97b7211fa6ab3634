#include <cmath>
#include <complex>
#include <vector>

#include "approx.hpp"
#include "dpcalc/fft/real_fft.hpp"

using dpcalc::fft::RealFft;
using dpcalc::fft::fast_real_size;

TEST_CASE("[fft] fast sizes are multiples of 4 with factors 2, 3, 5 only") {
  CHECK(fast_real_size(1) == 4);
  CHECK(fast_real_size(5) == 8);
  CHECK(fast_real_size(9) == 12);
  for (std::size_t n : {1u, 7u, 13u, 100u, 1000u, 4097u, 123457u}) {
    const std::size_t size = fast_real_size(n);
    CHECK(size >= n);
    CHECK(size % 4 == 0);
    std::size_t rest = size;
    for (std::size_t p : {2u, 3u, 5u}) while (rest % p == 0) rest /= p;
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
