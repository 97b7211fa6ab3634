#include "dpcalc/api/pld_ops.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/kept_answer.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/mechanisms/gaussian_composition.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::api {
namespace {

// Where an item's parameters sit in the request. The engine sees a Poisson-subsampled mechanism
// flattened (base pair + product of the rates) and names its fields "items.<i>.mechanism.<name>";
// these paths put them back where the request has them.
struct ItemPaths {
  std::string request;  // "items.<i>", the item in the request
  std::string engine;   // "items.<k>.mechanism", the prefix the engine uses (k: its place in the engine's list)
  std::string base;     // the innermost mechanism (or the guarantee) object
  std::string rate;     // the outermost "rate" ("" when not subsampled)
  std::string noise;    // the field that sets its noise (engine names that are no parameter of it go there)
  std::vector<std::string> parameters;  // the innermost mechanism's parameters (or the guarantee's fields)
};

// Below this a subsampled mechanism is practically never run: the engine could not carry the
// P-mass of its pair through the composition.
constexpr double kSmallestSamplingRate = 1e-300;

struct PldItems {
  std::vector<pld::CompositionItem> items;
  std::vector<ItemPaths> paths;   // one per item
  bool all_guarantees = true;     // every item is an (eps, delta) guarantee
  bool heterogeneous = false;     // more than one distinct item
  std::vector<bool> is_gaussian;  // per item: a Gaussian mechanism
  // The Gaussian items' noise and count, and where their noise is set, in request order.
  std::vector<mechanisms::GaussianUse> gaussians;
  std::vector<std::string> gaussian_noise_fields;
  std::vector<std::string> analyses;  // what the items' pairs rest on, where they say (once each)
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
    ItemPaths paths{item.path, field_path(item.path, "mechanism"), item.field(), "", "", {"epsilon", "delta"}};
    pld::DominatingPair pair;
    double times = item.count;
    const bool gaussian = item.mechanism && item.mechanism->gaussian();
    result.is_gaussian.push_back(gaussian);
    if (gaussian) {
      result.gaussians.push_back({*item.mechanism->gaussian(), item.count});
      result.gaussian_noise_fields.push_back(noise_field(*item.mechanism));
    }
    if (item.mechanism) {
      const mechanisms::Mechanism& inner = innermost(*item.mechanism);
      paths.base = inner.arguments().path;
      paths.noise = noise_field(*item.mechanism);
      paths.parameters.clear();
      for (const mechanisms::Parameter& parameter : inner.type().parameters) paths.parameters.push_back(parameter.name);
      const mechanisms::ComposedUses uses = item.mechanism->composed_uses(item.relation, item.count);
      pair = uses.pair;
      times = uses.times;
      if (pair.sampling_rate < 1) {
        const mechanisms::Arguments& sampling = item.mechanism->arguments();
        paths.rate = sampling.field(sampling.numbers.count("rate") != 0 ? "rate" : "sample_size");
      }
      const std::string& analysis = uses.analysis;
      if (!analysis.empty() &&
          std::find(result.analyses.begin(), result.analyses.end(), analysis) == result.analyses.end()) {
        result.analyses.push_back(analysis);
      }
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
    result.items.push_back({pair, times});
  }
  result.heterogeneous = items.size() > 1;
  return result;
}

// The Gaussian part of a request, folded into one item before any FFT: Gaussian mechanisms compose
// exactly to one Gaussian with μ² = Σ count (Δ/σ)² (gaussian_composition.hpp), entered as noise
// σ = 1/μ on a query of sensitivity 1, μ rounded up (a larger μ dominates). It takes the place of
// the first Gaussian item; the other items keep their order, and their paths say where each now
// sits in the engine's list.
void fold_gaussians(PldItems& items) {
  if (items.gaussians.size() < 2 && (items.gaussians.empty() || items.gaussians[0].count == 1)) return;
  const double mu = mechanisms::compose_gaussians(items.gaussians).mu_upper;
  // 1/μ is rounded too: σ one ulp below it keeps Δ/σ >= μ.
  const pld::DominatingPair folded{pld::GaussianPair{std::nextafter(1 / mu, 0.0), 1.0}, 1.0};
  PldItems result = items;
  result.items.clear();
  result.paths.clear();
  result.is_gaussian.clear();
  bool placed = false;
  for (std::size_t i = 0; i < items.items.size(); ++i) {
    if (items.is_gaussian[i] && placed) continue;
    ItemPaths paths = items.paths[i];
    paths.engine = field_path("items." + std::to_string(result.items.size()), "mechanism");
    result.paths.push_back(paths);
    result.items.push_back(items.is_gaussian[i] ? pld::CompositionItem{folded, 1} : items.items[i]);
    result.is_gaussian.push_back(items.is_gaussian[i]);
    placed = placed || items.is_gaussian[i];
  }
  result.heterogeneous = result.items.size() > 1;
  items = std::move(result);
}

// Engine errors name fields and options as the engine knows them; put them where the request has
// them: options under "discretization" ("discretization" itself when it was given as a number),
// item fields at the innermost mechanism (or the guarantee), the sampling rate at the outermost
// "rate".
Error in_request_terms(Error error, const Value& request, const PldItems& items) {
  error = discretization_in_request_terms(std::move(error), request);
  for (const ItemPaths& paths : items.paths) {
    // The count of the item at place k of the engine's list (its request place differs after a fold).
    const std::string engine_count = field_path(paths.engine.substr(0, paths.engine.rfind('.')), "count");
    if (error.field == engine_count) {
      const std::string mapped = field_path(paths.request, "count");
      error.message = replace_all(error.message, error.field, mapped);
      error.field = mapped;
      break;
    }
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
  for (const std::string& analysis : items.analyses) note += std::string(note.empty() ? "" : " ") + analysis;
  if (!note.empty()) result.set("note", note);
}

Value approx_guarantee(double epsilon, double delta) {
  Value guarantee = Value::object();
  guarantee.set("type", "approx").set("epsilon", epsilon).set("delta", delta);
  return guarantee;
}

// Identical (ε, δ) items at a δ below the numeric floor (just above their own δ mass): optimal
// composition (Kairouz, Oh, Viswanath 2015, Thm 3.3) answers them exactly; the error says so and
// gives its ε when it does.
Error with_exact_method(Error error, const PldItems& items, double delta) {
  if (error.field != "delta" || !items.all_guarantees || items.items.empty()) return error;
  const auto* first = std::get_if<pld::ApproxDpPair>(&items.items[0].pair.base);
  double count = 0;
  for (const pld::CompositionItem& item : items.items) {
    const auto* pair = std::get_if<pld::ApproxDpPair>(&item.pair.base);
    if (first == nullptr || pair == nullptr || pair->epsilon != first->epsilon || pair->delta != first->delta) {
      return error;
    }
    count += item.count;
  }
  if (!check_optimal_composition_size(first->epsilon, count, "items", "items").ok()) return error;
  const Result<double> exact =
      optimal_composition_epsilon(ApproxDp{first->epsilon, first->delta}, count, delta, "delta");
  if (!exact.ok()) return error;
  error.message += " These identical (ε, δ) items have an exact answer at this δ: method 'optimal' (" +
                   std::string(kOptimalComposition.citation) + ") gives ε = " + format_number(exact.value()) + ".";
  return error;
}

// A compose (method 'pld') or profile request, read and checked: its items and grid, and what it
// asks for (δ at ε, ε at δ, or δ at each of epsilons).
struct PldRequest {
  PldItems items;
  pld::AccountingOptions options;
  std::optional<double> delta, epsilon;
  std::vector<double> epsilons;
};

Result<PldRequest> read_request(const Value& request) {
  PldRequest read;
  DPCALC_TRY(read.items, read_pld_items(request));
  DPCALC_TRY(read.options, read_discretization(request));
  const Value* op = request.find("op");
  if (op != nullptr && op->is_string() && op->as_string() == "profile") {
    DPCALC_TRY(read.epsilons, number_array_field(request, "", "epsilons"));
    if (read.epsilons.empty()) return invalid_argument("epsilons", "epsilons must list at least one ε.");
    for (std::size_t i = 0; i < read.epsilons.size(); ++i) {
      DPCALC_TRY(double checked, check_epsilon(read.epsilons[i], "epsilons." + std::to_string(i)));
      (void)checked;
    }
    return read;
  }
  DPCALC_TRY(read.delta, optional_number_field(request, "", "delta"));
  DPCALC_TRY(read.epsilon, optional_number_field(request, "", "epsilon"));
  if (read.delta && read.epsilon) {
    return invalid_argument("epsilon", "Give either delta (to get ε) or epsilon (to get δ), not both.");
  }
  if (read.epsilon) {
    DPCALC_TRY(read.epsilon, check_epsilon(*read.epsilon, "epsilon"));
  } else if (!read.delta) {
    return invalid_argument("delta",
                            "delta is required: the target δ for which ε is computed (or give epsilon to get δ).");
  } else {
    DPCALC_TRY(read.delta, check_positive_delta(*read.delta, "delta"));
  }
  return read;
}

// All-Gaussian requests are answered exactly (gaussian_composition.hpp): no grid (the grid fields
// are 0), nothing truncated, [lower, upper] only the rounding of the analytic Gaussian's inverse,
// and the method says "Exact".
bool all_gaussian(const PldItems& items) { return items.gaussians.size() == items.paths.size(); }

void describe_exact(Value& result) {
  result.set("discretization", 0.0);
  result.set("grid_size", 0.0);
  result.set("truncated_mass", 0.0);
  set_method(result, mechanisms::kExactGaussianComposition);
}

// μ of the Gaussian items, or an error when it leaves the double range (Δ/σ beyond about 1e308).
Result<mechanisms::ComposedGaussian> exact_mu(const PldItems& items) {
  const mechanisms::ComposedGaussian mu = mechanisms::compose_gaussians(items.gaussians);
  if (std::isfinite(mu.mu_upper)) return mu;
  std::size_t largest = 0;
  for (std::size_t i = 1; i < items.gaussians.size(); ++i) {
    const auto ratio = [&](std::size_t j) {
      return items.gaussians[j].noise.sensitivity / items.gaussians[j].noise.sigma;
    };
    if (!(ratio(i) <= ratio(largest))) largest = i;
  }
  return Error{kNumeric, items.gaussian_noise_fields[largest],
               "The composed Gaussian's sensitivity-to-noise ratio μ = √(Σ count (Δ/σ)²) is outside the double "
               "range (" +
                   format_number(mu.mu_upper) + "): give noise and sensitivity within 1e150 of each other."};
}

Result<Value> exact_epsilon(const PldItems& items, double delta) {
  DPCALC_TRY(const mechanisms::ComposedGaussian mu, exact_mu(items));
  const double upper = gaussian_epsilon_for_delta(mu.mu_upper, delta);
  if (!std::isfinite(upper)) return Error{kNumeric, "delta", "The composition has no finite ε at this δ."};
  Value result = Value::object();
  result.set("guarantee", approx_guarantee(upper, delta));
  result.set("epsilon_upper", upper);
  result.set("epsilon_lower",
             mu.mu_lower > 0 ? std::fmin(gaussian_epsilon_lower_for_delta(mu.mu_lower, delta), upper) : 0.0);
  describe_exact(result);
  return result;
}

Result<Value> exact_delta(const PldItems& items, double epsilon) {
  DPCALC_TRY(const mechanisms::ComposedGaussian mu, exact_mu(items));
  const double upper = gaussian_delta_for_epsilon(mu.mu_upper, epsilon);
  const bool vacuous = !(upper < 1);
  Value result = Value::object();
  result.set("guarantee", approx_guarantee(epsilon, vacuous ? 1.0 : upper));
  result.set("delta_upper", vacuous ? 1.0 : upper);
  result.set("delta_lower",
             mu.mu_lower > 0 ? std::fmin(gaussian_delta_lower_for_epsilon(mu.mu_lower, epsilon), upper) : 0.0);
  if (vacuous) result.set("vacuous", true);
  describe_exact(result);
  return result;
}

Result<Value> exact_profile(const Value& request, const PldItems& items, const pld::AccountingOptions& options,
                            const std::vector<double>& epsilons) {
  const auto checked_options = pld::check_options(options);
  if (!checked_options.ok()) return in_request_terms(checked_options.error(), request, items);
  DPCALC_TRY(const std::vector<double> checked, pld::check_profile_epsilons(epsilons));
  DPCALC_TRY(const mechanisms::ComposedGaussian mu, exact_mu(items));
  std::vector<double> upper, lower;
  for (double epsilon : checked) {
    upper.push_back(gaussian_delta_for_epsilon(mu.mu_upper, epsilon));
    lower.push_back(mu.mu_lower > 0 ? std::fmin(gaussian_delta_lower_for_epsilon(mu.mu_lower, epsilon), upper.back())
                                    : 0.0);
  }
  Value result = Value::object();
  result.set("epsilons", Value::numbers(checked));
  result.set("delta_upper", Value::numbers(upper));
  result.set("delta_lower", Value::numbers(lower));
  describe_exact(result);
  return result;
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
  const bool exact = all_gaussian(items);
  if (exact) {
    // The options are checked as the engine would, though no grid is used.
    const auto checked_options = pld::check_options(options);
    if (!checked_options.ok()) return in_request_terms(checked_options.error(), request, items);
  }
  fold_gaussians(items);
  Value result = Value::object();
  if (epsilon) {
    DPCALC_TRY(double checked, check_epsilon(*epsilon, "epsilon"));
    if (exact) return exact_delta(items, checked);
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
  if (exact) return exact_epsilon(items, checked);
  auto answered = pld::epsilon_for_delta_with_plds(items.items, checked, options, progress);
  if (!answered.ok()) return with_exact_method(in_request_terms(answered.error(), request, items), items, checked);
  const pld::EpsilonBracket answer = answered.value().bracket;
  keep_answer(request, std::move(answered.value()));  // for its trade-off (kept_answer.hpp)
  if (!std::isfinite(answer.epsilon_upper)) {
    return with_exact_method(Error{kNumeric, "delta", "The composition has no finite ε at this δ."}, items, checked);
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
  if (all_gaussian(items)) return exact_profile(request, items, options, epsilons);
  fold_gaussians(items);
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

Result<std::vector<pld::CompositionItem>> pld_request_items(const Value& request) {
  DPCALC_TRY(PldRequest read, read_request(request));
  return read.items.items;
}

Result<std::shared_ptr<const pld::AnsweredEpsilon>> answered_pld_request(const Value& request,
                                                                         const pld::ProgressCallback& progress) {
  DPCALC_TRY(PldRequest read, read_request(request));
  if (auto kept = kept_answer(request)) return kept;
  fold_gaussians(read.items);  // as compose_pld does: the same PLDs as its answer
  if (!read.delta) {
    auto plds = pld::compose_items(read.items.items, read.options, progress);
    if (!plds.ok()) return in_request_terms(plds.error(), request, read.items);
    return std::make_shared<const pld::AnsweredEpsilon>(pld::AnsweredEpsilon{{}, std::move(plds.value())});
  }
  auto answered = pld::epsilon_for_delta_with_plds(read.items.items, *read.delta, read.options, progress);
  if (!answered.ok()) {
    return with_exact_method(in_request_terms(answered.error(), request, read.items), read.items, *read.delta);
  }
  return std::make_shared<const pld::AnsweredEpsilon>(std::move(answered.value()));
}

}  // namespace dpcalc::api
