#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/signed_log_sum.hpp"

namespace dpcalc::rdp {
namespace {

// Error bounds below count in units of u = 2^−53; each elementary function (log, log1p, exp,
// expm1) is taken within 2u of its exact value, a generous margin over the libraries' 1 ulp.
constexpr double kSgmUnit = kUnitRoundoff;
// Boost.Math's erfc in double precision: its documented peak errors are a few ε; 8ε is allowed.
constexpr double kSgmErfcError = 8 * DBL_EPSILON;
constexpr double kSgmSqrt2 = 1.41421356237309504880;
constexpr double kSgmLogSqrtHalfPi = 0.225791352644727432363;  // log √(π/2)
// The series stop when their truncation bracket is below this fraction of the sum, or after this
// many terms past the first alternating one (the bound is then still certified, only looser).
constexpr double kSgmTailTolerance = 1.5e-11;
constexpr int kSgmMaxTailTerms = 20000;
// The tail's Euler transform uses up to this many forward differences.
constexpr int kSgmEulerDepth = 6;

// A computed value and a bound on its absolute error.
struct SgmApprox {
  double value;
  double error;
};

double sgm_erfc(double x) {
  const double value = boost::math::erfc(x);
  return std::isnan(value) ? kInfinity : value;
}

// log R(x) for the Mills ratio R(x) = Φ̄(x)/φ(x) = ∫_0^∞ e^{−xt − t²/2} dt.
SgmApprox log_mills_ratio(double x) {
  const double u = kSgmUnit;
  if (x >= 10) {
    // R(x) = (1/x) Σ_k (−1)^k (2k − 1)!!/x^{2k}: for real x > 0 the remainder has the sign of the
    // first term left out and is smaller (DLMF 7.12.1 and §7.12(i)); the terms, each within 3ku,
    // decrease up to k ≈ x²/2 ≥ 50, past the 2^−60 where the sum stops.
    const double inverse_square = 1 / (x * x);
    double term = 1, sum = 1;
    int k = 1;
    for (;; ++k) {
      term *= (2 * k - 1) * inverse_square;
      if (term < 0x1p-60) break;
      sum += k % 2 == 1 ? -term : term;
    }
    const double value = std::log(sum) - std::log(x);
    return {value, 1.1 * (term + 2 * (k + 1) * u) + 4 * u * (std::fabs(std::log(x)) + 1)};
  }
  const double y = std::fabs(x) / kSgmSqrt2;
  // y within 2u; erfc's relative sensitivity to it is at most 2(y + 1)·2uy.
  const double erfc_error = kSgmErfcError + 4 * u * y * (y + 1) + u;
  if (x >= 0) {
    const double log_erfc = std::log(sgm_erfc(y));
    const double value = log_erfc + 0.5 * x * x + kSgmLogSqrtHalfPi;
    return {value, erfc_error + 4 * u * (std::fabs(log_erfc) + x * x + 1)};
  }
  // R(x) = Φ(|x|)/φ(x) for x < 0, Φ(|x|) = 1 − erfc(|x|/√2)/2 ≥ 1/2.
  const double tail = 0.5 * sgm_erfc(y);
  const double log_cdf = std::log1p(-tail);
  const double value = log_cdf + 0.5 * x * x + kLogSqrtTwoPi;
  return {value, 2 * tail * erfc_error + 4 * u * (std::fabs(log_cdf) + x * x + 1)};
}

// log Φ(t) for t ≥ 0 (at least log 1/2), t within t_error, and its error: |d log Φ/dt| = φ(t)/Φ(t)
// is at most 2φ(t) ≤ 0.8 e^{−t²/2} there.
SgmApprox log_upper_normal_cdf(double t, double t_error) {
  const double u = kSgmUnit;
  const double y = t / kSgmSqrt2;
  const double tail = 0.5 * sgm_erfc(y);
  const double value = std::log1p(-tail);
  const double nearest = std::max(t - t_error, 0.0);
  return {value, 2 * tail * (kSgmErfcError + 4 * u * y * (y + 1) + u) + 2 * u * std::fabs(value) +
                     0.8 * std::exp(-0.5 * nearest * nearest) * t_error};
}

// The quantities every term shares: q, σ, the order (1 for the KL divergence), z₀ and
// log K = α log(1 − q) − z₀²/(2σ²) − log √(2π), with bounds on their rounding.
struct SgmSeries {
  double q, sigma, alpha;
  bool kl;
  double log_q, log_1mq, log_odds, log_odds_error, z0, z0_error, log_k, log_k_error;
};

SgmSeries make_series(double q, double sigma, double alpha, bool kl) {
  const double u = kSgmUnit;
  SgmSeries s{q, sigma, alpha, kl, std::log(q), std::log1p(-q), 0, 0, 0, 0, 0, 0};
  double& log_odds_error = s.log_odds_error;
  if (q >= 0.25 && q <= 0.75) {
    // log((1 − q)/q) = log1p((1 − 2q)/q): 1 − 2q is exact (Sterbenz), the quotient x within u|x|,
    // which moves log1p by at most u|x|/(1 + x) (1 + x ≥ 1/3), and log1p adds 2u of itself. Near
    // q = 1/2 this keeps z₀ accurate to u, where the difference of the two logarithms would leave
    // an error of about uσ² in z₀ (and of uσ in every term's Gaussian argument).
    const double ratio = (1 - 2 * q) / q;
    s.log_odds = std::log1p(ratio);
    log_odds_error = 1.01 * u * std::fabs(ratio) / (1 + ratio) + 2 * u * std::fabs(s.log_odds);
  } else {
    s.log_odds = s.log_1mq - s.log_q;  // log((1 − q)/q), cancellation-free for q near 1
    log_odds_error = 2 * u * (std::fabs(s.log_q) + std::fabs(s.log_1mq)) + u * std::fabs(s.log_odds);
  }
  const double variance = sigma * sigma;
  s.z0 = variance * s.log_odds + 0.5;
  s.z0_error = variance * log_odds_error + 3 * u * (std::fabs(variance * s.log_odds) + std::fabs(s.z0));
  const double quadratic = s.z0 * s.z0 / (2 * variance);
  s.log_k = alpha * s.log_1mq - quadratic - kLogSqrtTwoPi;
  s.log_k_error =
      5 * u * std::fabs(alpha * s.log_1mq) + 6 * u * quadratic + std::fabs(s.z0) / variance * s.z0_error * 1.01 + 4 * u;
  return s;
}

// t = direction·(shift − z₀)/σ and its error, for a shift within shift_error.
struct SgmArgument {
  double t, error;
};

SgmArgument sgm_argument(const SgmSeries& s, double shift, double shift_error, int direction) {
  const double u = kSgmUnit;
  const double t = direction * (shift - s.z0) / s.sigma;
  return {t,
          (2 * u * (std::fabs(shift) + std::fabs(s.z0)) + shift_error + s.z0_error) / s.sigma + 2 * u * std::fabs(t)};
}

// log((1 − q)^{α−s} q^s) for the shift s (within shift_error), and its error, as α log(1 − q) − sL
// with L = log((1 − q)/q): near q = 1/2 the two parts of (α − s) log(1 − q) + s log q are large and
// cancel (their rounding, about us, would reach every term at large s), while sL stays small.
SgmApprox log_binomial_weight(const SgmSeries& s, double shift, double shift_error) {
  const double u = kSgmUnit;
  const double part_1mq = s.alpha * s.log_1mq, part_odds = shift * s.log_odds;
  return {part_1mq - part_odds, 5 * u * std::fabs(part_1mq) + 4 * u * std::fabs(part_odds) +
                                    shift_error * std::fabs(s.log_odds) + std::fabs(shift) * s.log_odds_error + u};
}

// log(K·R(t)), t = direction·(shift − z₀)/σ, and its error. For t > 0 the Mills form; for t ≤ 0 the
// same value as (1 − q)^{α−s} q^s e^{(s² − s)/(2σ²)} Φ(−t) (K R(±(s − z₀)/σ) =
// (1 − q)^{α−s} q^s e^{(s² − s)/(2σ²)} Φ(∓(s − z₀)/σ), from the definition of z₀), whose parts do not
// cancel.
SgmApprox log_k_mills(const SgmSeries& s, double shift, double shift_error, int direction) {
  const double u = kSgmUnit;
  const SgmArgument argument = sgm_argument(s, shift, shift_error, direction);
  const double t = argument.t;
  if (t > 0) {
    // |d log R/dt| = 1/R(t) − t ≤ min(1/R(0), 1/t) < 0.8 for t ≥ 0.
    const SgmApprox mills = log_mills_ratio(t);
    const double slope = std::min(0.8, 1 / std::max(t - argument.error, 1e-300));
    const double value = s.log_k + mills.value;
    return {value, s.log_k_error + mills.error + slope * argument.error +
                       2 * u * (std::fabs(s.log_k) + std::fabs(mills.value))};
  }
  const SgmApprox weight = log_binomial_weight(s, shift, shift_error);
  const double quadratic = (shift * shift - shift) / (2 * s.sigma * s.sigma);
  const SgmApprox cdf = log_upper_normal_cdf(-t, argument.error);
  const double value = weight.value + quadratic + cdf.value;
  const double error = weight.error + shift_error * std::fabs(2 * shift - 1) / (2 * s.sigma * s.sigma) + cdf.error +
                       8 * u * (std::fabs(weight.value) + std::fabs(quadratic) + std::fabs(cdf.value) + 1);
  return {value, error};
}

// The coefficients of the series, in order i = 0, 1, 2, …: the generalised binomial coefficients
// C(α, i) (C(α, i + 1) = C(α, i)(α − i)/(i + 1), their logarithms summed with compensation), or for
// the KL divergence d/dα C(α, i) at α = 1: 0, 1 and (−1)^i/(i(i − 1)) for i ≥ 2.
struct SgmCoefficient {
  double log_magnitude, error;
  bool negative;
};

class SgmCoefficients {
 public:
  SgmCoefficients(double alpha, bool kl) : alpha_(alpha), kl_(kl) {}
  SgmCoefficient next() {
    const double u = kSgmUnit;
    const int i = index_++;
    if (kl_) {
      if (i == 0) return {kNegativeInfinity, 0, false};
      if (i == 1) return {0, 0, false};
      const double value = -(std::log(double(i)) + std::log(double(i - 1)));
      return {value, 4 * u * (std::fabs(value) + 1), i % 2 == 1};
    }
    if (i > 0) {
      const double factor = alpha_ - (i - 1);
      const double step = std::log(std::fabs(factor) / i);
      if (factor < 0) negative_ = !negative_;
      // Kahan–Babuška compensated sum of the steps' logarithms.
      const double sum = log_sum_ + step;
      compensation_ += std::fabs(log_sum_) >= std::fabs(step) ? (log_sum_ - sum) + step : (step - sum) + log_sum_;
      log_sum_ = sum;
      step_errors_ += 4 * u * (1 + std::fabs(step));
      steps_magnitude_ += std::fabs(step);
    }
    const double value = log_sum_ + compensation_;
    const double count = index_;
    return {value, step_errors_ + 2 * u * std::fabs(value) + 4 * count * u * u * steps_magnitude_, negative_};
  }

 private:
  double alpha_;
  bool kl_;
  int index_ = 0;
  bool negative_ = false;
  double log_sum_ = 0, compensation_ = 0, step_errors_ = 0, steps_magnitude_ = 0;
};

// Which part of A_α the expansion of 1 = Σ_i C(α, i)(1 − q)^{α−i} q^i (q ≤ 1/2) or
// 1 = Σ_i C(α, i) q^{α−i} (1 − q)^i (q ≥ 1/2) is subtracted from, term by term: the series below z₀
// or the series above it (the ratio q/(1 − q), resp. its inverse, is at most 1, so it converges).
enum class SgmForm { kBelow, kAbove };

// Term i of the series, its coefficient apart: log K R((i − z₀)/σ) (the part below z₀),
// log K R((z₀ − α + i)/σ) (above z₀) and the term of the expansion of 1 that is subtracted.
struct SgmTerm {
  SgmCoefficient coefficient;
  SgmApprox below, above, one;
};

SgmTerm sgm_term(const SgmSeries& s, SgmForm form, SgmCoefficients& coefficients, int i) {
  const double u = kSgmUnit;
  SgmTerm term;
  term.coefficient = coefficients.next();
  term.below = log_k_mills(s, i, 0, +1);
  const double above_shift = s.alpha - i;
  term.above = log_k_mills(s, above_shift, u * std::fabs(above_shift), -1);
  term.one = form == SgmForm::kBelow ? log_binomial_weight(s, i, 0)
                                     : log_binomial_weight(s, above_shift, u * std::fabs(above_shift));
  return term;
}

// Adds ±e^{log_magnitude} whose logarithm is within `error` of exact.
void add_term(SignedLogSum& sum, double log_magnitude, double error, bool negative) {
  sum.add(log_magnitude, negative, log_error_of(log_magnitude, error));
}

// Adds ±e^{P} expm1(E) for P within prefactor_error (in the log, below 0.01) and E within
// exponent_error: |expm1(E′) − expm1(E)| ≤ e^{E + |E′ − E|}|E′ − E|, plus the prefactor's and expm1's
// own relative errors on the value (e^{0.01} covers e^{prefactor_error} on both).
void add_expm1_term(SignedLogSum& sum, double log_prefactor, double prefactor_error, double exponent,
                    double exponent_error, bool negative) {
  const double u = kSgmUnit;
  // log |e^{E} − 1|, without overflow for large E.
  const bool negative_difference = exponent < 0;
  const double log_difference = negative_difference ? std::log(-std::expm1(exponent)) : log_expm1(exponent);
  const double log_error = log_prefactor +
                           log_add_exp(log_difference + std::log(std::expm1(prefactor_error) + 2 * u),
                                       exponent + exponent_error + std::log(exponent_error)) +
                           0.01;
  sum.add(log_prefactor + log_difference, negative != negative_difference, log_error);
}

// (s² − s)/(2σ²) for a shift s within shift_error, and its error.
SgmApprox sgm_quadratic(const SgmSeries& s, double shift, double shift_error) {
  const double quadratic = (shift * shift - shift) / (2 * s.sigma * s.sigma);
  return {quadratic,
          4 * kSgmUnit * std::fabs(quadratic) + shift_error * std::fabs(2 * shift - 1) / (2 * s.sigma * s.sigma)};
}

// C·[K R(t) − (1 − q)^{α−s} q^s] for t = direction·(s − z₀)/σ ≤ 0, as
// C (1 − q)^{α−s} q^s (e^{c} Φ(−t) − 1) with c = (s² − s)/(2σ²): one term, through expm1, free of the
// cancellation of its two parts. False (nothing added) when t > 0.
bool add_difference(SignedLogSum& sum, const SgmSeries& s, const SgmCoefficient& coefficient, double shift,
                    double shift_error, int direction) {
  const double u = kSgmUnit;
  const SgmArgument argument = sgm_argument(s, shift, shift_error, direction);
  if (argument.t > 0) return false;
  const SgmApprox cdf = log_upper_normal_cdf(-argument.t, argument.error);
  const SgmApprox weight = log_binomial_weight(s, shift, shift_error);
  const SgmApprox quadratic = sgm_quadratic(s, shift, shift_error);
  const double exponent = quadratic.value + cdf.value;
  const double exponent_error = quadratic.error + cdf.error + u * std::fabs(exponent);
  add_expm1_term(sum, coefficient.log_magnitude + weight.value, coefficient.error + weight.error, exponent,
                 exponent_error, coefficient.negative);
  return true;
}

// log Φ̄(t) for t ≥ 0, t within t_error, and its error: erfc's own, its argument's rounding, and
// |d log Φ̄/dt| = 1/R(t) ≤ t + 1 (the Mills ratio R(t) ≥ 2/(t + √(t² + 4)) ≥ 1/(t + 1)).
SgmApprox log_normal_tail(double t, double t_error) {
  const double u = kSgmUnit;
  const double y = t / kSgmSqrt2;
  const double value = std::log(0.5 * sgm_erfc(y));
  return {value, kSgmErfcError + 4 * u * y * (y + 1) + 2 * u + (t + t_error + 1) * t_error + 2 * u * std::fabs(value)};
}

double sgm_erf(double x) {
  const double value = boost::math::erf(x);
  return std::isnan(value) ? kInfinity : value;
}

// Where both Gaussian factors are in the bulk, t_U = (i − z₀)/σ and t_V = (z₀ − α + i)/σ at most 4
// in size (z₀ within a few σ of the integers, as for q near 1/2 with σ large), term i's three parts
// are of size up to 1/2 and their sum C_i[U_i + V_i − w_i] (w_i the subtracted weight, a_i or b_i)
// is small: with G_U = Φ̄(t_U), G_V = Φ̄(t_V), c_U = (i² − i)/(2σ²), c_V the same at α − i, and
// ρ = log(b_i/a_i) = (2i − α) log((1 − q)/q),
//   U_i + V_i − a_i = a_i[(e^{c_U} − 1)G_U + (e^{c_V + ρ} − 1)G_V − (erf(t_U/√2) + erf(t_V/√2))/2]
// (below z₀, q ≤ 1/2; above, with b_i, c_U − ρ and c_V swapped), since Φ̄(t) − ½ = −erf(t/√2)/2.
// The parts are computed without cancellation (the erfs of small arguments to their relative
// accuracy), so that the terms' sizes, and with them their rounding, shrink from 1/2 to about
// (|t_U| + |t_V|)/2. False (nothing added) outside that region.
bool add_pair(SignedLogSum& sum, const SgmSeries& s, SgmForm form, const SgmCoefficient& coefficient, int i) {
  const double u = kSgmUnit;
  constexpr double kBulk = 4;  // both Gaussian factors at least Φ̄(4) ≈ 3e-5
  const double shift_v = s.alpha - i, shift_v_error = u * std::fabs(shift_v);
  const SgmArgument argument_u = sgm_argument(s, i, 0, +1);
  const SgmArgument argument_v = sgm_argument(s, shift_v, shift_v_error, -1);
  if (!(std::fabs(argument_u.t) <= kBulk && std::fabs(argument_v.t) <= kBulk)) return false;
  const SgmApprox quadratic_u = sgm_quadratic(s, i, 0), quadratic_v = sgm_quadratic(s, shift_v, shift_v_error);
  // ρ: 2i − α within u of itself, log((1 − q)/q) within its error, the product within u.
  const double factor = 2.0 * i - s.alpha;
  const double ratio = factor * s.log_odds;
  const double ratio_error = std::fabs(factor) * s.log_odds_error + 3 * u * std::fabs(ratio);
  if (!(quadratic_u.value <= 50 && quadratic_v.value <= 50 && std::fabs(ratio) <= 50)) return false;
  const bool below = form == SgmForm::kBelow;
  const SgmApprox weight = below ? log_binomial_weight(s, i, 0) : log_binomial_weight(s, shift_v, shift_v_error);
  const double log_prefactor = coefficient.log_magnitude + weight.value;
  const double prefactor_error = coefficient.error + weight.error;
  if (!(prefactor_error < 0.005)) return false;
  // log Φ̄(t): the tail for t ≥ 0, log Φ(|t|) (at least log ½) for t < 0.
  const auto log_survival = [](const SgmArgument& argument) {
    return argument.t >= 0 ? log_normal_tail(argument.t, argument.error)
                           : log_upper_normal_cdf(-argument.t, argument.error);
  };
  const SgmApprox tail_u = log_survival(argument_u), tail_v = log_survival(argument_v);
  // The subtracted series' own part (e^{c} − 1)G and the other one's (e^{c ± ρ} − 1)G.
  const SgmApprox& own_tail = below ? tail_u : tail_v;
  const SgmApprox& other_tail = below ? tail_v : tail_u;
  const SgmApprox& own_quadratic = below ? quadratic_u : quadratic_v;
  const SgmApprox& other_quadratic = below ? quadratic_v : quadratic_u;
  const double other_exponent = other_quadratic.value + (below ? ratio : -ratio);
  const double other_exponent_error = other_quadratic.error + ratio_error + u * std::fabs(other_exponent);
  add_expm1_term(sum, log_prefactor + own_tail.value,
                 prefactor_error + own_tail.error + 2 * u * (std::fabs(log_prefactor) + std::fabs(own_tail.value)),
                 own_quadratic.value, own_quadratic.error, coefficient.negative);
  add_expm1_term(sum, log_prefactor + other_tail.value,
                 prefactor_error + other_tail.error + 2 * u * (std::fabs(log_prefactor) + std::fabs(other_tail.value)),
                 other_exponent, other_exponent_error, coefficient.negative);
  // −(erf(t_U/√2) + erf(t_V/√2))/2, its absolute error: erf's own (8ε of itself), the arguments'
  // (|erf′| ≤ 2/√π) and the addition's; then the prefactor's relative error on the whole.
  const double z_u = argument_u.t / kSgmSqrt2, z_v = argument_v.t / kSgmSqrt2;
  const double erf_u = sgm_erf(z_u), erf_v = sgm_erf(z_v);
  const double erf_sum = erf_u + erf_v;
  const double erf_error =
      kSgmErfcError * (std::fabs(erf_u) + std::fabs(erf_v)) +
      1.1284 * ((argument_u.error + argument_v.error) / kSgmSqrt2 + u * (std::fabs(z_u) + std::fabs(z_v))) +
      u * std::fabs(erf_sum);
  const double log_half_prefactor = log_prefactor - 0.69314718055994530942;
  const double log_magnitude = erf_sum == 0 ? kNegativeInfinity : log_half_prefactor + std::log(std::fabs(erf_sum));
  const double log_error =
      log_half_prefactor +
      std::log(erf_error +
               std::fabs(erf_sum) * (std::expm1(prefactor_error + 4 * u * (std::fabs(log_prefactor) + 1)) + 4 * u)) +
      0.01;
  sum.add(log_magnitude, coefficient.negative != (erf_sum > 0), log_error);
  return true;
}

// The bracket [e^{log_low}, e^{log_high}] on Σ_{k≥0} (−1)^k b_k for a completely monotone b given
// by logs[k] = log b_k (k = 0..count−1, each within its error): with D_j = (−Δ)^j b_0 ≥ 0, the sum
// is Σ_{j<J} 2^{−j−1} D_j plus a remainder between 2^{−J−1} D_J and 2^{−J} D_J (b_k = ∫ s^k dν(s) on
// [0, 1] gives Σ(−1)^k b_k = ∫ dν/(1 + s) = Σ_j 2^{−j−1} ∫ (1 − s)^j dν); every J's bracket holds the
// sum, and so does their intersection.
struct SgmBracket {
  double log_low, log_high;
};

SgmBracket alternating_tail(const SgmApprox* logs, int count) {
  const double u = kSgmUnit;
  const double scale = logs[0].value;
  if (scale == kNegativeInfinity) return {kNegativeInfinity, kNegativeInfinity};
  double beta[kSgmEulerDepth + 1], beta_error[kSgmEulerDepth + 1];
  for (int k = 0; k < count; ++k) {
    const double shift = logs[k].value - scale;
    beta[k] = std::exp(shift);
    beta_error[k] = beta[k] * (std::expm1(logs[k].error) + (std::fabs(shift) + 2) * u) * 1.01;
  }
  // Leibniz: 0 ≤ Σ ≤ b_0 and Σ ≥ b_0 − b_1.
  double best_low = 0, best_high = beta[0] + beta_error[0];
  if (count >= 2) best_low = std::max(0.0, beta[0] - beta[1] - beta_error[0] - beta_error[1]);
  double partial_low = 0, partial_high = 0, weight = 0.5;
  for (int j = 0; j < count; ++j) {
    double difference = 0, difference_error = 0, binomial = 1;
    for (int k = 0; k <= j; ++k) {
      difference += k % 2 == 0 ? binomial * beta[k] : -binomial * beta[k];
      difference_error += binomial * (beta_error[k] + beta[k] * (j + 2) * u);
      binomial = binomial * (j - k) / (k + 1);
    }
    best_low = std::max(best_low, partial_low + weight * std::max(difference - difference_error, 0.0));
    best_high = std::min(best_high, partial_high + 2 * weight * (difference + difference_error));
    partial_low += weight * (difference - difference_error);
    partial_high += weight * (difference + difference_error);
    weight /= 2;
  }
  const double low = best_low * (1 - 16 * u), high = best_high * (1 + 16 * u);
  const double margin = 2 * u * (std::fabs(scale) + 1);
  return {low > 0 ? scale + std::log(low) - margin - 2 * u * std::fabs(std::log(low)) : kNegativeInfinity,
          scale + std::log(high) + margin + 2 * u * std::fabs(std::log(high))};
}

double width_of(const SgmBracket& bracket) {
  if (bracket.log_high == kNegativeInfinity) return 0;
  return std::exp(bracket.log_high) - (bracket.log_low == kNegativeInfinity ? 0 : std::exp(bracket.log_low));
}

// Adds an upper bound on a tail whose first term has the sign `negative`.
void add_tail(SignedLogSum& sum, const SgmBracket& bracket, bool negative) {
  if (negative) {
    sum.add(bracket.log_low, true);
  } else {
    sum.add(bracket.log_high, false);
  }
}

// Adds c·e^{log_value}, c a constant of magnitude |c| ≤ 1 given by its logarithm, its value within
// `error` in the log.
void add_scaled(SignedLogSum& sum, double log_factor, const SgmApprox& value, bool negative) {
  const double log_magnitude = log_factor + value.value;
  add_term(sum, log_magnitude, value.error + 4 * kSgmUnit * (std::fabs(log_magnitude) + std::fabs(log_factor) + 1),
           negative);
}

// The KL divergence's terms outside the sums over i, with V₀ = K R((z₀ − 1)/σ), V₁ = K R(z₀/σ),
// U₀ = K R(−z₀/σ), U₁ = K R((1 − z₀)/σ), K = (1 − q)φ(z₀/σ) and L = log((1 − q)/q) (z₀/σ² = L + 1/(2σ²)
// substituted, so that no two of them cancel):
//   below z₀ (q ≤ 1/2): V₁ − V₀ − L(V₀ + V₁) + (V₀ − V₁)/(2σ²) + 2K/σ,
//   above z₀ (q ≥ 1/2): L(U₀ + U₁) + (V₀ − V₁)/(2σ²) + 2K/σ.
void add_kl_special_terms(SignedLogSum& sum, const SgmSeries& s, SgmForm form) {
  const double u = kSgmUnit;
  const SgmApprox v0 = log_k_mills(s, 1, 0, -1), v1 = log_k_mills(s, 0, 0, -1);
  const double variance = s.sigma * s.sigma;
  const double log_half_precision = -std::log(2 * variance);  // log(1/(2σ²)), within 4u(|·| + 1)
  const double log_precision_error = 4 * u * (std::fabs(log_half_precision) + 1);
  add_scaled(sum, log_half_precision, {v0.value, v0.error + log_precision_error}, false);
  add_scaled(sum, log_half_precision, {v1.value, v1.error + log_precision_error}, true);
  const double two_k = std::log(2.0) + s.log_k - std::log(s.sigma);
  add_term(sum, two_k, s.log_k_error + 4 * u * (std::fabs(two_k) + 2), false);
  const double log_odds_magnitude = std::log(std::fabs(s.log_odds));
  // L within its error (make_series), relative to |L|.
  const double log_odds_error = s.log_odds_error / std::fabs(s.log_odds) * 1.01 + 2 * u;
  if (form == SgmForm::kBelow) {
    add_term(sum, v1.value, v1.error, false);
    add_term(sum, v0.value, v0.error, true);
    if (s.log_odds != 0) {
      add_scaled(sum, log_odds_magnitude, {v0.value, v0.error + log_odds_error}, s.log_odds > 0);
      add_scaled(sum, log_odds_magnitude, {v1.value, v1.error + log_odds_error}, s.log_odds > 0);
    }
  } else if (s.log_odds != 0) {
    const SgmApprox u0 = log_k_mills(s, 0, 0, +1), u1 = log_k_mills(s, 1, 0, +1);
    add_scaled(sum, log_odds_magnitude, {u0.value, u0.error + log_odds_error}, s.log_odds < 0);
    add_scaled(sum, log_odds_magnitude, {u1.value, u1.error + log_odds_error}, s.log_odds < 0);
  }
}

// The certified sum S = A_α − 1 of the series for a fractional α > 1, or S = KL divergence (α = 1),
// with 1 subtracted from the series below z₀ (q ≤ 1/2) or above it (q ≥ 1/2).
SignedLogSum::Upper sgm_series_upper(const SgmSeries& s, SgmForm form) {
  const double u = kSgmUnit;
  SignedLogSum sum;
  if (s.kl) add_kl_special_terms(sum, s, form);
  const int first_alternating = s.kl ? 2 : static_cast<int>(std::floor(s.alpha)) + 1;
  // The KL divergence's terms i = 0 (and below z₀ also i = 1) are in its special terms.
  const int first = s.kl ? (form == SgmForm::kBelow ? 2 : 1) : 0;
  SgmCoefficients coefficients(s.alpha, s.kl);
  std::vector<SgmTerm> terms;
  int added = 0;
  for (;;) {
    while (static_cast<int>(terms.size()) < added + kSgmEulerDepth + 1) {
      terms.push_back(sgm_term(s, form, coefficients, static_cast<int>(terms.size())));
    }
    if (added >= first_alternating && added >= first) {
      // The tails of Σ C_i K[R(x_i) + R(y_i)] and of the subtracted expansion of 1.
      SgmApprox paired[kSgmEulerDepth + 1], ones[kSgmEulerDepth + 1];
      for (int k = 0; k <= kSgmEulerDepth; ++k) {
        const SgmTerm& term = terms[static_cast<std::size_t>(added + k)];
        const double coefficient = term.coefficient.log_magnitude;
        paired[k] = {coefficient + log_add_exp(term.below.value, term.above.value),
                     term.coefficient.error + std::max(term.below.error, term.above.error) + 4 * u};
        ones[k] = {coefficient + term.one.value, term.coefficient.error + term.one.error};
      }
      const SgmBracket paired_tail = alternating_tail(paired, kSgmEulerDepth + 1);
      const SgmBracket ones_tail = alternating_tail(ones, kSgmEulerDepth + 1);
      const double width = width_of(paired_tail) + width_of(ones_tail);
      if (width == 0 || std::log(width) <= std::log(kSgmTailTolerance) + sum.approximate_log() ||
          added >= first_alternating + kSgmMaxTailTerms) {
        const bool negative = terms[static_cast<std::size_t>(added)].coefficient.negative;
        add_tail(sum, paired_tail, negative);
        add_tail(sum, ones_tail, !negative);
        break;
      }
    }
    const SgmTerm& term = terms[static_cast<std::size_t>(added)];
    const int i = added++;
    if (i < first) continue;
    const SgmCoefficient& c = term.coefficient;
    const double above_shift = s.alpha - i, above_shift_error = u * std::fabs(above_shift);
    if (add_pair(sum, s, form, c, i)) continue;
    if (form == SgmForm::kBelow) {
      add_term(sum, c.log_magnitude + term.above.value, c.error + term.above.error, c.negative);
      if (!add_difference(sum, s, c, i, 0, +1)) {
        add_term(sum, c.log_magnitude + term.below.value, c.error + term.below.error, c.negative);
        add_term(sum, c.log_magnitude + term.one.value, c.error + term.one.error, !c.negative);
      }
    } else {
      add_term(sum, c.log_magnitude + term.below.value, c.error + term.below.error, c.negative);
      if (!add_difference(sum, s, c, above_shift, above_shift_error, -1)) {
        add_term(sum, c.log_magnitude + term.above.value, c.error + term.above.error, c.negative);
        add_term(sum, c.log_magnitude + term.one.value, c.error + term.one.error, !c.negative);
      }
    }
  }
  return sum.upper();
}

// e^{log_scale}·scaled rounded up, for the KL divergence (no log of 1 + S).
double value_upper(const SignedLogSum::Upper& bound) {
  if (!(bound.scaled > 0)) return 0;
  const double log_scaled = std::log(bound.scaled);
  const double t =
      bound.log_scale + log_scaled + 2 * kSgmUnit * (std::fabs(bound.log_scale) + std::fabs(log_scaled) + 1);
  const double value = std::exp(t);
  return value == 0 ? std::numeric_limits<double>::denorm_min() : std::nextafter(value * (1 + 4 * kSgmUnit), kInfinity);
}

// α − 1 rounded down (exact for α ≤ 2, by Sterbenz's lemma).
double order_minus_one_down(double order) {
  const double difference = order - 1;
  return order <= 2 ? difference : std::nextafter(difference, 0.0);
}

// A_α − 1 for an integer α ≥ 2: Σ_{i=2}^{α} C(α, i)(1 − q)^{α−i} q^i expm1((i² − i)/(2σ²)), every
// term positive.
SignedLogSum::Upper integer_order_upper(double q, double sigma, int order) {
  const double u = kSgmUnit;
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  SgmCoefficients coefficients(order, false);
  coefficients.next();
  coefficients.next();
  SignedLogSum sum;
  for (int i = 2; i <= order; ++i) {
    const SgmCoefficient coefficient = coefficients.next();
    const double quadratic = (double(i) * i - i) / (2 * sigma * sigma);
    const double part_1mq = (order - i) * log_1mq, part_q = i * log_q;
    const double log_expm1_value = log_expm1(quadratic);
    const double value = coefficient.log_magnitude + part_1mq + part_q + log_expm1_value;
    // log expm1(c) moves by at most |c'| ≤ 1 + 1/c times c's error 4uc (c ≥ 1/σ² > 0).
    const double error = coefficient.error + 4 * u * (quadratic + 1) +
                         6 * u * (std::fabs(part_1mq) + std::fabs(part_q)) + 8 * u * (std::fabs(value) + 1);
    add_term(sum, value, error, false);
  }
  return sum.upper();
}

// Joint convexity: e^{(α−1)D_α} is convex in the first distribution, so the mixture's divergence is at
// most log(1 + q(e^{(α−1)α/(2σ²)} − 1))/(α − 1) (q/(2σ²) at α = 1), rounded up.
double mixture_convexity_bound(double q, double sigma, double order) {
  const double gaussian = gaussian_rdp(sigma, 1);
  if (order == 1) return multiply_up(q, gaussian);
  const double exponent = multiply_up(order - 1, multiply_up(order, gaussian));
  const double value = std::log1p(multiply_up(q, std::expm1(exponent) * (1 + 4 * kSgmUnit)));
  return divide_up(std::nextafter(value * (1 + 4 * kSgmUnit), kInfinity), order_minus_one_down(order));
}

// Where the fractional series converges in a few hundred terms: σ within the range it is checked
// over (see the header) and q not vanishingly small. Outside it (σ of 1e4 or 1e-150, q of 1e-300,
// met only by extreme requests) a term costs as much and thousands are needed, tens of milliseconds
// an order.
bool series_is_fast(double q, double sigma) { return sigma >= 1e-3 && sigma <= 1e3 && q >= 1e-100; }

}  // namespace

std::vector<double> default_orders() {
  std::vector<double> orders;
  for (int x = 11; x <= 109; ++x) orders.push_back(x / 10.0);
  for (int a = 12; a <= 64; ++a) orders.push_back(a);
  for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
  return orders;
}

Result<std::vector<double>> check_orders(const std::vector<double>& orders) {
  if (orders.empty()) return invalid_argument("orders", "At least one order is needed.");
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double order = orders[i];
    if (!((order >= 1 && order <= kMaxOrder) || order == kInfinity)) {
      return about_item(invalid_argument("orders", "Each order must be 1, a number in (1, " + format_number(kMaxOrder) +
                                                       "] or infinity " + got(order) + "."),
                        i);
    }
    if (i > 0 && !(order > orders[i - 1])) {
      return about_item(
          invalid_argument("orders", "The orders must be strictly increasing (got " + format_number(order) + " after " +
                                         format_number(orders[i - 1]) + ")."),
          i);
    }
  }
  return orders;
}

double gaussian_rdp(double noise_multiplier, double order) {
  if (order == kInfinity) return kInfinity;
  const double inverse = divide_up(1, noise_multiplier);
  return multiply_up(order, multiply_up(inverse, inverse) / 2);
}

double subsampled_gaussian_rdp(double rate, double noise_multiplier, double order) {
  if (!(rate >= 0 && rate <= 1 && noise_multiplier > 0 && order >= 1)) return kInfinity;
  if (rate == 0) return 0;
  if (order == kInfinity) return kInfinity;
  if (rate == 1) return gaussian_rdp(noise_multiplier, order);
  const double q = rate, sigma = noise_multiplier;
  if ((order == 1 || order != std::floor(order)) && !series_is_fast(q, sigma)) {
    // D_α is non-decreasing in α (van Erven & Harremoës 2014, Thm 3): the integer order above bounds
    // a fractional one (and order 1) where the series would need thousands of terms.
    return std::min(subsampled_gaussian_rdp(q, sigma, std::floor(order) + 1), mixture_convexity_bound(q, sigma, order));
  }
  const SgmForm form = q <= 0.5 ? SgmForm::kBelow : SgmForm::kAbove;
  double value = kInfinity;
  if (order == 1) {
    value = value_upper(sgm_series_upper(make_series(q, sigma, 1, true), form));
  } else {
    const SignedLogSum::Upper moment_minus_one = order == std::floor(order)
                                                     ? integer_order_upper(q, sigma, static_cast<int>(order))
                                                     : sgm_series_upper(make_series(q, sigma, order, false), form);
    value = divide_up(log1p_upper(moment_minus_one), order_minus_one_down(order));
  }
  if (std::isnan(value)) value = kInfinity;
  return std::min(value, mixture_convexity_bound(q, sigma, order));
}

}  // namespace dpcalc::rdp
