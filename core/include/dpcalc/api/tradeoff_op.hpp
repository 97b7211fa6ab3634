// {op:'tradeoff', of, alphas?, fpr?, prior?, reconstruction_baselines?}: what the answer to another
// request means to an attacker who tests whether a record (or a group of k records) was in the data
// (dpcalc/tradeoff/): the trade-off curve beta = f(alpha) and what follows from it. `of` is a forward
// request of an op whose answers have a trade-off (group, compose with any method, profile,
// convert, dpsgd, databases: op.hpp, OpSteps::explain), or a bare {guarantee}. The curve comes from
// the tightest source the answer has (explain.hpp). Each reported beta is at most the true trade-off
// of what the request analyses (sound for the data subject). Errors of `of` come back on its fields
// ("of.items.0.mechanism.sigma"); an op without a trade-off on "of.op". The same object is the
// `result.tradeoff` of any such request asked with explain: true (compute.hpp). See docs/API.md.
#pragma once

#include <string>

#include "dpcalc/api/explain.hpp"
#include "dpcalc/api/op.hpp"

namespace dpcalc::api {

struct TradeoffRequest {
  tradeoff::TradeoffOptions options;
  Value of;
  std::string of_path;  // "of"
};

struct TradeoffAnswer : AnswerBase {
  Explained explained;
};

Result<TradeoffRequest> read_tradeoff(const Value& request, const std::string& at);
Result<TradeoffAnswer> answer_tradeoff(const TradeoffRequest& request, const Progress& progress);
Value write_tradeoff_answer(const TradeoffAnswer& answer);

// The trade-off options of `object` at `at` (alphas, fpr, prior, reconstruction_baselines), checked.
Result<tradeoff::TradeoffOptions> read_tradeoff_options(const Value& object, const std::string& at);

// The trade-off of the request `of` at path `at` (an op with a trade-off, or {guarantee}).
Result<Explained> explain_request(const Value& of, const std::string& at, const tradeoff::TradeoffOptions& options,
                                  const Progress& progress);

}  // namespace dpcalc::api
