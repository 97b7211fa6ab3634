// Clopper–Pearson bounds (core/include/dpcalc/audit/clopper_pearson.hpp) against mpmath:
// tests/reference/audit_reference.py, section 1 (the binomial tails by quadrature of the beta density
// at 40 digits, each bound solved to 1e-36).
#include "dpcalc/audit/clopper_pearson.hpp"

#include <cmath>
#include <limits>

#include "approx.hpp"
#include "dpcalc/result.hpp"

using namespace dpcalc;
using namespace dpcalc::audit;

namespace {

struct CpReference {
  double successes, trials, significance, lower, upper;
};

// tests/reference/audit_reference.py, section 1.
const CpReference kCpReferences[] = {
    {900, 1000, 0.025, 0.87971206348130736402, 0.91789466564442000017},
    {10, 1000, 0.025, 0.0048055106910493071916, 0.018313243055112452223},
    {100, 1000, 0.025, 0.082105334355579999828, 0.12028793651869263598},
    {990, 1000, 0.025, 0.98168675694488754778, 0.99519448930895069281},
    {1, 1000, 0.025, 0.000025317487491294043134, 0.0055589242798266728708},
    {999, 1000, 0.025, 0.99444107572017332713, 0.99997468251250870596},
    {0, 1000, 0.025, 0.0, 0.0036820838968656720861},
    {1000, 1000, 0.025, 0.99631791610313432791, 1.0},
    {3, 7, 1.0e-9, 0.0003058042192332666533, 0.99768480920902602645},
    {17, 40, 0.5, 0.41323290321325765594, 0.43802340893824797747},
    {1, 1, 0.05, 0.05, 1.0},
    {0, 1, 0.05, 0.0, 0.95},
    {500000, 1000000, 2.5e-8, 0.49727386572185351159, 0.50272613427814648841},
    {20, 1000000, 2.5e-8, 4.2287140714390328574e-6, 0.000056157553575268369258},
    {1, 9007199254740992, 0.025, 2.8108413357197243174e-18, 6.1857667776209459368e-16},
    {10, 9007199254740992, 0.025, 5.3239509424734374254e-16, 2.0417396708902491203e-15},
    {1000000, 9007199254740992, 0.025, 1.1080480792240470021e-10, 1.1124011844391413465e-10},
    // Tiny significances, where Boost's quantile alone is far off (3 of 7: 1.4e-31 for 3.1e-101).
    {3, 7, 1.0e-300, 3.057107087332922232e-101, 1.0},
    {500, 1000, 1.0e-300, 0.067855930991966077533, 0.93214406900803392247},
    {1, 1000000, 1.0e-300, 1.0e-306, 0.00069708148579478095788},
    {40, 100, 1.0e-30, 0.037206169255582714456, 0.88352504745127537721},
    // Lower bounds far below k/n > 1/2: 1 − upper(n − k) would keep only an absolute 1e-16 of them.
    {1, 1, 1.0e-12, 1.0e-12, 1.0},
    {3, 3, 1.0e-12, 0.0001, 1.0},
    {2, 3, 1.0e-12, 5.7735038030079033401e-7, 0.99999999999966666667},
    {1500, 2000, 1.0e-300, 0.34392015496186138933, 0.97082643375562244015},
};

// Above 2^24 successes and failures the bounds come from the Zubkov–Serov inequalities, about one
// success looser than the exact bound: a relative 1/k.
const CpReference kLargeCountReferences[] = {
    {4503599627370496, 9007199254740992, 0.025, 0.49999998967421180159, 0.50000001032578819841},
    {30000000, 1000000000, 0.025, 0.029989427949149082231, 0.030010574771669202351},
    {123456789, 1000000000000, 1.0e-6, 0.00012340398363118526526, 0.00012350960976192201904},
};

}  // namespace

TEST_CASE("[audit] Clopper-Pearson bounds are sound and tight against mpmath") {
  for (const CpReference& reference : kCpReferences) {
    CAPTURE(reference.successes);
    CAPTURE(reference.trials);
    const Result<double> lower = clopper_pearson_lower(reference.successes, reference.trials, reference.significance);
    const Result<double> upper = clopper_pearson_upper(reference.successes, reference.trials, reference.significance);
    REQUIRE(lower.ok());
    REQUIRE(upper.ok());
    CHECK(lower.value() <= reference.lower);
    CHECK(upper.value() >= reference.upper);
    if (reference.lower == 0) {
      CHECK(lower.value() == 0);
    } else {
      CHECK_REL(lower.value(), reference.lower, 1e-11);
    }
    CHECK_REL(upper.value(), reference.upper, 1e-11);
  }
}

TEST_CASE("[audit] Clopper-Pearson bounds at huge counts (Zubkov-Serov) stay sound within 1e-7") {
  for (const CpReference& reference : kLargeCountReferences) {
    CAPTURE(reference.successes);
    const Result<double> lower = clopper_pearson_lower(reference.successes, reference.trials, reference.significance);
    const Result<double> upper = clopper_pearson_upper(reference.successes, reference.trials, reference.significance);
    REQUIRE(lower.ok());
    REQUIRE(upper.ok());
    CHECK(lower.value() <= reference.lower);
    CHECK(upper.value() >= reference.upper);
    CHECK_REL(lower.value(), reference.lower, 1e-7);
    CHECK_REL(upper.value(), reference.upper, 1e-7);
  }
  // Near 1 the bound is computed from the failures' side: 2^53 − 10 of 2^53 (mpmath, section 1).
  const double trials = 9007199254740992;
  CHECK(clopper_pearson_lower(trials - 10, trials, 0.025).value() <= 0.99999999999999795826);
  CHECK(clopper_pearson_lower(trials - 10, trials, 0.025).value() >= 0.99999999999999795826 - 3e-16);
  CHECK(clopper_pearson_upper(trials - 10, trials, 0.025).value() >= 0.9999999999999994676);
}

TEST_CASE("[audit] Clopper-Pearson closed forms at the ends") {
  // upper(0) = 1 − a^(1/n) and lower(n) = a^(1/n) (tests/reference/audit_reference.py, section 1).
  CHECK(clopper_pearson_lower(0, 1000, 0.025).value() == 0);
  CHECK(clopper_pearson_upper(1000, 1000, 0.025).value() == 1);
  CHECK(clopper_pearson_lower(0, 9007199254740992, 0.3).value() == 0);
  CHECK(clopper_pearson_upper(9007199254740992, 9007199254740992, 0.3).value() == 1);
  // 1 − 0.025^(1/2^53) = 4.0955e-16 (ln 40 / 2^53): relative precision kept.
  const double tiny = clopper_pearson_upper(0, 9007199254740992, 0.025).value();
  check_upper_bound(tiny, -std::expm1(std::log(0.025) / 9007199254740992.0), 1e-14);
}

TEST_CASE("[audit] Clopper-Pearson bounds are monotone and bracket the observed rate") {
  const double trials = 200;
  double previous_lower = -1, previous_upper = -1;
  for (double k = 0; k <= trials; ++k) {
    CAPTURE(k);
    const double lower = clopper_pearson_lower(k, trials, 0.01).value();
    const double upper = clopper_pearson_upper(k, trials, 0.01).value();
    CHECK(lower <= k / trials);
    CHECK(upper >= k / trials);
    CHECK(lower > previous_lower);
    CHECK(upper > previous_upper);
    // lower(k) = 1 − upper(n − k): each side within its rounding of the other.
    CHECK(std::fabs(lower - (1 - clopper_pearson_upper(trials - k, trials, 0.01).value())) < 1e-12);
    previous_lower = lower;
    previous_upper = upper;
  }
  // A smaller significance widens both bounds.
  CHECK(clopper_pearson_lower(30, 100, 1e-6).value() < clopper_pearson_lower(30, 100, 0.05).value());
  CHECK(clopper_pearson_upper(30, 100, 1e-6).value() > clopper_pearson_upper(30, 100, 0.05).value());
}

TEST_CASE("[audit] Clopper-Pearson inputs outside the domain are refused on their names") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(clopper_pearson_lower(1, 0, 0.05).error().field == "trials");
  CHECK(clopper_pearson_lower(1, 2.5, 0.05).error().field == "trials");
  CHECK(clopper_pearson_lower(1, 2 * 9007199254740992.0, 0.05).error().field == "trials");
  CHECK(clopper_pearson_lower(nan, 10, 0.05).error().field == "successes");
  CHECK(clopper_pearson_lower(-1, 10, 0.05).error().field == "successes");
  CHECK(clopper_pearson_upper(11, 10, 0.05).error().field == "successes");
  CHECK(clopper_pearson_upper(1, 10, 0).error().field == "significance");
  CHECK(clopper_pearson_upper(1, 10, 0.6).error().field == "significance");
  CHECK(clopper_pearson_upper(1, 10, nan).error().code == kInvalidArgument);
}
