#include "dpcalc/checks.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dpcalc {

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  // Shorten to the fewest digits that read back as the same double.
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return buffer;
}

namespace {
Error bad(const std::string& field, const std::string& requirement, double value) {
  return invalid_argument(field, field + " must be " + requirement + " (got " + format_number(value) + ").");
}
}  // namespace

Result<double> check_epsilon(double value, const std::string& field) {
  if (!(value >= 0) || std::isinf(value)) return bad(field, "a finite number >= 0", value);
  return value;
}

Result<double> check_delta(double value, const std::string& field) {
  if (!(value >= 0 && value < 1)) return bad(field, "a number in [0, 1)", value);
  return value;
}

Result<double> check_positive_delta(double value, const std::string& field) {
  if (!(value > 0 && value < 1)) return bad(field, "a number in (0, 1)", value);
  return value;
}

Result<double> check_rho(double value, const std::string& field) {
  if (!(value >= 0) || std::isinf(value)) return bad(field, "a finite number >= 0", value);
  return value;
}

Result<double> check_positive(double value, const std::string& field) {
  if (!(value > 0) || std::isinf(value)) return bad(field, "a finite number > 0", value);
  return value;
}

Result<double> check_rate(double value, const std::string& field) {
  if (!(value > 0 && value <= 1)) return bad(field, "a number in (0, 1]", value);
  return value;
}

Result<double> check_count(double value, const std::string& field) {
  if (!(value >= 1 && value <= kMaxCount)) {
    return bad(field, "a whole number from 1 to 2^53", value);
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
