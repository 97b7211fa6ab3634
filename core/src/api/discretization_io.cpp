#include "dpcalc/api/discretization_io.hpp"

#include <cmath>
#include <string>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

Result<Discretization> read_discretization(const Value& request, const std::string& at,
                                           const pld::AccountingOptions& defaults) {
  Discretization read;
  read.options = defaults;
  read.path = field_path(at, "discretization");
  const Value* discretization = request.find("discretization");
  if (discretization == nullptr || discretization->is_null()) return read;
  read.given = true;
  if (discretization->is_number()) {
    read.as_number = true;
    DPCALC_TRY(read.options.discretization_interval, check_positive(discretization->as_number(), read.path));
    return read;
  }
  DPCALC_TRY(const Value* object, require_object(*discretization, read.path));
  DPCALC_TRY(auto interval, optional_number_field(*object, read.path, "interval"));
  DPCALC_TRY(auto accuracy, optional_number_field(*object, read.path, "relative_accuracy"));
  DPCALC_TRY(auto tail_mass, optional_number_field(*object, read.path, "tail_mass_truncation"));
  if (interval) {
    DPCALC_TRY(read.options.discretization_interval, check_positive(*interval, field_path(read.path, "interval")));
  }
  if (accuracy) read.options.relative_accuracy = *accuracy;
  if (tail_mass) read.options.tail_mass_truncation = *tail_mass;
  read.tail_mass_given = tail_mass.has_value();
  return read;
}

bool is_option_error(const Error& error) {
  return error.field == "discretization_interval" || error.field == "relative_accuracy" ||
         error.field == "tail_mass_truncation";
}

Error on_options(Error error, const Discretization& discretization) {
  if (!is_option_error(error)) return error;
  if (error.field == "discretization_interval") {
    error.field = discretization.as_number ? discretization.path : field_path(discretization.path, "interval");
  } else {
    error.field = field_path(discretization.path, error.field);
  }
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
