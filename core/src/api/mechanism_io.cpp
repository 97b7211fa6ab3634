#include "dpcalc/api/mechanism_io.hpp"

#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

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
Result<bool> read_parameter(const Value& object, const MechanismType& type, const Parameter& parameter, Noise noise,
                            int depth, Arguments& arguments) {
  const std::string field = arguments.field(parameter.name);
  if (noise == Noise::kUnknown && type.calibrates(parameter.name)) {
    if (has_field(object, parameter.name.c_str())) {
      return invalid_argument(
          field, "Leave out " + field + ": the noise is the unknown that calibrate computes (see 'unknown').");
    }
    arguments.numbers[parameter.name] = 1;
    return true;
  }
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
      DPCALC_TRY(arguments.numbers[parameter.name], number_field(object, arguments.path, parameter.name.c_str()));
      return true;
    }
    case Parameter::Kind::kNumbers: {
      DPCALC_TRY(arguments.lists[parameter.name], number_array_field(object, arguments.path, parameter.name.c_str()));
      return true;
    }
    case Parameter::Kind::kBoolean: {
      DPCALC_TRY(arguments.flags[parameter.name], boolean_field(object, arguments.path, parameter.name.c_str()));
      return true;
    }
    case Parameter::Kind::kMechanism: {
      if (depth >= kMaxMechanismNesting) return invalid_argument(field, field + " nests mechanisms too deeply.");
      DPCALC_TRY(const Value* inner, member(object, arguments.path, parameter.name.c_str()));
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
  arguments.path = path;
  for (const Parameter& parameter : type->parameters) {
    DPCALC_TRY(bool read, read_parameter(*object, *type, parameter, noise, depth, arguments));
    (void)read;
  }
  return mechanisms::create(*type, std::move(arguments));
}

}  // namespace

Result<mechanisms::Relation> read_relation(const Value& request) {
  DPCALC_TRY(auto name, optional_string_field(request, "", "relation"));
  if (!name || *name == "add_remove") return mechanisms::Relation::kAddRemove;
  if (*name == "substitute") return mechanisms::Relation::kSubstitute;
  return unknown_choice("relation", *name, {"add_remove", "substitute"});
}

Result<bool> check_relation(const Value& request, const mechanisms::Mechanism& mechanism,
                            mechanisms::Relation relation) {
  if (mechanism.supports(relation)) return true;
  std::string supported;
  for (mechanisms::Relation other : {mechanisms::Relation::kAddRemove, mechanisms::Relation::kSubstitute}) {
    if (mechanism.supports(other))
      supported += std::string(supported.empty() ? "'" : " and '") + relation_name(other) + "'";
  }
  const bool asked = has_field(request, "relation");
  return invalid_argument(
      asked ? "relation" : mechanism.arguments().field("type"),
      std::string("relation '") + relation_name(relation) + "'" + (asked ? "" : " (the default)") +
          " does not apply to the " + mechanism.type().title + " at " + mechanism.arguments().path +
          (supported.empty() ? ": it has a dominating pair under neither relation (sampling "
                               "without replacement needs one under 'substitute' inside)."
                             : ": it has a dominating pair under " + supported + " only; give that relation."));
}

Result<MechanismPtr> read_mechanism(const Value& value, const std::string& path, Noise noise) {
  return read_at_depth(value, path, noise, 0);
}

const mechanisms::Mechanism& innermost(const mechanisms::Mechanism& mechanism) {
  const auto& inner = mechanism.arguments().mechanisms;
  return inner.empty() ? mechanism : innermost(*inner.begin()->second);
}

std::string noise_field(const mechanisms::Mechanism& mechanism) {
  const mechanisms::Mechanism& inner = innermost(mechanism);
  const auto calibratable = inner.calibratable();
  return inner.arguments().field(calibratable.empty() ? "type" : calibratable.front().parameter);
}

}  // namespace dpcalc::api
