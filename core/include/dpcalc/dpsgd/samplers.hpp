// How DP-SGD draws its batches: one Sampler per way, each in its own file, registered once in
// samplers.cpp. A sampler reads the parameters of its batches (Batches), turns epochs into steps,
// says which neighbouring relations and group sizes its analysis covers, and bounds the training's
// ε(δ) from above (the guarantee, labelled proven or not) and from below (a pair that clipped
// gradients of the sampler produce: a lower bound on the sampler, not on an analysis).
// docs/samplers.md restates the math of each.
//
// Notation: N examples, batch size B (the expected batch for the Poisson samplers and balls-and-bins),
// T steps, E epochs, noise multiplier σ (noise standard deviation over the clipping norm, which is 1).
// Relations between neighbouring datasets (mechanisms/mechanism.hpp: Relation):
//  * add/remove: one example added or removed;
//  * zero-out: one example replaced by one whose clipped gradient is 0 (dp_accounting's
//    REPLACE_SPECIAL). It takes part in sampling as any example does. Under Poisson sampling (and
//    balls-and-bins) it has the add/remove pair; under samplers with a fixed batch size it does not;
//  * substitute: one example replaced by any other (replace-one); the sum of gradients moves by up
//    to Δ = 2 when the replaced example is in the batch.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/dpsgd/group_pair.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

using mechanisms::Relation;

// The parameters of a training loop's batches; each sampler reads those it needs (nullopt: not given).
struct Batches {
  std::optional<double> dataset_size;    // N
  std::optional<double> batch_size;      // B (expected for the Poisson samplers and balls-and-bins)
  std::optional<double> sampling_rate;   // q
  std::optional<double> max_batch_size;  // C, truncated Poisson
  std::optional<double> bands;           // b, cyclic Poisson
  bool reshuffle = true;                 // shuffling: a new permutation every epoch
};

// A stretch of training with one noise and one batch setting.
struct Phase {
  Batches batches;
  double noise_multiplier = 0;
  double steps = 0;
};

// Whether `name` is a parameter of a phase: a member of Batches, "noise_multiplier" or "steps".
bool is_phase_parameter(const std::string& name);

struct Training {
  std::vector<Phase> phases;  // one for a single (σ, q, T); several for a schedule
  double group_size = 1;      // k examples protected together
  Relation relation = Relation::kZeroOut;
};

enum class BoundStatus {
  kTight,      // proven, and the lower bound within the asked accuracy of it
  kBracket,    // proven, but only [lower, upper] is known
  kNotProven,  // the upper bound rests on an assumption (or there is none)
};

struct SamplerBounds {
  std::optional<double> epsilon_upper;  // upper bound on ε(δ) (nullopt: no bound)
  std::optional<double> epsilon_lower;  // lower bound on the sampler's ε(δ) (nullopt: none computed)
  bool proven = true;                   // epsilon_upper is a theorem for this input
  // The analysis' own bracket, where its lower end bounds the analysis' pair and not the sampler.
  std::optional<pld::EpsilonBracket> analysis;
  // The engine's bracket the upper bound was read from (its grid and accuracy), when numeric.
  std::optional<pld::EpsilonBracket> engine;
  MethodInfo upper_method{"", "", ""};
  MethodInfo lower_method{"", "", ""};
  std::string note;  // what a reader must know beside the numbers
  // The PLDs of the upper bound's composition, for what reads its whole privacy profile.
  std::shared_ptr<const pld::ComposedPlds> plds;
};

// What is wanted of a sampler's bounds: calibration and solving need the upper bound only.
enum class BoundsWanted { kUpperOnly, kBoth };

// The status of `bounds`: kNotProven unless proven; kTight when both ends are known and
// upper − lower <= 4 relative_accuracy upper (the engine's own criterion, accountant.hpp).
BoundStatus bound_status(const SamplerBounds& bounds, double relative_accuracy);
const char* bound_status_name(BoundStatus status);  // "tight", "bracket", "not_proven"

class Sampler {
 public:
  virtual ~Sampler() = default;
  virtual const char* name() const = 0;   // e.g. "truncated_poisson"
  virtual const char* title() const = 0;  // a few words for people
  virtual bool covers(Relation relation) const = 0;
  virtual Relation default_relation() const = 0;
  virtual bool has_group_analysis() const = 0;
  // Whether a schedule of several phases is composed (each phase's pair).
  virtual bool has_phases() const { return false; }
  // Whether bounds() gives the PLDs of its upper bound (SamplerBounds::plds) for a full answer.
  virtual bool has_privacy_loss_distributions() const { return false; }
  // The group pair's setting of one step (group_pair.hpp) for the samplers whose upper bound is it:
  // the phase's draw, k and the pair's relation for `relation`; nullopt for the others.
  virtual std::optional<GroupSetting> group_setting(const Phase&, double, Relation) const { return std::nullopt; }
  // The batches with what this sampler needs present and in range, the rate filled in where it
  // follows from N and B. Errors are invalid_argument on the parameter's name.
  virtual Result<Batches> check(const Batches& batches) const = 0;
  // Steps of one epoch (a pass over the data): N/B or 1/q, ⌊N/B⌋ for the samplers that walk the
  // data, for checked batches.
  virtual double steps_per_epoch(const Batches& checked) const = 0;
  // The steps of `epochs` epochs (> 0): ⌈E·N/B⌉ (⌈E/q⌉), or ⌈E·⌊N/B⌋⌉ for the samplers that walk the
  // data. Errors on "epochs" beyond 2^53 steps.
  Result<double> steps_for_epochs(const Batches& checked, double epochs) const;
  // Bounds on ε(δ) for a training check_training accepted. Errors: on "delta"; the engine's, on the
  // phase's parameter ("steps", "noise_multiplier"; Error::item the phase's index) or an option's
  // name; kCancelled when `progress` returns false.
  virtual Result<SamplerBounds> bounds(const Training& checked, double delta, const pld::AccountingOptions& options,
                                       const pld::ProgressCallback& progress, BoundsWanted wanted) const = 0;
};

// Every sampler, in the order the side-by-side lists them.
const std::vector<const Sampler*>& samplers();
// The sampler called `name`, or nullptr.
const Sampler* find_sampler(const std::string& name);
// The samplers' names, quoted and joined ("'poisson', 'fixed_batch' and …"), of those `which` accepts.
std::string sampler_names(bool (*which)(const Sampler&));

// The training if `sampler` covers it: its relation (error on "relation" naming those it covers),
// its group size (error on "group_size" when it has no group analysis, naming the samplers that
// have one), one phase unless it has phases (error on "phases"), and each phase's noise multiplier
// (> 0) and steps (whole, in [1, 2^53]) (errors on their names, Error::item the phase's index, also
// when there is one). Each phase's batches must be the sampler's check() of them.
Result<Training> check_training(const Sampler& sampler, const Training& training);

// For the samplers' check(): the parameter required and in range (errors on its name, saying what
// it is). N: a whole number >= 1; B: a whole number in [1, N]; the rate: sampling_rate in (0, 1], or
// from N and B when it is not given, `bands`·B/N (at most 1), where bands is 1 but for cyclic Poisson.
Result<double> required_dataset_size(const Batches& batches);
Result<double> required_batch_size(const Batches& batches, double dataset_size);
Result<double> rate_or_batch_share(const Batches& batches, double bands = 1);
// The check() of a sampler that takes N and B and nothing else: both required and in range.
Result<Batches> with_dataset_and_batch(const Batches& batches);
// For the samplers that use N only to turn B into a rate: an error on "dataset_size" when it is
// given with sampling_rate (it would say nothing).
Result<bool> dataset_size_only_with_batch(const Batches& batches);

const Sampler& poisson_sampler();
const Sampler& fixed_batch_sampler();
const Sampler& truncated_poisson_sampler();
const Sampler& shuffle_sampler();
const Sampler& balls_and_bins_sampler();
const Sampler& cyclic_poisson_sampler();

}  // namespace dpcalc::dpsgd
