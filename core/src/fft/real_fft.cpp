#include "dpcalc/fft/real_fft.hpp"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <utility>

#include "dpcalc/fft/complex_vector.hpp"
#include "dpcalc/floating_point.hpp"

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

std::complex<double> root_of_unity(std::size_t j, std::size_t n) {
  const std::size_t quarter = n / 4, turns = (j % n) / quarter, rest = (j % n) % quarter;
  // The angle 2 pi r / n of r = min(rest, n/4 - rest) lies in [0, pi/4]; cos(pi/2 - a) = sin(a).
  const bool low = 8 * rest <= n;
  const double angle = boost::math::constants::two_pi<double>() *
                       (static_cast<double>(low ? rest : quarter - rest) / static_cast<double>(n));
  const double c = std::cos(angle), s = std::sin(angle);
  std::complex<double> root = low ? std::complex<double>{c, -s} : std::complex<double>{s, -c};
  for (std::size_t t = 0; t < turns; ++t) root = {root.imag(), -root.real()};  // times -i, exact
  return root;
}

namespace {

using Complex = std::complex<double>;

constexpr double kUnit = kUnitRoundoff;

}  // namespace

// One radix-r stage of the complex FFT: butterflies over inputs `span` = M / r apart, twiddles
// stored from `twiddle_offset` ((r - 1) per position k < stride). Outside the anonymous namespace:
// RealFft::Plan, which has external linkage, holds them.
struct Stage {
  int radix;
  std::size_t stride;
  std::size_t twiddle_offset;
};

namespace {

// alpha_r of real_fft.hpp: the relative error one radix-r butterfly (with its twiddle) puts on one
// path, rounded up: radix 2: twiddle 4u + product 2.9u + one addition u (12u); radix 4: one more
// addition (14u); radix 3 and 5: up to four additions and a product with an inexact constant (20u
// and 24u).
double stage_error(int radix) {
  switch (radix) {
    case 2:
      return 12 * kUnit;
    case 4:
      return 14 * kUnit;
    case 3:
      return 20 * kUnit;
    default:
      return 24 * kUnit;
  }
}
// The recombination pass of the real transform (forward) and its pre-pass (inverse): a twiddle
// within 4u, a product and two additions on a path, rounded up.
constexpr double kRecombinationError = 20 * kUnit;
// The 1/N scaling of the inverse: the rounded 1/N and the product.
constexpr double kScalingError = 2 * kUnit;

// Radix order of the complex FFT of size m: 4s first, then 2, 3, 5 (the smallest number of stages).
std::vector<int> radices_of(std::size_t m) {
  std::vector<int> radices;
  for (int radix : {4, 2, 3, 5}) {
    while (m % static_cast<std::size_t>(radix) == 0 && m > 1) {
      m /= static_cast<std::size_t>(radix);
      radices.push_back(radix);
    }
  }
  return radices;
}

// e^{-2 pi i j / n} for 0 <= j <= n/4 (n a multiple of 4), from the first octant: root_of_unity
// takes the roots j and n/4 - j (0 < j < n/8) from the same cosine and sine, (c, -s) and (s, -c), so
// the second is written from the first (the same doubles, half the calls of cos and sin).
std::vector<Complex> quarter_circle(std::size_t n) {
  const std::size_t quarter = n / 4;
  std::vector<Complex> roots(quarter + 1);
  for (std::size_t j = 0; 8 * j <= n; ++j) {
    roots[j] = root_of_unity(j, n);
    if (j > 0 && 8 * j < n) roots[quarter - j] = {-roots[j].imag(), -roots[j].real()};
  }
  roots[quarter] = root_of_unity(quarter, n);
  return roots;
}

// root_of_unity from the quarter circle table, by exact quarter turns (times -i).
Vec2 root_from_table(const std::vector<Complex>& quarter, std::size_t j, std::size_t n) {
  const std::size_t q = n / 4;
  Vec2 root = load(&quarter[j % q]);
  for (std::size_t turn = 0; turn < j / q; ++turn) root = times_minus_i(root);
  return root;
}

// One Stockham pass: out[g L r + k + r' L] = sum_{r''} w_r^{r' r''} (tw_{k,r''} in[g L + k + r'' M/r]),
// for groups g < M / (L r) and positions k < L (L = stage.stride). Kinverse conjugates the
// twiddles and the butterfly's roots of unity.
// (Coefficients are addressed as pairs of doubles: `in` and `out` point to 2M doubles.)
// Only the groups in [first, last) are computed (the caller zeroes the others' outputs).
// kUnitTwiddles: the first stage (L = 1), whose twiddles are all e^0 = 1 exactly (the table's
// entry 0 is {1, -0}), so that the products would return their inputs: they are skipped.
template <std::size_t kRadix, bool kInverse, bool kUnitTwiddles>
void run_stage(const double* in, double* out, std::size_t m, std::size_t stride, const Complex* twiddles,
               std::size_t first, std::size_t last) {
  const std::size_t span = m / kRadix;
  for (std::size_t g = first; g < last; ++g) {
    const double* source = in + 2 * g * stride;
    double* target = out + 2 * g * stride * kRadix;
    for (std::size_t k = 0; k < stride; ++k) {
      Vec2 v[kRadix];
      v[0] = load(source + 2 * k);
      const Complex* w = twiddles + k * (kRadix - 1);
      for (std::size_t r = 1; r < kRadix; ++r) {
        const Vec2 input = load(source + 2 * (k + r * span));
        if constexpr (kUnitTwiddles) {
          v[r] = input;
        } else {
          const Vec2 twiddle = load(w + r - 1);
          v[r] = kInverse ? multiply_conjugate(input, twiddle) : multiply(input, twiddle);
        }
      }
      butterfly<kRadix, kInverse>(v);
      for (std::size_t r = 0; r < kRadix; ++r) store(target + 2 * (k + r * stride), v[r]);
    }
  }
}

template <bool kInverse>
void run_stage(const Stage& stage, const double* in, double* out, std::size_t m, const Complex* twiddles,
               std::size_t first, std::size_t last) {
  const Complex* w = twiddles + stage.twiddle_offset;
  if (stage.stride == 1) {
    switch (stage.radix) {
      case 4:
        return run_stage<4, kInverse, true>(in, out, m, 1, w, first, last);
      case 2:
        return run_stage<2, kInverse, true>(in, out, m, 1, w, first, last);
      case 3:
        return run_stage<3, kInverse, true>(in, out, m, 1, w, first, last);
      default:
        return run_stage<5, kInverse, true>(in, out, m, 1, w, first, last);
    }
  }
  switch (stage.radix) {
    case 4:
      return run_stage<4, kInverse, false>(in, out, m, stage.stride, w, first, last);
    case 2:
      return run_stage<2, kInverse, false>(in, out, m, stage.stride, w, first, last);
    case 3:
      return run_stage<3, kInverse, false>(in, out, m, stage.stride, w, first, last);
    default:
      return run_stage<5, kInverse, false>(in, out, m, stage.stride, w, first, last);
  }
}

// The least W such that the M coefficients z_k are exactly 0 for W <= k <= M - W: the nonzero
// ones lie in the cyclic interval (-W, W) (M when none is 0 in the middle).
std::size_t nonzero_half_width(const double* z, std::size_t m) {
  const auto nonzero = [z](std::size_t k) { return z[2 * k] != 0 || z[2 * k + 1] != 0; };
  for (std::size_t k = m / 2; k > 0; --k) {
    if (nonzero(k) || nonzero(m - k)) return k + 1;
  }
  return 1;
}

}  // namespace

struct RealFft::Plan {
  std::size_t half = 0;           // M = N/2, the size of the complex FFT
  std::vector<Stage> stages;      // in order of application
  std::vector<Complex> twiddles;  // every stage's twiddles, forward sign
  std::vector<Complex> quarter;   // e^{-2 pi i j / N}, 0 <= j <= N/4 (recombination twiddles)
  std::vector<Complex> work;      // M coefficients: the stages alternate between it and the target

  double* work_pairs() { return reinterpret_cast<double*>(work.data()); }
  // The buffer that stage `i` writes: the target for the last stage and every second one before it.
  double* output_of(std::size_t i, double* target) { return (stages.size() - 1 - i) % 2 == 0 ? target : work_pairs(); }
  // The complex FFT of the M coefficients (2M doubles, re and im) at `input` into `target` (not
  // `input`; `input` may be the work buffer only when an odd number of stages follows).
  // `width`: the input is 0 outside the cyclic interval (-width, width) (width = M: anywhere). A
  // stage of radix r reads the inputs m + r' M/r (m < M/r) of one butterfly; while 2 width < M/r,
  // those with width <= m < M/r - width are all 0, and so are their outputs, which are written as
  // 0 without the butterfly (its products and sums of zeros are exactly 0: the result is the same
  // doubles, and the error bound of the computed butterflies holds unchanged). A group of L
  // consecutive m (L the stride) writes L r consecutive outputs, so the nonzero outputs lie
  // within the first and last groups' blocks: the next stage's width. A band-limited spectrum
  // (most of a composed PLD's coefficients underflow to 0) skips most of the first stages.
  // The zero outputs of a stage are the doubles [2 low block, 2 high block) of its buffer. The
  // widths grow from stage to stage, so these spans shrink: a buffer whose previous stage left a
  // span of zeros covering this one's (nothing wrote there since: the stage between wrote the other
  // buffer) is not filled again (a band-limited spectrum's first stages each had a buffer's worth
  // of zeros to write).
  template <bool kInverse>
  void transform(const double* input, double* target, std::size_t width) {
    const double* in = input;
    std::size_t zeros_begin[2] = {0, 0}, zeros_end[2] = {0, 0};  // known zeros of the work buffer, of target
    for (std::size_t i = 0; i < stages.size(); ++i) {
      double* out = output_of(i, target);
      const Stage& stage = stages[i];
      const auto radix = static_cast<std::size_t>(stage.radix);
      const std::size_t span = half / radix, groups = span / stage.stride, block = stage.stride * radix;
      std::size_t low = groups, high = groups;  // groups [low, high) are all 0
      if (2 * width < span) {
        low = (width + stage.stride - 1) / stage.stride;
        high = std::max(low, (span - width) / stage.stride);
      }
      run_stage<kInverse>(stage, in, out, half, twiddles.data(), 0, low);
      const std::size_t buffer = out == target ? 1 : 0, begin = 2 * low * block, end = 2 * high * block;
      if (begin < end && !(zeros_begin[buffer] <= begin && end <= zeros_end[buffer])) {
        std::fill(out + begin, out + end, 0.0);
      }
      zeros_begin[buffer] = begin;
      zeros_end[buffer] = end;
      run_stage<kInverse>(stage, in, out, half, twiddles.data(), high, groups);
      width = high > low ? std::max(low, groups - high) * block : half;
      in = out;
    }
  }
};

std::complex<double> RealFft::root(std::size_t j) const {
  const Vec2 value = root_from_table(plan_->quarter, j, size_);
  return {value[0], value[1]};
}

RealFft::RealFft(std::size_t size) : size_(size), plan_(std::make_unique<Plan>()) {
  Plan& plan = *plan_;
  plan.half = size / 2;
  plan.quarter = quarter_circle(size);
  std::size_t stride = 1;
  double growth = 1;
  plan.twiddles.reserve(plan.half);  // sum over the stages of stride (radix - 1) = half - 1
  for (int radix : radices_of(plan.half)) {
    plan.stages.push_back(Stage{radix, stride, plan.twiddles.size()});
    // Twiddle of input r of position k: e^{-2 pi i k r / (L radix)}, the N-th root k r N / (L radix).
    const std::size_t step = size / (stride * static_cast<std::size_t>(radix));
    for (std::size_t k = 0; k < stride; ++k) {
      for (int r = 1; r < radix; ++r) {
        Complex twiddle;
        store(&twiddle, root_from_table(plan.quarter, k * static_cast<std::size_t>(r) * step, size));
        plan.twiddles.push_back(twiddle);
      }
    }
    stride *= static_cast<std::size_t>(radix);
    growth *= 1 + stage_error(radix);
  }
  plan.work.resize(plan.half);
  growth *= 1 + kRecombinationError;
  forward_error_bound_ = 2 * (growth - 1) * (1 + kBoundSlack);
  inverse_error_bound_ = 4 * (growth * (1 + kScalingError) - 1) * (1 + kBoundSlack);
}

RealFft::~RealFft() = default;

void RealFft::forward(const std::vector<double>& signal, std::vector<std::complex<double>>& spectrum) {
  Plan& plan = *plan_;
  const std::size_t m = plan.half;
  spectrum.resize(m + 1);
  // z_m = x_2m + i x_2m+1 is the signal's own memory layout. Z lands in the spectrum's first M
  // slots and is recombined in place (each pair k, M - k is read before it is written).
  Complex* x = spectrum.data();
  plan.transform<false>(signal.data(), reinterpret_cast<double*>(x), m);
  const Complex* z = x;
  const double z0_re = z[0].real(), z0_im = z[0].imag();
  x[0] = {z0_re + z0_im, 0.0};
  x[m] = {z0_re - z0_im, 0.0};
  const Vec2 half{0.5, 0.5};
  for (std::size_t k = 1; 2 * k <= m; ++k) {
    const Vec2 a = load(z + k), b = conjugate(load(z + m - k));
    const Vec2 even = (a + b) * half, difference = (a - b) * half;
    const Vec2 rotated = multiply(difference, load(&plan.quarter[k]));  // w^k D_k
    store(x + k, even + times_minus_i(rotated));
    store(x + m - k, conjugate(even - times_minus_i(rotated)));
  }
}

void RealFft::inverse(const std::vector<std::complex<double>>& spectrum, std::vector<double>& signal) {
  Plan& plan = *plan_;
  const std::size_t m = plan.half;
  signal.resize(size_);
  const Complex* x = spectrum.data();
  // The pre-pass writes where the stages start, so that the last one lands in the signal's memory.
  double* target = signal.data();
  double* z = plan.stages.size() % 2 == 0 ? target : plan.work_pairs();
  // Z_k = E_k + i conj(w^k) D_k with E_k = X_k + conj X_{M-k}, D_k = X_k - conj X_{M-k} (unhalved:
  // the factor 1/2 joins the 1/N below), and Z_{M-k} = conj(E_k - i conj(w^k) D_k).
  {
    const double first = x[0].real(), last = x[m].real();
    store(z, Vec2{first + last, first - last});
  }
  for (std::size_t k = 1; 2 * k <= m; ++k) {
    const Vec2 a = load(x + k), b = conjugate(load(x + m - k));
    const Vec2 even = a + b, difference = a - b;
    const Vec2 rotated = multiply_conjugate(difference, load(&plan.quarter[k]));
    store(z + 2 * k, even - times_minus_i(rotated));
    store(z + 2 * (m - k), conjugate(even + times_minus_i(rotated)));
  }
  plan.transform<true>(z, target, nonzero_half_width(z, m));
  const double scale = 1.0 / static_cast<double>(size_);
  const Vec2 scales{scale, scale};
  for (std::size_t j = 0; j < m; ++j) store(target + 2 * j, load(target + 2 * j) * scales);
}

}  // namespace dpcalc::fft
