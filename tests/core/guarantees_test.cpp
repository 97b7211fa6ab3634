#include "dpcalc/guarantees.hpp"

#include <cmath>

#include "approx.hpp"
#include "dpcalc/checks.hpp"
TEST_CASE("[guarantees] factories reject invalid input") {
  CHECK(!dpcalc::ApproxDp::create(1, 1, "guarantee").ok());
  CHECK(dpcalc::ApproxDp::create(1, 1, "guarantee").error().field == "guarantee.delta");
  CHECK(!dpcalc::PureDp::create(NAN).ok());
  CHECK(dpcalc::check_count(2.5, "k").error().message == "The group size k must be a whole number (got 2.5).");
}
