// DP-SGD for a group of k examples over T steps, by the methods Sommer (2021, "Group Privacy for Deep
// Learning with Differential Privacy") compares:
//  * tight: the worst-case pair (group_pair.hpp) composed T times with the PLD engine, upper and
//    lower bound (Doroshenko et al. 2022; Koskela et al. 2020);
//  * Sommer's RDP over-approximation: the whole group as one example sampled with probability
//    q_k = 1 - Pr[J = 0] and sensitivity k, i.e. a Poisson-subsampled Gaussian with noise multiplier
//    sigma / k (Mironov, Talwar, Zhang 2019), converted to (eps, delta) (Balle et al. 2020, Thm 21).
//    Sommer calls it "an upper bound (someone will prove that one day)": unproven for k > 1 (for
//    k = 1 it is the standard RDP accountant of DP-SGD, a proven bound for Poisson sampling);
//  * generic group privacy of the k = 1 guarantee (tight PLD at the requested delta):
//    (k eps, delta (e^{k eps} - 1)/(e^eps - 1)) (Vadhan 2017, Lemma 2.2), usually vacuous.
#pragma once

#include <optional>

#include "dpcalc/dpsgd/group_pair.hpp"
#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::dpsgd {

inline constexpr MethodInfo kTightMethod{
    "Tight: the group's worst-case Gaussian mixture composed with privacy loss distributions",
    "Schuchardt, Stoian, Kosmala, Günnemann 2024; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "schuchardt2024unified doroshenko2022connect"};
inline constexpr MethodInfo kRdpOverapproxMethod{
    "RDP over-approximation: sampling probability 1 − Pr[J = 0], noise multiplier σ/k",
    "Sommer 2021; Mironov, Talwar, Zhang 2019; Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21",
    "sommer2021group mironov2019renyi balle2020hypothesis"};
inline constexpr MethodInfo kGenericGroupMethod{"Generic group privacy of the k = 1 guarantee",
                                                "Vadhan 2017, Lemma 2.2", "vadhan2017complexity"};

struct RdpOverapprox {
  double epsilon = 0;
  double order = 0;
};

// The methods a single-phase answer compares its tight bound with.
struct ComparedMethods {
  std::optional<RdpOverapprox> rdp_overapprox;  // absent for substitution (Sommer's method is add/remove)
  ApproxDp generic_group;                       // delta == 1: vacuous
};

// The tight method's composition: the worst-case pair `steps` times. Errors: the setting's
// (check_setting), on "noise_multiplier" (> 0) and "steps" (whole, in [1, 2^53]).
Result<pld::CompositionItem> group_item(const GroupSetting& setting, double noise_multiplier, double steps);

// The other methods at the setting's group size, given the training's own upper bound at k = 1
// (`one_example_epsilon` at `delta`, the ε a request for one example answers, so that the generic
// row starts from the same number). Inputs as group_item and delta in (0, 1).
ComparedMethods compared_methods(const GroupSetting& setting, double noise_multiplier, double steps, double delta,
                                 double one_example_epsilon);

// The engine's errors about the items of a training, one per phase, in its terms: an item's count is
// the phase's steps, its pair's parameter the phase's noise multiplier (Error::item stays the phase);
// errors already on a phase's parameter (samplers.hpp: is_phase_parameter) and the options keep
// their names.
Error in_training_terms(Error error);

}  // namespace dpcalc::dpsgd
