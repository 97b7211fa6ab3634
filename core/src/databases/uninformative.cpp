#include "dpcalc/databases/uninformative.hpp"

#include <cfloat>
#include <cmath>
#include <functional>
#include <optional>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc::databases {
namespace {

constexpr double kLn2 = 0.6931471805599453;
// The second direction's search: its first step is 2^-kFirstStepHalvings of the range (finer than
// any ε2 the accountant's grid resolves), and it ends at this relative width.
constexpr int kFirstStepHalvings = 60;
constexpr double kSecondDirectionTolerance = 1e-15;
// Rounds of shrinking δ_u for the second direction's factor before the route gives up: each round
// divides δ by the factor at the last round's ε_u, which only grows as δ_u shrinks, so the rounds
// converge from above; a route that has not settled after these is not taken.
constexpr int kMaxShrinkRounds = 12;

// Each closed form below is a few correctly rounded operations; a margin of 16 ulps keeps it above
// the exact value.
double round_up(double value) { return value + 16 * DBL_EPSILON * std::fabs(value); }

// ln((1 + e^x)/2) = ln(1 + (e^x − 1)/2): the ε of an x-DP release subsampled at rate 1/2
// (Balle, Barthe, Gaboardi 2018, Thm 8), stable for tiny and huge x.
double log_half_one_plus_exp(double x) {
  if (x > 30) return x - kLn2 + std::log1p(std::exp(-x));
  return std::log1p(std::expm1(x) / 2);
}

// ln(1 − 2^{-n}).
double log_one_minus_inverse_power(double databases) { return std::log1p(-std::exp(-databases * kLn2)); }

// The candidate when it is below the worst case in every component; the worst case otherwise
// (it holds against every pair of hypotheses: Hartmann, Bindschaedler, West 2022, Thm 1), and when the route was out of
// reach.
Uninformative capped_or(const std::optional<Composed>& candidate, const Composed& worst_case, const MethodInfo& info,
                        bool delta_target) {
  Uninformative answer;
  answer.info = &info;
  // With a δ target both answers hold at that δ (the worst case may report a smaller one): compare ε.
  const bool below = candidate && (delta_target ? reported_epsilon(*candidate) <= reported_epsilon(worst_case)
                                                : covers(worst_case, *candidate));
  if (below) {
    answer.guarantee = *candidate;
    return answer;
  }
  answer.guarantee = worst_case;
  answer.capped = true;
  answer.note = candidate
                    ? "The uninformative-prior bound is not below the worst case here (few databases or large ε); "
                      "the worst case holds against every adversary and is reported."
                    : "The second direction (H0 against H1) is out of reach of this route (e^ε of the subsampled "
                      "composition reaches 2^n); the worst case holds against every adversary and is reported.";
  return answer;
}

// Corollary 7 of Hartmann, Bindschaedler, West 2022 for pure releases, with the reverse direction from P_b >= e^{-|b|ε}
// P_0.
Composed corollary7(const std::vector<DatabaseClass>& classes) {
  const double databases = total_databases(classes);
  double log_half_products = 0, log_half_products_reverse = 0;
  for (const DatabaseClass& database_class : classes) {
    const double epsilon = database_class.queries * approx_release(database_class).value().epsilon;
    log_half_products += database_class.count * log_half_one_plus_exp(epsilon);
    log_half_products_reverse += database_class.count * std::log1p(std::expm1(-epsilon) / 2);
  }
  const double forward = first_direction_epsilon(log_half_products, databases);
  const double reverse = -first_direction_epsilon(log_half_products_reverse, databases);
  Composed composed;
  composed.approx = ApproxDp{round_up(std::max(forward, std::max(reverse, 0.0))), 0};
  composed.pure = true;
  return composed;
}

// The composed guarantee of the subsampled databases at the given δ_u (basic: its own δ).
using SubsampledComposer = std::function<Result<Composed>(double delta_subsampled)>;

// Maps a composed (ε_u, δ_u) of P_u against P_0 (both directions) back to the hypotheses.
// Returns nothing when the second direction is out of reach (e^{ε_u} >= 2^n).
std::optional<ApproxDp> map_back(const ApproxDp& subsampled, double databases) {
  if (!(subsampled.epsilon < databases * kLn2)) return std::nullopt;
  const double first = first_direction_epsilon(subsampled.epsilon, databases);
  const double second = second_direction_epsilon(subsampled.epsilon, databases);
  const double delta = subsampled.delta * second_direction_delta_factor(subsampled.epsilon, databases);
  return ApproxDp{round_up(std::max(first, second)), std::min(round_up(delta), 1.0)};
}

// With a δ target: δ_u must leave room for the second direction's factor 2^n/(2^n − e^{ε_u}),
// which grows with ε_u; a few rounds of shrinking δ_u settle it (or the route gives up).
Result<std::optional<ApproxDp>> through_target(const SubsampledComposer& compose, double delta, double databases) {
  // A relative margin of 1e-12 absorbs the rounding of the factors (and the 16 ulps of round_up).
  constexpr double kMargin = 1 - 1e-12;
  double delta_subsampled = delta * std::exp(log_one_minus_inverse_power(databases)) * kMargin;
  for (int round = 0; round < kMaxShrinkRounds; ++round) {
    DPCALC_TRY(Composed composed, compose(delta_subsampled));
    const std::optional<ApproxDp> mapped = map_back(composed.approx, databases);
    if (!mapped) return std::optional<ApproxDp>{};
    if (mapped->delta <= delta) return std::optional<ApproxDp>{ApproxDp{mapped->epsilon, delta}};
    delta_subsampled = delta / second_direction_delta_factor(composed.approx.epsilon, databases) * kMargin;
  }
  return std::optional<ApproxDp>{};
}

Result<std::optional<Composed>> subsampling_route(const std::vector<DatabaseClass>& classes,
                                                  const MethodOptions& options) {
  const double databases = total_databases(classes);
  // Each database releases `queries` times: its own guarantee is their basic composition.
  std::vector<ComposedItem> amplified;
  std::vector<ZcdpItem> amplified_zcdp;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const DatabaseClass& database_class = classes[c];
    const mechanisms::Mechanism* mechanism = release_mechanism(database_class);
    if ((mechanism && !mechanism->pure_epsilon()) || std::holds_alternative<Zcdp>(database_class.release)) {
      return about_item(
          Error{kUnsupported, kRelease,
                "The uninformative prior needs each database's (ε, δ) to amplify it by subsampling (Balle, Barthe, "
                "Gaboardi 2018, Thm 8); a Gaussian or zCDP release has none. Use method 'pld' for Gaussian "
                "releases."},
          c);
    }
    const ApproxDp release = approx_release(database_class).value();
    const double epsilon = log_half_one_plus_exp(database_class.queries * release.epsilon);
    const double delta = database_class.queries * release.delta / 2;
    if (options.method == CompositionMethod::kZcdp) {
      amplified_zcdp.push_back({pure_to_zcdp(PureDp{epsilon}), database_class.count});
    } else if (options.method == CompositionMethod::kOptimal && !amplified.empty() &&
               (amplified[0].guarantee.epsilon != epsilon || amplified[0].guarantee.delta != delta)) {
      // The class's own queries field, or the class when it leaves queries at its default (fuzz seed 3).
      return about_item(Error{kUnsupported, database_class.queries == 1 ? "" : "queries",
                              "Under the uninformative prior each database is one subsampled release of all its "
                              "queries; optimal composition needs the same number of queries on every database. Use "
                              "method 'advanced' or 'pld'."},
                        c);
    } else {
      amplified.push_back({ApproxDp{epsilon, std::min(delta, 1.0)}, database_class.count});
    }
  }
  const SubsampledComposer compose = [&](double delta_subsampled) -> Result<Composed> {
    MethodOptions at = options;
    at.delta = delta_subsampled;
    if (options.method == CompositionMethod::kZcdp) return compose_zcdp_items(amplified_zcdp, at);
    return compose_approx_items(amplified, at);
  };
  Composed composed;
  std::optional<ApproxDp> mapped;
  if (options.method == CompositionMethod::kBasic) {
    DPCALC_TRY(Composed subsampled, compose(0));
    mapped = map_back(subsampled.approx, databases);
  } else {
    DPCALC_TRY(mapped, through_target(compose, *options.delta, databases));
  }
  if (!mapped) return std::optional<Composed>{};
  composed.approx = *mapped;
  return std::optional<Composed>{composed};
}

// H_{e^ε}(P_0‖P_u) from the composed "add" PLD: its certified upper estimate (rounding included).
double add_direction_delta(const pld::DiscretePld& add, double epsilon) {
  return pld::hockey_stick_divergence(add, epsilon).upper();
}

// Smallest ε2 in [lowest, n ln 2) found with (H(ε2) + noise)·2^n/(2^n − e^{ε2}) <= δ, or nothing:
// steps up from `lowest` that start at 2^-60 of the range and double, then bisection of the last
// one. Both sides of the condition are certified upper bounds, so the ε2 returned is sound.
std::optional<double> second_direction_search(const pld::DiscretePld& add, double lowest, double delta,
                                              double databases) {
  const double limit = databases * kLn2;
  const SoundPredicate valid = [&](double epsilon) {
    return epsilon < limit &&
           add_direction_delta(add, epsilon) * second_direction_delta_factor(epsilon, databases) <= delta;
  };
  if (!(lowest < limit)) return std::nullopt;
  const std::optional<Boundary> stepped =
      step_until_met(valid, lowest, limit, std::ldexp(limit - lowest, -kFirstStepHalvings));
  if (!stepped) return std::nullopt;
  return bisect_boundary(valid, *stepped, kSecondDirectionTolerance, Midpoint::kArithmetic).meeting;
}

Result<std::optional<Composed>> pld_route(const std::vector<DatabaseClass>& classes, const MethodOptions& options) {
  const double databases = total_databases(classes);
  const double delta = *options.delta;
  std::vector<pld::CompositionItem> items;
  std::vector<std::size_t> origin;  // the first class of each item, which its errors name
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const DatabaseClass& database_class = classes[c];
    pld::DominatingPair mechanism = pld_release(database_class).value();
    if (auto* gaussian = std::get_if<pld::GaussianPair>(&mechanism.base)) {
      // q Gaussian releases on one database are one Gaussian of σ/√q (the record's bit is shared).
      gaussian->sigma /= std::sqrt(database_class.queries);
    } else if (database_class.queries != 1) {
      return about_item(Error{kUnsupported, "queries",
                              "Under the uninformative prior each database is subsampled as a whole; method 'pld' can "
                              "do so for one release per database or for Gaussian releases. Use a closed-form method "
                              "for several Laplace or (ε, δ) releases per database."},
                        c);
    }
    mechanism.sampling_rate = 0.5;
    if (add_pld_item(items, mechanism, database_class.count) == origin.size()) origin.push_back(c);
  }
  pld::AccountingOptions accounting = options.accounting;
  accounting.tail_mass_truncation = std::min(accounting.tail_mass_truncation, delta / 10);
  Result<pld::ComposedPlds> composed_plds = pld::compose_items(items, accounting, options.progress);
  if (!composed_plds.ok()) return on_class(composed_plds.error(), classes, origin);
  const pld::ComposedPlds& plds = composed_plds.value();
  const double first_target = delta * std::exp(log_one_minus_inverse_power(databases));
  const double reachable = pld::delta_floor(plds.upper_remove);
  if (!(first_target > reachable)) {
    return invalid_argument("delta", "δ must be larger than " + format_number(reachable) +
                                         ", the smallest delta this numeric composition can certify; got " +
                                         format_number(delta) + ".");
  }
  const double first = pld::epsilon_for_delta(plds.upper_remove, first_target, pld::Bound::kUpper);
  const double lowest_second = pld::epsilon_for_delta(plds.upper_add, first_target, pld::Bound::kUpper);
  const std::optional<double> second = std::isfinite(lowest_second)
                                           ? second_direction_search(plds.upper_add, lowest_second, delta, databases)
                                           : std::nullopt;
  if (!std::isfinite(first) || !second) return std::optional<Composed>{};
  // The optimistic PLD's delta exceeds the exact one by at most its truncated mass.
  const double first_lower =
      pld::epsilon_for_delta(plds.lower_remove, first_target + plds.lower_remove.truncated_mass, pld::Bound::kLower);
  Composed composed;
  const double upper =
      round_up(std::max(first_direction_epsilon(first, databases), second_direction_epsilon(*second, databases)));
  composed.approx = ApproxDp{upper, delta};
  pld::EpsilonBracket bracket;
  bracket.epsilon_upper = upper;
  bracket.epsilon_lower = std::isfinite(first_lower)
                              ? std::min(upper, std::max(0.0, first_direction_epsilon(first_lower, databases)))
                              : 0.0;
  bracket.discretization = plds.discretization;
  // One composition, not refined: on the automatic grid the result says so when its width exceeds
  // what the accuracy asked for (as the engine's refinement does).
  bracket.accuracy_met = accounting.discretization_interval > 0 ||
                         upper - bracket.epsilon_lower <= 4 * accounting.relative_accuracy * upper;
  composed.bracket = bracket;
  return std::optional<Composed>{composed};
}

}  // namespace

double first_direction_epsilon(double epsilon_subsampled, double databases) {
  return epsilon_subsampled + std::log1p(-std::exp(-epsilon_subsampled - databases * kLn2)) -
         log_one_minus_inverse_power(databases);
}

double second_direction_epsilon(double epsilon_subsampled, double databases) {
  return epsilon_subsampled + log_one_minus_inverse_power(databases) -
         std::log1p(-std::exp(epsilon_subsampled - databases * kLn2));
}

double second_direction_delta_factor(double epsilon_subsampled, double databases) {
  return -1 / std::expm1(epsilon_subsampled - databases * kLn2);
}

Result<Uninformative> uninformative(const std::vector<DatabaseClass>& classes, const Composed& worst_case,
                                    const MethodOptions& options) {
  if (options.method == CompositionMethod::kBasic && all_pure(classes)) {
    return capped_or(corollary7(classes), worst_case, kCorollary7, false);
  }
  if (options.method == CompositionMethod::kZcdp && !options.delta) {
    return invalid_argument("delta",
                            "The total δ is required: the uninformative prior is an (ε, δ) statement, reached from "
                            "zCDP through the subsampled releases.");
  }
  std::optional<Composed> composed;
  if (options.method == CompositionMethod::kPld) {
    DPCALC_TRY(composed, pld_route(classes, options));
  } else {
    DPCALC_TRY(composed, subsampling_route(classes, options));
  }
  if (all_pure(classes) && options.delta) {
    // Corollary 7 holds at δ = 0, so at every δ: never report more for pure releases.
    const double closed_form = corollary7(classes).approx.epsilon;
    if (!composed) {
      composed = worst_case;
      composed->bracket.reset();
    }
    if (closed_form < composed->approx.epsilon) {
      composed->approx.epsilon = closed_form;
      if (composed->bracket) composed->bracket->epsilon_upper = closed_form;
      if (composed->bracket) composed->bracket->epsilon_lower = std::min(composed->bracket->epsilon_lower, closed_form);
    }
  }
  return capped_or(composed, worst_case, kUninformativeSubsampling, options.delta.has_value());
}

}  // namespace dpcalc::databases
