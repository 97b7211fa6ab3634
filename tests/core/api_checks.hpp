// Test helper for API responses: an error response with the given code and field, and a message
// long enough to be a sentence a person can act on.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "dpcalc/api/value.hpp"

inline void check_error(const dpcalc::api::Value& response, const std::string& field,
                        const std::string& code = "invalid_argument") {
  REQUIRE(response.find("ok") != nullptr);
  CHECK_FALSE(response.find("ok")->as_bool());
  const dpcalc::api::Value* error = response.find("error");
  REQUIRE(error != nullptr);
  CHECK(error->find("code")->as_string() == code);
  CHECK(error->find("field")->as_string() == field);
  CHECK(error->find("message")->as_string().size() > 10);
}
