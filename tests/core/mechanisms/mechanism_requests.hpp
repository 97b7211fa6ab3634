// Requests about one mechanism through dpcalc::api::compute, for the tests of the discrete and
// selection mechanisms: compose it count times by a method, group it, calibrate it; read numbers
// out of the result.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"

namespace mechanism_requests {

using dpcalc::api::Value;

inline Value items(const Value& mechanism, double count) {
  Value list = Value::array();
  list.push(object().set("mechanism", mechanism).set("count", count));
  return list;
}

// {op:'compose', method, items:[{mechanism, count}], relation?} with the method's δ.
inline Value compose(const std::string& method, const Value& mechanism, double count, double delta,
                     const std::string& relation = "") {
  Value request = object().set("op", "compose").set("method", method).set("items", items(mechanism, count));
  if (method != "basic") request.set("delta", delta);
  if (!relation.empty()) request.set("relation", relation);
  return request;
}

inline double number_at(const Value& value, const std::string& first, const std::string& second = "") {
  const Value* found = value.find(first);
  REQUIRE_MESSAGE(found != nullptr, first);
  if (!second.empty()) found = found->find(second);
  REQUIRE_MESSAGE(found != nullptr, second);
  REQUIRE(found->is_number());
  return found->as_number();
}

// [epsilon_lower, epsilon_upper] of method 'pld' at δ.
struct Bracket {
  double lower, upper;
};
inline Bracket pld_epsilon(const Value& mechanism, double count, double delta, const std::string& relation = "") {
  const Value response = dpcalc::api::compute(compose("pld", mechanism, count, delta, relation));
  const Value& result = result_of(response);
  return {number_at(result, "epsilon_lower"), number_at(result, "epsilon_upper")};
}

// The guarantee's ε of a closed-form method.
inline double epsilon_by(const std::string& method, const Value& mechanism, double count, double delta,
                         const std::string& relation = "") {
  const Value response = dpcalc::api::compute(compose(method, mechanism, count, delta, relation));
  return number_at(result_of(response), "guarantee", "epsilon");
}

// An exact reference ε inside the PLD bracket, the upper end within 0.5% of it (the default accuracy).
inline void check_bracket(const Bracket& bracket, double exact) {
  CHECK(bracket.lower <= exact * (1 + 1e-12));
  CHECK(bracket.upper >= exact * (1 - 1e-12));
  CHECK(bracket.upper <= exact * 1.005);
}

}  // namespace mechanism_requests
