#include "dpcalc/dpsgd/group_pair.hpp"

#include <boost/math/special_functions/log1p.hpp>
#include <cmath>
#include <limits>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/mechanisms/sampled_group.hpp"

namespace dpcalc::dpsgd {
namespace {

// Whole numbers as people write them ("60000", not "6e+04"); anything else as format_number does.
std::string format_count(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  return format_number(value);
}

constexpr double kSmallestInclusion = 1e-300;

// `name` is the member checked, `symbol` how sentences name it ("The group size k").
Result<double> check_integer(double value, const std::string& name, const std::string& symbol, double low, double high,
                             const std::string& what) {
  if (!(value >= low && value <= high && value == std::floor(value))) {
    return invalid_argument(name, symbol + " must be " + what + " " + got(value) + ".");
  }
  return value;
}

}  // namespace

Result<GroupSetting> check_setting(const GroupSetting& setting) {
  GroupSetting checked = setting;
  DPCALC_TRY(checked.group_size, check_integer(setting.group_size, "group_size", "The group size k", 1, kMaxGroupSize,
                                               "a whole number from 1 to " + format_count(kMaxGroupSize)));
  if (setting.sampling == Sampling::kPoisson) {
    DPCALC_TRY(checked.sampling_rate, check_rate(setting.sampling_rate, "sampling_rate"));
    // Pr[J >= 1] <= k q: below 1e-300 every weight of J >= 1 underflows and the pair is the same
    // distribution twice (fuzz seed 3: q = 5e-324 gave an error on a field the request did not have).
    if (!(checked.group_size * checked.sampling_rate >= kSmallestInclusion)) {
      return invalid_argument("sampling_rate", "The sampling rate " + got(checked.sampling_rate) +
                                                   " is so small that the group is in a batch with probability "
                                                   "below 1e-300, which a double cannot carry through the "
                                                   "accounting; use a sampling rate of at least 1e-300 / k.");
    }
    return checked;
  }
  DPCALC_TRY(checked.dataset_size, check_integer(setting.dataset_size, "dataset_size", "The dataset size N", 1,
                                                 kMaxCount, "a whole number of examples, at least 1"));
  DPCALC_TRY(checked.batch_size,
             check_integer(setting.batch_size, "batch_size", "The batch size B", 1, checked.dataset_size,
                           "a whole number from 1 to the dataset size N (" + format_count(checked.dataset_size) + ")"));
  if (checked.group_size > checked.dataset_size) {
    return invalid_argument("group_size", "The group size k (" + format_count(checked.group_size) +
                                              ") cannot exceed the dataset size N (" +
                                              format_count(checked.dataset_size) + ").");
  }
  return checked;
}

std::vector<double> log_inclusion_pmf(const GroupSetting& s) {
  const auto k = static_cast<std::size_t>(s.group_size);
  if (s.sampling == Sampling::kPoisson) return binomial_log_pmf(k, s.sampling_rate);
  std::vector<double> log_pmf(k + 1, kNegativeInfinity);
  const double n = s.dataset_size, b = s.batch_size, kk = s.group_size;
  // Support: max(0, k + B - N) <= j <= min(k, B). Start at its lowest point j0 with
  // Pr[J = j0] = C(k, j0) C(N-k, B-j0) / C(N, B) (lgamma only when j0 > 0, i.e. k + B > N).
  const double j0 = std::max(0.0, kk + b - n);
  auto log_choose = [](double a, double c) { return std::lgamma(a + 1) - std::lgamma(c + 1) - std::lgamma(a - c + 1); };
  double start;
  if (j0 == 0) {
    start = 0;
    for (double i = 0; i < kk; ++i) start += boost::math::log1p(-b / (n - i));
  } else {
    start = log_choose(kk, j0) + log_choose(n - kk, b - j0) - log_choose(n, b);
  }
  const double top = std::min(kk, b);
  log_pmf[static_cast<std::size_t>(j0)] = start;
  for (double j = j0; j < top; ++j) {
    const auto index = static_cast<std::size_t>(j);
    log_pmf[index + 1] = log_pmf[index] + std::log((kk - j) * (b - j)) - std::log((j + 1) * (n - kk - b + j + 1));
  }
  return log_pmf;
}

double group_sampling_probability(const GroupSetting& setting) { return -std::expm1(log_inclusion_pmf(setting)[0]); }

pld::DominatingPair worst_case_pair(const GroupSetting& setting, double noise_multiplier) {
  return mechanisms::sampled_group_pair(log_inclusion_pmf(setting), mechanisms::GaussianNoise{noise_multiplier, 1},
                                        setting.relation);
}

}  // namespace dpcalc::dpsgd
