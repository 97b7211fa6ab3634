#include "dpcalc/dpsgd/random_allocation.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>

#include "approx.hpp"

using namespace dpcalc;
using namespace dpcalc::dpsgd;

TEST_CASE("[random_allocation] explore") {
  for (double r : {5e-4, 1e-4}) {
    auto start = std::chrono::steady_clock::now();
    auto a = random_allocation_epsilon(234, 1, 10, 1e-5, r);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(a.ok());
    std::printf("r=%g upper=%.6f lower=%.6f passes=%d step=%g h=%g grid=%lld ms=%.1f\n", r,
                a.value().bracket.epsilon_upper, a.value().bracket.epsilon_lower, a.value().passes,
                a.value().grid.factor_step, a.value().grid.loss_step,
                (long long)a.value().bracket.discretization.grid_size, ms);
  }
}
