#include "dpcalc/pld/composed_support.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::pld {
namespace {

// Search interval of lambda, in index units, and the number of golden-section steps: each step
// narrows the interval of log(lambda) by 0.618, 16 steps from 25.3 to 0.011, where the bound is flat.
constexpr double kSmallestLambda = 1e-8;
constexpr double kLargestLambda = 1e3;
constexpr int kGoldenSectionSteps = 16;
// Horner sums below this may have lost relative accuracy to underflow (2^-1075 per step): they are
// summed again term by term in log space.
constexpr double kSmallestHornerSum = 0x1p-900;

// log sum_i m_i e^{lambda (i - anchor)} summed term by term from the logs of the masses, relative to
// the largest term (the fallback of log_index_mgf).
double log_sum_by_terms(const std::vector<double>& masses, double lambda, double anchor) {
  double largest = kNegativeInfinity;
  for (std::size_t i = 0; i < masses.size(); ++i) {
    if (masses[i] > 0) largest = std::max(largest, std::log(masses[i]) + lambda * (static_cast<double>(i) - anchor));
  }
  if (largest == kNegativeInfinity) return kNegativeInfinity;
  double sum = 0;
  for (std::size_t i = 0; i < masses.size(); ++i) {
    if (!(masses[i] > 0)) continue;
    const double exponent = std::log(masses[i]) + lambda * (static_cast<double>(i) - anchor) - largest;
    if (exponent > kExpUnderflow) sum += std::exp(exponent);  // smaller terms vanish next to the largest (1)
  }
  return largest + std::log(sum);
}

// sum_i a_i r^{K-1-i} over the K values [first, last), by Horner's rule in four interleaved chains
// (the terms whose power of r is congruent to 3, 2, 1, 0 mod 4, each in powers of r^4): four
// independent products and additions per step instead of one dependent pair.
template <class Iterator>
double weighted_from_top(Iterator first, Iterator last, double r) {
  const auto size = static_cast<std::size_t>(last - first);
  const double r4 = (r * r) * (r * r);
  double chain[4] = {0, 0, 0, 0};  // chain[c]: the terms with K - 1 - i = c mod 4
  std::size_t i = 0;
  for (; i < size && (size - 1 - i) % 4 != 3; ++i) {
    double& c = chain[(size - 1 - i) % 4];
    c = c * r4 + first[static_cast<std::ptrdiff_t>(i)];
  }
  for (; i < size; i += 4) {  // size - i is a multiple of 4 here
    const auto at = first + static_cast<std::ptrdiff_t>(i);
    chain[3] = chain[3] * r4 + at[0];
    chain[2] = chain[2] * r4 + at[1];
    chain[1] = chain[1] * r4 + at[2];
    chain[0] = chain[0] * r4 + at[3];
  }
  return chain[0] + r * (chain[1] + r * (chain[2] + r * chain[3]));
}

// min over lambda in [kSmallestLambda, kLargestLambda] of bound(lambda), a unimodal function of
// log(lambda) (its derivative is lambda^-2 times an increasing function, for the Chernoff bounds),
// by golden-section search; +inf when cancelled (bound returns NaN).
template <class F>
double minimise_over_lambda(F bound) {
  const double ratio = 0.6180339887498949;  // (sqrt(5) - 1) / 2
  double a = std::log(kSmallestLambda), b = std::log(kLargestLambda);
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double fc = bound(std::exp(c)), fd = bound(std::exp(d));
  double best = std::min(fc, fd);
  for (int i = 0; i < kGoldenSectionSteps; ++i) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = bound(std::exp(c));
      best = std::min(best, fc);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = bound(std::exp(d));
      best = std::min(best, fd);
    }
  }
  return best;
}

}  // namespace

double log_index_mgf(const DiscretePld& pld, double lambda) {
  const std::vector<double>& m = pld.masses;
  if (m.empty()) return kNegativeInfinity;
  const double r = std::exp(-std::fabs(lambda));
  // lambda > 0: sum_i m_i e^{lambda i} = e^{lambda top} sum_i m_i r^{top - i};
  // lambda < 0: sum_i m_i e^{lambda i} = sum_i m_i r^i, the same sum over the reversed masses.
  const double sum = lambda > 0 ? weighted_from_top(m.begin(), m.end(), r) : weighted_from_top(m.rbegin(), m.rend(), r);
  const double anchor = lambda > 0 ? static_cast<double>(m.size() - 1) : 0.0;
  const double log_sum = sum >= kSmallestHornerSum ? std::log(sum) : log_sum_by_terms(m, lambda, anchor);
  if (log_sum == kNegativeInfinity) return kNegativeInfinity;
  // A sum of K nonnegative terms by Horner's rule is within gamma_{2K} relative (Higham 2002, "Accuracy
  // and Stability of Numerical Algorithms", Sec. 5.1) and the powers of r within 3Ku; log adds one
  // ulp, the exponent below a few u of itself.
  const double k = static_cast<double>(m.size());
  const double exponent = lambda * (anchor + static_cast<double>(pld.lowest_index));
  const double slack = (5 * k + 8) * kUnitRoundoff * (1 + std::fabs(log_sum)) + 4 * kUnitRoundoff * std::fabs(exponent);
  return log_sum + exponent + slack;
}

Result<IndexRange> composed_support(const std::vector<CompositionTerm>& terms, double tail_mass,
                                    const std::function<bool()>& heartbeat) {
  IndexRange trivial;
  for (const auto& term : terms) {
    trivial.lowest += term.count * static_cast<double>(term.pld->lowest_index);
    trivial.highest += term.count * static_cast<double>(term.pld->lowest_index +
                                                        static_cast<std::int64_t>(term.pld->masses.size()) - 1);
  }
  const double log_tail = std::log(0.5 * tail_mass);
  bool stopped = false;
  // (sum_t count_t log M_t(lambda) - log(tail / 2)) / lambda: the index beyond which at most
  // tail / 2 lies, on the side of lambda's sign; moved outwards by the rounding of the sum.
  auto cut = [&](double lambda) {
    stopped = stopped || !heartbeat();
    double log_mgf_sum = 0, magnitude = 0;
    for (const auto& term : terms) {
      const double part = term.count * log_index_mgf(*term.pld, lambda);
      log_mgf_sum += part;
      magnitude += std::fabs(part);
    }
    const double bound = (log_mgf_sum - log_tail) / lambda;
    if (!std::isfinite(bound)) return bound;  // no finite mass
    const double slack =
        4 * static_cast<double>(terms.size() + 2) * kUnitRoundoff * (magnitude - log_tail) / std::fabs(lambda);
    return lambda > 0 ? bound + slack : bound - slack;
  };
  IndexRange range;
  range.highest =
      std::min(trivial.highest, std::ceil(minimise_over_lambda([&](double lambda) { return cut(lambda); })));
  range.lowest =
      std::max(trivial.lowest, std::floor(-minimise_over_lambda([&](double lambda) { return -cut(-lambda); })));
  if (stopped) return Error{kCancelled, "", "The computation was cancelled."};
  range.lowest = std::min(range.lowest, range.highest);
  return range;
}

}  // namespace dpcalc::pld
