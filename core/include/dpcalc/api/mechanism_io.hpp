// Reading mechanism objects out of requests ({type, …parameters}), for every op: the type comes
// from the mechanism catalog (dpcalc/mechanisms/catalog.hpp), each parameter is read as the type
// declares it (left-out parameters take their defaults), nested mechanisms recursively, and the
// type's factory checks the values, naming "<path>.<parameter>" in its errors.
#pragma once

#include <string>

#include "dpcalc/api/value.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// Nesting deeper than this (a mechanism inside a mechanism …) is refused.
inline constexpr int kMaxMechanismNesting = 8;

// Whether the noise is given (every op but calibration) or is the unknown calibration solves for:
// then every calibratable parameter must be left out, and is read as a placeholder of 1.
enum class Noise { kGiven, kUnknown };

Result<mechanisms::MechanismPtr> read_mechanism(const Value& value, const std::string& path,
                                                Noise noise = Noise::kGiven);

// The request's `relation`: 'add_remove' (the default) or 'substitute'.
Result<mechanisms::Relation> read_relation(const Value& request);

// An invalid_argument error when `mechanism` (at its path) has no dominating pair under `relation`,
// saying which relations it supports: on "relation" when `request` gives it, else (the default
// add/remove) on the mechanism's type.
Result<bool> check_relation(const Value& request, const mechanisms::Mechanism& mechanism,
                            mechanisms::Relation relation);

// The innermost mechanism (inside subsampling, …): where its noise parameters are in the request.
const mechanisms::Mechanism& innermost(const mechanisms::Mechanism& mechanism);

// The request field that sets how much noise a mechanism adds (its innermost noise parameter, e.g.
// "items.0.mechanism.sigma"), or its type field when it has none: overflow errors name it.
std::string noise_field(const mechanisms::Mechanism& mechanism);

}  // namespace dpcalc::api
