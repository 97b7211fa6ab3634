// Requests answered by the numeric PLD engine (dpcalc/pld/accountant.hpp):
//   {op:'compose', method:'pld', delta | epsilon, items:[{mechanism | guarantee, count}], discretization?}
//   {op:'profile', items:[...], epsilons:[...], discretization?}
// Pure and approx guarantees enter through their dominating pairs (Kairouz, Oh, Viswanath 2015);
// a composition of Gaussian noise is answered exactly (gaussian_composition.hpp), and the Gaussian
// part of a mixed one enters the engine as one item.
#include "dpcalc/api/pld_ops.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/compose_op.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"
#include "dpcalc/mechanisms/gaussian_composition.hpp"
#include "dpcalc/pld/pure_bound.hpp"

namespace dpcalc::api {
namespace {

// A composition of mechanisms that reveal nothing (their output has the same law on neighbouring
// inputs: pure 0-DP): ε = 0 at every δ, and δ(ε) = (1 − e^ε)₊, the
// hockey-stick divergence of a law from itself (Dwork & Roth 2014, Def. 2.4).
constexpr MethodInfo kNothingRevealed{
    "Exact: every item reveals nothing (its output has the same law on neighbouring "
    "inputs, 0-DP), and neither does their composition",
    "Dwork & Roth 2014, Def. 2.4", "dwork2014algorithmic"};

// A composition with an item that releases its input (noise 0), or whose outputs reveal it with a
// probability above the δ asked: no finite ε holds (as dp_accounting's noise_multiplier 0: ε = ∞).
constexpr MethodInfo kInputRevealed{
    "No guarantee: with probability above δ an output is one that only one of two neighbouring inputs "
    "gives (infinite privacy loss), so no finite ε holds",
    "Dwork & Roth 2014, Def. 2.4", "dwork2014algorithmic"};

// Below this a subsampled mechanism is practically never run: the engine could not carry the
// P-mass of its pair through the composition.
constexpr double kSmallestSamplingRate = 1e-300;

// The items as the engine takes them, and for each the request item it comes from.
struct EngineItems {
  std::vector<pld::CompositionItem> items;
  std::vector<std::size_t> origin;  // engine item -> request item
  bool all_guarantees = true;       // every item is an (eps, delta) guarantee
  std::vector<bool> is_gaussian;    // per engine item: Gaussian noise
  // The Gaussian items' noise and count, and the request items they are, in request order.
  std::vector<mechanisms::GaussianUse> gaussians;
  std::vector<std::size_t> gaussian_items;
  std::vector<std::string> analyses;  // what the items' pairs rest on, where they say (once each)
  bool any_item = false;              // at least one request item (those that reveal nothing are left out)
  bool pairs_attained = true;         // every mechanism's pair is attained by some inputs
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

// True when the item's output has the same law on neighbouring inputs: it is 0-DP (randomized
// response with p = 1, a 0-DP guarantee).
bool reveals_nothing(const RequestItem& item) {
  if (item.mechanism) return item.mechanism->mechanism->pure_epsilon() == 0.0;
  if (const auto* pure = std::get_if<PureDp>(&*item.guarantee)) return pure->epsilon == 0;
  if (const auto* approx = std::get_if<ApproxDp>(&*item.guarantee)) return approx->epsilon == 0 && approx->delta == 0;
  return false;
}

Result<EngineItems> engine_items(const std::vector<RequestItem>& items) {
  EngineItems result;
  result.any_item = !items.empty();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const RequestItem& item = items[i];
    // Nothing to compose: the identity pair leaves every PLD as it is (and would only add to the
    // bound on the FFT's rounding, count times).
    if (reveals_nothing(item)) continue;
    pld::DominatingPair pair;
    double times = item.count;
    const mechanisms::Mechanism* mechanism = item.mechanism ? item.mechanism->mechanism.get() : nullptr;
    const bool gaussian = mechanism && mechanism->gaussian();
    result.is_gaussian.push_back(gaussian);
    if (gaussian) {
      result.gaussians.push_back({*mechanism->gaussian(), item.count});
      result.gaussian_items.push_back(i);
    }
    if (mechanism) {
      const mechanisms::ComposedUses uses = mechanism->composed_uses(item.relation, item.count);
      result.pairs_attained = result.pairs_attained && mechanism->pair_is_attained();
      pair = uses.pair;
      times = uses.times;
      if (!uses.analysis.empty() &&
          std::find(result.analyses.begin(), result.analyses.end(), uses.analysis) == result.analyses.end()) {
        result.analyses.push_back(uses.analysis);
      }
      if (!(pair.sampling_rate >= kSmallestSamplingRate)) {
        return invalid_argument(parameter_path(*item.mechanism, "sampling_rate"),
                                "The nested sampling rates multiply to " + format_number(pair.sampling_rate) +
                                    ", below 1e-300; with such a rate the mechanism is practically never "
                                    "run. Give larger rates.");
      }
    } else {
      DPCALC_TRY(pair, guarantee_pair(*item.guarantee, item.field()));
    }
    result.all_guarantees = result.all_guarantees && !mechanism;
    result.items.push_back({pair, times});
    result.origin.push_back(i);
  }
  return result;
}

// The Gaussian part of a composition, folded into one item before any FFT: Gaussian mechanisms
// compose exactly to one Gaussian with μ² = Σ count (Δ/σ)² (gaussian_composition.hpp), entered as
// noise σ = 1/μ on a query of sensitivity 1, μ rounded up (a larger μ dominates). It takes the place
// of the first Gaussian item (whose request item its errors name); the others keep their order.
void fold_gaussians(EngineItems& items) {
  if (items.gaussians.size() < 2 && (items.gaussians.empty() || items.gaussians[0].count == 1)) return;
  const double mu = mechanisms::compose_gaussians(items.gaussians).mu_upper;
  // 1/μ is rounded too: σ one ulp below it keeps Δ/σ >= μ.
  const pld::DominatingPair folded{pld::GaussianPair{std::nextafter(1 / mu, 0.0), 1.0}, 1.0};
  EngineItems result = items;
  result.items.clear();
  result.origin.clear();
  result.is_gaussian.clear();
  bool placed = false;
  for (std::size_t i = 0; i < items.items.size(); ++i) {
    if (items.is_gaussian[i] && placed) continue;
    result.items.push_back(items.is_gaussian[i] ? pld::CompositionItem{folded, 1} : items.items[i]);
    result.origin.push_back(items.origin[i]);
    result.is_gaussian.push_back(items.is_gaussian[i]);
    placed = placed || items.is_gaussian[i];
  }
  items = std::move(result);
}

// An engine error on the request's paths: its options where the request has them, an item's
// parameters at that item (of the request item it comes from).
Error in_request(Error error, const std::vector<RequestItem>& items, const EngineItems& engine,
                 const Discretization& discretization) {
  if (is_option_error(error)) return on_options(std::move(error), discretization);
  if (error.item != Error::kNoItem && error.item < engine.origin.size()) {
    return on_item(std::move(error), items[engine.origin[error.item]]);
  }
  return error;
}

// The note of a numeric answer: its accuracy, what its (ε, δ) items bracket, what pairs rest on.
std::string numeric_note(const EngineItems& items, std::size_t request_items, const std::string& accuracy) {
  std::string note = accuracy;
  if (items.all_guarantees && request_items > 1) {
    note += std::string(note.empty() ? "" : " ") +
            "These (ε, δ) items are composed through their dominating pairs, so [lower, upper] brackets "
            "the optimal heterogeneous composition (Murtagh & Vadhan 2016), which is #P-hard to compute "
            "exactly.";
  }
  for (const std::string& analysis : items.analyses) note += std::string(note.empty() ? "" : " ") + analysis;
  return note;  // what the lower end bounds, write_numeric says (a cheaper route may replace it)
}

// Identical (ε, δ) items at a δ below the numeric floor (just above their own δ mass): optimal
// composition (Kairouz, Oh, Viswanath 2015, Thm 3.3) answers them exactly; the error says so and
// gives its ε when it does.
Error with_exact_method(Error error, const EngineItems& items, double delta, const std::string& delta_path) {
  if (error.field != delta_path || !items.all_guarantees || items.items.empty()) return error;
  const auto* first = std::get_if<pld::ApproxDpPair>(&items.items[0].pair.base);
  double count = 0;
  for (const pld::CompositionItem& item : items.items) {
    const auto* pair = std::get_if<pld::ApproxDpPair>(&item.pair.base);
    if (first == nullptr || pair == nullptr || pair->epsilon != first->epsilon || pair->delta != first->delta) {
      return error;
    }
    count += item.count;
  }
  if (!check_optimal_composition_size(first->epsilon, count).ok()) return error;
  const Result<double> exact = optimal_composition_epsilon(ApproxDp{first->epsilon, first->delta}, count, delta);
  if (!exact.ok()) return error;
  return Error{error.code, error.field,
               error.message + " These identical (ε, δ) items have an exact answer at this δ: method 'optimal' (" +
                   kOptimalComposition.citation + ") gives ε = " + format_number(exact.value()) + "."};
}

// μ of the Gaussian items, or an error when it leaves the double range (Δ/σ beyond about 1e308).
Result<mechanisms::ComposedGaussian> exact_mu(const std::vector<RequestItem>& request_items, const EngineItems& items) {
  const mechanisms::ComposedGaussian mu = mechanisms::compose_gaussians(items.gaussians);
  if (std::isfinite(mu.mu_upper)) return mu;
  std::size_t largest = 0;
  for (std::size_t i = 1; i < items.gaussians.size(); ++i) {
    const auto ratio = [&](std::size_t j) {
      return items.gaussians[j].noise.sensitivity / items.gaussians[j].noise.sigma;
    };
    if (!(ratio(i) <= ratio(largest))) largest = i;
  }
  return Error{kNumeric, noise_path(*request_items[items.gaussian_items[largest]].mechanism),
               "The composed Gaussian's sensitivity-to-noise ratio μ = √(Σ count (Δ/σ)²) is outside the double "
               "range (" +
                   format_number(mu.mu_upper) + "): give noise and sensitivity within 1e150 of each other."};
}

// A composition of items that each reveal nothing, exactly: ε = 0; δ(ε) = 1 − e^ε below 0, else 0.
NumericAnswer nothing_revealed(const PldQueries& asked) {
  NumericAnswer answer;
  answer.asked = asked;
  answer.method = kNothingRevealed;
  const auto delta_at = [](double epsilon) { return epsilon < 0 ? -std::expm1(epsilon) : 0.0; };
  if (asked.delta) {
    answer.asked.epsilon_at = pld::EpsilonBracket{};
  } else if (asked.epsilon) {
    pld::DeltaBracket bracket;
    bracket.delta_upper = bracket.delta_lower = delta_at(*asked.epsilon);
    answer.delta = bracket;
  } else {
    pld::PrivacyProfile profile;
    profile.epsilons = asked.epsilons;
    for (double epsilon : asked.epsilons) {
      profile.delta_upper.push_back(delta_at(epsilon));
      profile.delta_lower.push_back(delta_at(epsilon));
    }
    answer.profile = std::move(profile);
  }
  answer.mu = 0;
  return answer;
}

}  // namespace

NumericAnswer no_guarantee_answer(const PldQueries& asked, const std::string& note) {
  NumericAnswer answer;
  answer.asked = asked;
  answer.method = kInputRevealed;
  answer.note = note;
  if (asked.delta) {
    answer.asked.epsilon_at = pld::EpsilonBracket{};
    answer.asked.epsilon_at->epsilon_upper = answer.asked.epsilon_at->epsilon_lower = kInfinity;
  } else if (asked.epsilon) {
    answer.delta = pld::DeltaBracket{1.0, 1.0, {}};
  } else {
    pld::PrivacyProfile profile;
    profile.epsilons = asked.epsilons;
    profile.delta_upper.assign(asked.epsilons.size(), 1.0);
    profile.delta_lower.assign(asked.epsilons.size(), 1.0);
    answer.profile = std::move(profile);
  }
  return answer;
}

// The probability that the composition's privacy loss is +∞ (some item's is) in the direction where
// it is larger, from the pairs' own masses at +∞, rounded down: 1 − Π (1 − m_i)^{count_i}.
double infinite_loss_lower(const std::vector<pld::CompositionItem>& items) {
  double largest = 0;
  for (const pld::Direction direction : {pld::Direction::kRemove, pld::Direction::kAdd}) {
    double log_survival = 0;
    for (const pld::CompositionItem& item : items) {
      Result<pld::PrivacyLossPair> pair = pld::PrivacyLossPair::create(item.pair, direction);
      const double mass = pair.ok() ? pair.value().infinite_loss_mass() : 0.0;
      if (mass > 0) log_survival += item.count * std::log1p(-std::min(mass, 1.0));
    }
    largest = std::max(largest, -std::expm1(log_survival));
  }
  return largest * (1 - 1e-12);
}

namespace {

// All-Gaussian compositions are answered exactly: no grid (the grid fields are 0), nothing
// truncated, [lower, upper] only the rounding of the analytic Gaussian's inverse.
Result<NumericAnswer> exact_answer(const std::vector<RequestItem>& request_items, const EngineItems& items,
                                   const PldQueries& asked, const std::string& at) {
  DPCALC_TRY(const mechanisms::ComposedGaussian mu, exact_mu(request_items, items));
  NumericAnswer answer;
  answer.asked = asked;
  answer.method = mechanisms::kExactGaussianComposition;
  const auto lower_delta = [&mu](double epsilon, double upper) {
    return mu.mu_lower > 0 ? std::fmin(gaussian_delta_lower_for_epsilon(mu.mu_lower, epsilon), upper) : 0.0;
  };
  if (asked.delta) {
    const double upper = gaussian_epsilon_for_delta(mu.mu_upper, *asked.delta);
    if (!std::isfinite(upper)) {
      return Error{kNumeric, field_path(at, "delta"), "The composition has no finite ε at this δ."};
    }
    pld::EpsilonBracket bracket;
    bracket.epsilon_upper = upper;
    bracket.epsilon_lower =
        mu.mu_lower > 0 ? std::fmin(gaussian_epsilon_lower_for_delta(mu.mu_lower, *asked.delta), upper) : 0.0;
    answer.asked.epsilon_at = bracket;
  } else if (asked.epsilon) {
    pld::DeltaBracket bracket;
    bracket.delta_upper = gaussian_delta_for_epsilon(mu.mu_upper, *asked.epsilon);
    bracket.delta_lower = lower_delta(*asked.epsilon, bracket.delta_upper);
    answer.delta = bracket;
  } else {
    pld::PrivacyProfile profile;
    profile.epsilons = asked.epsilons;
    for (double epsilon : asked.epsilons) {
      profile.delta_upper.push_back(gaussian_delta_for_epsilon(mu.mu_upper, epsilon));
      profile.delta_lower.push_back(lower_delta(epsilon, profile.delta_upper.back()));
    }
    answer.profile = std::move(profile);
  }
  return answer;
}

// Never looser than basic composition of the same pairs where each has a bounded loss: the grid of
// the engine holds one lattice, so a mix of Laplace scales can come out above Σ count ε (3 × Lap(1) +
// 2 × Lap(2) is 4-DP; the grid gave δ(4) = 5.6e-4). The cap is as sound as the engine: it bounds the
// pairs the engine composes. Returns the note when it caps the answer.
std::string capped_by_basic_composition(const EngineItems& items, PldQueries& asked,
                                        std::optional<pld::DeltaBracket>& delta,
                                        std::optional<pld::PrivacyProfile>& profile) {
  const std::optional<ApproxDp> basic = pld::basic_composition_bound(items.items);
  if (!basic) return "";
  bool capped = false;
  const auto cap_delta = [&](double epsilon, double& upper, double& lower) {
    if (epsilon >= basic->epsilon && basic->delta < upper) {
      upper = basic->delta;
      lower = std::fmin(lower, upper);
      capped = true;
    }
  };
  if (asked.epsilon_at && basic->delta <= *asked.delta && basic->epsilon < asked.epsilon_at->epsilon_upper) {
    asked.epsilon_at->epsilon_upper = basic->epsilon;
    asked.epsilon_at->epsilon_lower = std::fmin(asked.epsilon_at->epsilon_lower, basic->epsilon);
    capped = true;
  }
  if (delta) cap_delta(*asked.epsilon, delta->delta_upper, delta->delta_lower);
  if (profile) {
    for (std::size_t i = 0; i < profile->epsilons.size(); ++i) {
      cap_delta(profile->epsilons[i], profile->delta_upper[i], profile->delta_lower[i]);
    }
  }
  if (!capped) return "";
  return "Basic composition of the same pairs (" + std::string(kBasicComposition.citation) + "), (ε, δ) = (" +
         format_number(basic->epsilon) + ", " + format_number(basic->delta) +
         "), is below the numeric bound here and caps it.";
}

}  // namespace

Result<NumericAnswer> compose_pld(const std::vector<RequestItem>& request_items, const std::optional<double>& delta,
                                  const std::optional<double>& epsilon, const std::vector<double>& epsilons,
                                  const Discretization& discretization, const std::string& at,
                                  const Progress& progress) {
  DPCALC_TRY(EngineItems items, engine_items(request_items));
  const pld::AccountingOptions& options = discretization.options;
  const bool exact = items.gaussians.size() == items.items.size();
  if (exact) {
    // The options are checked as the engine would, though no grid is used.
    if (auto checked = pld::check_options(options); !checked.ok()) {
      return in_request(std::move(checked).error(), request_items, items, discretization);
    }
  }
  PldQueries asked;
  if (epsilon) {
    DPCALC_TRY(asked.epsilon, check_profile_epsilon(*epsilon, field_path(at, "epsilon")));
  } else if (delta) {
    DPCALC_TRY(asked.delta, check_positive_delta(*delta, field_path(at, "delta")));
  } else if (!epsilons.empty()) {
    Result<std::vector<double>> checked = pld::check_profile_epsilons(epsilons);
    if (!checked.ok()) return at_path(std::move(checked).error(), at);
    asked.epsilons = checked.value();
  } else {
    return invalid_argument(field_path(at, "delta"),
                            "delta is required: the target δ for which ε is computed (or give epsilon to get δ).");
  }
  for (const RequestItem& item : request_items) {
    if (item.mechanism && item.mechanism->mechanism->reveals_input()) {
      return no_guarantee_answer(asked, "The item at " + item.field() +
                                            " adds no noise: it releases its query, so the "
                                            "composition promises nothing (δ = 1 at every ε).");
    }
  }
  if (items.items.empty() && items.any_item) return nothing_revealed(asked);
  if (exact) return exact_answer(request_items, items, asked, at);
  fold_gaussians(items);
  NumericAnswer answer;
  answer.method = pld::kPldMethod;
  std::string accuracy;
  if (asked.delta) {
    if (const double revealed = infinite_loss_lower(items.items); *asked.delta < revealed) {
      NumericAnswer none =
          no_guarantee_answer(asked, "With probability at least " + format_number(revealed) +
                                         " (above δ) the items' pairs have infinite privacy loss (an (ε, δ) "
                                         "item's δ, noise 0, truncated noise), so no finite ε holds at δ = " +
                                         format_number(*asked.delta) + "; every δ above it has one.");
      none.lower_of_pairs = !items.pairs_attained;
      return none;
    }
    auto answered = pld::epsilon_for_delta_with_plds(items.items, *asked.delta, options, progress);
    if (!answered.ok()) {
      Error error = in_request(std::move(answered).error(), request_items, items, discretization);
      if (error.field == "delta") error.field = field_path(at, "delta");
      return with_exact_method(std::move(error), items, *asked.delta, field_path(at, "delta"));
    }
    const pld::EpsilonBracket bracket = answered.value().bracket;
    if (!std::isfinite(bracket.epsilon_upper)) {
      return with_exact_method(Error{kNumeric, field_path(at, "delta"), "The composition has no finite ε at this δ."},
                               items, *asked.delta, field_path(at, "delta"));
    }
    asked.epsilon_at = bracket;
    accuracy = accuracy_note(bracket, options);
    answer.plds = std::make_shared<const pld::ComposedPlds>(std::move(answered.value().plds));
  } else {
    // δ at ε, or at each ε, read from one composition.
    auto composed = pld::compose_items(items.items, options, progress);
    if (!composed.ok()) return in_request(std::move(composed).error(), request_items, items, discretization);
    answer.plds = std::make_shared<const pld::ComposedPlds>(std::move(composed.value()));
    if (asked.epsilon) {
      answer.delta = pld::delta_bracket(*answer.plds, *asked.epsilon);
    } else {
      pld::PrivacyProfile profile;
      profile.epsilons = asked.epsilons;
      profile.discretization = answer.plds->discretization;
      for (double each : asked.epsilons) {
        const pld::DeltaBracket bracket = pld::delta_bracket(*answer.plds, each);
        profile.delta_upper.push_back(bracket.delta_upper);
        profile.delta_lower.push_back(bracket.delta_lower);
      }
      answer.profile = std::move(profile);
    }
  }
  const std::string cap = capped_by_basic_composition(items, asked, answer.delta, answer.profile);
  answer.asked = asked;
  answer.note = numeric_note(items, request_items.size(), accuracy);
  if (!cap.empty()) answer.note += std::string(answer.note.empty() ? "" : " ") + cap;
  answer.lower_of_pairs = !items.pairs_attained;
  return answer;
}

Result<ProfileRequest> read_profile(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().profile;
  ProfileRequest read;
  read.at = at;
  DPCALC_TRY(read.items, read_items(request, at, shape));
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  DPCALC_TRY(read.epsilons, read_numbers(request, at, declared(shape, "epsilons")));
  if (read.epsilons.empty()) {
    return invalid_argument(field_path(at, "epsilons"), field_path(at, "epsilons") + " must list at least one ε.");
  }
  return read;
}

Result<ProfileAnswer> answer_profile(const ProfileRequest& request, const Progress& progress) {
  ProfileAnswer answer;
  DPCALC_TRY(answer.numeric, compose_pld(request.items, std::nullopt, std::nullopt, request.epsilons,
                                         request.discretization, request.at, progress));
  answer.numeric.mu = composed_mu(request.items);
  return answer;
}

Value write_profile(const ProfileAnswer& answer) {
  Value result = Value::object();
  write_numeric(result, answer.numeric);
  return result;
}

Result<Explained> explain_profile(const ProfileAnswer& answer, const tradeoff::TradeoffOptions& options,
                                  const Progress&) {
  return explain_numeric(answer.numeric, options);
}

}  // namespace dpcalc::api
