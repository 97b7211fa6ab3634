// Reading request fields out of a Value with their dotted paths. Each reader returns an
// invalid_argument error naming the field when it is missing or of the wrong kind; range checks
// are the job of the named checks in dpcalc/checks.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// `object` must be an object; `prefix` is its own path ("" at the top level).
Result<const Value*> require_object(const Value& value, const std::string& path);
Result<const Value*> member(const Value& object, const std::string& prefix, const std::string& key);
Result<double> number_field(const Value& object, const std::string& prefix, const std::string& key);
Result<std::optional<double>> optional_number_field(const Value& object, const std::string& prefix,
                                                    const std::string& key);
Result<std::string> string_field(const Value& object, const std::string& prefix, const std::string& key);
Result<std::optional<std::string>> optional_string_field(const Value& object, const std::string& prefix,
                                                         const std::string& key);
Result<std::vector<double>> number_array_field(const Value& object, const std::string& prefix,
                                               const std::string& key);

// Error for a string field whose value is not one of `allowed` ("method must be one of 'basic', ...").
Error unknown_choice(const std::string& field, const std::string& got, const std::vector<std::string>& allowed);

}  // namespace dpcalc::api
