#include "dpcalc/api/pld_ops.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::api {
namespace {

const std::vector<std::string> kPldMechanismTypes = {"laplace", "gaussian", "poisson_subsampled", "gaussian_mixture"};

// Where an item's parameters sit in the request. The engine sees a Poisson-subsampled mechanism
// flattened (base mechanism + product of the rates) and names its fields
// "items.<i>.mechanism.<name>"; these paths put them back where the request has them.
struct ItemPaths {
  std::string engine;  // "items.<i>.mechanism", the prefix the engine uses
  std::string base;    // the innermost mechanism (or the guarantee) object
  std::string rate;    // the outermost "rate" ("" when not subsampled)
};

// Mechanisms are validated by the engine (PrivacyLossPair::create); here only the shape of the
// request is read, and `paths` records where the base mechanism and the rate are.
Result<pld::DominatingPair> read_mechanism(const Value& value, const std::string& path, ItemPaths& paths,
                                           int depth = 0) {
  paths.base = path;
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "laplace") {
    DPCALC_TRY(double scale, number_field(*object, path, "scale"));
    DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
    return pld::DominatingPair{pld::LaplacePair{scale, sensitivity.value_or(1.0)}, 1.0};
  }
  if (type == "gaussian") {
    DPCALC_TRY(double sigma, number_field(*object, path, "sigma"));
    DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
    return pld::DominatingPair{pld::GaussianPair{sigma, sensitivity.value_or(1.0)}, 1.0};
  }
  if (type == "gaussian_mixture") {
    DPCALC_TRY(double sigma, number_field(*object, path, "sigma"));
    DPCALC_TRY(std::vector<double> shifts, number_array_field(*object, path, "shifts"));
    DPCALC_TRY(std::vector<double> weights, number_array_field(*object, path, "weights"));
    return pld::DominatingPair{pld::MixtureVsGaussianPair{sigma, std::move(shifts), std::move(weights)}, 1.0};
  }
  if (type == "poisson_subsampled") {
    DPCALC_TRY(double rate, number_field(*object, path, "rate"));
    DPCALC_TRY(double checked_rate, check_rate(rate, field_path(path, "rate")));
    if (paths.rate.empty()) paths.rate = field_path(path, "rate");
    const std::string inner_path = field_path(path, "mechanism");
    if (depth > 8) return invalid_argument(inner_path, inner_path + " nests subsampling too deeply.");
    DPCALC_TRY(const Value* inner_value, member(*object, path, "mechanism"));
    DPCALC_TRY(pld::DominatingPair inner, read_mechanism(*inner_value, inner_path, paths, depth + 1));
    // Poisson subsampling twice, at rates q1 and q2, keeps each record with probability q1·q2.
    inner.sampling_rate *= checked_rate;
    if (!(inner.sampling_rate >= 1e-300)) {
      return invalid_argument(paths.rate,
                              "The nested sampling rates multiply to " + format_number(inner.sampling_rate) +
                                  ", below 1e-300; with such a rate the mechanism is practically never run. "
                                  "Give larger rates.");
    }
    return inner;
  }
  return unknown_choice(field_path(path, "type"), type, kPldMechanismTypes);
}

Result<pld::DominatingPair> read_guarantee(const Value& value, const std::string& path) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "pure") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(PureDp pure, PureDp::create(epsilon, path));
    return pld::DominatingPair{pld::ApproxDpPair{pure.epsilon, 0.0}, 1.0};
  }
  if (type == "approx") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(double delta, number_field(*object, path, "delta"));
    DPCALC_TRY(ApproxDp approx, ApproxDp::create(epsilon, delta, path));
    return pld::DominatingPair{pld::ApproxDpPair{approx.epsilon, approx.delta}, 1.0};
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
  std::vector<ItemPaths> paths;  // one per item
  bool all_guarantees = true;    // every item is an (eps, delta) guarantee
  bool heterogeneous = false;    // more than one distinct item
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
    ItemPaths paths{field_path(path, "mechanism"), field_path(path, "guarantee"), ""};
    Result<pld::DominatingPair> parsed =
        mechanism ? read_mechanism(*mechanism, paths.engine, paths) : read_guarantee(*guarantee, paths.base);
    if (!parsed.ok()) return parsed.error();
    result.paths.push_back(paths);
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

// Replaces every occurrence of `from` in `text` by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Engine errors name fields and options as the engine knows them; put them where the request has
// them: options under "discretization" ("discretization" itself when it was given as a number),
// item fields at the innermost mechanism (or the guarantee), the sampling rate at the outermost
// "rate".
Error in_request_terms(Error error, const Value& request, const PldItems& items) {
  const Value* discretization = request.find("discretization");
  const bool interval_as_number = discretization != nullptr && discretization->is_number();
  const std::string interval_field = interval_as_number ? "discretization" : "discretization.interval";
  if (error.field == "discretization_interval") error.field = interval_field;
  if (error.field == "relative_accuracy" || error.field == "tail_mass_truncation") {
    error.field = "discretization." + error.field;
  }
  error.message = replace_all(error.message, "discretization_interval", interval_field);
  error.message = replace_all(error.message, "relative_accuracy", "discretization.relative_accuracy");
  error.message = replace_all(error.message, "tail_mass_truncation", "discretization.tail_mass_truncation");
  for (const ItemPaths& paths : items.paths) {
    const std::string prefix = paths.engine + ".";
    if (error.field.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string name = error.field.substr(prefix.size());
    const std::string mapped = name == "sampling_rate" ? paths.rate : field_path(paths.base, name);
    error.message = replace_all(error.message, error.field, mapped);
    error.field = mapped;
    break;
  }
  return error;
}

void describe(Value& result, const pld::Discretization& discretization, const PldItems& items,
              const std::string& accuracy_note = "") {
  result.set("discretization", discretization.discretization_interval);
  result.set("grid_size", static_cast<double>(discretization.grid_size));
  result.set("truncated_mass", discretization.truncated_mass);
  set_method(result, pld::kPldMethod);
  std::string note = accuracy_note;
  if (items.all_guarantees && items.heterogeneous) {
    note += std::string(note.empty() ? "" : " ") +
            "These (ε, δ) items are composed through their dominating pairs, so [lower, upper] brackets "
            "the optimal heterogeneous composition (Murtagh & Vadhan 2016), which is #P-hard to compute "
            "exactly.";
  }
  if (!note.empty()) result.set("note", note);
}

// Says so when the bracket stayed wider than the accuracy asked for.
std::string accuracy_note(const pld::EpsilonBracket& answer, const pld::AccountingOptions& options) {
  if (answer.accuracy_met) return "";
  return "The bracket [epsilon_lower, epsilon_upper] is " +
         format_number(std::round((answer.epsilon_upper - answer.epsilon_lower) / answer.epsilon_upper * 1e4) / 100) +
         "% wide, more than the requested accuracy allows (4 × relative_accuracy " +
         format_number(options.relative_accuracy) +
         "): refining the grid reached its limit or stopped narrowing it, which happens near the smallest "
         "certifiable δ, where the bound on the FFT's rounding error dominates. epsilon_upper is still a sound "
         "upper bound; a larger δ narrows the bracket.";
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
    if (!bracket.ok()) return in_request_terms(bracket.error(), request, items);
    const pld::DeltaBracket& answer = bracket.value();
    const bool vacuous = !(answer.delta_upper < 1);
    result.set("guarantee", approx_guarantee(checked, vacuous ? 1.0 : answer.delta_upper));
    result.set("delta_upper", vacuous ? 1.0 : answer.delta_upper);
    result.set("delta_lower", std::fmin(answer.delta_lower, 1.0));
    if (vacuous) result.set("vacuous", true);
    describe(result, answer.discretization, items);
    return result;
  }
  if (!delta)
    return invalid_argument("delta",
                            "delta is required: the target δ for which ε is computed (or give epsilon to get δ).");
  DPCALC_TRY(double checked, check_positive_delta(*delta, "delta"));
  auto bracket = pld::epsilon_for_delta(items.items, checked, options, progress);
  if (!bracket.ok()) return in_request_terms(bracket.error(), request, items);
  const pld::EpsilonBracket& answer = bracket.value();
  if (!std::isfinite(answer.epsilon_upper)) {
    return Error{kNumeric, "delta", "The composition has no finite ε at this δ."};
  }
  result.set("guarantee", approx_guarantee(answer.epsilon_upper, checked));
  result.set("epsilon_upper", answer.epsilon_upper);
  result.set("epsilon_lower", answer.epsilon_lower);
  describe(result, answer.discretization, items, accuracy_note(answer, options));
  return result;
}

Result<Value> privacy_profile_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(PldItems items, read_items(request));
  DPCALC_TRY(pld::AccountingOptions options, read_options(request));
  DPCALC_TRY(std::vector<double> epsilons, number_array_field(request, "", "epsilons"));
  if (epsilons.empty()) return invalid_argument("epsilons", "epsilons must list at least one ε.");
  auto profile = pld::privacy_profile(items.items, epsilons, options, progress);
  if (!profile.ok()) return in_request_terms(profile.error(), request, items);
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
