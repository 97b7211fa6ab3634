// The samplers' catalogue (dpsgd/samplers.hpp) and cyclic Poisson sampling (dpsgd/cyclic_poisson.hpp).
#include "dpcalc/dpsgd/samplers.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "approx.hpp"
#include "dpcalc/dpsgd/cyclic_poisson.hpp"
#include "dpcalc/dpsgd/truncated_poisson.hpp"

using namespace dpcalc;
using namespace dpcalc::dpsgd;

TEST_CASE("[samplers] every sampler has one analysis, found by its kind and its name") {
  for (SamplerKind kind : {SamplerKind::kPoisson, SamplerKind::kFixedBatch, SamplerKind::kTruncatedPoisson,
                           SamplerKind::kCyclicPoisson, SamplerKind::kShuffle}) {
    const SamplerAnalysis& analysis = sampler_analysis(kind);
    CAPTURE(analysis.name);
    CHECK(analysis.kind == kind);
    CHECK(find_sampler_analysis(analysis.name) == &analysis);
    CHECK(std::strlen(analysis.upper.citation) > 0);
    CHECK(std::strlen(analysis.upper.citation_key) > 0);
    CHECK(analysis.has_lower_bound == (std::strlen(analysis.lower.method) > 0));
    CHECK(analysis.has_group_analysis == (std::strlen(analysis.group.method) > 0));
    CHECK((analysis.zero_out || analysis.substitute));
  }
  CHECK(find_sampler_analysis("balls_and_bins") == nullptr);
  CHECK(find_sampler_analysis(nullptr) == nullptr);
  CHECK(sampler_analysis(SamplerKind::kShuffle).upper_bound_proven);
  CHECK(sampler_analysis(SamplerKind::kShuffle).has_group_analysis);
  CHECK_FALSE(sampler_analysis(SamplerKind::kTruncatedPoisson).has_group_analysis);
  CHECK_FALSE(sampler_analysis(SamplerKind::kFixedBatch).upper_bound_proven);
  CHECK(std::string(sampler_analysis(SamplerKind::kTruncatedPoisson).upper.citation).find("Ganesh 2025") == 0);
}

TEST_CASE("[samplers] cyclic Poisson: T steps over b bands are ⌈T/b⌉ Poisson steps") {
  const auto uses = [](double steps, double bands) {
    const auto result = cyclic_poisson_steps(steps, bands);
    REQUIRE(result.ok());
    return result.value();
  };
  CHECK(uses(2344, 1) == 2344);
  CHECK(uses(2344, 10) == 235);
  CHECK(uses(2340, 10) == 234);
  CHECK(uses(10, 3) == 4);
  CHECK(uses(9, 3) == 3);
  CHECK(uses(1, 5) == 1);
  CHECK(uses(9007199254740992.0, 3) == 3002399751580331.0);  // ⌈2^53 / 3⌉
  CHECK(uses(9007199254740991.0, 9007199254740991.0) == 1);
  // 4 bands at q = 256/60000 over 4·2344 steps: Poisson over 2344 steps, whose ε is 1.09993 (dp_accounting
  // b5b0286, PLDAccountant(REPLACE_SPECIAL), PoissonSampledDpEvent(256/60000, GaussianDpEvent(1)), 2344 steps).
  const auto item = cyclic_poisson_item(256.0 / 60000, 1, 4 * 2344, 4, SamplerRelation::kZeroOut);
  REQUIRE(item.ok());
  CHECK(item.value().count == 2344);
  const auto bracket = pld::epsilon_for_delta({item.value()}, 1e-5);
  REQUIRE(bracket.ok());
  CHECK(bracket.value().epsilon_lower <= 1.0999307823236508);
  CHECK_REL(bracket.value().epsilon_upper, 1.0999307823236508, 1e-3);
  const auto bad = cyclic_poisson_steps(10, 0);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().field == "bands");
  const auto bad_rate = cyclic_poisson_item(0, 1, 10, 2, SamplerRelation::kSubstitute);
  REQUIRE_FALSE(bad_rate.ok());
  CHECK(bad_rate.error().field == "sampling_rate");
}
