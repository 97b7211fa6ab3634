// Reading mechanism objects out of requests ({type, …parameters}), for every op: the type comes
// from the mechanism catalog (dpcalc/mechanisms/catalog.hpp), each parameter is read as the type
// declares it (left-out parameters take their defaults), nested mechanisms recursively, and the
// type's factory checks the values; its errors, which name the parameter, are put on its path here.
#pragma once

#include <string>

#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// Nesting deeper than this (a mechanism inside a mechanism …) is refused.
inline constexpr int kMaxMechanismNesting = 8;

// Whether the noise is given (every op but calibration) or is the unknown calibration solves for:
// then every calibratable parameter must be left out, and is read as a placeholder of 1.
enum class Noise { kGiven, kUnknown };

// A mechanism as a request gives it, and where it sits in the request.
struct MechanismAt {
  mechanisms::MechanismPtr mechanism;
  std::string path;  // "items.0.mechanism"
};

Result<MechanismAt> read_mechanism(const Value& value, const std::string& path, Noise noise = Noise::kGiven);

// The request's neighbouring relation (its field `declared`, 'add_remove' by default), and whether
// the request gives it.
struct RelationAt {
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;
  bool given = false;
  std::string path;  // where the request has it ("relation", "of.relation")
};
Result<RelationAt> read_relation(const Value& object, const std::string& at, const Field& declared);
// The relation a request names ('add_remove', 'zero_out', 'substitute'; one of the field's choices).
mechanisms::Relation relation_named(const std::string& name);

// An invalid_argument error when the mechanism has no dominating pair under the relation, saying
// which relations it supports: on the relation when the request gives it, else (the default
// add/remove) on the mechanism's type. A Poisson-subsampled mechanism without a substitution pair
// of its own is replaced, under 'substitute', by the mechanism of its profile bound
// (mechanisms/poisson_substitution.hpp) where that exists.
Result<bool> check_relation(MechanismAt& mechanism, const RelationAt& relation);

// The request path of a parameter of the mechanism, named in the words of the code below the api
// layer (Error::field): one of its own parameters ("rate", "type"), a parameter of a mechanism
// inside it (the first that has it, innermost last), its sampling rate ("sampling_rate": the
// parameter that sets its rate), "" for the mechanism itself; anything else (a parameter of its
// dominating pair that the mechanism does not have, as "noise") is its noise parameter's path.
std::string parameter_path(const MechanismAt& mechanism, const std::string& parameter);

// `error`, about the mechanism in its own words, on the request's path.
Error on_mechanism(Error error, const MechanismAt& mechanism);

// The request path of the parameter that sets the mechanism's noise (its type when it has none).
std::string noise_path(const MechanismAt& mechanism);

}  // namespace dpcalc::api
