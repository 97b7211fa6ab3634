// Reading the `discretization` of numeric requests — the grid step (a number), or {interval?,
// relative_accuracy?, tail_mass_truncation?} — into the PLD engine's options, and putting the
// engine's errors about its options where the request has them.
#pragma once

#include <string>

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// What a request asks of the engine's grid.
struct Discretization {
  pld::AccountingOptions options;
  bool given = false;            // the request has a discretization
  bool as_number = false;        // ... given as the grid step itself
  bool tail_mass_given = false;  // ... with its tail_mass_truncation
  std::string path;              // where the request has it ("discretization", "of.discretization")
};

// The options of `request` at path `at` (its `discretization`; `defaults` for what it leaves out).
Result<Discretization> read_discretization(const Value& request, const std::string& at,
                                           const pld::AccountingOptions& defaults = {});

// An error of the engine about one of its options ("discretization_interval", "relative_accuracy",
// "tail_mass_truncation") on the request's path: the grid step given as a number, or the member of
// the object; other errors are returned as they are.
Error on_options(Error error, const Discretization& discretization);

// True when `error` is about one of the engine's options (the grid: its step, accuracy, tail mass).
bool is_option_error(const Error& error);

// A sentence for the result when the engine's bracket stayed wider than the accuracy asked for
// (why, and how to narrow it); empty when it did not.
std::string accuracy_note(const pld::EpsilonBracket& answer, const pld::AccountingOptions& options);

}  // namespace dpcalc::api
