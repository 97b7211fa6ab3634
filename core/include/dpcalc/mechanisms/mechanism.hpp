// The mechanism model: every mechanism the calculator accounts for is one value of this type
// family, defined in one file of core/src/mechanisms/ and listed once in registry.cpp. A mechanism
// says what it knows, and every op asks it rather than knowing mechanisms by name:
//   * its parameters and their checks (MechanismType: name, parameters, factory);
//   * its dominating pair for each neighbouring relation it supports, for the PLD engine, which
//     itself sees privacy-loss pairs only (Zhu, Dong, Wang 2022, Def. 7);
//   * its guarantees where they are known in closed form: pure ε, exact Gaussian noise (μ-GDP,
//     Dong, Roth, Su 2019), zCDP, its Rényi DP curve;
//   * its group transform: the mechanism that a group of k records sees;
//   * the parameters calibration may solve for.
// Mechanisms are immutable and shared (MechanismPtr); an invalid one cannot be made.
#pragma once

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/privacy_loss.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::mechanisms {

// Neighbouring datasets: one record added or removed, one record replaced by another, or one record
// replaced by a null record that contributes nothing (a zero gradient) but takes part in sampling as
// any record does (zero-out; dp_accounting's REPLACE_SPECIAL). A mechanism without sampling, or with
// Poisson sampling, sees the null record as no record: its zero-out pair is its add/remove pair.
// Zero-out is one substitution, so the substitute pair bounds it wherever there is no add/remove pair
// (sampling without replacement, where the null record takes a seat).
enum class Relation { kAddRemove, kSubstitute, kZeroOut };
const char* relation_name(Relation relation);  // "add_remove", "substitute", "zero_out"

// What the PLD engine composes for `count` uses of a mechanism: `pair` composed `times` times, and
// what that rests on when results should say so ("" otherwise).
struct ComposedUses {
  pld::DominatingPair pair;
  double times = 1;
  std::string analysis;
};

class Mechanism;
using MechanismPtr = std::shared_ptr<const Mechanism>;

// Gaussian noise of standard deviation `sigma` on a query of sensitivity `sensitivity`: the
// mechanism is exactly μ-GDP with μ = Δ/σ, and its (ε, δ) curve is the analytic Gaussian's
// (Balle & Wang 2018, Thm 8).
struct GaussianNoise {
  double sigma = 1;
  double sensitivity = 1;
};

// One parameter of a mechanism type, as requests write it.
struct Parameter {
  enum class Kind { kNumber, kNumbers, kMechanism, kBoolean };
  std::string name;     // "scale"
  std::string meaning;  // for the docs: "noise scale b > 0"
  Kind kind = Kind::kNumber;
  std::optional<double> default_value;  // used when the request leaves the parameter out (a boolean's: 1 or 0)
  // A number that may be left out with no default: the mechanism is then another of its kind (the
  // discrete Gaussian without truncation_bound is not truncated), and Arguments holds no value for it.
  bool optional = false;

  static Parameter number(std::string name, std::string meaning, std::optional<double> default_value = {}) {
    return Parameter{std::move(name), std::move(meaning), Kind::kNumber, default_value};
  }
  static Parameter optional_number(std::string name, std::string meaning) {
    return Parameter{std::move(name), std::move(meaning), Kind::kNumber, std::nullopt, true};
  }
  static Parameter numbers(std::string name, std::string meaning) {
    return Parameter{std::move(name), std::move(meaning), Kind::kNumbers, std::nullopt};
  }
  static Parameter mechanism(std::string name, std::string meaning) {
    return Parameter{std::move(name), std::move(meaning), Kind::kMechanism, std::nullopt};
  }
  static Parameter boolean(std::string name, std::string meaning, bool default_value) {
    return Parameter{std::move(name), std::move(meaning), Kind::kBoolean, default_value ? 1.0 : 0.0};
  }
};

// A parameter that calibration may solve for (more of it is more noise): `unknown` names the
// unknown in a calibration request, `parameter` the parameter it sets, in units of the sensitivity
// when `per_sensitivity` (the noise multiplier σ/Δ of DP-SGD sets σ); `largest` is its largest
// value, where it is bounded (randomized response's probability p of a random report: 1).
struct Calibratable {
  std::string unknown;
  std::string parameter;
  bool per_sensitivity = false;
  double largest = std::numeric_limits<double>::infinity();
};

// The parameter values of one mechanism, by name. The checks of the factory report errors on the
// parameter's name ("sigma"; an element of a list parameter as Error::item).
struct Arguments {
  std::map<std::string, double> numbers;
  std::map<std::string, std::vector<double>> lists;
  std::map<std::string, MechanismPtr> mechanisms;
  std::map<std::string, bool> flags;

  double number(const std::string& parameter) const { return numbers.at(parameter); }
  // An optional parameter's value, nullopt when it was left out.
  std::optional<double> optional_number(const std::string& parameter) const {
    const auto found = numbers.find(parameter);
    return found == numbers.end() ? std::nullopt : std::optional<double>(found->second);
  }
  bool flag(const std::string& parameter) const { return flags.at(parameter); }
};

// A kind of mechanism: its name in requests, what it is, its parameters and its factory.
struct MechanismType {
  std::string name;     // "laplace"
  std::string title;    // how sentences name it: "Laplace mechanism"
  std::string meaning;  // one line for the docs
  std::vector<Parameter> parameters;
  std::vector<Calibratable> calibratable;
  Result<MechanismPtr> (*create)(const Arguments& arguments);
  // What for_group() rests on, for results that report it ("" where there is no group transform).
  MethodInfo group_method{"", "", ""};
  // True when op 'group' answers a mechanism of this type numerically (its group is known by its
  // pair only, or through its privacy profile): such requests run in the numeric lane.
  bool numeric_group = false;

  // Whether calibration may leave `parameter` out and solve for it.
  bool calibrates(const std::string& parameter) const {
    for (const Calibratable& solvable : calibratable) {
      if (solvable.parameter == parameter) return true;
    }
    return false;
  }
};

class Mechanism {
 public:
  explicit Mechanism(const MechanismType& type, Arguments arguments) : type_(&type), arguments_(std::move(arguments)) {}
  virtual ~Mechanism() = default;
  Mechanism(const Mechanism&) = delete;
  Mechanism& operator=(const Mechanism&) = delete;

  const MechanismType& type() const { return *type_; }
  // The checked parameter values it was made from (defaults filled in).
  const Arguments& arguments() const { return arguments_; }

  // The relation whose pair it uses for `relation`: zero-out by its add/remove pair where it has one,
  // else by its substitute pair (see Relation); the others are their own.
  Relation pair_relation(Relation relation) const;
  // The neighbouring relations it has a dominating pair for.
  bool supports(Relation relation) const { return has_pair(pair_relation(relation)); }
  // Its dominating pair under `relation` (one it supports), for the PLD engine: the engine derives
  // both directions from it.
  pld::DominatingPair pair(Relation relation) const { return pair_under(pair_relation(relation)); }

  // ε such that it is ε-DP, rounded up; nullopt when it is not pure DP.
  virtual std::optional<double> pure_epsilon() const { return std::nullopt; }
  // The Gaussian noise it is exactly; nullopt when it is not a Gaussian mechanism.
  virtual std::optional<GaussianNoise> gaussian() const { return std::nullopt; }
  // A zCDP bound where one is known: the Gaussian's Δ²/(2σ²) (Bun & Steinke 2016, Prop 1.6), pure
  // ε-DP's ε²/2 (ibid., Prop 1.4); nullopt otherwise.
  virtual std::optional<Zcdp> zcdp() const;
  // ε(α) of its Rényi DP curve, an upper bound, at order α = 1 (the KL divergence), α > 1 or
  // α = +infinity (the pure ε; +infinity where the privacy loss is unbounded), +infinity where the
  // order is unusable; nullopt when the calculator knows no curve for it (rdp/rdp_function.hpp).
  virtual std::optional<double> rdp_epsilon(double order) const;
  // What rdp_epsilon() rests on (a method of core/include/dpcalc/rdp/); empty where it has none.
  virtual MethodInfo rdp_method() const;
  // Whether rdp_epsilon() bounds the mechanism under `relation` (one it supports): its curve is that
  // of its pair, which is the same under every relation it supports (the sensitivity is the
  // relation's), unless the pair depends on the relation (Poisson subsampling).
  virtual bool has_rdp_under(Relation) const { return true; }

  // True when its dominating pair dominates `other`'s (Zhu, Dong, Wang 2022, Def. 7) by a rule
  // known within its family (a Gaussian with larger Δ/σ); false when no rule says so.
  virtual bool dominates(const Mechanism& other) const;

  // The mechanism that a group of `group_size` records sees (a whole number ≥ 1): unsupported
  // (on "type") when no group transform is known.
  virtual Result<MechanismPtr> for_group(double group_size) const;
  // What for_group() rests on, for results that report it: its type's, unless it depends on the
  // mechanism inside (a subsampled mechanism's group).
  virtual MethodInfo group_method() const { return type().group_method; }
  // The largest group_size for_group accepts: groups whose pair grows with the group (a subsampled
  // mechanism's, k + 1 components) are limited; others are not.
  virtual double max_group_size() const;

  // True when some pair of neighbouring inputs attains its dominating pair, so that a lower bound
  // computed from the pair bounds the mechanism itself. False where the pair only dominates (the
  // exponential mechanism's envelope of every ε-bounded-range pair, permute-and-flip's ε-DP pair):
  // lower ends then bound the composition of the pairs, and results say so.
  virtual bool pair_is_attained() const { return true; }
  // Why it has no finite Rényi DP or zCDP bound although its kind has one, as a sentence (the
  // truncated discrete Gaussian, whose privacy loss is infinite with positive probability), and the
  // parameter that makes it so; empty where nothing does.
  virtual std::pair<std::string, std::string> unbounded_loss() const { return {}; }
  // True when it releases its input with no noise (a noise parameter of 0): no guarantee at all.
  virtual bool reveals_input() const { return false; }
  // What its dominating pair rests on when results should say so (the exponential mechanism's
  // bounded-range analysis); "" otherwise.
  virtual std::string pair_analysis() const { return ""; }
  // `count` uses (a whole number >= 1) for the PLD engine: its pair `count` times, unless the uses
  // together have a tighter pair of their own (exponential selections fixed in advance).
  ComposedUses composed_uses(Relation relation, double count) const {
    return uses_under(pair_relation(relation), count);
  }

  // The parameters calibration may solve for (the type's own, or those of a mechanism inside).
  virtual std::vector<Calibratable> calibratable() const { return type().calibratable; }
  // This mechanism with the calibratable `unknown` set to `value`.
  virtual Result<MechanismPtr> with_noise(const std::string& unknown, double value) const;
  // The sensitivity that noise multipliers are relative to (1 where there is none).
  virtual double sensitivity() const { return 1; }

  // The parameter that sets the rate at which a record is in the data it runs on, for a mechanism
  // run on a subsample (subsampled.hpp); "" for the others.
  virtual std::string sampling_rate_parameter() const { return ""; }
  // The parameter that sets how much noise it adds, as errors about its size name it: the first of
  // calibratable() (the innermost mechanism's, for a wrapper), or "type" when it has none.
  std::string noise_parameter() const;

 protected:
  // Whether it has a pair under `relation`, add/remove or substitute (zero-out is resolved above).
  virtual bool has_pair(Relation relation) const { return relation == Relation::kAddRemove; }
  // Its pair under `relation`, one has_pair() accepts.
  virtual pld::DominatingPair pair_under(Relation relation) const = 0;
  // composed_uses under a relation has_pair() accepts.
  virtual ComposedUses uses_under(Relation relation, double count) const {
    return {pair_under(relation), count, pair_analysis()};
  }

 private:
  const MechanismType* type_;
  Arguments arguments_;
};

// `count` uses of a mechanism (a whole number from 1 to 2^53).
struct Use {
  MechanismPtr mechanism;
  double count = 1;
};

// The mechanism made by `type` from these parameter values, or the first failed check.
Result<MechanismPtr> create(const MechanismType& type, Arguments arguments);

// The noise of additive noise on a query of sensitivity Δ (already checked): positive, and large
// enough that Δ/noise is finite (1e-310 next to Δ = 1 adds no meaningful noise).
Result<double> check_noise(double noise, double sensitivity, const std::string& field);

// ε-DP run on a subsample that holds each record with probability `rate` (Poisson sampling under
// add/remove, or sampling without replacement at rate m/n under substitution) is
// ln(1 + rate (e^ε − 1))-DP (Balle, Barthe, Gaboardi 2018); rounded up.
double amplified_epsilon(double epsilon, double rate);

// Error for an operation the mechanism does not support ("… has no closed form …"), on "type".
Error not_supported(const Mechanism& mechanism, const std::string& what);

}  // namespace dpcalc::mechanisms
