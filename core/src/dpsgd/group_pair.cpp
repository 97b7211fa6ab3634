#include "dpcalc/dpsgd/group_pair.hpp"

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
  if (!is_fixed_batch(setting)) {
    DPCALC_TRY(checked.draw.rate, check_rate(setting.draw.rate, "sampling_rate"));
    // Pr[J >= 1] <= k q: below 1e-300 every weight of J >= 1 underflows and the pair is the same
    // distribution twice (fuzz seed 3: q = 5e-324 gave an error on a field the request did not have).
    if (!(checked.group_size * checked.draw.rate >= kSmallestInclusion)) {
      return invalid_argument("sampling_rate", "The sampling rate " + got(checked.draw.rate) +
                                                   " is so small that the group is in a batch with probability "
                                                   "below 1e-300, which a double cannot carry through the "
                                                   "accounting; use a sampling rate of at least 1e-300 / k.");
    }
    return checked;
  }
  const double n = setting.draw.population;
  DPCALC_TRY(checked.draw.population, check_integer(n, "dataset_size", "The dataset size N", 1, kMaxCount,
                                                    "a whole number of examples, at least 1"));
  DPCALC_TRY(checked.draw.sample_size,
             check_integer(setting.draw.sample_size, "batch_size", "The batch size B", 1, n,
                           "a whole number from 1 to the dataset size N (" + format_count(n) + ")"));
  if (checked.group_size > n) {
    return invalid_argument("group_size", "The group size k (" + format_count(checked.group_size) +
                                              ") cannot exceed the dataset size N (" + format_count(n) + ").");
  }
  return checked;
}

std::vector<double> log_inclusion_pmf(const GroupSetting& setting) {
  return mechanisms::group_inclusion_log_pmf(setting.draw, setting.group_size);
}

double group_sampling_probability(const GroupSetting& setting) { return -std::expm1(log_inclusion_pmf(setting)[0]); }

pld::DominatingPair worst_case_pair(const GroupSetting& setting, double noise_multiplier) {
  return mechanisms::sampled_group_pair(log_inclusion_pmf(setting), mechanisms::GaussianNoise{noise_multiplier, 1},
                                        setting.relation);
}

}  // namespace dpcalc::dpsgd
