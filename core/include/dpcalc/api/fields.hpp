// Reading request fields out of a Value with their dotted paths. Each reader returns an
// invalid_argument error naming the field when it is missing or of the wrong kind; range checks
// are the job of the named checks in dpcalc/checks.hpp. Member names are taken as pointers (nearly
// all are literals): a std::string parameter would be built at each of the readers' call sites, and
// the path "prefix.key" is built only for an error.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// Joins a field prefix and a name into a dotted path ("" + "k" -> "k", "a" + "b" -> "a.b"). Out of
// line (fields.cpp): inlined, the concatenation was repeated at each of its hundred call sites.
std::string field_path(const std::string& prefix, const std::string& name);

// True when `object` has a member `key` that is not null (null counts as absent).
bool has_field(const Value& object, const char* key);

// An invalid_argument error on `field`: it does not apply `because` (a sentence without its subject:
// "a Laplace mechanism's group guarantee is pure ε-DP").
Error does_not_apply(const std::string& field, const std::string& because);

// `object` must be an object; `prefix` is its own path ("" at the top level).
Result<const Value*> require_object(const Value& value, const std::string& path);
Result<const Value*> member(const Value& object, const std::string& prefix, const char* key);
// The error member() gives for a field `key` at `prefix` that is left out: it is required.
Error required_field(const std::string& prefix, const char* key);
Result<double> number_field(const Value& object, const std::string& prefix, const char* key);
Result<std::optional<double>> optional_number_field(const Value& object, const std::string& prefix, const char* key);
Result<std::string> string_field(const Value& object, const std::string& prefix, const char* key);
Result<bool> boolean_field(const Value& object, const std::string& prefix, const char* key);
Result<std::optional<std::string>> optional_string_field(const Value& object, const std::string& prefix,
                                                         const char* key);
Result<std::vector<double>> number_array_field(const Value& object, const std::string& prefix, const char* key);

// Readers of a field as the request schema declares it (schema.hpp): a field left out takes its
// declared default, a required one left out is an error naming it, and a text field with declared
// choices must be one of them. `object` is the object at `prefix` ("" at the top level).
Result<double> read_number(const Value& object, const std::string& prefix, const Field& field);
Result<std::optional<double>> read_optional_number(const Value& object, const std::string& prefix, const Field& field);
Result<std::vector<double>> read_numbers(const Value& object, const std::string& prefix, const Field& field);
Result<std::string> read_choice(const Value& object, const std::string& prefix, const Field& field);
Result<std::optional<std::string>> read_optional_choice(const Value& object, const std::string& prefix,
                                                        const Field& field);
Result<bool> read_boolean(const Value& object, const std::string& prefix, const Field& field);

// The path of the first NaN or infinite number in `value` ("guarantee.epsilon"), or nullopt.
std::optional<std::string> first_non_finite(const Value& value, const std::string& path = "");

// The error for an input behind a result that would overflow a double: "… is too large here …"
// on `field` ("too small" for a noise scale or σ).
Error overflow(const std::string& field);

// `result` when every number in it is finite; otherwise an invalid_argument error on `field`, the
// input that made it overflow ("ε is too large here: the result exceeds the largest double ...";
// "too small" for a noise scale or σ). Results never carry NaN or infinity (docs/API.md).
Result<Value> finite_or_overflow(Value result, const std::string& field);

// Error for a string field whose value is not one of `allowed` ("method must be one of 'basic', ...").
Error unknown_choice(const std::string& field, const std::string& got, const std::vector<std::string>& allowed);

}  // namespace dpcalc::api
