// Groups known by their dominating pair only: a Poisson-subsampled Gaussian's group of k records is
// a mixture of Gaussians (Schuchardt, Stoian, Kosmala, Günnemann 2024; sampled_group.hpp) with no
// closed form, so op 'group' composes that pair once with the PLD engine at the request's δ, and
// its trade-off reads the same PLDs. Groups of a mechanism with no group transform at all (sampling
// without replacement, other noise under Poisson sampling, a Gaussian mixture): the engine composes
// one record's pair, and group privacy is applied at every point of its privacy profile
// (pld/group_over_profile.hpp).
#pragma once

#include <memory>

#include "dpcalc/api/value.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// True when the group mechanism `grouped` (Mechanism::for_group) has neither a pure ε, nor Gaussian
// noise, nor a zCDP bound: only its pair answers for it.
bool needs_engine(const mechanisms::Mechanism& grouped);

// An error of the engine about the group's pair in the request's words: a parameter of the
// mechanism stays on it (its innermost parameter's field), anything else about the pair (its width,
// its masses) goes to the mechanism's noise field; the grid options to "discretization" when the
// request gives one, else to "k" (the automatic grid grows with the group).
Error in_group_terms(Error error, const mechanisms::Mechanism& mechanism, const Value& request);

// The PLDs of the ε answer of a group request whose group needs the engine: those group_op kept
// when it answered this request (kept_answer.hpp), else composed (the same function on the same
// inputs). The request is one group_op has accepted. For a mechanism with no group transform they
// are one record's PLDs (at δ/k), which group_by_profile searched.
Result<std::shared_ptr<const pld::AnsweredEpsilon>> answered_group_request(const Value& request,
                                                                           const pld::ProgressCallback& progress);

// group_op's answer for such a group: {guarantee (ε at the request's δ), epsilon_upper,
// epsilon_lower, discretization, grid_size, truncated_mass, method, citation, note}.
Result<Value> group_by_engine(const Value& request, const pld::ProgressCallback& progress);

// group_op's answer for a mechanism with no group transform (for_group is unsupported), by group
// privacy over its privacy profile (pld::best_group_point): {guarantee (kε at the request's δ),
// per_record (the (ε, δ) of one record it rests on), discretization, grid_size, truncated_mass,
// method, citation, note}. A pure ε₀-DP mechanism asked without delta: {guarantee (pure kε₀),
// per_record (pure ε₀), method, citation, note}. Errors: delta required otherwise; "numeric" on
// "delta" when no per-record ε meets it; the engine's, on the request's fields (in_group_terms).
Result<Value> group_by_profile(const Value& request, const mechanisms::Mechanism& mechanism, double group_size,
                               const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
