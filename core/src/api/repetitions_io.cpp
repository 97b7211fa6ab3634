#include "dpcalc/api/repetitions_io.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"

namespace dpcalc::api {

Result<std::optional<RepetitionsAt>> read_repetitions(const Value& request, const std::string& at, const Field& field) {
  if (!has_field(request, field.name.c_str())) return std::optional<RepetitionsAt>{};
  RepetitionsAt read;
  read.path = field_path(at, field.name);
  DPCALC_TRY(const Value* object, require_object(*request.find(field.name.c_str()), read.path));
  const Shape& shape = *field.shape;
  DPCALC_TRY(read.distribution, read_choice(*object, read.path, declared(shape, "distribution")));
  DPCALC_TRY(read.repetitions.mean, read_number(*object, read.path, declared(shape, "mean")));
  // Papernot & Steinke's laws: the geometric is the truncated negative binomial of shape 1, the
  // logarithmic its limit at shape 0 (their Sec. 2); Poisson has no shape.
  const bool negative_binomial = read.distribution == "truncated_negative_binomial";
  const bool has_shape = has_field(*object, "shape");
  if (has_shape && !negative_binomial) {
    return invalid_argument(field_path(read.path, "shape"),
                            "shape is the η of distribution 'truncated_negative_binomial' only ('geometric' is "
                            "η = 1, 'logarithmic' η = 0, 'poisson' has none); leave it out or change distribution.");
  }
  if (negative_binomial) {
    DPCALC_TRY(read.repetitions.shape, read_number(*object, read.path, declared(shape, "shape")));
  }
  read.repetitions.law =
      read.distribution == "poisson" ? rdp::RepetitionLaw::kPoisson : rdp::RepetitionLaw::kTruncatedNegativeBinomial;
  if (read.distribution == "geometric") read.repetitions.shape = 1;
  if (read.distribution == "logarithmic") read.repetitions.shape = 0;
  DPCALC_TRY(read.repetitions, at_path(rdp::check_repetitions(read.repetitions), read.path));
  return std::optional<RepetitionsAt>{std::move(read)};
}

Value repetitions_value(const RepetitionsAt& repetitions) {
  Value value = Value::object();
  value.set("mean", repetitions.repetitions.mean).set("distribution", repetitions.distribution);
  if (repetitions.distribution == "truncated_negative_binomial") value.set("shape", repetitions.repetitions.shape);
  return value;
}

double fixed_runs_of(const rdp::Repetitions& repetitions) { return std::max(1.0, std::ceil(repetitions.mean)); }

}  // namespace dpcalc::api
