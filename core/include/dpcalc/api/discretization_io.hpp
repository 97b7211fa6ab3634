// Reading the `discretization` of numeric requests — the grid step (a number), or {interval?,
// relative_accuracy?, tail_mass_truncation?} — into the PLD engine's options, and putting the
// engine's errors about its options back where the request has them.
#pragma once

#include <string>

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// The options of `request` (its `discretization`; `defaults` for what it leaves out).
Result<pld::AccountingOptions> read_discretization(const Value& request, const pld::AccountingOptions& defaults = {});

// An engine error in the request's words: its options ("discretization_interval",
// "relative_accuracy", "tail_mass_truncation") become "discretization" (the grid step given as a
// number) or "discretization.<name>" in the message, and in the field when the request gives a
// discretization (without one, the engine names an option only when its automatic grid is at
// fault, which the caller restates on a field of its own).
Error discretization_in_request_terms(Error error, const Value& request);

// A sentence for the result when the engine's bracket stayed wider than the accuracy asked for
// (why, and how to narrow it); empty when it did not.
std::string accuracy_note(const pld::EpsilonBracket& answer, const pld::AccountingOptions& options);

// Replaces every occurrence of `from` in `text` by `to` (for engine words in messages).
std::string replace_all(std::string text, const std::string& from, const std::string& to);

}  // namespace dpcalc::api
