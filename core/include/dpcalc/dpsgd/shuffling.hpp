// DP-SGD with shuffling: each epoch one uniformly random permutation of the N examples, the batches
// its consecutive slices of B; T = ⌊N/B⌋ steps an epoch, the N − T·B examples left over sit the
// epoch out. Persistent shuffling draws one permutation for all E epochs, re-shuffling a new one
// each epoch. Noise N(0, σ²) per coordinate, clipping norm 1; Δ = 1 (zero-out) or 2 (substitute).
//
// Upper bound (proven; no amplification): every example is in at most one step of each epoch, so
// E epochs use it in at most E Gaussian steps of sensitivity Δ: μ-GDP with μ = √E·Δ/σ (Dong, Roth,
// Su 2019, Cor 3.3), ε(δ) exact by the analytic Gaussian (Balle & Wang 2018, Thm 8). A group of k
// examples moves each step's sum by kΔ at most when all k share one batch, and Σ_t (n_t Δ)² <= (kΔ)²
// for any split n_t of the k over an epoch's steps: μ = √E·k·Δ/σ.
//
// Lower bound (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang 2024, "How private are DP-SGD
// implementations?", ICML, and "Scalable DP-SGD: shuffling vs. Poisson subsampling", NeurIPS):
// gradients chosen so that one epoch's T noisy sums, less what the other examples add, are
// N(a·e_t, σ² I_T) when the example sits in step t (probability 1/T each) and N(b·e_t, σ² I_T) for
// its neighbour in the same seat, and N(0, σ² I_T) for both when it sits the epoch out:
//   zero-out:   the others' gradients −1, the example's +1 against 0:   a = 2, b = 1;
//   substitute: the others' gradients −1, the example's +1 against −1:  a = 2, b = 0
// (scaling the zero-out pair by Δ = 2, a = 4 against b = 2, is no pair clipped gradients produce).
// Post-processed to the largest coordinate M = max_t X_t, with γ = T·B/N the chance to take part:
//   Pr_P[M <= c] = Φ(c/σ)^{T−1} · (γ Φ((c − a)/σ) + (1 − γ) Φ(c/σ)),  likewise for Q with b   (eq. 8).
// Every event of this one-dimensional pair gives δ(ε) >= P(S) − e^ε Q(S): a lower bound on the
// sampler (docs/samplers.md, eqs. 8–10). Persistent shuffling seats the example in the same step
// every epoch: the E copies average to one epoch at σ/√E. Re-shuffling composes E independent
// epochs: the pair binned on the line of M (a post-processing) is composed with the PLD engine's
// optimistic side.
#pragma once

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

enum class ShuffleOrder { kPersistent, kReshuffled };

struct ShuffleSetting {
  double dataset_size = 0;  // N, a whole number >= 1
  double batch_size = 0;    // B, a whole number in [1, N]
  double epochs = 1;        // E, a whole number >= 1
  ShuffleOrder order = ShuffleOrder::kReshuffled;
  Relation relation = Relation::kZeroOut;
};

// The setting if valid; errors are invalid_argument on "dataset_size", "batch_size", "epochs".
Result<ShuffleSetting> check_shuffle(const ShuffleSetting& setting);

// T = ⌊N/B⌋ for a checked setting.
double shuffle_steps_per_epoch(const ShuffleSetting& checked);

struct ShuffleUpperBound {
  double epsilon = 0;  // upper bound on ε(δ): the analytic Gaussian at μ, rounded up
  double mu = 0;       // √E·k·Δ/σ
};

// The upper bound without amplification, for a group of group_size examples (1: one example).
// noise_multiplier > 0 ("noise_multiplier"), delta in (0, 1) ("delta"), group_size a whole number
// in [1, N] ("group_size"); the setting as check_shuffle checks it (its order does not matter).
Result<ShuffleUpperBound> shuffle_epsilon_upper(const ShuffleSetting& setting, double noise_multiplier, double delta,
                                                double group_size = 1);

// The one-dimensional pair of eq. 8 for one epoch (at σ/√E for persistent shuffling).
struct MaxCoordinatePair {
  double sigma = 1;          // noise standard deviation of each coordinate
  double steps = 1;          // T
  double p_shift = 2;        // a
  double q_shift = 1;        // b
  double participation = 1;  // γ = T·B/N
};
MaxCoordinatePair shuffle_max_coordinate_pair(const ShuffleSetting& checked, double noise_multiplier);

// Options of the re-shuffled lower bound (persistent shuffling and one epoch need none).
struct ShuffleLowerOptions {
  // Grid step of the privacy loss for the composition of the epochs, in (0, 10]; 0 chooses
  // kDefaultShuffleInterval, coarsened (by 4, at most 4 times) where the epochs' composition would
  // exceed the engine's grid.
  double discretization_interval = 0;
  double tail_mass_truncation = 1e-14;  // as pld::AccountingOptions (at most a tenth of delta is used)
};
inline constexpr double kDefaultShuffleInterval = 5e-4;
// Most bins of the largest coordinate for one epoch (wider bins are used beyond: still sound).
inline constexpr double kMaxShuffleBins = 400000;

struct ShuffleLowerBound {
  double epsilon_lower = 0;  // lower bound on the sampler's ε(δ) (never above the exact value)
  // The best single-epoch event found, {M > threshold} (remove direction) or {M <= threshold} (add
  // direction), and its ε: one epoch, or persistent shuffling; for re-shuffling the single epoch's
  // bound, which the composition is never reported below.
  double threshold = 0;
  bool upper_tail = true;
  double single_epoch_epsilon = 0;
  // Re-shuffled E > 1: the composition's grid (discretization_interval 0 otherwise).
  pld::Discretization discretization;
  double bins = 0;  // bins of M per epoch (0 when no composition was needed)
};

// The lower bound above at δ. Inputs as shuffle_epsilon_upper (and `options`, on
// "discretization_interval" and "tail_mass_truncation"). Errors (re-shuffled epochs only): numeric on
// "discretization_interval" when the composition needs more than the engine's grid (a given step,
// or the default coarsened 256 times), on "noise_multiplier" when the epochs' privacy loss leaves
// ±700 (ε in the hundreds). kCancelled when `progress` returns false.
Result<ShuffleLowerBound> shuffle_epsilon_lower(const ShuffleSetting& setting, double noise_multiplier, double delta,
                                                const ShuffleLowerOptions& options = {},
                                                const pld::ProgressCallback& progress = {});

}  // namespace dpcalc::dpsgd
