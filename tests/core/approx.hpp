// Test helpers: relative comparisons. doctest's default Approx is about 1e-5 *absolute* for small
// numbers (Approx(1e-10) == 2e-10 passes), so every probability is compared relatively.
#pragma once

#include <doctest/doctest.h>

#include <cmath>

// `actual` within relative tolerance `rel` of `expected` (exact match required for 0).
#define CHECK_REL(actual, expected, rel) CHECK(doctest::Approx(expected).scale(0).epsilon(rel) == (actual))
#define REQUIRE_REL(actual, expected, rel) REQUIRE(doctest::Approx(expected).scale(0).epsilon(rel) == (actual))

// An upper bound may exceed the exact value by its rounding margin but never fall below it.
inline void check_upper_bound(double value, double exact, double rel) {
  CHECK(value >= exact * (1 - 1e-15));
  CHECK_REL(value, exact, rel);
}
