#include "dpcalc/api/calibrate_op.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/calibration/noise_calibration.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

using calibration::CalibrationMethod;
using calibration::NoiseKind;

// The noise mechanism of the request, without its noise (the unknown).
struct NoiseMechanism {
  NoiseKind noise;
  double sensitivity;
  double sampling_rate;
  std::string path;  // "mechanism", or "mechanism.mechanism" under Poisson subsampling
};

// The field that carries the noise of a mechanism object, which calibrate computes.
const char* noise_field(NoiseKind noise) { return noise == NoiseKind::kLaplace ? "scale" : "sigma"; }

Result<NoiseMechanism> read_base_mechanism(const Value& value, const std::string& path, double sampling_rate,
                                           bool subsampled) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "poisson_subsampled" && subsampled) {
    return Error{kUnsupported, field_path(path, "type"),
                 "Subsampling twice is subsampling once at the product of the rates; give that rate instead."};
  }
  if (type != "laplace" && type != "gaussian") {
    std::vector<std::string> allowed{"laplace", "gaussian"};
    if (!subsampled) allowed.push_back("poisson_subsampled");
    return unknown_choice(field_path(path, "type"), type, allowed);
  }
  const NoiseKind noise = type == "laplace" ? NoiseKind::kLaplace : NoiseKind::kGaussian;
  for (const char* given : {noise_field(noise), "noise_multiplier"}) {
    if (object->find(given) != nullptr) {
      const std::string field = field_path(path, given);
      return invalid_argument(
          field, "Leave out " + field + ": the noise is the unknown that calibrate computes (see 'unknown').");
    }
  }
  DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
  DPCALC_TRY(double checked, check_positive(sensitivity.value_or(1.0), field_path(path, "sensitivity")));
  return NoiseMechanism{noise, checked, sampling_rate, path};
}

Result<NoiseMechanism> read_mechanism(const Value& request) {
  DPCALC_TRY(const Value* value, member(request, "", "mechanism"));
  DPCALC_TRY(const Value* object, require_object(*value, "mechanism"));
  DPCALC_TRY(std::string type, string_field(*object, "mechanism", "type"));
  if (type != "poisson_subsampled") return read_base_mechanism(*value, "mechanism", 1, false);
  DPCALC_TRY(double rate, number_field(*object, "mechanism", "rate"));
  DPCALC_TRY(double checked_rate, check_rate(rate, "mechanism.rate"));
  DPCALC_TRY(const Value* inner, member(*object, "mechanism", "mechanism"));
  return read_base_mechanism(*inner, "mechanism.mechanism", checked_rate, true);
}

// 'scale' for Laplace noise; 'sigma' (σ itself) or 'noise_multiplier' (σ / sensitivity, as in
// DP-SGD, where the sensitivity is the clip norm) for Gaussian noise.
Result<std::string> read_unknown(const Value& request, const NoiseMechanism& mechanism) {
  DPCALC_TRY(std::string unknown, string_field(request, "", "unknown"));
  if (mechanism.noise == NoiseKind::kLaplace && unknown == "scale") return unknown;
  if (mechanism.noise == NoiseKind::kGaussian && (unknown == "sigma" || unknown == "noise_multiplier")) return unknown;
  return invalid_argument("unknown", mechanism.noise == NoiseKind::kLaplace
                                         ? "unknown must be 'scale' for Laplace noise (got '" + unknown + "')."
                                         : "unknown must be 'sigma' or 'noise_multiplier' (σ / sensitivity) for "
                                           "Gaussian noise (got '" +
                                               unknown + "').");
}

Result<CalibrationMethod> read_method(const Value& request, const NoiseMechanism& mechanism, double target_delta) {
  DPCALC_TRY(auto name, optional_string_field(request, "", "method"));
  if (!name) return calibration::default_method(mechanism.noise, mechanism.sampling_rate, target_delta);
  if (*name == "basic") return CalibrationMethod::kBasic;
  if (*name == "optimal") return CalibrationMethod::kOptimal;
  if (*name == "analytic") return CalibrationMethod::kAnalytic;
  if (*name == "zcdp") return CalibrationMethod::kZcdp;
  if (*name == "pld") return CalibrationMethod::kPld;
  if (mechanism.sampling_rate < 1) return unknown_choice("method", *name, {"pld"});
  if (mechanism.noise == NoiseKind::kLaplace) return unknown_choice("method", *name, {"basic", "optimal", "pld"});
  return unknown_choice("method", *name, {"analytic", "zcdp", "pld"});
}

}  // namespace

Result<Value> calibrate_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(NoiseMechanism mechanism, read_mechanism(request));
  DPCALC_TRY(std::string unknown, read_unknown(request, mechanism));
  DPCALC_TRY(auto count, optional_number_field(request, "", "count"));
  DPCALC_TRY(double checked_count, check_count(count.value_or(1.0), "count"));
  DPCALC_TRY(ApproxDp target, read_target(request, "target"));
  DPCALC_TRY(CalibrationMethod method, read_method(request, mechanism, target.delta));

  calibration::CalibrationProblem problem;
  problem.noise = mechanism.noise;
  problem.sensitivity = mechanism.sensitivity;
  problem.sampling_rate = mechanism.sampling_rate;
  problem.count = checked_count;
  problem.method = method;
  problem.target = target;
  problem.noise_unit = unknown == "noise_multiplier" ? mechanism.sensitivity : 1;
  DPCALC_TRY(calibration::Calibration answer, calibration::calibrate(problem, "target", progress));

  Value result = Value::object();
  result.set(unknown, answer.unknown);
  // σ = noise_multiplier × sensitivity, the product a recomposing request would form.
  if (unknown == "noise_multiplier") result.set("sigma", answer.unknown * mechanism.sensitivity);
  result.set("guarantee", to_value(answer.guarantee));
  set_method(result, answer.method);
  result.set("bracket", Value::object().set("low", answer.bracket_low).set("high", answer.unknown));
  result.set("tolerance", answer.tolerance);
  result.set("evaluations", answer.evaluations);
  return result;
}

}  // namespace dpcalc::api
