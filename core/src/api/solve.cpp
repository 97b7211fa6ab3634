#include "dpcalc/api/solve.hpp"

#include <cmath>
#include <map>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

bool meets(const Result<ApproxDp>& bound, const ApproxDp& target) {
  return bound.ok() && !is_vacuous(bound.value()) && bound.value().epsilon <= target.epsilon &&
         bound.value().delta <= target.delta;
}

// A bound as the result reports it: pure when the target is (δ = 0 on both sides).
Value reported(const ApproxDp& bound, const ApproxDp& target) {
  if (target.delta == 0 && bound.delta == 0) return to_value(PureDp{bound.epsilon});
  return to_value(bound);
}

// {<answer_field>: value, guarantee} or {<answer_field>: value, error: {code, message}}.
Value evaluated(const std::string& answer_field, double value, const Result<ApproxDp>& bound, const ApproxDp& target) {
  Value result = Value::object();
  result.set(answer_field, value);
  if (bound.ok()) {
    result.set("guarantee", reported(bound.value(), target));
    if (is_vacuous(bound.value())) result.set("vacuous", true);
  } else {
    result.set("error", Value::object().set("code", bound.error().code).set("message", bound.error().message));
  }
  return result;
}

// The (ε, δ) of a forward answer: its guarantee, or the (ε, δ) conversion of a zCDP answer (a
// vacuous answer reports δ = 1, which meets no target).
Result<ApproxDp> answer_guarantee(const Value& answer) {
  const Value* guarantee = answer.find("approx") != nullptr ? answer.find("approx") : answer.find("guarantee");
  const Value* type = guarantee != nullptr ? guarantee->find("type") : nullptr;
  const Value* epsilon = guarantee != nullptr ? guarantee->find("epsilon") : nullptr;
  if (type == nullptr || epsilon == nullptr) {
    return Error{kUnsupported, "", "This answer has no ε to compare with the target."};
  }
  const Value* delta = guarantee->find("delta");
  return ApproxDp{epsilon->as_number(), delta != nullptr ? delta->as_number() : 0.0};
}

std::string limit_text(double value) { return value == kMaxCount ? "2^53" : format_number(value); }

}  // namespace

Result<std::optional<std::string>> read_unknown(const Value& request, const std::vector<std::string>& allowed) {
  DPCALC_TRY(auto unknown, optional_string_field(request, "", "unknown"));
  if (!unknown) return std::optional<std::string>();
  for (const std::string& name : allowed) {
    if (*unknown == name) return unknown;
  }
  return unknown_choice("unknown", *unknown, allowed);
}

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

Value without_fields(const Value& value, const std::vector<std::string>& keys) {
  Value copy = Value::object();
  for (const auto& [key, member] : value.as_object()) {
    bool dropped = false;
    for (const std::string& name : keys) dropped = dropped || key == name;
    if (!dropped) copy.set(key, member);
  }
  return copy;
}

Result<Value> solve_largest(const BoundAt& bound, const SolveQuestion& question,
                            const pld::ProgressCallback& progress) {
  double fraction = 0;
  const pld::ProgressCallback inner = [&](double) { return !progress || progress(fraction); };
  std::map<double, Result<ApproxDp>> bounds;
  const MeetsTarget meets_target = [&](double value) -> Result<bool> {
    Result<ApproxDp> at = bound(value, inner);
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
    const Result<ApproxDp>& lowest = bounds.at(found.beyond);
    if (!lowest.ok()) return lowest.error();
    return Error{kNumeric, question.target_field,
                 "Even the smallest " + question.what + " (" + format_number(found.beyond) +
                     ") does not meet the target " + target_text + " (the bound there is ε = " +
                     format_number(lowest.value().epsilon) + "): raise the target, or change the other settings."};
  }
  Value result = Value::object();
  result.set("unknown", question.unknown);
  result.set(question.answer_field, found.value);
  result.set("guarantee", reported(bounds.at(found.value).value(), target));
  result.set("target", reported(target, target));
  if (found.outcome == LargestOutcome::kAllMeet) {
    result.set("all_meet", true);
    result.set("note", "Every " + question.what + " up to the limit " + limit_text(found.value) + " meets the target " +
                           target_text + "; the answer is that limit.");
  } else {
    result.set("beyond", evaluated(question.answer_field, found.beyond, bounds.at(found.beyond), target));
  }
  result.set("evaluations", found.evaluations);
  return result;
}

Result<Value> solve_by_forward(const ForwardRequest& forward_request, const ForwardOp& forward,
                               const std::function<Error(Error)>& restate, const SolveQuestion& question,
                               const pld::ProgressCallback& progress) {
  std::map<double, Value> answers;
  const BoundAt bound = [&](double value, const pld::ProgressCallback& inner) -> Result<ApproxDp> {
    Result<Value> answer = forward(forward_request(value), inner);
    if (!answer.ok()) return answer.error().code == pld::kCancelled ? answer.error() : restate(answer.error());
    DPCALC_TRY(ApproxDp guarantee, answer_guarantee(answer.value()));
    answers.insert_or_assign(value, std::move(answer.value()));
    return guarantee;
  };
  DPCALC_TRY(Value result, solve_largest(bound, question, progress));
  const Value& answer = answers.at(result.find(question.answer_field)->as_number());
  for (const char* key : {"method", "citation", "citation_key"}) {
    if (const Value* member = answer.find(key)) result.set(key, *member);
  }
  return result;
}

}  // namespace dpcalc::api
