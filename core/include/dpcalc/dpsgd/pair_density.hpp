// The two densities of DP-SGD's one-step worst-case pair for a group (group_pair.hpp), on a grid of
// points for drawing them: P = sum_j Pr[J = j] N(j, σ²) against Q = N(0, σ²) (add/remove), or the
// mirrored mixture Q = sum_j Pr[J = j] N(−j, σ²) (substitution), in units of the clipping norm
// (Sommer 2021, Sec. 3; Schuchardt, Stoian, Kosmala, Günnemann 2024). No accounting is involved, so
// the pair can be drawn where the composition is out of the numeric engine's reach.
#pragma once

#include <vector>

#include "dpcalc/dpsgd/group_pair.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

inline constexpr MethodInfo kWorstCasePair{"The worst-case pair of one DP-SGD step for a group",
                                           "Sommer 2021; Schuchardt, Stoian, Kosmala, Günnemann 2024",
                                           "sommer2021group schuchardt2024unified"};

// Points drawn by default, and the most a request may ask for.
inline constexpr int kDefaultDensityPoints = 161;
inline constexpr int kMaxDensityPoints = 10001;

struct PairDensities {
  std::vector<double> x;  // evenly spaced from the lowest shift − 4σ to the highest + 4σ
  std::vector<double> p;  // density of P at each x
  std::vector<double> q;  // density of Q at each x
};

// The densities at `points` abscissae (2 to kMaxDensityPoints). Errors name "noise_multiplier" and
// "points"; the setting is checked by check_setting.
Result<PairDensities> pair_densities(const GroupSetting& setting, double noise_multiplier, double points);

}  // namespace dpcalc::dpsgd
