// Test helpers for API requests and responses: guarantee objects as requests give them, the result
// of an ok response, and an error response with the given code and field and a message long enough
// to be a sentence a person can act on.
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

inline dpcalc::api::Value object() { return dpcalc::api::Value::object(); }

inline dpcalc::api::Value pure(double epsilon) { return object().set("type", "pure").set("epsilon", epsilon); }

inline dpcalc::api::Value approx(double epsilon, double delta) {
  return object().set("type", "approx").set("epsilon", epsilon).set("delta", delta);
}

// The result of an ok response (a reference into `response`); fails the test with the error's
// message otherwise.
inline const dpcalc::api::Value& result_of(const dpcalc::api::Value& response) {
  REQUIRE(response.find("ok") != nullptr);
  if (!response.find("ok")->as_bool()) FAIL(response.find("error")->find("message")->as_string());
  return *response.find("result");
}
