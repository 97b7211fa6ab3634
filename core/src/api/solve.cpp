#include "dpcalc/api/solve.hpp"

#include <cmath>
#include <map>
#include <optional>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

bool meets(const Result<Bound>& bound, const ApproxDp& target) {
  return bound.ok() && !is_vacuous(bound.value().guarantee) && bound.value().guarantee.epsilon <= target.epsilon &&
         bound.value().guarantee.delta <= target.delta;
}

// A bound as the result reports it: pure when the target is (δ = 0 on both sides).
Value reported(const ApproxDp& bound, const ApproxDp& target) {
  if (target.delta == 0 && bound.delta == 0) return to_value(PureDp{bound.epsilon});
  return to_value(bound);
}

std::string limit_text(double value) { return value == kMaxCount ? "2^53" : format_number(value); }

}  // namespace

Error given_unknown(const std::string& field, const std::string& unknown) {
  return invalid_argument(field, field + " is the unknown (unknown: '" + unknown +
                                     "'): leave it out, the answer is the largest value that meets the target.");
}

Result<double> check_engine_target(double epsilon, const std::string& field, const std::string& what) {
  if (!(epsilon > 0 && std::isfinite(epsilon))) {
    return invalid_argument(field, field + " must be a positive finite number " + got(epsilon) + ".");
  }
  if (epsilon > pld::kMaxLoss) {
    return invalid_argument(field, field + " must be at most " + pld::max_loss_text() + " " + got(epsilon) +
                                       ": the privacy-loss accountant represents losses up to ±" +
                                       pld::max_loss_text() + " and certifies no larger ε, so every " + what +
                                       " it can account for would meet this target. Give a target of at most " +
                                       pld::max_loss_text() + ".");
  }
  return epsilon;
}

Result<SolvedAnswer> solve_largest(const BoundAt& bound, const SolveQuestion& question,
                                   const pld::ProgressCallback& progress) {
  double fraction = 0;
  const pld::ProgressCallback inner = [&](double) { return !progress || progress(fraction); };
  std::map<double, Result<Bound>> bounds;
  const MeetsTarget meets_target = [&](double value) -> Result<bool> {
    Result<Bound> at = bound(value, inner);
    if (!at.ok() && at.error().code == pld::kCancelled) return at.error();
    const bool met = meets(at, question.target);
    bounds.insert_or_assign(value, std::move(at));
    return met;
  };
  const std::function<bool(double)> search_progress = [&](double done) {
    fraction = done;
    return !progress || progress(done);
  };
  DPCALC_TRY(LargestResult found, largest_meeting(meets_target, question.search, search_progress));
  const ApproxDp& target = question.target;
  const std::string target_text =
      "ε = " + format_number(target.epsilon) + (target.delta > 0 ? ", δ = " + format_number(target.delta) : "");
  if (found.outcome == LargestOutcome::kNoneMeets) {
    const Result<Bound>& lowest = bounds.at(found.beyond);
    if (!lowest.ok()) return lowest.error();
    return Error{kNumeric, question.target_field,
                 "Even the smallest " + question.what + " (" + format_number(found.beyond) +
                     ") does not meet the target " + target_text +
                     (std::isfinite(lowest.value().guarantee.epsilon) && !is_vacuous(lowest.value().guarantee)
                          ? " (the bound there is ε = " + format_number(lowest.value().guarantee.epsilon) +
                                "): raise the target, or change the other settings."
                          : ": there it promises nothing (no finite ε at this δ: an item without noise), so no "
                            "number does; add noise.")};
  }
  SolvedAnswer solved;
  solved.unknown = question.unknown;
  solved.answer_field = question.answer_field;
  solved.value = found.value;
  solved.guarantee = bounds.at(found.value).value().guarantee;
  solved.method = bounds.at(found.value).value().method;
  solved.target = target;
  if (found.outcome == LargestOutcome::kAllMeet) {
    solved.all_meet = true;
    solved.note = "Every " + question.what + " up to the limit " + limit_text(found.value) + " meets the target " +
                  target_text + "; the answer is that limit.";
  } else {
    solved.beyond = found.beyond;
    const Result<Bound>& beyond = bounds.at(found.beyond);
    if (beyond.ok()) {
      solved.beyond_bound = beyond.value().guarantee;
    } else {
      solved.beyond_error = beyond.error();
    }
  }
  solved.evaluations = found.evaluations;
  return solved;
}

void write_solved(Value& result, const SolvedAnswer& solved) {
  result.set("unknown", solved.unknown);
  result.set(solved.answer_field, solved.value);
  result.set("guarantee", reported(solved.guarantee, solved.target));
  result.set("target", reported(solved.target, solved.target));
  if (solved.all_meet) {
    result.set("all_meet", true);
    result.set("note", solved.note);
  } else {
    Value beyond = Value::object();
    beyond.set(solved.answer_field, solved.beyond);
    // The first value past the answer can be so far past it that its ε leaves the double range (a
    // group of 2^53 at noise 1e300): then it is said in words, as a bound that failed.
    const std::optional<Value> beyond_guarantee =
        solved.beyond_bound ? std::optional<Value>(reported(*solved.beyond_bound, solved.target)) : std::nullopt;
    if (beyond_guarantee && !first_non_finite(*beyond_guarantee)) {
      beyond.set("guarantee", *beyond_guarantee);
      if (is_vacuous(*solved.beyond_bound)) beyond.set("vacuous", true);
    } else if (beyond_guarantee) {
      beyond.set("error", Value::object()
                              .set("code", kNumeric)
                              .set("message", "Its bound overflows the range of a double: it is far past the target."));
    } else if (solved.beyond_error) {
      beyond.set("error",
                 Value::object().set("code", solved.beyond_error->code).set("message", solved.beyond_error->message));
    }
    result.set("beyond", std::move(beyond));
  }
  result.set("evaluations", solved.evaluations);
  if (solved.method.method[0] != '\0') set_method(result, solved.method);
}

}  // namespace dpcalc::api
