#include "dpcalc/api/calibrate_op.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/calibration/noise_calibration.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::api {
namespace {

using calibration::CalibrationMethod;

// "'sigma' or 'noise_multiplier'".
std::string quoted(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    list += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + "'" + names[i] + "'";
  }
  return list;
}

// The mechanism without its noise (the unknown: read as a placeholder).
Result<mechanisms::MechanismPtr> read_noiseless_mechanism(const Value& request) {
  DPCALC_TRY(const Value* value, member(request, "", "mechanism"));
  DPCALC_TRY(mechanisms::MechanismPtr mechanism, read_mechanism(*value, "mechanism", Noise::kUnknown));
  for (const auto& [name, inner] : mechanism->arguments().mechanisms) {
    if (!inner->arguments().mechanisms.empty()) {
      return Error{kUnsupported, inner->arguments().field("type"),
                   "Subsampling twice is subsampling once at the product of the rates; give that rate instead."};
    }
  }
  if (mechanism->calibratable().empty()) {
    std::vector<std::string> calibratable;
    for (const mechanisms::MechanismType* type : mechanisms::mechanism_types()) {
      if (!type->calibratable.empty() || type->name == "poisson_subsampled") calibratable.push_back(type->name);
    }
    return invalid_argument("mechanism.type", "calibrate solves for the noise of a " + quoted(calibratable) +
                                                  " mechanism; a " + mechanism->type().name + " mechanism has none.");
  }
  return mechanism;
}

// One of the mechanism's calibratable unknowns ('sigma' or 'noise_multiplier' — σ / sensitivity,
// as in DP-SGD, where the sensitivity is the clip norm — for Gaussian noise; 'scale' for Laplace).
Result<std::string> read_unknown(const Value& request, const mechanisms::Mechanism& mechanism) {
  DPCALC_TRY(std::string unknown, string_field(request, "", "unknown"));
  std::vector<std::string> names;
  for (const mechanisms::Calibratable& calibratable : mechanism.calibratable()) {
    if (calibratable.unknown == unknown) return unknown;
    names.push_back(calibratable.unknown);
  }
  return invalid_argument("unknown", "unknown must be " + quoted(names) + " for the " +
                                         innermost(mechanism).type().title + " (got '" + unknown + "').");
}

Result<CalibrationMethod> read_method(const Value& request, const mechanisms::Mechanism& mechanism,
                                      double target_delta) {
  DPCALC_TRY(auto name, optional_string_field(request, "", "method"));
  if (!name) return calibration::default_method(mechanism, target_delta);
  const std::vector<CalibrationMethod> all{CalibrationMethod::kBasic, CalibrationMethod::kOptimal,
                                           CalibrationMethod::kAnalytic, CalibrationMethod::kZcdp,
                                           CalibrationMethod::kPld};
  for (CalibrationMethod method : all) {
    if (*name == calibration::method_name(method)) return method;
  }
  std::vector<std::string> applicable;
  for (CalibrationMethod method : calibration::methods_for(mechanism)) {
    applicable.push_back(calibration::method_name(method));
  }
  return unknown_choice("method", *name, applicable);
}

// The accountant's errors name the fields of a 'compose' request; a calibration request has them
// elsewhere, and no discretization to change. Its noise is the unknown: where the accountant could
// not evaluate a noise the search tried (a loss beyond ±700 on "items.0.mechanism…", a loss narrower
// than the grid step on ""), the target asked for that noise (fuzz seed 2 found both fields, which
// a calibrate request does not have).
Error in_request_terms(Error error) {
  const std::string delta_field = "target.delta", epsilon_field = "target.epsilon";
  if (error.code == kNumeric && (error.field.empty() || error.field.rfind("items.0.mechanism", 0) == 0)) {
    const bool narrow = error.field.empty();
    error.field = epsilon_field;
    error.message = std::string("The numeric accountant cannot evaluate the noise this target needs: ") +
                    (narrow ? "its privacy loss would be narrower than the accountant's grid step"
                            : "one use would have a privacy loss beyond ±700, where e^loss no longer fits a double") +
                    ". Ask for a " + (narrow ? "larger " : "smaller ") + epsilon_field + " (or change the count, " +
                    "the sampling rate or the sensitivity).";
    return error;
  }
  if (error.field == "delta") {
    error.field = delta_field;
    if (error.message.compare(0, 6, "delta ") == 0) error.message = delta_field + error.message.substr(5);
  }
  if (error.field == "items.0.count" || error.field == "discretization_interval") {
    error.field = "count";
    error.message = error.message.substr(0, error.message.find(';')) + " near the answer; lower count or raise " +
                    epsilon_field + ".";
  }
  return error;
}

}  // namespace

Result<Value> calibrate_op(const Value& request, const pld::ProgressCallback& progress) {
  calibration::CalibrationProblem problem;
  DPCALC_TRY(problem.mechanism, read_noiseless_mechanism(request));
  DPCALC_TRY(problem.relation, read_relation(request));
  DPCALC_TRY(const bool supported, check_relation(request, *problem.mechanism, problem.relation));
  (void)supported;
  DPCALC_TRY(problem.unknown, read_unknown(request, *problem.mechanism));
  DPCALC_TRY(auto count, optional_number_field(request, "", "count"));
  DPCALC_TRY(problem.count, check_count(count.value_or(1.0), "count"));
  DPCALC_TRY(problem.target, read_target(request, "target"));
  DPCALC_TRY(problem.method, read_method(request, *problem.mechanism, problem.target.delta));
  if (has_field(request, "discretization") && problem.method != CalibrationMethod::kPld) {
    return does_not_apply("discretization", "it sets the grid of method 'pld', and this calibration uses method '" +
                                                std::string(calibration::method_name(problem.method)) + "'");
  }
  DPCALC_TRY(problem.accounting, read_discretization(request));
  Result<calibration::Calibration> calibrated = calibration::calibrate(problem, "target", progress);
  if (!calibrated.ok()) return in_request_terms(discretization_in_request_terms(calibrated.error(), request));
  const calibration::Calibration& answer = calibrated.value();

  Value result = Value::object();
  result.set(problem.unknown, answer.unknown);
  // σ = noise_multiplier × sensitivity, the product a recomposing request would form.
  if (problem.unknown == "noise_multiplier") result.set("sigma", answer.unknown * problem.mechanism->sensitivity());
  result.set("guarantee", to_value(answer.guarantee));
  set_method(result, answer.method);
  result.set("bracket", Value::object().set("low", answer.bracket_low).set("high", answer.unknown));
  result.set("tolerance", answer.tolerance);
  result.set("evaluations", answer.evaluations);
  return result;
}

}  // namespace dpcalc::api
