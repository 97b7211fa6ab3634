// DP-SGD with cyclic Poisson sampling (Choquette-Choo, Ganesh, McKenna, McMahan, Rush, Thakurta, Xu
// 2023, "(Amplified) Banded Matrix Factorization: A unified approach to private training",
// arXiv 2306.08153, Thms 4–5, where DP-SGD is the 1-banded case): the N examples are split into b
// fixed bands, step t uses band t mod b only, and each example of that band enters the batch
// independently with probability q. An example's data is read only in the steps of its band, at
// most ⌈T/b⌉ of the T steps, each a Poisson-subsampled Gaussian step; the others are
// post-processing. So T steps are Poisson DP-SGD with ⌈T/b⌉ steps (an upper bound, attained by
// an example of the first band, so also the lower bound's composition).
#pragma once

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

// ⌈T/b⌉: total_steps T and bands b whole numbers in [1, 2^53] (errors invalid_argument on "steps"
// and "bands").
Result<double> cyclic_poisson_steps(double total_steps, double bands);

// The composition above: the Poisson step pair at rate q (truncated_poisson.hpp: poisson_step_pair)
// ⌈T/b⌉ times. Errors as cyclic_poisson_steps, and on "sampling_rate" (in (0, 1]) and
// "noise_multiplier" (> 0).
Result<pld::CompositionItem> cyclic_poisson_item(double sampling_rate, double noise_multiplier, double total_steps,
                                                 double bands, Relation relation);

}  // namespace dpcalc::dpsgd
