// The PLDs of the last numeric ε answer, kept for the trade-off of the same request (tradeoff_op):
// the page asks for the answer, then for what it means to an attacker, and the second request reads
// the PLDs of the first instead of composing them again. One entry, replaced by the next ε answer.
// An answer made of several ε answers (a databases request with method 'pld': one per footprint)
// keeps them as parts of that entry, each under its key (the footprint).
// What is kept is exactly what the trade-off would compute without it (the same function on the
// same inputs, pld::epsilon_for_delta_with_plds), so a response never depends on what ran before;
// only its time does. A forward request always computes: only the trade-off reads the entry.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::api {

// The entry holds at most this many masses in all (a part that would exceed it is not kept): it
// then costs at most 2^22 doubles (32 MB) beside the next computation, which the engine's limits
// leave room for (kMaxGridPoints = 2^21 per PLD in pld.hpp, 1 GB of wasm memory). That holds the
// four footprints of a databases answer refined to 2^18 points each, or one answer at 2^20.
inline constexpr std::size_t kMaxKeptMasses = std::size_t{1} << 22;

// Keeps `answered`, the ε answer of the forward request `request` (or of its part `part`) and its
// PLDs: beside the parts kept for the same request (replacing the one of the same key), else in
// place of the entry kept so far, which is freed first.
void keep_answer(const Value& request, pld::AnsweredEpsilon answered, const std::vector<double>& part = {});

// The answer kept for `request` (the same request, its fields in any order) and `part`, or nullptr.
std::shared_ptr<const pld::AnsweredEpsilon> kept_answer(const Value& request, const std::vector<double>& part = {});

}  // namespace dpcalc::api
