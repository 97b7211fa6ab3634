// Reading and writing `repetitions` {mean, distribution, shape?}: hyperparameter tuning by random
// repetition (Papernot & Steinke 2022; rdp/repeat_and_select_rdp.hpp), which op 'compose' (method
// 'rdp') and op 'dpsgd' take: the request's training is one run, run K times (K random, of the law
// named) and the best output kept.
#pragma once

#include <optional>
#include <string>

#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/rdp/repeat_and_select_rdp.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// The runs' law as the request names it, checked, and where the request has it.
struct RepetitionsAt {
  rdp::Repetitions repetitions;
  std::string distribution;  // 'poisson', 'geometric', 'logarithmic' or 'truncated_negative_binomial'
  std::string path;          // "repetitions", "of.repetitions"
};

// The request's `repetitions` at `at`, as `field` declares it; nullopt without it. Errors invalid_argument on
// repetitions.mean, repetitions.distribution or repetitions.shape, in plain words.
Result<std::optional<RepetitionsAt>> read_repetitions(const Value& request, const std::string& at, const Field& field);

// {mean, distribution, shape?} as the answer used them (shape for the truncated negative binomial).
Value repetitions_value(const RepetitionsAt& repetitions);

// The fixed runs a tuning is compared with: ⌈mean⌉, at least 1.
double fixed_runs_of(const rdp::Repetitions& repetitions);

}  // namespace dpcalc::api
