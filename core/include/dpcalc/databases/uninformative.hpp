// An adversary with an uninformative prior (Hartmann, Bindschaedler, West 2022, "On the Choice of
// Databases in Differential Privacy Composition", Sec. V-B): H0 "the person is in none of the n
// databases" (b = 0) against H1 "in at least one, nothing more known" (b uniform over the 2^n − 1
// non-zero membership vectors). With P_u = 2^{-n} Σ_b P_b — every database Poisson-subsampled at
// rate 1/2 — P_1 = (2^n P_u − P_0)/(2^n − 1), and for the hockey-stick divergence
// H_a(P‖Q) = sup_S P(S) − a Q(S) (checked by enumeration in tests/core/databases_uninformative_test.cpp):
//   H_{e^ε}(P_1‖P_0) = 2^n/(2^n − 1) · H_{e^{ε1}}(P_u‖P_0),               e^{ε1} = (1 + (2^n − 1) e^ε)/2^n
//   H_{e^ε}(P_0‖P_1) = (2^n − 1 + e^ε)/(2^n − 1) · H_{e^{ε2}}(P_0‖P_u),   e^{ε2} = 2^n e^ε/(2^n − 1 + e^ε)
// Routes (the answer is never above the worst case, composing everything, which holds against every
// pair of hypotheses: Hartmann et al. 2022, Thm 1):
//  * PLD: compose the subsampled PLDs, read each direction at its own ε1, ε2 and map back (tight up
//    to the PLD's bracket);
//  * any composition theorem: amplify each database's (ε, δ) by subsampling at 1/2 (Balle, Barthe,
//    Gaboardi 2018, Thm 8: ε' = ln(1 + (e^ε − 1)/2), δ' = δ/2), compose to (ε_u, δ_u), map back;
//  * pure releases with basic composition: the closed form of Hartmann et al. 2022, Corollary 7,
//    ε = ln((Π_i (1 + e^{ε_i}) − 1)/(2^n − 1)) (and the smaller reverse direction
//    ln((2^n − 1)/(Π_i (1 + e^{−ε_i}) − 1)) from P_b >= e^{−|b|ε} P_0).
// Everything is in log space, so n = 10^6 databases work.
#pragma once

#include <string>
#include <vector>

#include "dpcalc/databases/composer.hpp"

namespace dpcalc::databases {

inline constexpr MethodInfo kCorollary7{"Uninformative prior, closed form (basic composition)",
                                        "Hartmann, Bindschaedler, West 2022, Cor. 7", "hartmann2022choice"};
inline constexpr MethodInfo kUninformativeSubsampling{
    "Uninformative prior via subsampling at 1/2",
    "Hartmann, Bindschaedler, West 2022, Sec. V-B; Balle, Barthe, Gaboardi 2018, Thm 8",
    "hartmann2022choice balle2018privacy"};

// ε of the first direction for a given ε1 >= 0 (or any real ε1 > −n ln 2): ln((2^n e^{ε1} − 1)/(2^n − 1)).
double first_direction_epsilon(double epsilon_subsampled, double databases);
// ε of the second direction for a given ε2 in [0, n ln 2): ln(e^{ε2} (2^n − 1)/(2^n − e^{ε2})).
double second_direction_epsilon(double epsilon_subsampled, double databases);
// δ factor of the second direction: 2^n/(2^n − e^{ε2}) (the first one's is 2^n/(2^n − 1), smaller).
double second_direction_delta_factor(double epsilon_subsampled, double databases);

struct Uninformative {
  Composed guarantee;
  bool capped = false;  // the worst case was smaller and is reported instead
  const MethodInfo* info = nullptr;
  std::string note;
};

// `worst_case` is the classic composition of every database with the same method.
// Errors: unsupported on the class's release field for releases a route cannot amplify (e.g. a
// Gaussian under zCDP, several queries of a non-Gaussian release under PLD); invalid_argument on
// "delta" when the target cannot be met.
Result<Uninformative> uninformative(const std::vector<DatabaseClass>& classes, const Composed& worst_case,
                                    const MethodOptions& options);

}  // namespace dpcalc::databases
