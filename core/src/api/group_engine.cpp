// The groups op 'group' answers numerically: a group known by its dominating pair only (a
// Poisson-subsampled Gaussian's group of k records is a mixture of Gaussians, Schuchardt, Stoian,
// Kosmala, Günnemann 2024; sampled_group.hpp) has its pair composed once at the request's δ, and its
// trade-off reads the same PLDs; a mechanism with no group transform at all (sampling without
// replacement, other noise under Poisson sampling, a Gaussian mixture) has one record's pair
// composed, and group privacy applied at every point of its privacy profile
// (pld/group_over_profile.hpp).
#include <algorithm>
#include <cmath>
#include <memory>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/group_op.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "dpcalc/pld/group_over_profile.hpp"
#include "dpcalc/tradeoff/profile_tradeoff.hpp"

namespace dpcalc::api {
namespace {

// The tail mass one record's PLD may cut when the group is answered over its profile, unless the
// request sets it: the cut mass is the smallest δ(ε) the PLD certifies, and a group of k needs one
// record's δ(ε) near δ_group / ((e^{kε} − 1)/(e^ε − 1)), far below the 1e-14 that composition
// defaults to (a Gaussian with μ = 0.5 needs 5e-19 for a group of 8 at δ = 1e-5). It makes the grid
// about 1.5 times as wide, for one mechanism composed once.
constexpr double kProfileTailMass = 1e-30;
// The δ at which one record's PLD is composed (refined until its ε bracket is as narrow as asked)
// stays at least this when δ/k is smaller: the refinement would otherwise grow the grid 64-fold for
// groups that no per-record ε can serve but a pure one (a group of 10^8 at δ = 1e-5), at the same
// accuracy where a point does meet. The search reads δ(ε) at every ε all the same.
constexpr double kProfileEngineDelta = 1e-10;

// The note of every answer over the privacy profile: what it is, and what it is not.
constexpr const char* kProfileNote =
    "A generic bound: group privacy of approximate DP (Vadhan 2017, Lemma 2.2) applied to the mechanism's own "
    "(ε, δ) at the per-record ε that gives the smallest group ε (per_record). It is not a tight analysis of the "
    "group, which the calculator has only for Poisson-subsampled Gaussian or Laplace noise: the group's true ε may "
    "be much smaller.";

constexpr MethodInfo kGroupProfileTradeoff{
    "Trade-off of the group's (ε, δ) at points of the mechanism's privacy profile (group privacy at each, "
    "envelope of their pairs)",
    "Vadhan 2017, Lemma 2.2; Dong, Roth, Su 2019, Prop. 2.12", "vadhan2017complexity dong2019gaussian"};

Result<double> engine_delta(const GroupRequest& request) {
  if (!request.delta) return required_field(request.at, "delta");
  return check_positive_delta(*request.delta, field_path(request.at, "delta"));
}

// The group's pair at the request's δ; without a group transform, one record's pair at δ/k, where the
// profile's search starts (pld::best_group_point: no per-record δ above δ/k meets the group's δ), or
// at kProfileEngineDelta when δ/k is smaller.
Result<pld::AnsweredEpsilon> compose_group(const GroupRequest& request, const mechanisms::Mechanism* grouped,
                                           double delta, const Progress& progress) {
  const mechanisms::Mechanism& composed = grouped ? *grouped : *request.mechanism->mechanism;
  pld::AccountingOptions options = request.discretization.options;
  if (!grouped && !request.discretization.tail_mass_given) options.tail_mass_truncation = kProfileTailMass;
  const double at_delta = grouped ? delta : std::max(delta / request.k, std::min(delta, kProfileEngineDelta));
  auto answered = pld::epsilon_for_delta_with_plds({pld::CompositionItem{composed.pair(request.relation.relation), 1}},
                                                   at_delta, options, progress);
  if (!answered.ok()) return in_group_terms(std::move(answered).error(), request);
  return std::move(answered.value());
}

}  // namespace

Error in_group_terms(Error error, const GroupRequest& request) {
  if (error.field == "delta") {
    error.field = field_path(request.at, "delta");
    return error;
  }
  if (error.item != Error::kNoItem) {
    error.item = Error::kNoItem;
    return on_mechanism(std::move(error), *request.mechanism);
  }
  if (!is_option_error(error)) return error;
  // The automatic grid (no discretization given) is sized by the group: its size is what to change.
  if (!request.discretization.given) {
    error.field = field_path(request.at, "k");
    return error;
  }
  return on_options(std::move(error), request.discretization);
}

Result<GroupAnswer> group_by_engine(const GroupRequest& request, GroupAnswer answer, const Progress& progress) {
  DPCALC_TRY(const double delta, engine_delta(request));
  if (answer.grouped->reveals_input()) {
    answer.kind = GroupAnswer::Kind::kEngine;
    answer.guarantee = ApproxDp{0, 1};
    PldQueries asked;
    asked.delta = delta;
    answer.numeric = no_guarantee_answer(
        asked, "The mechanism adds no noise: it releases its query, so its group has no finite ε at any δ < 1.");
    answer.method = answer.numeric.method;
    return answer;
  }
  const double revealed =
      infinite_loss_lower({pld::CompositionItem{answer.grouped->pair(request.relation.relation), 1}});
  if (delta < revealed) {
    answer.kind = GroupAnswer::Kind::kEngine;
    answer.guarantee = ApproxDp{0, 1};
    PldQueries asked;
    asked.delta = delta;
    answer.numeric = no_guarantee_answer(asked, "With probability at least " + format_number(revealed) +
                                                    " (above δ) the group's pair has infinite privacy loss (truncated "
                                                    "noise), so no finite ε holds at δ = " +
                                                    format_number(delta) + "; every δ above it has one.");
    answer.method = answer.numeric.method;
    return answer;
  }
  DPCALC_TRY(pld::AnsweredEpsilon answered, compose_group(request, answer.grouped.get(), delta, progress));
  const pld::EpsilonBracket bracket = answered.bracket;
  if (!std::isfinite(bracket.epsilon_upper)) {
    return Error{kNumeric, field_path(request.at, "delta"), "The group has no finite ε at this δ."};
  }
  answer.kind = GroupAnswer::Kind::kEngine;
  answer.guarantee = ApproxDp{bracket.epsilon_upper, delta};
  answer.numeric.asked.delta = delta;
  answer.numeric.asked.epsilon_at = bracket;
  answer.numeric.plds = std::make_shared<const pld::ComposedPlds>(std::move(answered.plds));
  answer.numeric.note = accuracy_note(bracket, request.discretization.options);
  return answer;
}

Result<GroupAnswer> group_by_profile(const GroupRequest& request, GroupAnswer answer, const Progress& progress) {
  const mechanisms::Mechanism& mechanism = *request.mechanism->mechanism;
  const auto pure = mechanism.pure_epsilon();
  answer.overflow_field = noise_path(*request.mechanism);
  // A pure mechanism asked without δ: its pure group guarantee kε (Dwork & Roth 2014, Thm 2.2), the
  // profile's point at ε₀ where δ(ε₀) = 0.
  if (pure && !request.delta) {
    if (request.discretization.given) {
      return does_not_apply(field_path(request.at, "discretization"),
                            "without delta the group guarantee of a pure ε-DP mechanism is k·ε (no grid)");
    }
    answer.kind = GroupAnswer::Kind::kPureProfile;
    answer.guarantee = group_privacy(PureDp{*pure}, request.k);
    answer.per_record = PureDp{*pure};
    answer.method = kGroupPure;
    answer.numeric.note =
        "Group privacy of the mechanism's pure ε, a generic bound (with delta: group privacy over its whole "
        "privacy profile, Vadhan 2017, Lemma 2.2, which is never larger).";
    return answer;
  }
  DPCALC_TRY(const double delta, engine_delta(request));
  DPCALC_TRY(pld::AnsweredEpsilon answered, compose_group(request, nullptr, delta, progress));
  const std::optional<pld::GroupPoint> best = pld::best_group_point(answered.plds, request.k, delta, pure);
  if (!best) {
    return Error{kNumeric, field_path(request.at, "delta"),
                 "No per-record ε of this mechanism keeps a group of k = " + format_number(request.k) +
                     " within delta: its δ(ε) (e^{kε} − 1)/(e^ε − 1) (Vadhan 2017, Lemma 2.2) stays above " +
                     format_number(delta) + " at every ε. Give a larger delta or a smaller k."};
  }
  answer.kind = GroupAnswer::Kind::kProfile;
  answer.guarantee = ApproxDp{best->group.epsilon, delta};
  answer.per_record = best->per_record;
  answer.method = pld::kGroupOverProfile;
  answer.numeric.asked.epsilon_at = answered.bracket;
  answer.numeric.plds = std::make_shared<const pld::ComposedPlds>(std::move(answered.plds));
  answer.numeric.note = kProfileNote;
  return answer;
}

// A group answered without a group transform: the curve of its zCDP bound or of its pure answer
// where that is the answer; else the envelope of the group's (ε, δ) at points of one record's privacy
// profile (pld::group_profile_points on the PLDs the answer was read from), the answer's own among
// them. Each is a sound guarantee of the group (Vadhan 2017, Lemma 2.2), so the envelope lies below
// the group's true trade-off, and never says less than the answer.
Result<Explained> explain_group_over_profile(const GroupAnswer& answer, const tradeoff::TradeoffOptions& options) {
  if (answer.rho) return explain_guarantee(Zcdp{*answer.rho}, options);
  if (answer.kind != GroupAnswer::Kind::kProfile) return explain_guarantee(answer.guarantee, options);
  const ApproxDp own = std::get<ApproxDp>(answer.guarantee);
  tradeoff::ProfilePoints points{{own.epsilon}, {own.delta}};
  const mechanisms::Mechanism& mechanism = *answer.request.mechanism->mechanism;
  for (const pld::GroupPoint& point :
       pld::group_profile_points(*answer.numeric.plds, answer.request.k, mechanism.pure_epsilon())) {
    points.epsilons.push_back(point.group.epsilon);
    points.deltas.push_back(point.group.delta);
  }
  DPCALC_TRY(tradeoff::TradeoffResult curve, tradeoff::profile_tradeoff(points, options));
  curve.method = kGroupProfileTradeoff;
  curve.discretization = answer.numeric.plds->discretization;
  return Explained{std::move(curve), "profile", std::nullopt, std::nullopt, ""};
}

}  // namespace dpcalc::api
