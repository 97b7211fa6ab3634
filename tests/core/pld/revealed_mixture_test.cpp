// The revealed mixture pair (pld/privacy_loss.hpp RevealedMixturePair): its privacy loss distribution is the
// weighted mixture of its parts', so δ(ε) is the weighted sum of theirs plus the infinite-loss weight.
#include <doctest/doctest.h>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc;
using namespace dpcalc::pld;

namespace {

const MixtureVsMixturePair kSubsampled{1, {0, 1}, {0.9, 0.1}, {0}, {1}};
const MixtureVsMixturePair kTwoSided{1, {0, 2}, {0.95, 0.05}, {0, -1}, {0.95, 0.05}};

DeltaBracket delta_of(const BasePair& base, double epsilon) {
  const auto result = delta_for_epsilon({{DominatingPair{base, 1.0}, 1}}, epsilon);
  REQUIRE(result.ok());
  return result.value();
}

}  // namespace

TEST_CASE("[samplers] a revealed mixture of one part is that part") {
  const RevealedMixturePair alone{{kTwoSided}, {1.0}, 0.0};
  for (double epsilon : {0.0, 0.5, 2.0}) {
    const DeltaBracket mixed = delta_of(alone, epsilon), part = delta_of(kTwoSided, epsilon);
    CHECK(mixed.delta_upper == part.delta_upper);
    CHECK(mixed.delta_lower == part.delta_lower);
  }
  const auto a = epsilon_for_delta({{DominatingPair{alone, 1.0}, 50}}, 1e-6);
  const auto b = epsilon_for_delta({{DominatingPair{kTwoSided, 1.0}, 50}}, 1e-6);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.value().epsilon_upper == b.value().epsilon_upper);
}

TEST_CASE("[samplers] a revealed mixture's δ is the weighted sum of its parts' and its infinite weight") {
  const RevealedMixturePair mixed{{kSubsampled, kTwoSided}, {0.7, 0.3 - 1e-4}, 1e-4};
  for (double epsilon : {0.0, 0.3, 1.0}) {
    CAPTURE(epsilon);
    const DeltaBracket m = delta_of(mixed, epsilon), p1 = delta_of(kSubsampled, epsilon),
                       p2 = delta_of(kTwoSided, epsilon);
    // Both directions are mixtures of the parts' directions; the worse direction of the mixture is at most
    // the mixture of each part's worse direction.
    CHECK(m.delta_upper <= (0.7 * p1.delta_upper + (0.3 - 1e-4) * p2.delta_upper + 1e-4) * (1 + 1e-12));
    CHECK(m.delta_lower >= 1e-4);
    CHECK(m.delta_upper >= 0.7 * p1.delta_lower + (0.3 - 1e-4) * p2.delta_lower);
  }
  // Far out only the revealed weight is left.
  CHECK_REL(delta_of(mixed, 40).delta_upper, 1e-4, 1e-6);
}

TEST_CASE("[samplers] revealed mixtures are checked") {
  const auto field_of = [](const RevealedMixturePair& pair, double rate = 1) {
    const auto result = epsilon_for_delta({{DominatingPair{pair, rate}, 1}}, 1e-6);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == kInvalidArgument);
    return result.error().field;
  };
  CHECK(field_of({{kSubsampled}, {0.5, 0.5}, 0}) == "weights");
  CHECK(field_of({{kSubsampled, kTwoSided}, {0.5, 0.6}, 0}) == "weights");
  CHECK(field_of({{kSubsampled, kTwoSided}, {-0.5, 1.5}, 0}) == "weights");
  CHECK(field_of({{kSubsampled}, {0.0}, 1.0}) == "infinite_loss_weight");
  CHECK(field_of({{kSubsampled}, {0.0}, 0.5}) == "weights");
  CHECK(field_of({{kSubsampled}, {1.0}, 0}, 0.5) == "sampling_rate");
  MixtureVsMixturePair no_sigma = kTwoSided;
  no_sigma.sigma = 0;
  CHECK(field_of({{kSubsampled, no_sigma}, {0.5, 0.5}, 0}) == "sigma");
}
