#include "dpcalc/api/pld_ops.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::api {
namespace {

// Where an item's parameters sit in the request. The engine sees a Poisson-subsampled mechanism
// flattened (base pair + product of the rates) and names its fields "items.<i>.mechanism.<name>";
// these paths put them back where the request has them.
struct ItemPaths {
  std::string engine;  // "items.<i>.mechanism", the prefix the engine uses
  std::string base;    // the innermost mechanism (or the guarantee) object
  std::string rate;    // the outermost "rate" ("" when not subsampled)
  std::string noise;   // the field that sets its noise (engine names that are no parameter of it go there)
  std::vector<std::string> parameters;  // the innermost mechanism's parameters (or the guarantee's fields)
};

// Below this a subsampled mechanism is practically never run: the engine could not carry the
// P-mass of its pair through the composition.
constexpr double kSmallestSamplingRate = 1e-300;

struct PldItems {
  std::vector<pld::CompositionItem> items;
  std::vector<ItemPaths> paths;  // one per item
  bool all_guarantees = true;    // every item is an (eps, delta) guarantee
  bool heterogeneous = false;    // more than one distinct item
};

// A guarantee enters through its dominating pair: the randomized-response pair of (ε, δ) (Kairouz,
// Oh, Viswanath 2015, Thm 2.1); zCDP and RDP guarantees have none.
Result<pld::DominatingPair> guarantee_pair(const Guarantee& guarantee, const std::string& path) {
  if (const auto* pure = std::get_if<PureDp>(&guarantee))
    return pld::DominatingPair{pld::ApproxDpPair{pure->epsilon, 0.0}, 1.0};
  if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) {
    return pld::DominatingPair{pld::ApproxDpPair{approx->epsilon, approx->delta}, 1.0};
  }
  const std::string type = std::holds_alternative<Zcdp>(guarantee) ? "zcdp" : "rdp";
  return Error{kUnsupported, field_path(path, "type"),
               "Method 'pld' composes mechanisms and pure or approx guarantees; a " + type +
                   " guarantee has no single dominating pair. Use method 'zcdp' or give the mechanism."};
}

Result<PldItems> read_pld_items(const Value& request) {
  DPCALC_TRY(std::vector<RequestItem> items, read_items(request));
  PldItems result;
  for (const RequestItem& item : items) {
    ItemPaths paths{field_path(item.path, "mechanism"), item.field(), "", "", {"epsilon", "delta"}};
    pld::DominatingPair pair;
    if (item.mechanism) {
      const mechanisms::Mechanism& inner = innermost(*item.mechanism);
      paths.base = inner.arguments().path;
      paths.noise = noise_field(*item.mechanism);
      paths.parameters.clear();
      for (const mechanisms::Parameter& parameter : inner.type().parameters) paths.parameters.push_back(parameter.name);
      if (item.mechanism->pair(mechanisms::Relation::kAddRemove).sampling_rate < 1) {
        paths.rate = item.mechanism->arguments().field("rate");
      }
      pair = item.mechanism->pair(mechanisms::Relation::kAddRemove);
      if (!(pair.sampling_rate >= kSmallestSamplingRate)) {
        return invalid_argument(paths.rate, "The nested sampling rates multiply to " +
                                                format_number(pair.sampling_rate) +
                                                ", below 1e-300; with such a rate the mechanism is practically never "
                                                "run. Give larger rates.");
      }
    } else {
      DPCALC_TRY(pair, guarantee_pair(*item.guarantee, item.field()));
    }
    result.paths.push_back(paths);
    result.all_guarantees = result.all_guarantees && !item.mechanism;
    result.items.push_back({pair, item.count});
  }
  result.heterogeneous = items.size() > 1;
  return result;
}

// Engine errors name fields and options as the engine knows them; put them where the request has
// them: options under "discretization" ("discretization" itself when it was given as a number),
// item fields at the innermost mechanism (or the guarantee), the sampling rate at the outermost
// "rate".
Error in_request_terms(Error error, const Value& request, const PldItems& items) {
  error = discretization_in_request_terms(std::move(error), request);
  for (const ItemPaths& paths : items.paths) {
    const std::string prefix = paths.engine + ".";
    if (error.field.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string name = error.field.substr(prefix.size());
    const bool own = std::find(paths.parameters.begin(), paths.parameters.end(), name) != paths.parameters.end();
    const std::string mapped = name == "sampling_rate" ? paths.rate : own ? field_path(paths.base, name) : paths.noise;
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
  DPCALC_TRY(PldItems items, read_pld_items(request));
  DPCALC_TRY(pld::AccountingOptions options, read_discretization(request));
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
  DPCALC_TRY(PldItems items, read_pld_items(request));
  DPCALC_TRY(pld::AccountingOptions options, read_discretization(request));
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
