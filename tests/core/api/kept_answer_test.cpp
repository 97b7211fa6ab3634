// api/kept_answer: the entry the trade-off of a request reads the answer's PLDs from. Structure
// only (which answer is found for which request and part); the numbers are the answers' own.
#include "dpcalc/api/kept_answer.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

namespace {

using dpcalc::api::Value;
using dpcalc::pld::AnsweredEpsilon;

// An answer whose four PLDs hold `masses` masses in all, told apart by its ε.
AnsweredEpsilon answer(double epsilon, std::size_t masses) {
  AnsweredEpsilon answered;
  answered.bracket.epsilon_upper = epsilon;
  answered.plds.upper_remove.masses.assign(masses, 0.0);
  return answered;
}

Value request(double delta) { return Value::object().set("op", "databases").set("delta", delta); }

}  // namespace

TEST_CASE("[api] kept answers: one part per footprint of one request, within kMaxKeptMasses in all") {
  using dpcalc::api::keep_answer;
  using dpcalc::api::kept_answer;
  using dpcalc::api::kMaxKeptMasses;
  const std::vector<double> first{2, 0}, second{1, 1};
  keep_answer(request(1e-5), answer(1, 10), first);
  keep_answer(request(1e-5), answer(2, 10), second);
  REQUIRE(kept_answer(request(1e-5), first) != nullptr);
  CHECK(kept_answer(request(1e-5), first)->bracket.epsilon_upper == 1);
  CHECK(kept_answer(request(1e-5), second)->bracket.epsilon_upper == 2);
  CHECK(kept_answer(request(1e-5), {0, 2}) == nullptr);
  CHECK(kept_answer(request(1e-5)) == nullptr);  // no answer of the request as a whole
  CHECK(kept_answer(request(1e-3), first) == nullptr);

  // The same part again replaces it; a part beyond the limit is not kept, the others stay.
  keep_answer(request(1e-5), answer(3, 10), first);
  CHECK(kept_answer(request(1e-5), first)->bracket.epsilon_upper == 3);
  keep_answer(request(1e-5), answer(4, kMaxKeptMasses - 19), {0, 2});
  CHECK(kept_answer(request(1e-5), {0, 2}) == nullptr);
  keep_answer(request(1e-5), answer(4, kMaxKeptMasses - 20), {0, 2});
  CHECK(kept_answer(request(1e-5), {0, 2})->bracket.epsilon_upper == 4);
  CHECK(kept_answer(request(1e-5), second)->bracket.epsilon_upper == 2);

  // Another request's answer replaces the whole entry.
  keep_answer(request(1e-3), answer(5, 10));
  CHECK(kept_answer(request(1e-3))->bracket.epsilon_upper == 5);
  CHECK(kept_answer(request(1e-5), first) == nullptr);
  CHECK(kept_answer(request(1e-5), second) == nullptr);
}
