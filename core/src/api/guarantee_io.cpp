#include "dpcalc/api/guarantee_io.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// Δ/b (the Laplace ε) and Δ/σ (the Gaussian's μ) must be finite: a noise scale of 1e-310 next to
// a sensitivity of 1 makes them overflow, and no formula downstream can use an infinite loss.
Result<double> check_noise_ratio(double sensitivity, double noise, const std::string& noise_field) {
  if (std::isfinite(sensitivity / noise)) return noise;
  return invalid_argument(noise_field, describe_field(noise_field) + " is too small next to the sensitivity " +
                                           format_number(sensitivity) + " " + got(noise) +
                                           ": sensitivity / noise overflows a double, so the mechanism adds no "
                                           "meaningful noise.");
}

}  // namespace

Result<Guarantee> read_guarantee(const Value& value, const std::string& path) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "pure") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(PureDp guarantee, PureDp::create(epsilon, path));
    return Guarantee{guarantee};
  }
  if (type == "approx") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(double delta, number_field(*object, path, "delta"));
    DPCALC_TRY(ApproxDp guarantee, ApproxDp::create(epsilon, delta, path));
    return Guarantee{guarantee};
  }
  if (type == "zcdp") {
    DPCALC_TRY(double rho, number_field(*object, path, "rho"));
    DPCALC_TRY(Zcdp guarantee, Zcdp::create(rho, path));
    return Guarantee{guarantee};
  }
  if (type == "rdp") {
    DPCALC_TRY(std::vector<double> orders, number_array_field(*object, path, "orders"));
    DPCALC_TRY(std::vector<double> epsilons, number_array_field(*object, path, "epsilons"));
    DPCALC_TRY(RdpCurve guarantee, RdpCurve::create(std::move(orders), std::move(epsilons), path));
    return Guarantee{std::move(guarantee)};
  }
  return unknown_choice(field_path(path, "type"), type, {"pure", "approx", "zcdp", "rdp"});
}

Result<ClosedFormMechanism> read_mechanism(const Value& value, const std::string& path) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
  DPCALC_TRY(double checked_sensitivity, check_positive(sensitivity.value_or(1.0), field_path(path, "sensitivity")));
  if (type == "laplace") {
    DPCALC_TRY(double scale, number_field(*object, path, "scale"));
    DPCALC_TRY(double checked_scale, check_positive(scale, field_path(path, "scale")));
    DPCALC_TRY(checked_scale, check_noise_ratio(checked_sensitivity, checked_scale, field_path(path, "scale")));
    return ClosedFormMechanism{LaplaceParameters{checked_scale, checked_sensitivity}};
  }
  if (type == "gaussian") {
    DPCALC_TRY(double sigma, number_field(*object, path, "sigma"));
    DPCALC_TRY(double checked_sigma, check_positive(sigma, field_path(path, "sigma")));
    DPCALC_TRY(checked_sigma, check_noise_ratio(checked_sensitivity, checked_sigma, field_path(path, "sigma")));
    return ClosedFormMechanism{GaussianParameters{checked_sigma, checked_sensitivity}};
  }
  if (type == "poisson_subsampled" || type == "gaussian_mixture") {
    return Error{kUnsupported, field_path(path, "type"),
                 "A " + type + " mechanism has no closed form here; use method 'pld'."};
  }
  return unknown_choice(field_path(path, "type"), type, {"laplace", "gaussian"});
}

std::string magnitude_field(const Guarantee& guarantee, const std::string& path) {
  if (std::holds_alternative<Zcdp>(guarantee)) return field_path(path, "rho");
  if (const auto* rdp = std::get_if<RdpCurve>(&guarantee)) {
    const auto largest = std::max_element(rdp->epsilons.begin(), rdp->epsilons.end()) - rdp->epsilons.begin();
    return field_path(path, "epsilons." + std::to_string(largest));
  }
  return field_path(path, "epsilon");
}

Value to_value(const PureDp& guarantee) {
  Value value = Value::object();
  value.set("type", "pure").set("epsilon", guarantee.epsilon);
  return value;
}

Value to_value(const ApproxDp& guarantee) {
  Value value = Value::object();
  value.set("type", "approx").set("epsilon", guarantee.epsilon).set("delta", std::min(guarantee.delta, 1.0));
  return value;
}

Value to_value(const Zcdp& guarantee) {
  Value value = Value::object();
  value.set("type", "zcdp").set("rho", guarantee.rho);
  return value;
}

Value to_value(const RdpCurve& guarantee) {
  Value value = Value::object();
  value.set("type", "rdp")
      .set("orders", Value::numbers(guarantee.orders))
      .set("epsilons", Value::numbers(guarantee.epsilons));
  return value;
}

Value to_value(const Guarantee& guarantee) {
  return std::visit([](const auto& typed) { return to_value(typed); }, guarantee);
}

}  // namespace dpcalc::api
