#include "dpcalc/api/explain.hpp"

#include <cmath>
#include <variant>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/tradeoff/approx_dp_tradeoff.hpp"
#include "dpcalc/tradeoff/gaussian_tradeoff.hpp"
#include "dpcalc/tradeoff/pld_tradeoff.hpp"
#include "dpcalc/tradeoff/renyi_tradeoff.hpp"

namespace dpcalc::api {
namespace {

using tradeoff::TradeoffOptions;
using tradeoff::TradeoffResult;

Value curve_value(const tradeoff::TradeoffCurve& curve) {
  Value value = Value::object();
  value.set("alpha", Value::numbers(curve.alpha)).set("beta", Value::numbers(curve.beta));
  value.set("tpr", Value::numbers(curve.tpr));
  if (!curve.beta_upper.empty()) value.set("beta_upper", Value::numbers(curve.beta_upper));
  return value;
}

}  // namespace

Result<Explained> explain_mu(double mu, const TradeoffOptions& options) {
  DPCALC_TRY(TradeoffResult curve, tradeoff::gaussian_tradeoff(mu, options));
  return Explained{std::move(curve), "gaussian", std::nullopt, std::nullopt, ""};
}

Result<Explained> explain_guarantee(const Guarantee& guarantee, const TradeoffOptions& options) {
  Result<TradeoffResult> curve = Error{};
  std::string source;
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) {
    curve = tradeoff::approx_dp_tradeoff(ApproxDp{pure->epsilon, 0}, options);
    source = "pure";
  } else if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) {
    // A computed δ beyond 1 promises what δ = 1 does: nothing.
    curve = tradeoff::approx_dp_tradeoff(ApproxDp{approx->epsilon, std::fmin(approx->delta, 1.0)}, options);
    source = "approx";
  } else if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    curve = tradeoff::zcdp_tradeoff(*zcdp, options);
    source = "zcdp";
  } else {
    curve = tradeoff::rdp_tradeoff(std::get<RdpCurve>(guarantee), options);
    source = "rdp";
  }
  if (!curve.ok()) return curve.error();
  return Explained{std::move(curve.value()), source, guarantee, std::nullopt, ""};
}

std::vector<tradeoff::CurvePoint> answered_points(const pld::ComposedPlds& plds, const PldQueries& queries) {
  std::vector<tradeoff::CurvePoint> points;
  const auto add = [&points, &plds](double epsilon, double delta) {
    for (const tradeoff::CurvePoint& point : tradeoff::answer_points(plds, epsilon, delta)) points.push_back(point);
  };
  if (queries.delta) {
    const double answer = queries.epsilon_at ? queries.epsilon_at->epsilon_upper
                                             : pld::epsilon_bracket(plds, *queries.delta).epsilon_upper;
    add(answer, *queries.delta);
  } else if (queries.epsilon) {
    add(*queries.epsilon, pld::delta_bracket(plds, *queries.epsilon).delta_upper);
  } else {
    for (double epsilon : queries.epsilons) add(epsilon, pld::delta_bracket(plds, epsilon).delta_upper);
  }
  return points;
}

Result<Explained> explain_plds(const pld::ComposedPlds& plds, const PldQueries& queries,
                               const TradeoffOptions& options) {
  DPCALC_TRY(TradeoffResult curve, tradeoff::pld_tradeoff(plds, options));
  tradeoff::include_points(curve, answered_points(plds, queries));
  return Explained{std::move(curve), "pld", std::nullopt, std::nullopt, ""};
}

Value write_tradeoff(const Explained& explained) {
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
  result.set("mu_upper", curve.gdp.mu_upper ? Value(*curve.gdp.mu_upper) : Value());
  if (!curve.gdp.mu_upper) result.set("mu_upper_note", curve.gdp.reason);
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
  if (explained.guarantee) result.set("guarantee", to_value(*explained.guarantee));
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

}  // namespace dpcalc::api
