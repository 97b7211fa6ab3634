#include "dpcalc/mechanisms/mechanism.hpp"

#include <cmath>
#include <limits>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::mechanisms {

const char* relation_name(Relation relation) {
  switch (relation) {
    case Relation::kAddRemove:
      return "add_remove";
    case Relation::kSubstitute:
      return "substitute";
    case Relation::kZeroOut:
      break;
  }
  return "zero_out";
}

Relation Mechanism::pair_relation(Relation relation) const {
  if (relation != Relation::kZeroOut) return relation;
  return has_pair(Relation::kAddRemove) ? Relation::kAddRemove : Relation::kSubstitute;
}

std::optional<Zcdp> Mechanism::zcdp() const {
  if (const auto noise = gaussian()) return gaussian_to_zcdp(noise->sigma, noise->sensitivity);
  if (const auto epsilon = pure_epsilon()) return pure_to_zcdp(PureDp{*epsilon});
  return std::nullopt;
}

// The Gaussian mechanism's curve α Δ²/(2σ²) (Mironov 2017, Prop 7).
std::optional<double> Mechanism::rdp_epsilon(double order) const {
  const auto noise = gaussian();
  if (!noise) return std::nullopt;
  return rdp::gaussian_rdp(rdp::noise_multiplier_down(noise->sigma, noise->sensitivity), order);
}

MethodInfo Mechanism::rdp_method() const { return gaussian() ? rdp::kGaussianRdp : MethodInfo{"", "", ""}; }

// Gaussian noise with the larger Δ/σ dominates: its pair is the other's after post-processing.
bool Mechanism::dominates(const Mechanism& other) const {
  const auto mine = gaussian(), theirs = other.gaussian();
  return mine && theirs && mine->sensitivity / mine->sigma >= theirs->sensitivity / theirs->sigma;
}

Result<MechanismPtr> Mechanism::for_group(double) const {
  return not_supported(*this, "has no group transform in the calculator");
}

double Mechanism::max_group_size() const { return kMaxCount; }

std::string Mechanism::noise_parameter() const {
  const std::vector<Calibratable> noise = calibratable();
  return noise.empty() ? "type" : noise.front().parameter;
}

Result<MechanismPtr> Mechanism::with_noise(const std::string& unknown, double value) const {
  for (const Calibratable& calibratable : type().calibratable) {
    if (calibratable.unknown != unknown) continue;
    Arguments changed = arguments();
    changed.numbers[calibratable.parameter] = calibratable.per_sensitivity ? value * sensitivity() : value;
    return create(type(), std::move(changed));
  }
  return not_supported(*this, "has no noise parameter '" + unknown + "' to calibrate");
}

// Parameters left out take their defaults, so that mechanisms made in code need not repeat them.
Result<MechanismPtr> create(const MechanismType& type, Arguments arguments) {
  for (const Parameter& parameter : type.parameters) {
    if (!parameter.default_value) continue;
    if (parameter.kind == Parameter::Kind::kBoolean) {
      arguments.flags.emplace(parameter.name, *parameter.default_value != 0);
    } else if (parameter.kind == Parameter::Kind::kNumber) {
      arguments.numbers.emplace(parameter.name, *parameter.default_value);
    }
  }
  return type.create(arguments);
}

Result<double> check_noise(double noise, double sensitivity, const std::string& field) {
  DPCALC_TRY(const double checked, check_positive(noise, field));
  if (std::isfinite(sensitivity / checked)) return checked;
  return invalid_argument(field, describe_name(field) + " is too small next to the sensitivity " +
                                     format_number(sensitivity) + " " + got(checked) +
                                     ": sensitivity / noise overflows a double, so the mechanism adds no "
                                     "meaningful noise (numeric composition needs noise of at least 1e-100 × the "
                                     "sensitivity).");
}

// Rounded up: two ulps above the library's log1p and expm1, each within one.
double amplified_epsilon(double epsilon, double rate) {
  const double infinity = std::numeric_limits<double>::infinity();
  return std::nextafter(std::nextafter(std::log1p(multiply_up(rate, std::expm1(epsilon))), infinity), infinity);
}

Error not_supported(const Mechanism& mechanism, const std::string& what) {
  return Error{kUnsupported, "type", "A mechanism of type '" + mechanism.type().name + "' " + what + "."};
}

}  // namespace dpcalc::mechanisms
