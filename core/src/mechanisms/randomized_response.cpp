// Randomized response over k buckets with noise parameter p (Warner 1965; as dp_accounting's
// RandomizedResponseDpEvent): with probability 1 − p the true bucket, with probability p one of the
// k buckets uniformly at random. Under substitution (one record's bucket x replaced by x′) its exact
// pair is over three outcome classes, the report x, the report x′ and any other report:
//   P = (1 − p + p/k, p/k, (k − 2)p/k),   Q = (p/k, 1 − p + p/k, (k − 2)p/k),
// of privacy loss +L, −L and 0 with L = ln(1 + k(1 − p)/p), its pure ε. It has no pair under
// add/remove (a record's absence is no bucket). A group of m records is m reports, each randomized:
// the m-fold product of the pair, whose loss is n·L with n = (#reports x) − (#reports x′), so its
// pair is the trinomial law of n (2m + 1 outcomes).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/rdp/discrete_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

// Above this group size the product pair (Θ(m²) terms) gives way to the pure (mL)-DP pair, which
// dominates every (mL)-DP mechanism (Kairouz, Oh, Viswanath 2015, Thm 2.1): sound, less tight.
constexpr double kLargestExactGroup = 2000;

class RandomizedResponse final : public Mechanism {
 public:
  RandomizedResponse(const Arguments& arguments, double group_size)
      : Mechanism(randomized_response_type(), arguments),
        noise_(arguments.number("noise_parameter")),
        buckets_(arguments.number("num_buckets")),
        group_size_(group_size) {}

  bool has_pair(Relation relation) const override { return relation == Relation::kSubstitute; }
  pld::DominatingPair pair_under(Relation) const override {
    if (group_size_ > kLargestExactGroup) return {pld::ApproxDpPair{*pure_epsilon(), 0.0}, 1.0};
    return {product_pair(), 1.0};
  }

  // m·ln(1 + k(1 − p)/p), rounded up: the argument is rounded up, the logarithm moved up an ulp.
  std::optional<double> pure_epsilon() const override {
    const double ratio = divide_up(multiply_up(buckets_, 1 - noise_), noise_);
    const double loss = std::log1p(ratio);  // 0 exactly when p = 1 (every report random)
    return multiply_up(group_size_, loss == 0 ? 0.0 : std::nextafter(loss, kInfinity));
  }

  // Its exact Rényi divergence, the same in both directions (as dp_accounting's REPLACE_ONE curve;
  // rdp/discrete_rdp.hpp), m times for m records (Rényi divergences of products add up).
  std::optional<double> rdp_epsilon(double order) const override {
    return multiply_up(group_size_, rdp::randomized_response_rdp(noise_, buckets_, order));
  }
  MethodInfo rdp_method() const override { return rdp::kRandomizedResponseRdp; }

  Result<MechanismPtr> for_group(double group_size) const override {
    return MechanismPtr{std::make_shared<RandomizedResponse>(arguments(), group_size * group_size_)};
  }

 private:
  // P(n) = Σ m!/(a! b! c!) p₊ᵃ p₋ᵇ p₀ᶜ over a − b = n, a + b + c = m (p₊, p₋, p₀ the P-masses of the
  // losses +L, −L, 0), summed in log space; Q(n) = P(−n) (swapping x and x′ swaps P and Q).
  pld::FinitePair product_pair() const {
    const double k = buckets_, p = noise_;
    const double log_plus = std::log1p(-p + p / k), log_minus = std::log(p / k);
    const double log_zero = k > 2 ? std::log((k - 2) * p / k) : kNegativeInfinity;
    const int m = static_cast<int>(group_size_);
    std::vector<double> log_factorial(m + 1, 0.0);
    for (int i = 2; i <= m; ++i) log_factorial[i] = log_factorial[i - 1] + std::log(static_cast<double>(i));
    std::vector<double> log_p(2 * m + 1, kNegativeInfinity);
    for (int n = -m; n <= m; ++n) {
      for (int b = std::max(0, -n); n + 2 * b <= m; ++b) {
        const int a = n + b, c = m - a - b;
        if (c > 0 && log_zero == kNegativeInfinity) continue;
        const double term = log_factorial[m] - log_factorial[a] - log_factorial[b] - log_factorial[c] + a * log_plus +
                            b * log_minus + (c > 0 ? c * log_zero : 0.0);
        log_p[n + m] = log_add_exp(log_p[n + m], term);
      }
    }
    pld::FinitePair pair;
    for (int i = 0; i <= 2 * m; ++i) {
      pair.p.push_back(std::exp(log_p[i]));
      pair.q.push_back(std::exp(log_p[2 * m - i]));
    }
    return pair;
  }

  double noise_, buckets_, group_size_;
};

Result<MechanismPtr> create_randomized_response(const Arguments& arguments) {
  DPCALC_TRY(const double noise, check_rate(arguments.number("noise_parameter"), "noise_parameter"));
  DPCALC_TRY(const double buckets, check_whole_number(arguments.number("num_buckets"), 2, kMaxCount, "num_buckets"));
  if (!(std::log1p(buckets * (1 - noise) / noise) < 700)) {
    return invalid_argument("noise_parameter",
                            "The probability p of a random answer is too small " + got(noise) +
                                ": its privacy loss ln(1 + k(1 − p)/p) is beyond 700, where e^loss no longer fits "
                                "a double.");
  }
  return MechanismPtr{std::make_shared<RandomizedResponse>(arguments, 1.0)};
}

}  // namespace

const MechanismType& randomized_response_type() {
  static const MechanismType type{
      "randomized_response",
      "randomized response",
      "with probability 1 − p the true one of k buckets, else a uniformly random bucket: ε = ln(1 + k(1 − p)/p) "
      "under relation 'substitute' (its only one)",
      {Parameter::number("noise_parameter", "p in (0, 1], the probability of a random report"),
       Parameter::number("num_buckets", "k, the number of buckets, a whole number ≥ 2")},
      {{"noise_parameter", "noise_parameter", false, 1.0}},
      create_randomized_response,
      {"Randomized response of each of the k records (the k-fold product of its pair)", "Warner 1965",
       "warner1965randomized"}};
  return type;
}

}  // namespace dpcalc::mechanisms
