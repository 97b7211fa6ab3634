#include "dpcalc/api/calibrate_op.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::api {
namespace {

using calibration::CalibrationMethod;

const Shape& calibrate_shape() { return request_shapes().calibrate; }

// "'sigma' or 'noise_multiplier'".
std::string quoted(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    list += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + "'" + names[i] + "'";
  }
  return list;
}

// A type that runs a mechanism inside (a sampling wrapper), whose noise is the inner mechanism's.
bool wraps_a_mechanism(const mechanisms::MechanismType& type) {
  for (const mechanisms::Parameter& parameter : type.parameters) {
    if (parameter.kind == mechanisms::Parameter::Kind::kMechanism) return true;
  }
  return false;
}

// The mechanism without its noise (the unknown: read as a placeholder).
Result<MechanismAt> read_noiseless_mechanism(const Value& request, const std::string& at) {
  DPCALC_TRY(const Value* value, member(request, at, "mechanism"));
  DPCALC_TRY(MechanismAt read, read_mechanism(*value, field_path(at, "mechanism"), Noise::kUnknown));
  for (const auto& [name, inner] : read.mechanism->arguments().mechanisms) {
    if (!inner->arguments().mechanisms.empty()) {
      return Error{kUnsupported, field_path(field_path(read.path, name), "type"),
                   "Subsampling twice is subsampling once at the product of the rates; give that rate instead."};
    }
  }
  if (read.mechanism->calibratable().empty()) {
    std::vector<std::string> calibratable;
    for (const mechanisms::MechanismType* type : mechanisms::mechanism_types()) {
      if (!type->calibratable.empty() || wraps_a_mechanism(*type)) calibratable.push_back(type->name);
    }
    return invalid_argument(field_path(read.path, "type"), "calibrate solves for the noise of a " +
                                                               quoted(calibratable) + " mechanism; a " +
                                                               read.mechanism->type().name + " mechanism has none.");
  }
  return read;
}

// One of the mechanism's calibratable unknowns ('sigma' or 'noise_multiplier' — σ / sensitivity,
// as in DP-SGD, where the sensitivity is the clip norm — for Gaussian noise; 'scale' for Laplace).
Result<std::string> read_noise_unknown(const Value& request, const std::string& at, const MechanismAt& mechanism) {
  DPCALC_TRY(std::string unknown, string_field(request, at, "unknown"));
  std::vector<std::string> names;
  for (const mechanisms::Calibratable& calibratable : mechanism.mechanism->calibratable()) {
    if (calibratable.unknown == unknown) return unknown;
    names.push_back(calibratable.unknown);
  }
  const mechanisms::Mechanism* inner = mechanism.mechanism.get();
  while (!inner->arguments().mechanisms.empty()) inner = inner->arguments().mechanisms.begin()->second.get();
  return invalid_argument(field_path(at, "unknown"), "unknown must be " + quoted(names) + " for the " +
                                                         inner->type().title + " (got '" + unknown + "').");
}

Result<CalibrationMethod> read_calibration_method(const Value& request, const std::string& at,
                                                  const mechanisms::Mechanism& mechanism, double target_delta) {
  DPCALC_TRY(auto name, optional_string_field(request, at, "method"));
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
  return unknown_choice(field_path(at, "method"), *name, applicable);
}

// The calibration's errors, named in its own words, on the request's paths.
Error in_request(Error error, const CalibrateRequest& request) {
  if (is_option_error(error)) return on_options(std::move(error), request.discretization);
  if (error.field == "target_epsilon") error.field = field_path(request.at, "target.epsilon");
  if (error.field == "target_delta") error.field = field_path(request.at, "target.delta");
  if (error.field == "count" || error.field == "method") error.field = field_path(request.at, error.field);
  // The sampling rate of the mechanism (a rate of 0 leaves nothing to calibrate).
  const std::string rate = request.problem.mechanism->sampling_rate_parameter();
  if (!rate.empty() && error.field == rate) error.field = field_path(request.at, "mechanism." + rate);
  return error;
}

}  // namespace

Result<CalibrateRequest> read_calibrate(const Value& request, const std::string& at) {
  const Shape& shape = calibrate_shape();
  CalibrateRequest read;
  read.at = at;
  calibration::CalibrationProblem& problem = read.problem;
  DPCALC_TRY(MechanismAt mechanism, read_noiseless_mechanism(request, at));
  DPCALC_TRY(const RelationAt relation, read_relation(request, at, declared(shape, "relation")));
  DPCALC_CHECK(check_relation(mechanism, relation));
  problem.mechanism = mechanism.mechanism;
  problem.relation = relation.relation;
  DPCALC_TRY(problem.unknown, read_noise_unknown(request, at, mechanism));
  DPCALC_TRY(const double count, read_number(request, at, declared(shape, "count")));
  DPCALC_TRY(problem.count, check_count(count, field_path(at, "count")));
  DPCALC_TRY(problem.target, read_target(request, at, "target"));
  // ε = 0 is a target (Gaussian noise at (0, δ)); above ln(DBL_MAX) no noise is the least.
  if (problem.target.epsilon > 0) {
    DPCALC_TRY(problem.target.epsilon, check_target_epsilon(problem.target.epsilon, field_path(at, "target.epsilon")));
  }
  DPCALC_TRY(problem.method, read_calibration_method(request, at, *problem.mechanism, problem.target.delta));
  if (has_field(request, "discretization") && problem.method != CalibrationMethod::kPld) {
    return does_not_apply(field_path(at, "discretization"),
                          "it sets the grid of method 'pld', and this calibration uses method '" +
                              std::string(calibration::method_name(problem.method)) + "'");
  }
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  problem.accounting = read.discretization.options;
  return read;
}

Result<CalibrateAnswer> answer_calibrate(const CalibrateRequest& request, const Progress& progress) {
  Result<calibration::Calibration> calibrated = calibration::calibrate(request.problem, progress);
  if (!calibrated.ok()) return in_request(std::move(calibrated).error(), request);
  CalibrateAnswer answer;
  answer.calibration = calibrated.value();
  answer.unknown = request.problem.unknown;
  answer.sensitivity = request.problem.mechanism->sensitivity();
  return answer;
}

Value write_calibrate(const CalibrateAnswer& answer) {
  const calibration::Calibration& calibration = answer.calibration;
  Value result = Value::object();
  result.set(answer.unknown, calibration.unknown);
  // σ = noise_multiplier × sensitivity, the product a recomposing request would form.
  if (answer.unknown == "noise_multiplier") result.set("sigma", calibration.unknown * answer.sensitivity);
  result.set("guarantee", to_value(calibration.guarantee));
  set_method(result, calibration.method);
  result.set("bracket", Value::object().set("low", calibration.bracket_low).set("high", calibration.unknown));
  result.set("tolerance", calibration.tolerance);
  result.set("evaluations", calibration.evaluations);
  return result;
}

}  // namespace dpcalc::api
