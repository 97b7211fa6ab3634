#include "dpcalc/api/dpsgd_request.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

Result<dpsgd::GroupSetting> read_setting(const Value& request) {
  dpsgd::GroupSetting setting;
  DPCALC_TRY(setting.group_size, number_field(request, "", "group_size"));
  DPCALC_TRY(std::string sampling, string_field(request, "", "sampling"));
  if (sampling == "poisson") {
    setting.sampling = dpsgd::Sampling::kPoisson;
    DPCALC_TRY(setting.sampling_rate, number_field(request, "", "sampling_rate"));
  } else if (sampling == "fixed_batch") {
    setting.sampling = dpsgd::Sampling::kFixedBatch;
    DPCALC_TRY(setting.dataset_size, number_field(request, "", "dataset_size"));
    DPCALC_TRY(setting.batch_size, number_field(request, "", "batch_size"));
  } else {
    return unknown_choice("sampling", sampling, {"poisson", "fixed_batch"});
  }
  DPCALC_TRY(auto relation, optional_string_field(request, "", "relation"));
  if (relation && *relation == "substitute") {
    setting.relation = dpsgd::Relation::kSubstitute;
  } else if (relation && *relation != "add_remove") {
    return unknown_choice("relation", *relation, {"add_remove", "substitute"});
  }
  return dpsgd::check_setting(setting);
}

Result<Steps> steps_for_epochs(const dpsgd::GroupSetting& setting, double epochs) {
  const bool fixed = setting.sampling == dpsgd::Sampling::kFixedBatch;
  const double exact = fixed ? epochs * setting.dataset_size / setting.batch_size : epochs / setting.sampling_rate;
  // Rounded up; the relative slack absorbs the rounding of the division (60 * 512 / 256 is 120).
  const double rounded = std::ceil(exact * (1 - 1e-12));
  if (!(rounded <= kMaxCount)) {
    return invalid_argument("epochs",
                            "epochs give " + format_number(rounded) + " steps, more than 2^53; use fewer epochs.");
  }
  const std::string formula = fixed ? "epochs · dataset_size / batch_size" : "epochs / sampling_rate";
  return Steps{std::max(1.0, rounded), "steps = ⌈" + formula + "⌉ = ⌈" + format_number(exact) + "⌉ (rounded up)"};
}

Result<Steps> read_steps(const Value& request, const dpsgd::GroupSetting& setting) {
  DPCALC_TRY(auto steps, optional_number_field(request, "", "steps"));
  DPCALC_TRY(auto epochs, optional_number_field(request, "", "epochs"));
  if (steps && epochs) return invalid_argument("epochs", "Give either steps or epochs, not both.");
  if (steps) {
    DPCALC_TRY(double checked, check_count(*steps, "steps"));
    return Steps{checked, ""};
  }
  if (!epochs) return invalid_argument("steps", "steps (or epochs) is required: the number of training steps.");
  if (!(*epochs > 0 && std::isfinite(*epochs))) {
    return invalid_argument("epochs", "epochs must be a positive number " + got(*epochs) + ".");
  }
  return steps_for_epochs(setting, *epochs);
}

// Fuzz seed 2 found "Increase sigma" on noise_multiplier.
Error in_request_terms(Error error, const Value& request) {
  const bool option = error.field == "discretization_interval" || error.field == "relative_accuracy" ||
                      error.field == "tail_mass_truncation";
  if (option && has_field(request, "discretization")) return discretization_in_request_terms(error, request);
  if (error.field.rfind("items", 0) != 0 && error.field != "discretization_interval") return error;
  error.field = "noise_multiplier";
  for (const auto& [engine, words] : {std::pair<std::string, std::string>{"items.0.count", "steps"},
                                      {"items.0.mechanism.sigma", "noise_multiplier"},
                                      {"(sigma = ", "(noise_multiplier = "},
                                      {"Increase sigma", "Increase noise_multiplier"}}) {
    error.message = replace_all(error.message, engine, words);
  }
  return error;
}

}  // namespace dpcalc::api
