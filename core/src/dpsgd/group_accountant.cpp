#include "dpcalc/dpsgd/group_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::dpsgd {
namespace {

RdpOverapprox rdp_overapprox(const GroupSetting& setting, double noise_multiplier, double steps, double delta) {
  const std::vector<double> orders = rdp::default_orders();
  // The group as one example of sensitivity k, sampled with probability 1 − Pr[J = 0].
  mechanisms::Arguments gaussian;
  gaussian.numbers = {{"sigma", noise_multiplier}, {"sensitivity", setting.group_size}};
  const auto step = mechanisms::create(mechanisms::gaussian_type(), gaussian);
  mechanisms::Arguments subsampled;
  subsampled.numbers = {{"rate", group_sampling_probability(setting)}};
  if (step.ok()) subsampled.mechanisms = {{"mechanism", step.value()}};
  const auto sampled = step.ok() ? mechanisms::create(mechanisms::poisson_subsampled_type(), subsampled) : step;
  const auto converted = sampled.ok() ? rdp::to_approx(orders, rdp::compose({{sampled.value(), steps}}, orders), delta)
                                      : Result<rdp::RdpToApprox>(sampled.error());
  if (!converted.ok()) return RdpOverapprox{kInfinity, 0};
  return RdpOverapprox{converted.value().guarantee.epsilon, converted.value().order};
}

}  // namespace

Result<pld::CompositionItem> group_item(const GroupSetting& setting, double noise_multiplier, double steps) {
  DPCALC_TRY(const GroupSetting checked, check_setting(setting));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double count, check_count(steps, "steps"));
  return pld::CompositionItem{worst_case_pair(checked, sigma), count};
}

Error in_training_terms(Error error) {
  if (error.item == Error::kNoItem) return error;
  if (error.field == "count") {
    error.field = "steps";
  } else if (!is_phase_parameter(error.field)) {
    error.field = "noise_multiplier";  // a parameter of the step's pair: what the noise sets
  }
  return error;
}

ComparedMethods compared_methods(const GroupSetting& setting, double noise_multiplier, double steps, double delta,
                                 double one_example_epsilon) {
  ComparedMethods result;
  result.generic_group = group_privacy(ApproxDp{one_example_epsilon, delta}, setting.group_size);
  if (setting.relation == Relation::kAddRemove) {
    result.rdp_overapprox = rdp_overapprox(setting, noise_multiplier, steps, delta);
  }
  return result;
}

}  // namespace dpcalc::dpsgd
