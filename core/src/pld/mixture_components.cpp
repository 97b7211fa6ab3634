#include "dpcalc/pld/mixture_components.hpp"

#include <algorithm>
#include <cstddef>

namespace dpcalc::pld {

double prune_lightest(std::vector<MixtureComponent>& components) {
  std::sort(components.begin(), components.end(),
            [](const MixtureComponent& a, const MixtureComponent& b) { return a.weight < b.weight; });
  double dropped = 0;
  std::size_t first_kept = 0;
  while (first_kept + 1 < components.size() && dropped + components[first_kept].weight <= kPrunedMassLimit) {
    dropped += components[first_kept].weight;
    ++first_kept;
  }
  components.erase(components.begin(), components.begin() + static_cast<std::ptrdiff_t>(first_kept));
  return dropped;
}

}  // namespace dpcalc::pld
