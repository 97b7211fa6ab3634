#include "dpcalc/api/pld_ops.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::api {
namespace {

const std::vector<std::string> kPldMechanismTypes = {"laplace", "gaussian", "poisson_subsampled",
                                                     "gaussian_mixture"};

// Mechanisms are validated by the engine (PrivacyLossPair::create) with the same field paths;
// here only the shape of the request is read.
Result<pld::Mechanism> read_mechanism(const Value& value, const std::string& path, int depth = 0) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "laplace") {
    DPCALC_TRY(double scale, number_field(*object, path, "scale"));
    DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
    return pld::Mechanism{pld::LaplaceMechanism{scale, sensitivity.value_or(1.0)}, 1.0};
  }
  if (type == "gaussian") {
    DPCALC_TRY(double sigma, number_field(*object, path, "sigma"));
    DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
    return pld::Mechanism{pld::GaussianMechanism{sigma, sensitivity.value_or(1.0)}, 1.0};
  }
  if (type == "gaussian_mixture") {
    DPCALC_TRY(double sigma, number_field(*object, path, "sigma"));
    DPCALC_TRY(std::vector<double> shifts, number_array_field(*object, path, "shifts"));
    DPCALC_TRY(std::vector<double> weights, number_array_field(*object, path, "weights"));
    return pld::Mechanism{pld::GaussianMixtureMechanism{sigma, std::move(shifts), std::move(weights)}, 1.0};
  }
  if (type == "poisson_subsampled") {
    DPCALC_TRY(double rate, number_field(*object, path, "rate"));
    DPCALC_TRY(double checked_rate, check_rate(rate, field_path(path, "rate")));
    const std::string inner_path = field_path(path, "mechanism");
    if (depth > 8) return invalid_argument(inner_path, inner_path + " nests subsampling too deeply.");
    DPCALC_TRY(const Value* inner_value, member(*object, path, "mechanism"));
    DPCALC_TRY(pld::Mechanism inner, read_mechanism(*inner_value, inner_path, depth + 1));
    // The engine validates the flattened mechanism under the item's path; a nested one is checked
    // here first, so that its errors name the field where it really is (`….mechanism.mechanism.sigma`).
    if (inner.sampling_rate == 1) {
      DPCALC_TRY(auto validated, pld::PrivacyLossPair::create(inner, pld::Direction::kRemove, inner_path));
      (void)validated;
    }
    // Poisson subsampling twice, at rates q1 and q2, keeps each record with probability q1·q2.
    const double combined_rate = inner.sampling_rate * checked_rate;
    if (!(combined_rate > 0)) {
      return invalid_argument(field_path(path, "rate"),
                              "The nested sampling rates multiply to less than the smallest positive double "
                              "(5e-324) " + got(rate) + ": the mechanism would reveal nothing; use a larger rate.");
    }
    inner.sampling_rate = combined_rate;
    return inner;
  }
  return unknown_choice(field_path(path, "type"), type, kPldMechanismTypes);
}

Result<pld::Mechanism> read_guarantee(const Value& value, const std::string& path) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "pure") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(PureDp pure, PureDp::create(epsilon, path));
    return pld::Mechanism{pld::ApproxDpMechanism{pure.epsilon, 0.0}, 1.0};
  }
  if (type == "approx") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(double delta, number_field(*object, path, "delta"));
    DPCALC_TRY(ApproxDp approx, ApproxDp::create(epsilon, delta, path));
    return pld::Mechanism{pld::ApproxDpMechanism{approx.epsilon, approx.delta}, 1.0};
  }
  if (type == "zcdp" || type == "rdp") {
    return Error{kUnsupported, field_path(path, "type"),
                 "Method 'pld' composes mechanisms and pure or approx guarantees; a " + type +
                     " guarantee has no single dominating pair. Use method 'zcdp' or give the mechanism."};
  }
  return unknown_choice(field_path(path, "type"), type, {"pure", "approx"});
}

struct PldItems {
  std::vector<pld::CompositionItem> items;
  bool all_guarantees = true;  // every item is an (eps, delta) guarantee
  bool heterogeneous = false;  // more than one distinct item
};

Result<PldItems> read_items(const Value& request) {
  DPCALC_TRY(const Value* items, member(request, "", "items"));
  if (!items->is_array() || items->as_array().empty()) {
    return invalid_argument("items", "items must be a non-empty array of {mechanism | guarantee, count}.");
  }
  PldItems result;
  const auto& array = items->as_array();
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string path = "items." + std::to_string(i);
    DPCALC_TRY(const Value* item, require_object(array[i], path));
    DPCALC_TRY(double count, number_field(*item, path, "count"));
    DPCALC_TRY(double checked_count, check_count(count, field_path(path, "count")));
    const Value* mechanism = item->find("mechanism");
    const Value* guarantee = item->find("guarantee");
    if ((mechanism == nullptr) == (guarantee == nullptr)) {
      return invalid_argument(path, path + " needs exactly one of 'mechanism' and 'guarantee'.");
    }
    Result<pld::Mechanism> parsed = mechanism ? read_mechanism(*mechanism, field_path(path, "mechanism"))
                                              : read_guarantee(*guarantee, field_path(path, "guarantee"));
    if (!parsed.ok()) return parsed.error();
    result.all_guarantees = result.all_guarantees && guarantee != nullptr;
    result.items.push_back({parsed.value(), checked_count});
  }
  result.heterogeneous = array.size() > 1;
  return result;
}

Result<pld::AccountingOptions> read_options(const Value& request) {
  pld::AccountingOptions options;
  const Value* discretization = request.find("discretization");
  if (discretization == nullptr || discretization->is_null()) return options;
  if (discretization->is_number()) {
    DPCALC_TRY(double interval, check_positive(discretization->as_number(), "discretization"));
    options.discretization_interval = interval;
    return options;
  }
  DPCALC_TRY(const Value* object, require_object(*discretization, "discretization"));
  DPCALC_TRY(auto interval, optional_number_field(*object, "discretization", "interval"));
  DPCALC_TRY(auto accuracy, optional_number_field(*object, "discretization", "relative_accuracy"));
  DPCALC_TRY(auto tail_mass, optional_number_field(*object, "discretization", "tail_mass_truncation"));
  if (interval) {
    DPCALC_TRY(double checked, check_positive(*interval, "discretization.interval"));
    options.discretization_interval = checked;
  }
  if (accuracy) options.relative_accuracy = *accuracy;
  if (tail_mass) options.tail_mass_truncation = *tail_mass;
  return options;
}

// The engine names option fields without the "discretization." prefix.
Error with_option_prefix(Error error) {
  if (error.field == "discretization_interval") error.field = "discretization.interval";
  if (error.field == "relative_accuracy" || error.field == "tail_mass_truncation") {
    error.field = "discretization." + error.field;
  }
  return error;
}

void describe(Value& result, const pld::Discretization& discretization, const PldItems& items) {
  result.set("discretization", discretization.discretization_interval);
  result.set("grid_size", static_cast<double>(discretization.grid_size));
  result.set("truncated_mass", discretization.truncated_mass);
  result.set("method", pld::kPldMethod.method);
  result.set("citation", pld::kPldMethod.citation);
  if (items.all_guarantees && items.heterogeneous) {
    result.set("note",
               "These (ε, δ) items are composed through their dominating pairs, so [lower, upper] brackets "
               "the optimal heterogeneous composition (Murtagh & Vadhan 2016), which is #P-hard to compute "
               "exactly.");
  }
}

Value approx_guarantee(double epsilon, double delta) {
  Value guarantee = Value::object();
  guarantee.set("type", "approx").set("epsilon", epsilon).set("delta", delta);
  return guarantee;
}

}  // namespace

Result<Value> compose_pld(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(PldItems items, read_items(request));
  DPCALC_TRY(pld::AccountingOptions options, read_options(request));
  DPCALC_TRY(auto delta, optional_number_field(request, "", "delta"));
  DPCALC_TRY(auto epsilon, optional_number_field(request, "", "epsilon"));
  if (delta && epsilon) {
    return invalid_argument("epsilon", "Give either delta (to get ε) or epsilon (to get δ), not both.");
  }
  Value result = Value::object();
  if (epsilon) {
    DPCALC_TRY(double checked, check_epsilon(*epsilon, "epsilon"));
    auto bracket = pld::delta_for_epsilon(items.items, checked, options, progress);
    if (!bracket.ok()) return with_option_prefix(bracket.error());
    const pld::DeltaBracket& answer = bracket.value();
    const bool vacuous = !(answer.delta_upper < 1);
    result.set("guarantee", approx_guarantee(checked, vacuous ? 1.0 : answer.delta_upper));
    result.set("delta_upper", vacuous ? 1.0 : answer.delta_upper);
    result.set("delta_lower", std::fmin(answer.delta_lower, 1.0));
    if (vacuous) result.set("vacuous", true);
    describe(result, answer.discretization, items);
    return result;
  }
  if (!delta) return invalid_argument("delta", "delta is required: the target δ for which ε is computed (or give epsilon to get δ).");
  DPCALC_TRY(double checked, check_positive_delta(*delta, "delta"));
  auto bracket = pld::epsilon_for_delta(items.items, checked, options, progress);
  if (!bracket.ok()) return with_option_prefix(bracket.error());
  const pld::EpsilonBracket& answer = bracket.value();
  if (!std::isfinite(answer.epsilon_upper)) {
    return Error{kNumeric, "delta", "The composition has no finite ε at this δ."};
  }
  result.set("guarantee", approx_guarantee(answer.epsilon_upper, checked));
  result.set("epsilon_upper", answer.epsilon_upper);
  result.set("epsilon_lower", answer.epsilon_lower);
  describe(result, answer.discretization, items);
  return result;
}

Result<Value> privacy_profile_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(PldItems items, read_items(request));
  DPCALC_TRY(pld::AccountingOptions options, read_options(request));
  DPCALC_TRY(std::vector<double> epsilons, number_array_field(request, "", "epsilons"));
  if (epsilons.empty()) return invalid_argument("epsilons", "epsilons must list at least one ε.");
  auto profile = pld::privacy_profile(items.items, epsilons, options, progress);
  if (!profile.ok()) return with_option_prefix(profile.error());
  const pld::PrivacyProfile& answer = profile.value();
  std::vector<double> upper = answer.delta_upper;
  for (double& value : upper) value = std::fmin(value, 1.0);
  Value result = Value::object();
  result.set("epsilons", Value::numbers(answer.epsilons));
  result.set("delta_upper", Value::numbers(upper));
  result.set("delta_lower", Value::numbers(answer.delta_lower));
  describe(result, answer.discretization, items);
  return result;
}

}  // namespace dpcalc::api
