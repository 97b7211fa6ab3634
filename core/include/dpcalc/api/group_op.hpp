// {op:'group', k, guarantee} and {op:'group', k, mechanism, delta?}: what a guarantee or a mechanism
// gives a group of k records (docs/API.md). A guarantee: the group privacy theorems of its
// definition. A mechanism: the mechanism a group sees (Mechanism::for_group) in closed form where it
// has one (pure ε, exact Gaussian noise, a zCDP bound), else its pair composed once by the PLD engine;
// a mechanism with no group transform: group privacy over its privacy profile (group_engine.cpp).
// With unknown 'k', the largest group that meets a target (group_solve.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/numeric_answer.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/api/solve.hpp"

namespace dpcalc::api {

struct GroupRequest {
  std::string at;
  double k = 1;
  std::optional<Guarantee> guarantee;
  std::string guarantee_path;
  std::optional<MechanismAt> mechanism;
  RelationAt relation;
  std::optional<double> delta;  // checked in (0, 1) where it is read
  Discretization discretization;
  // unknown 'k': the target the group must meet (δ only where the group guarantee has one)
  bool solve = false;
  double target_epsilon = 0;
  std::optional<double> target_delta;
};

// What Gaussian noise at kΔ is compared with: the generic bounds of its one-record noise.
struct GaussianComparison {
  ApproxDp per_record;         // its (ε, δ) for one record
  ApproxDp generic_approx;     // group privacy of that (ε, δ)
  double rho = 0;              // k²ρ, the zCDP group bound
  ApproxDp generic_zcdp;       // ... converted to (ε, δ)
  double composition_rho = 0;  // kρ: k-fold composition (a Gaussian with σ/√k)
  ApproxDp composition;
};

struct GroupAnswer : AnswerBase {
  enum class Kind { kGuarantee, kPure, kGaussian, kZcdp, kEngine, kProfile, kPureProfile, kSolved };
  Kind kind = Kind::kGuarantee;
  Guarantee guarantee;
  MethodInfo method{"", "", ""};
  double power_of_two = 1;              // an RDP curve's group: 2^c
  std::size_t dropped = 0;              // ... and the orders it drops
  std::optional<double> rho;            // kGaussian, kZcdp: the group's zCDP bound
  GaussianComparison gaussian;          // kGaussian
  NumericAnswer numeric;                // kEngine: the group's pair composed; kProfile: one record's
  std::optional<Guarantee> per_record;  // kProfile, kPureProfile
  SolvedAnswer solved;                  // kSolved
  // What the trade-off reads.
  GroupRequest request;
  mechanisms::MechanismPtr grouped;  // the mechanism the group sees; null without a group transform
};

Result<GroupRequest> read_group(const Value& request, const std::string& at);
Result<GroupAnswer> answer_group(const GroupRequest& request, const Progress& progress);
Value write_group(const GroupAnswer& answer);
Result<Explained> explain_group(const GroupAnswer& answer, const tradeoff::TradeoffOptions& options,
                                const Progress& progress);
Result<bool> group_explainable(const GroupRequest& request);

// The numeric parts (group_engine.cpp): a group known by its pair only (a Poisson-subsampled
// Gaussian's group of k records, Schuchardt, Stoian, Kosmala, Günnemann 2024): the pair composed
// once at the request's δ; a mechanism with no group transform: one record's PLDs and group
// privacy at the best point of its privacy profile (pld/group_over_profile.hpp).
bool needs_engine(const mechanisms::Mechanism& grouped);
Result<GroupAnswer> group_by_engine(const GroupRequest& request, GroupAnswer answer, const Progress& progress);
Result<GroupAnswer> group_by_profile(const GroupRequest& request, GroupAnswer answer, const Progress& progress);
Result<Explained> explain_group_over_profile(const GroupAnswer& answer, const tradeoff::TradeoffOptions& options);
// An engine error about the group's pair on the request's paths: a parameter of the mechanism stays
// on it, anything else about the pair on its noise; the grid options on the discretization when the
// request gives one, else on k (the automatic grid grows with the group).
Error in_group_terms(Error error, const GroupRequest& request);

Result<SolvedAnswer> group_solve(const GroupRequest& request, const Progress& progress);

}  // namespace dpcalc::api
