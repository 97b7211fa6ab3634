#include "dpcalc/checks.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace dpcalc {

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  // A whole number below a million is written out ("6000", not the shortest "6e+03"): people
  // read counts and steps in messages and notes.
  if (value == std::floor(value) && std::fabs(value) < 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  // Shorten to the fewest digits that read back as the same double.
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return buffer;
}

std::string got(double value) {
  if (std::isnan(value)) return "(got NaN, which is not a number)";
  return "(got " + format_number(value) + ")";
}

std::string describe_name(const std::string& field) {
  std::string name = field.substr(field.rfind('.') == std::string::npos ? 0 : field.rfind('.') + 1);
  // An element of an array ("guarantee.epsilons.3") is named after its array.
  const bool element = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
  if (element) {
    const std::string array = field.substr(0, field.rfind('.'));
    name = array.substr(array.rfind('.') == std::string::npos ? 0 : array.rfind('.') + 1);
  }
  static const std::pair<const char*, const char*> kNames[] = {
      {"epsilon", "ε"},
      {"delta", "δ"},
      {"rho", "ρ"},
      {"sigma", "σ"},
      {"scale", "The noise scale b"},
      {"sensitivity", "The sensitivity Δ"},
      {"rate", "The sampling rate"},
      {"count", "The count"},
      {"k", "The group size k"},
      {"delta_slack", "δ′ (delta_slack)"},
      {"epsilons", "ε"},
      {"orders", "The order"},
      {"shifts", "The shift"},
      {"weights", "The weight"},
  };
  for (const auto& [key, description] : kNames) {
    if (name == key) return element ? std::string(description) + " at " + field : description;
  }
  return field.empty() ? "The request" : field;
}

namespace {
Error bad(const std::string& field, const std::string& requirement, double value) {
  return invalid_argument(field, describe_name(field) + " must be " + requirement + " " + got(value) + ".");
}

// "ε must be 0 or more (got -1)." / "ε must be finite (got Infinity)."
Error bad_range(const std::string& field, const std::string& requirement, double value) {
  if (std::isinf(value) && value > 0) return bad(field, "a finite number", value);
  return bad(field, requirement, value);
}
}  // namespace

Result<double> check_epsilon(double value, const std::string& field) {
  if (!(value >= 0) || std::isinf(value)) return bad_range(field, "0 or more", value);
  return value;
}

Result<double> check_profile_epsilon(double value, const std::string& field) {
  if (!std::isfinite(value)) return bad(field, "a finite number (δ(ε) is defined for ε < 0 too)", value);
  return value;
}

Result<double> check_target_epsilon(double value, const std::string& field) {
  if (!(value > 0) || std::isinf(value)) return bad_range(field, "greater than 0", value);
  if (!(value <= kMaxTargetEpsilon)) {
    return invalid_argument(field, describe_name(field) + " must be at most " + format_number(kMaxTargetEpsilon) + " " +
                                       got(value) +
                                       ": beyond it e^ε exceeds the largest double, so an (ε, δ) guarantee bounds "
                                       "no event of probability above 1e-308 and any noise, however small, meets it. "
                                       "There is no least noise to report.");
  }
  return value;
}

Result<double> check_delta(double value, const std::string& field) {
  if (!(value >= 0)) return bad(field, "0 or more, and below 1", value);
  if (!(value < 1)) return bad(field, "below 1 (δ = 1 promises nothing)", value);
  return value;
}

Result<double> check_positive_delta(double value, const std::string& field) {
  if (!(value > 0)) return bad(field, "greater than 0 (and below 1)", value);
  if (!(value < 1)) return bad(field, "below 1 (δ = 1 promises nothing)", value);
  return value;
}

Result<double> check_rho(double value, const std::string& field) { return check_nonnegative(value, field); }

Result<double> check_nonnegative(double value, const std::string& field) {
  if (!(value >= 0) || std::isinf(value)) return bad_range(field, "0 or more", value);
  return value;
}

Result<double> check_positive(double value, const std::string& field) {
  if (!(value > 0) || std::isinf(value)) return bad_range(field, "greater than 0", value);
  return value;
}

Result<double> check_rate(double value, const std::string& field) {
  if (!(value > 0 && value <= 1)) return bad(field, "a probability greater than 0 and at most 1", value);
  return value;
}

Result<double> check_rate_or_zero(double value, const std::string& field) {
  if (!(value >= 0 && value <= 1)) return bad(field, "a probability from 0 to 1", value);
  return value;
}

Result<double> check_count(double value, const std::string& field) {
  if (!(value >= 1 && value <= kMaxCount)) {
    return bad(field, "a whole number from 1 to 2^53 = 9007199254740992", value);
  }
  if (value != std::floor(value)) return bad(field, "a whole number", value);
  return value;
}

Result<double> check_whole_number(double value, double minimum, double maximum, const std::string& field) {
  if (!(value >= minimum && value <= maximum) || value != std::floor(value)) {
    return bad(field, "a whole number from " + format_number(minimum) + " to " + format_number(maximum), value);
  }
  return value;
}

}  // namespace dpcalc
