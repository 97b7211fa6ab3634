#include "dpcalc/api/discretization_io.hpp"

#include <cmath>
#include <string>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

Result<pld::AccountingOptions> read_discretization(const Value& request, const pld::AccountingOptions& defaults) {
  pld::AccountingOptions options = defaults;
  const Value* discretization = request.find("discretization");
  if (discretization == nullptr || discretization->is_null()) return options;
  if (discretization->is_number()) {
    DPCALC_TRY(double interval, check_positive(discretization->as_number(), "discretization"));
    options.discretization_interval = interval;
    return options;
  }
  DPCALC_TRY(const Value* object, require_object(*discretization, "discretization"));
  DPCALC_TRY(auto interval, optional_number_field(*object, "discretization", "interval"));
  DPCALC_TRY(auto accuracy, optional_number_field(*object, "discretization", "relative_accuracy"));
  DPCALC_TRY(auto tail_mass, optional_number_field(*object, "discretization", "tail_mass_truncation"));
  if (interval) {
    DPCALC_TRY(double checked, check_positive(*interval, "discretization.interval"));
    options.discretization_interval = checked;
  }
  if (accuracy) options.relative_accuracy = *accuracy;
  if (tail_mass) options.tail_mass_truncation = *tail_mass;
  return options;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

Error discretization_in_request_terms(Error error, const Value& request) {
  const Value* discretization = request.find("discretization");
  const bool given = discretization != nullptr && !discretization->is_null();
  const std::string interval_field =
      given && discretization->is_number() ? "discretization" : "discretization.interval";
  if (given && error.field == "discretization_interval") error.field = interval_field;
  if (given && (error.field == "relative_accuracy" || error.field == "tail_mass_truncation")) {
    error.field = "discretization." + error.field;
  }
  error.message = replace_all(error.message, "discretization_interval", interval_field);
  error.message = replace_all(error.message, "relative_accuracy", "discretization.relative_accuracy");
  error.message = replace_all(error.message, "tail_mass_truncation", "discretization.tail_mass_truncation");
  return error;
}

// Says so when the bracket stayed wider than the accuracy asked for. Its width, relative to
// epsilon_upper, in percent to two significant digits rounded up: 1.28e-5 is 0.0013%, not 0%.
std::string accuracy_note(const pld::EpsilonBracket& answer, const pld::AccountingOptions& options) {
  if (answer.accuracy_met) return "";
  const double percent = (answer.epsilon_upper - answer.epsilon_lower) / answer.epsilon_upper * 100;
  double scale = 1;  // a power of ten that puts two digits before the point (a loop: no pow/log10 in the module)
  while (percent > 0 && percent * scale < 10 && scale < 1e300) scale *= 10;
  return "The bracket [epsilon_lower, epsilon_upper] is " + format_number(std::ceil(percent * scale) / scale) +
         "% wide, more than the requested accuracy allows (4 × relative_accuracy " +
         format_number(options.relative_accuracy) +
         "): refining the grid reached its limit or stopped narrowing it, which happens near the smallest "
         "certifiable δ, where the bound on the FFT's rounding error dominates. epsilon_upper is still a sound "
         "upper bound; a larger δ narrows the bracket.";
}

}  // namespace dpcalc::api
