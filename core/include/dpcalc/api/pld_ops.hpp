// {op:'profile', items:[...], epsilons:[...], relation?, discretization?}: δ(ε) of a composition at
// each of `epsilons` (docs/API.md), by the PLD engine or exactly for Gaussian noise, as method 'pld'
// of op 'compose' computes it (compose_op.hpp: compose_pld).
#pragma once

#include <string>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/numeric_answer.hpp"
#include "dpcalc/api/op.hpp"

namespace dpcalc::api {

struct ProfileRequest {
  std::string at;
  std::vector<RequestItem> items;
  std::vector<double> epsilons;
  Discretization discretization;
};

struct ProfileAnswer : AnswerBase {
  NumericAnswer numeric;
};

Result<ProfileRequest> read_profile(const Value& request, const std::string& at);
Result<ProfileAnswer> answer_profile(const ProfileRequest& request, const Progress& progress);
Value write_profile(const ProfileAnswer& answer);
Result<Explained> explain_profile(const ProfileAnswer& answer, const tradeoff::TradeoffOptions& options,
                                  const Progress& progress);

}  // namespace dpcalc::api
