#include "dpcalc/api/numeric_answer.hpp"

#include <cmath>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/guarantee_io.hpp"

namespace dpcalc::api {
namespace {

void write_grid(Value& result, const pld::Discretization& grid) {
  result.set("discretization", grid.discretization_interval);
  result.set("grid_size", static_cast<double>(grid.grid_size));
  result.set("truncated_mass", grid.truncated_mass);
}

}  // namespace

void write_numeric(Value& result, const NumericAnswer& answer) {
  pld::Discretization grid;
  if (answer.asked.epsilon_at && std::isinf(answer.asked.epsilon_at->epsilon_upper)) {
    // No finite ε at this δ: the guarantee that holds is the vacuous one, δ = 1.
    result.set("guarantee", to_value(ApproxDp{0, 1}));
    result.set("epsilon_upper", "infinity");
    result.set("epsilon_lower", renyi_value(answer.asked.epsilon_at->epsilon_lower));
    result.set("vacuous", true);
    grid = answer.asked.epsilon_at->discretization;
  } else if (answer.asked.epsilon_at) {
    const pld::EpsilonBracket& bracket = *answer.asked.epsilon_at;
    result.set("guarantee", to_value(ApproxDp{bracket.epsilon_upper, *answer.asked.delta}));
    result.set("epsilon_upper", bracket.epsilon_upper);
    result.set("epsilon_lower", bracket.epsilon_lower);
    grid = bracket.discretization;
  } else if (answer.delta) {
    const bool vacuous = !(answer.delta->delta_upper < 1);
    result.set("guarantee", to_value(ApproxDp{*answer.asked.epsilon, vacuous ? 1.0 : answer.delta->delta_upper}));
    result.set("delta_upper", vacuous ? 1.0 : answer.delta->delta_upper);
    result.set("delta_lower", std::fmin(answer.delta->delta_lower, 1.0));
    if (vacuous) result.set("vacuous", true);
    grid = answer.delta->discretization;
  } else if (answer.profile) {
    std::vector<double> upper = answer.profile->delta_upper;
    for (double& value : upper) value = std::fmin(value, 1.0);
    result.set("epsilons", Value::numbers(answer.profile->epsilons));
    result.set("delta_upper", Value::numbers(upper));
    result.set("delta_lower", Value::numbers(answer.profile->delta_lower));
    grid = answer.profile->discretization;
  }
  write_grid(result, grid);
  set_method(result, answer.method);
  std::string note = answer.note;
  if (answer.lower_of_pairs) {
    note += std::string(note.empty() ? "" : " ") +
            "The lower end bounds the composition of the dominating pairs (lower_bound_of: 'dominating_pairs'), "
            "not of the mechanisms themselves, which no known inputs make that bad: their exact ε may be below "
            "it.";
    result.set("lower_bound_of", "dominating_pairs");
  }
  if (!note.empty()) result.set("note", note);
  if (!answer.capped_by.empty()) result.set("capped_by", answer.capped_by);
}

Result<Explained> explain_numeric(const NumericAnswer& answer, const tradeoff::TradeoffOptions& options) {
  if (answer.mu) return explain_mu(*answer.mu, options);
  if (!answer.plds) return explain_guarantee(ApproxDp{0, 1}, options);  // no guarantee: nothing was composed
  return explain_plds(*answer.plds, answer.asked, options);
}

}  // namespace dpcalc::api
