#include "dpcalc/dpsgd/samplers.hpp"

#include <cstring>

namespace dpcalc::dpsgd {

const SamplerAnalysis* find_sampler_analysis(const char* name) {
  if (name == nullptr) return nullptr;
  for (const SamplerAnalysis& analysis : kSamplerAnalyses) {
    if (std::strcmp(analysis.name, name) == 0) return &analysis;
  }
  return nullptr;
}

}  // namespace dpcalc::dpsgd
