#include "dpcalc/api/mechanism_io.hpp"

#include <optional>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/mechanisms/poisson_substitution.hpp"

namespace dpcalc::api {
namespace {

using mechanisms::Arguments;
using mechanisms::MechanismPtr;
using mechanisms::MechanismType;
using mechanisms::Parameter;
using mechanisms::relation_name;

Result<MechanismPtr> read_at_depth(const Value& value, const std::string& path, Noise noise, int depth);

// One parameter into `arguments`: its value, its default, or (the unknown of a calibration) a
// placeholder that the search replaces.
Result<bool> read_parameter(const Value& object, const std::string& path, const MechanismType& type,
                            const Parameter& parameter, Noise noise, int depth, Arguments& arguments) {
  const std::string field = field_path(path, parameter.name);
  if (noise == Noise::kUnknown && type.calibrates(parameter.name)) {
    if (has_field(object, parameter.name.c_str())) {
      return invalid_argument(
          field, "Leave out " + field + ": the noise is the unknown that calibrate computes (see 'unknown').");
    }
    arguments.numbers[parameter.name] = 1;
    return true;
  }
  if (!has_field(object, parameter.name.c_str()) && parameter.optional) return true;
  if (!has_field(object, parameter.name.c_str()) && parameter.default_value) {
    if (parameter.kind == Parameter::Kind::kBoolean) {
      arguments.flags[parameter.name] = *parameter.default_value != 0;
    } else {
      arguments.numbers[parameter.name] = *parameter.default_value;
    }
    return true;
  }
  switch (parameter.kind) {
    case Parameter::Kind::kNumber: {
      DPCALC_TRY(arguments.numbers[parameter.name], number_field(object, path, parameter.name.c_str()));
      return true;
    }
    case Parameter::Kind::kNumbers: {
      DPCALC_TRY(arguments.lists[parameter.name], number_array_field(object, path, parameter.name.c_str()));
      return true;
    }
    case Parameter::Kind::kBoolean: {
      DPCALC_TRY(arguments.flags[parameter.name], boolean_field(object, path, parameter.name.c_str()));
      return true;
    }
    case Parameter::Kind::kMechanism: {
      if (depth >= kMaxMechanismNesting) return invalid_argument(field, field + " nests mechanisms too deeply.");
      DPCALC_TRY(const Value* inner, member(object, path, parameter.name.c_str()));
      DPCALC_TRY(arguments.mechanisms[parameter.name], read_at_depth(*inner, field, noise, depth + 1));
      return true;
    }
  }
  return true;
}

Result<MechanismPtr> read_at_depth(const Value& value, const std::string& path, Noise noise, int depth) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string name, string_field(*object, path, "type"));
  const MechanismType* type = mechanisms::find_mechanism_type(name);
  if (type == nullptr) return unknown_choice(field_path(path, "type"), name, mechanisms::mechanism_type_names());
  Arguments arguments;
  for (const Parameter& parameter : type->parameters) {
    DPCALC_CHECK(read_parameter(*object, path, *type, parameter, noise, depth, arguments));
  }
  return at_path(mechanisms::create(*type, std::move(arguments)), path);
}

bool has_parameter(const mechanisms::Mechanism& mechanism, const std::string& name) {
  for (const Parameter& parameter : mechanism.type().parameters) {
    if (parameter.name == name) return true;
  }
  return false;
}

// The path of `parameter` at or inside the mechanism at `path`, or "" when none of them has it.
std::string find_parameter(const mechanisms::Mechanism& mechanism, const std::string& path,
                           const std::string& parameter) {
  if (has_parameter(mechanism, parameter)) return field_path(path, parameter);
  if (parameter == "sampling_rate" && !mechanism.sampling_rate_parameter().empty()) {
    return field_path(path, mechanism.sampling_rate_parameter());
  }
  for (const auto& [name, inner] : mechanism.arguments().mechanisms) {
    const std::string found = find_parameter(*inner, field_path(path, name), parameter);
    if (!found.empty()) return found;
  }
  return "";
}

}  // namespace

Result<MechanismAt> read_mechanism(const Value& value, const std::string& path, Noise noise) {
  DPCALC_TRY(MechanismPtr mechanism, read_at_depth(value, path, noise, 0));
  return MechanismAt{std::move(mechanism), path};
}

mechanisms::Relation relation_named(const std::string& name) {
  if (name == "substitute") return mechanisms::Relation::kSubstitute;
  return name == "zero_out" ? mechanisms::Relation::kZeroOut : mechanisms::Relation::kAddRemove;
}

Result<RelationAt> read_relation(const Value& object, const std::string& at, const Field& declared) {
  DPCALC_TRY(const std::string name, read_choice(object, at, declared));
  RelationAt relation;
  relation.relation = relation_named(name);
  relation.given = has_field(object, declared.name.c_str());
  relation.path = field_path(at, declared.name);
  return relation;
}

Result<bool> check_relation(MechanismAt& at, const RelationAt& relation) {
  if (at.mechanism->supports(relation.relation)) return true;
  if (relation.relation == mechanisms::Relation::kSubstitute) {
    if (std::optional<mechanisms::MechanismPtr> adapted = mechanisms::poisson_substitution(at.mechanism)) {
      at.mechanism = std::move(*adapted);
      return true;
    }
  }
  const mechanisms::Mechanism& mechanism = *at.mechanism;
  std::string supported;
  for (mechanisms::Relation other :
       {mechanisms::Relation::kAddRemove, mechanisms::Relation::kSubstitute, mechanisms::Relation::kZeroOut}) {
    if (mechanism.supports(other))
      supported += std::string(supported.empty() ? "'" : ", '") + relation_name(other) + "'";
  }
  return invalid_argument(
      relation.given ? relation.path : field_path(at.path, "type"),
      std::string("relation '") + relation_name(relation.relation) + "'" + (relation.given ? "" : " (the default)") +
          " does not apply to the " + mechanism.type().title + " at " + at.path +
          (supported.empty() ? ": it has a dominating pair under neither relation (sampling "
                               "without replacement needs one under 'substitute' inside)."
                             : ": it has a dominating pair under " + supported + " only; give that relation."));
}

std::string parameter_path(const MechanismAt& at, const std::string& parameter) {
  if (parameter.empty()) return at.path;
  const std::string found = find_parameter(*at.mechanism, at.path, parameter);
  if (!found.empty()) return found;
  const std::string noise = find_parameter(*at.mechanism, at.path, at.mechanism->noise_parameter());
  return noise.empty() ? field_path(at.path, "type") : noise;
}

Error on_mechanism(Error error, const MechanismAt& at) {
  error.field = parameter_path(at, error.field);
  if (error.item != Error::kNoItem) error.field = field_path(error.field, std::to_string(error.item));
  error.item = Error::kNoItem;
  return error;
}

std::string noise_path(const MechanismAt& at) { return parameter_path(at, at.mechanism->noise_parameter()); }

}  // namespace dpcalc::api
