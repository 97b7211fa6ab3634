#include "dpcalc/api/tradeoff_op.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/databases_op.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/group_engine.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/kept_answer.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/api/pld_ops.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/databases/worst_case.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/group_over_profile.hpp"
#include "dpcalc/tradeoff/approx_dp_tradeoff.hpp"
#include "dpcalc/tradeoff/gaussian_tradeoff.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"
#include "dpcalc/tradeoff/pld_tradeoff.hpp"
#include "dpcalc/tradeoff/profile_tradeoff.hpp"
#include "dpcalc/tradeoff/renyi_tradeoff.hpp"

namespace dpcalc::api {
namespace {

using tradeoff::TradeoffOptions;
using tradeoff::TradeoffResult;

const std::vector<std::string> kAcceptedOps = {"group", "compose", "profile", "convert", "dpsgd", "databases"};

// A curve and what it was computed from.
struct Explained {
  TradeoffResult tradeoff;
  std::string source;              // 'gaussian', 'pld', 'profile', 'pure', 'approx', 'zcdp', 'rdp'
  std::optional<Value> guarantee;  // the guarantee the curve is the trade-off of, when it is one
  std::optional<double> group_size;
  std::string method_note;  // added to the method's name (several footprints)
};

Result<Explained> from_mu(double mu, const TradeoffOptions& options) {
  DPCALC_TRY(TradeoffResult curve, tradeoff::gaussian_tradeoff(mu, options));
  return Explained{std::move(curve), "gaussian", std::nullopt, std::nullopt, ""};
}

// The points of the answers a request gives from these same PLDs (ε at its δ, δ at its ε, δ at each
// of its epsilons), which the plotted curve is made to include: the pairs read back from the curve
// are then never better than the request's own answer (tradeoff::answer_points).
// `answered` is the request's ε answer when the PLDs came with it.
std::vector<tradeoff::CurvePoint> answers_of(const pld::ComposedPlds& plds, const Value& request,
                                             const std::optional<pld::EpsilonBracket>& answered = std::nullopt) {
  std::vector<tradeoff::CurvePoint> points;
  const auto add = [&points, &plds](double epsilon, double delta) {
    for (const tradeoff::CurvePoint& point : tradeoff::answer_points(plds, epsilon, delta)) points.push_back(point);
  };
  const Value* delta = request.find("delta");
  const Value* epsilon = request.find("epsilon");
  const Value* epsilons = request.find("epsilons");
  if (delta != nullptr && delta->is_number()) {
    const double answer =
        answered ? answered->epsilon_upper : pld::epsilon_bracket(plds, delta->as_number()).epsilon_upper;
    add(answer, delta->as_number());
  } else if (epsilon != nullptr && epsilon->is_number()) {
    add(epsilon->as_number(), pld::delta_bracket(plds, epsilon->as_number()).delta_upper);
  } else if (epsilons != nullptr && epsilons->is_array()) {
    for (const Value& each : epsilons->as_array())
      add(each.as_number(), pld::delta_bracket(plds, each.as_number()).delta_upper);
  }
  return points;
}

// The curve of the PLDs a request composes, through the points of its own answers.
Result<Explained> from_plds(const pld::ComposedPlds& plds, const Value& request, const TradeoffOptions& options,
                            const std::optional<pld::EpsilonBracket>& answered = std::nullopt) {
  DPCALC_TRY(TradeoffResult curve, tradeoff::pld_tradeoff(plds, options));
  tradeoff::include_points(curve, answers_of(plds, request, answered));
  return Explained{std::move(curve), "pld", std::nullopt, std::nullopt, ""};
}

Result<Explained> from_guarantee(const Guarantee& guarantee, const TradeoffOptions& options) {
  Result<TradeoffResult> curve = Error{};
  std::string source;
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) {
    curve = tradeoff::approx_dp_tradeoff(ApproxDp{pure->epsilon, 0}, options);
    source = "pure";
  } else if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) {
    curve = tradeoff::approx_dp_tradeoff(*approx, options);
    source = "approx";
  } else if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    curve = tradeoff::zcdp_tradeoff(*zcdp, options);
    source = "zcdp";
  } else {
    curve = tradeoff::rdp_tradeoff(std::get<RdpCurve>(guarantee), options);
    source = "rdp";
  }
  if (!curve.ok()) return curve.error();
  return Explained{std::move(curve.value()), source, to_value(guarantee), std::nullopt, ""};
}

// The guarantee an op answered (its result's `guarantee`); a vacuous (ε, δ) answer has δ = 1.
Result<Guarantee> answered_guarantee(const Value& answer) {
  const Value* vacuous = answer.find("vacuous");
  const Value& guarantee = *answer.find("guarantee");
  if (vacuous != nullptr && vacuous->as_bool()) return Guarantee{ApproxDp{guarantee.find("epsilon")->as_number(), 1}};
  return read_guarantee(guarantee, "guarantee");
}

// mu of a composition whose every item is Gaussian noise: sqrt(sum count (Δ/σ)^2) (Dong, Roth, Su
// 2019, Cor. 3.3), rounded up (each term within 4 units of roundoff, the sum within one per term,
// the root within one: a larger mu is a smaller curve, so this stays sound); nullopt otherwise.
std::optional<double> composed_mu(const std::vector<RequestItem>& items) {
  double mu_squared = 0;
  for (const RequestItem& item : items) {
    const auto noise = item.mechanism ? item.mechanism->gaussian() : std::nullopt;
    if (!noise) return std::nullopt;
    const double mu = noise->sensitivity / noise->sigma;
    mu_squared += item.count * mu * mu;
  }
  if (!std::isfinite(mu_squared)) return std::nullopt;  // the PLD engine says which noise is too small
  return tradeoff::round_up(std::sqrt(mu_squared), 5.0 + static_cast<double>(items.size()));
}

// The items of a request read again for their mechanisms (the op has checked them).
Result<std::optional<double>> request_mu(const Value& request) {
  DPCALC_TRY(std::vector<RequestItem> items, read_items(request));
  return composed_mu(items);
}

constexpr MethodInfo kGroupProfileTradeoff{
    "Trade-off of the group's (ε, δ) at points of the mechanism's privacy profile (group privacy at each, "
    "envelope of their pairs)",
    "Vadhan 2017, Lemma 2.2; Dong, Roth, Su 2019, Prop. 2.12", "vadhan2017complexity dong2019gaussian"};

// A group answered without a group transform (group_op's group_without_transform): the curve of its
// zCDP bound or of its pure answer where that is the answer; else the envelope of the group's
// (ε, δ) at points of one record's privacy profile (pld::group_profile_points on the PLDs the answer
// kept), the answer's own among them. Each is a sound guarantee of the group (Vadhan 2017, Lemma
// 2.2), so the envelope lies below the group's true trade-off, and never says less than the answer.
Result<Explained> explain_group_over_profile(const Value& of, const Value& answer,
                                             const mechanisms::Mechanism& mechanism, double group_size,
                                             const TradeoffOptions& options, const pld::ProgressCallback& progress) {
  if (const Value* zcdp = answer.find("zcdp")) return from_guarantee(Zcdp{zcdp->find("rho")->as_number()}, options);
  DPCALC_TRY(Guarantee guarantee, answered_guarantee(answer));
  // A pure answer, or the pure point alone (one record's δ at δ/k was beyond the engine): no PLDs.
  if (!has_field(answer, "discretization")) return from_guarantee(guarantee, options);
  DPCALC_TRY(const auto answered, answered_group_request(of, progress));
  const ApproxDp own = std::get<ApproxDp>(guarantee);
  tradeoff::ProfilePoints points{{own.epsilon}, {own.delta}};
  for (const pld::GroupPoint& point : pld::group_profile_points(answered->plds, group_size, mechanism.pure_epsilon())) {
    points.epsilons.push_back(point.group.epsilon);
    points.deltas.push_back(point.group.delta);
  }
  DPCALC_TRY(TradeoffResult curve, tradeoff::profile_tradeoff(points, options));
  curve.method = kGroupProfileTradeoff;
  curve.discretization = answered->plds.discretization;
  return Explained{std::move(curve), "profile", std::nullopt, std::nullopt, ""};
}

Result<Explained> explain_group(const Value& of, const TradeoffOptions& options,
                                const pld::ProgressCallback& progress) {
  DPCALC_TRY(const Value answer, group_op(of, progress));  // checks the request (and keeps a numeric answer)
  if (!has_field(of, "mechanism")) {
    DPCALC_TRY(Guarantee guarantee, answered_guarantee(answer));
    return from_guarantee(guarantee, options);
  }
  DPCALC_TRY(double group_size, number_field(of, "", "k"));
  DPCALC_TRY(mechanisms::MechanismPtr mechanism, read_mechanism(*of.find("mechanism"), "mechanism"));
  // group_op answered, so a group transform fails only where there is none.
  Result<mechanisms::MechanismPtr> transformed = mechanism->for_group(group_size);
  if (!transformed.ok()) return explain_group_over_profile(of, answer, *mechanism, group_size, options, progress);
  const mechanisms::MechanismPtr& grouped = transformed.value();
  if (const auto noise = grouped->gaussian())
    return from_mu(tradeoff::round_up(noise->sensitivity / noise->sigma, 1), options);
  // A group known by its pair only: the PLDs of the answer group_op just gave (and kept).
  if (needs_engine(*grouped)) {
    DPCALC_TRY(const auto answered, answered_group_request(of, progress));
    return from_plds(answered->plds, of, options, answered->bracket);
  }
  // A mechanism that is not Gaussian noise (Laplace): its own pair at k Δ, tighter than the pure
  // kε the group op answers (the Laplace curve, Dong, Roth, Su 2019, against f_{kε, 0}), under the
  // request's relation (group_op has checked that the mechanism supports it).
  DPCALC_TRY(const mechanisms::Relation relation, read_relation(of));
  auto plds = pld::compose_items({pld::CompositionItem{grouped->pair(relation), 1}}, {}, progress, "items");
  if (!plds.ok()) return in_group_terms(plds.error(), *mechanism, of);
  return from_plds(plds.value(), of, options);
}

Result<Explained> explain_compose(const Value& of, const TradeoffOptions& options,
                                  const pld::ProgressCallback& progress) {
  DPCALC_TRY(std::string method, string_field(of, "", "method"));
  if (method == "pld") {
    // The PLDs compose_pld kept when it answered this very request (the page asks for the answer
    // first): they exist only for a request it checked and composed numerically, not exactly
    // Gaussian (it answers those in closed form, and so does request_mu below), and they are what
    // answered_pld_request would return, so the request need not be read again.
    if (const auto kept = kept_answer(of)) return from_plds(kept->plds, of, options, kept->bracket);
    DPCALC_TRY(auto checked, pld_request_items(of));
    (void)checked;
    DPCALC_TRY(std::optional<double> mu, request_mu(of));
    if (mu) return from_mu(*mu, options);
    DPCALC_TRY(const auto answered, answered_pld_request(of, progress));
    return from_plds(answered->plds, of, options, answered->bracket);
  }
  DPCALC_TRY(const Value answer, method == "rdp" ? compose_rdp(of) : compose_op(of));
  if (method == "zcdp" || method == "rdp") {
    DPCALC_TRY(std::optional<double> mu, request_mu(of));
    if (mu) return from_mu(*mu, options);
  }
  if (method == "rdp") {
    // The composed curve itself, not its (ε, δ) at the request's δ.
    DPCALC_TRY(const Value composed, rdp_op(of));
    DPCALC_TRY(std::vector<double> orders, number_array_field(composed, "", "orders"));
    DPCALC_TRY(std::vector<double> epsilons, number_array_field(composed, "", "epsilons"));
    DPCALC_TRY(RdpCurve curve, RdpCurve::create(orders, epsilons));
    return from_guarantee(curve, options);
  }
  DPCALC_TRY(Guarantee guarantee, answered_guarantee(answer));
  return from_guarantee(guarantee, options);
}

Result<Explained> explain_profile(const Value& of, const TradeoffOptions& options,
                                  const pld::ProgressCallback& progress) {
  DPCALC_TRY(auto checked, pld_request_items(of));
  (void)checked;
  DPCALC_TRY(std::optional<double> mu, request_mu(of));
  if (mu) return from_mu(*mu, options);
  DPCALC_TRY(const auto answered, answered_pld_request(of, progress));
  return from_plds(answered->plds, of, options);
}

// The guarantee being converted is the source: a conversion only loosens it.
Result<Explained> explain_convert(const Value& of, const TradeoffOptions& options) {
  DPCALC_TRY(const Value answer, convert_op(of));
  (void)answer;
  DPCALC_TRY(Guarantee guarantee, read_guarantee(*of.find("guarantee"), "guarantee"));
  return from_guarantee(guarantee, options);
}

Result<Explained> explain_dpsgd(const Value& of, const TradeoffOptions& options,
                                const pld::ProgressCallback& progress) {
  DPCALC_TRY(const auto answered, answered_dpsgd_request(of, progress));
  DPCALC_TRY(Explained explained, from_plds(answered->plds, of, options, answered->bracket));
  explained.group_size = of.find("group_size")->as_number();
  return explained;
}

// mu of a footprint whose every release is a Gaussian mechanism (as composed_mu).
std::optional<double> footprint_mu(const std::vector<databases::DatabaseClass>& classes,
                                   const databases::Footprint& footprint) {
  if (!databases::gaussian_footprint(classes, footprint)) return std::nullopt;
  double mu_squared = 0, terms = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (footprint[c] == 0) continue;
    const auto noise = databases::release_mechanism(classes[c])->gaussian();
    const double mu = noise->sensitivity / noise->sigma;
    mu_squared += footprint[c] * classes[c].queries * mu * mu;
    ++terms;
  }
  if (!std::isfinite(mu_squared)) return std::nullopt;
  return tradeoff::round_up(std::sqrt(mu_squared), 6 + terms);
}

// Method 'pld' against the worst-case adversary: every footprint that can be the worst, composed
// as the answer composes it (databases::footprint_answer; the PLDs the answer kept when it answered
// this very request, kept_answer.hpp); a person has one of them, so the curve is their pointwise worst.
Result<Explained> explain_footprints(const Value& of, const DatabasesRequest& read, const TradeoffOptions& options,
                                     const pld::ProgressCallback& progress) {
  DPCALC_TRY(std::vector<databases::Footprint> footprints, databases::pld_worst_footprints(read.classes, read.allowed));
  std::vector<TradeoffResult> curves;
  std::vector<tradeoff::CurvePoint> answers;
  std::string source;
  for (std::size_t i = 0; i < footprints.size(); ++i) {
    const databases::Footprint& footprint = footprints[i];
    databases::MethodOptions footprint_options = read.options;
    if (progress) {
      const double share = 1.0 / static_cast<double>(footprints.size());
      footprint_options.progress = [&progress, i, share](double f) { return progress((i + f) * share); };
    }
    Explained explained;
    if (databases::footprint_databases(footprint) == 0) {
      DPCALC_TRY(explained, from_mu(0, options));  // nothing differs: no test beats a coin
    } else if (const auto mu = footprint_mu(read.classes, footprint)) {
      DPCALC_TRY(explained, from_mu(*mu, options));
    } else {
      std::shared_ptr<const pld::AnsweredEpsilon> answered = kept_answer(of, footprint);
      if (!answered) {
        DPCALC_TRY(pld::AnsweredEpsilon computed,
                   databases::footprint_answer(read.classes, footprint, footprint_options));
        answered = std::make_shared<const pld::AnsweredEpsilon>(std::move(computed));
      }
      DPCALC_TRY(TradeoffResult curve, tradeoff::pld_tradeoff(answered->plds, options));
      explained = Explained{std::move(curve), "pld", std::nullopt, std::nullopt, ""};
      for (const tradeoff::CurvePoint& point : answers_of(answered->plds, of, answered->bracket))
        answers.push_back(point);
    }
    source = source.empty() || source == explained.source ? explained.source : "pld";
    curves.push_back(std::move(explained.tradeoff));
  }
  Explained worst{tradeoff::pointwise_worst(curves), source, std::nullopt, std::nullopt, ""};
  tradeoff::include_points(worst.tradeoff, answers);
  if (source == "pld") worst.tradeoff.method = tradeoff::kPldTradeoff;
  if (curves.size() > 1) {
    worst.method_note = ", the worst of " + std::to_string(curves.size()) + " footprints at each false-positive rate";
  }
  return worst;
}

Result<Explained> explain_databases(const Value& of, const TradeoffOptions& options,
                                    const pld::ProgressCallback& progress) {
  DPCALC_TRY(DatabasesRequest read, read_databases_request(of));
  if (read.options.method == databases::CompositionMethod::kPld && !read.uninformed) {
    return explain_footprints(of, read, options, progress);
  }
  DPCALC_TRY(const Value answer, databases_op(of, progress));
  // zCDP against the worst case: the worst footprint's ρ, whose profile is tighter than its (ε, δ).
  const Value* zcdp = answer.find("zcdp");
  if (!read.uninformed && zcdp != nullptr) {
    DPCALC_TRY(Guarantee guarantee, read_guarantee(*zcdp, "zcdp"));
    return from_guarantee(guarantee, options);
  }
  DPCALC_TRY(Guarantee guarantee, answered_guarantee(answer));
  return from_guarantee(guarantee, options);
}

Result<Explained> explain(const Value& of, const TradeoffOptions& options, const pld::ProgressCallback& progress) {
  if (!of.is_object()) {
    return invalid_argument(
        "", std::string("of must be a request object ({op, …} or {guarantee}) (got ") + of.kind_name() + ").");
  }
  const Value* object = &of;
  if (!has_field(*object, "op")) {
    DPCALC_TRY(const Value* guarantee, member(*object, "", "guarantee"));
    DPCALC_TRY(Guarantee parsed, read_guarantee(*guarantee, "guarantee"));
    return from_guarantee(parsed, options);
  }
  DPCALC_TRY(std::string op, string_field(*object, "", "op"));
  if (op == "group") {
    DPCALC_TRY(Explained explained, explain_group(*object, options, progress));
    explained.group_size = object->find("k")->as_number();
    return explained;
  }
  if (op == "compose") return explain_compose(*object, options, progress);
  if (op == "profile") return explain_profile(*object, options, progress);
  if (op == "convert") return explain_convert(*object, options);
  if (op == "dpsgd") return explain_dpsgd(*object, options, progress);
  if (op == "databases") return explain_databases(*object, options, progress);
  std::string accepted;
  for (std::size_t i = 0; i < kAcceptedOps.size(); ++i) {
    accepted += (i == 0 ? "'" : i + 1 == kAcceptedOps.size() ? " or '" : ", '") + kAcceptedOps[i] + "'";
  }
  return invalid_argument("op", "op '" + op + "' has no trade-off here: of must be a request of op " + accepted +
                                    " (a forward request, not a calibration), or a bare {guarantee}.");
}

// An error of the request `of`, on its path inside the trade-off request.
Error in_of(Error error) {
  if (error.code == pld::kCancelled) return error;
  if (!error.field.empty() && error.message.rfind(error.field, 0) == 0) error.message = "of." + error.message;
  error.field = error.field.empty() ? "of" : "of." + error.field;
  return error;
}

Result<std::vector<double>> optional_rates(const Value& request, const std::string& key,
                                           const std::vector<double>& fallback) {
  if (!has_field(request, key.c_str())) return fallback;
  return number_array_field(request, "", key.c_str());
}

Result<TradeoffOptions> read_options(const Value& request) {
  TradeoffOptions options;
  DPCALC_TRY(options.alphas, optional_rates(request, "alphas", options.alphas));
  DPCALC_TRY(options.fprs, optional_rates(request, "fpr", options.fprs));
  DPCALC_TRY(options.reconstruction_baselines, optional_rates(request, "reconstruction_baselines", {}));
  DPCALC_TRY(options.prior, optional_number_field(request, "", "prior"));
  return tradeoff::check_options(options);
}

Value curve_value(const tradeoff::TradeoffCurve& curve) {
  Value value = Value::object();
  value.set("alpha", Value::numbers(curve.alpha)).set("beta", Value::numbers(curve.beta));
  value.set("tpr", Value::numbers(curve.tpr));
  if (!curve.beta_upper.empty()) value.set("beta_upper", Value::numbers(curve.beta_upper));
  return value;
}

Value result_value(const Explained& explained) {
  const TradeoffResult& curve = explained.tradeoff;
  Value result = Value::object();
  result.set("alphas", Value::numbers(curve.alphas)).set("beta", Value::numbers(curve.beta));
  if (!curve.beta_upper.empty()) result.set("beta_upper", Value::numbers(curve.beta_upper));
  result.set("curve", curve_value(curve.curve));
  result.set("advantage", curve.advantage);
  Value tpr_at_fpr = Value::array();
  for (const tradeoff::TprAtFpr& point : curve.tpr_at_fpr) {
    tpr_at_fpr.push(Value::object().set("fpr", point.fpr).set("tpr", point.tpr));
  }
  result.set("tpr_at_fpr", std::move(tpr_at_fpr));
  if (curve.mu) result.set("mu", *curve.mu);
  if (curve.posterior) {
    Value at_fpr = Value::array();
    for (const tradeoff::PosteriorAtFpr& point : curve.posterior->at_fpr) {
      at_fpr.push(Value::object().set("fpr", point.fpr).set("posterior", point.posterior));
    }
    Value posterior = Value::object();
    posterior.set("prior", curve.posterior->prior).set("max_posterior", curve.posterior->max_posterior);
    posterior.set("at_fpr", std::move(at_fpr));
    result.set("posterior", std::move(posterior));
  }
  if (!curve.reconstruction.empty()) {
    Value reconstruction = Value::array();
    for (const tradeoff::ReconstructionBound& bound : curve.reconstruction) {
      reconstruction.push(Value::object().set("baseline", bound.baseline).set("max_success", bound.max_success));
    }
    result.set("reconstruction", std::move(reconstruction));
  }
  if (curve.vacuous) result.set("vacuous", true);
  result.set("source", explained.source);
  if (explained.guarantee) result.set("guarantee", *explained.guarantee);
  if (explained.group_size) result.set("group_size", *explained.group_size);
  if (curve.discretization) {
    result.set("discretization", curve.discretization->discretization_interval);
    result.set("grid_size", static_cast<double>(curve.discretization->grid_size));
    result.set("truncated_mass", curve.discretization->truncated_mass);
  }
  result.set("method", std::string(curve.method.method) + explained.method_note);
  set_citation(result, curve.method.citation, curve.method.citation_key);
  return result;
}

}  // namespace

Result<Value> tradeoff_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(TradeoffOptions options, read_options(request));
  DPCALC_TRY(const Value* of, member(request, "", "of"));
  Result<Explained> explained = explain(*of, options, progress);
  if (!explained.ok()) return in_of(explained.error());
  return result_value(explained.value());
}

}  // namespace dpcalc::api
