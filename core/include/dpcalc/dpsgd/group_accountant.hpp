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
// Calibration: the smallest noise multiplier whose tight upper bound meets a target (eps, delta),
// by bracketing and bisection on that sound forward function (eps decreases in sigma).
#pragma once

#include <optional>

#include "dpcalc/dpsgd/group_pair.hpp"
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

// Largest noise multiplier calibration searches.
inline constexpr double kMaxNoiseMultiplier = 1e4;

struct RdpOverapprox {
  double epsilon = 0;
  double order = 0;
};

struct GroupGuarantee {
  pld::EpsilonBracket tight;                    // the answer: epsilon_upper at delta
  pld::ComposedPlds tight_plds;                 // the PLDs it is read from (tight_plds)
  std::optional<RdpOverapprox> rdp_overapprox;  // absent for substitution (Sommer's method is add/remove)
  ApproxDp generic_group;                       // delta == 1: vacuous
};

// Tight upper and lower bound only (the forward function of calibration). steps: integer in
// [1, 2^53] (error on "steps"); delta in (0, 1) (on "delta"); options of the PLD engine. The
// engine's limits come back on the parameter to change: "steps", "noise_multiplier", or an option
// ("discretization_interval", "relative_accuracy", "tail_mass_truncation").
Result<pld::EpsilonBracket> tight_epsilon(const GroupSetting& setting, double noise_multiplier, double steps,
                                          double delta, const pld::ProgressCallback& progress = {},
                                          const pld::AccountingOptions& options = {});

// tight_epsilon with the PLDs it was read from (pld::epsilon_for_delta_with_plds), for what reads
// the pair's whole privacy profile (the trade-off curve) without composing again. Fields as above.
Result<pld::AnsweredEpsilon> tight_plds(const GroupSetting& setting, double noise_multiplier, double steps,
                                        double delta, const pld::ProgressCallback& progress = {},
                                        const pld::AccountingOptions& options = {});

// All methods. Errors as above, the noise multiplier's on "noise_multiplier"; `options` for the tight
// bound (the generic bound's k = 1 guarantee uses a coarser grid of its own).
Result<GroupGuarantee> group_guarantee(const GroupSetting& setting, double noise_multiplier, double steps, double delta,
                                       const pld::ProgressCallback& progress = {},
                                       const pld::AccountingOptions& options = {});

struct Calibration {
  double noise_multiplier = 0;                // smallest found whose tight upper bound is <= target epsilon
  pld::EpsilonBracket tight;                  // at that noise multiplier
  double rule_of_thumb_noise_multiplier = 0;  // k times the calibrated noise multiplier for k = 1
  // Its tight bracket at group size k; none when that noise is too small for the PLD engine to
  // represent the group's privacy loss (beyond ±700: its ε is in the hundreds).
  std::optional<pld::EpsilonBracket> rule_of_thumb;
};

// Errors: invalid_argument on "target_epsilon" (not > 0 finite); numeric on it when no noise
// multiplier up to kMaxNoiseMultiplier reaches it; the engine's errors as tight_epsilon. `options`
// for every bound.
Result<Calibration> calibrate(const GroupSetting& setting, double steps, double delta, double target_epsilon,
                              const pld::ProgressCallback& progress = {}, const pld::AccountingOptions& options = {});

}  // namespace dpcalc::dpsgd
