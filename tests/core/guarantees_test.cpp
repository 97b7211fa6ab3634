#include "dpcalc/guarantees.hpp"

#include <cmath>

#include "approx.hpp"
#include "dpcalc/checks.hpp"
TEST_CASE("[guarantees] factories reject invalid input") {
  CHECK(!dpcalc::ApproxDp::create(1, 1).ok());
  CHECK(dpcalc::ApproxDp::create(1, 1).error().field == "delta");
  CHECK(!dpcalc::PureDp::create(NAN).ok());
  CHECK(dpcalc::check_count(2.5, "k").error().message == "The group size k must be a whole number (got 2.5).");
}

TEST_CASE("[checks] numbers in messages: whole numbers written out, others the shortest that reads back") {
  CHECK(dpcalc::format_number(6000) == "6000");
  CHECK(dpcalc::format_number(999999) == "999999");
  CHECK(dpcalc::format_number(1e6) == "1e+06");
  CHECK(dpcalc::format_number(0.1) == "0.1");
  CHECK(dpcalc::format_number(-2.5e-300) == "-2.5e-300");
  // As JavaScript writes 1 / 3.
  CHECK(dpcalc::format_number(1.0 / 3.0) == "0.3333333333333333");
}
