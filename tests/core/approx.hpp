// Test helpers: relative comparisons. doctest's default Approx is about 1e-5 *absolute* for small
// numbers (Approx(1e-10) == 2e-10 passes), so every probability is compared relatively.
#pragma once

#include <cmath>
#include <doctest/doctest.h>

// `actual` within relative tolerance `rel` of `expected` (exact match required for 0).
#define CHECK_REL(actual, expected, rel) \
  CHECK(doctest::Approx(expected).scale(0).epsilon(rel) == (actual))
#define REQUIRE_REL(actual, expected, rel) \
  REQUIRE(doctest::Approx(expected).scale(0).epsilon(rel) == (actual))
