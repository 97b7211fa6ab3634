// {op:'convert', guarantee, to:'approx'|'zcdp', delta?, conversion?} and {op:'split', method, variant?,
// target:{epsilon, delta}, count}: the closed-form conversions between definitions, and the budget a
// composition method leaves each of `count` releases (docs/API.md).
#pragma once

#include <optional>
#include <string>

#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/closed_form/budget_split.hpp"
#include "dpcalc/closed_form/conversions.hpp"

namespace dpcalc::api {

struct ConvertRequest {
  std::string at;
  Guarantee guarantee;
  std::string guarantee_path;
  bool to_zcdp = false;
  std::optional<double> delta;  // checked where a conversion needs it
  bool bun_steinke = false;
};

struct ConvertAnswer : AnswerBase {
  Guarantee from;  // the guarantee converted: the source of its trade-off (a conversion only loosens it)
  Guarantee guarantee;
  MethodInfo method{"", "", ""};
  std::optional<RdpConversion> rdp;  // an RDP curve's conversion: its order
};

Result<ConvertRequest> read_convert(const Value& request, const std::string& at);
Result<ConvertAnswer> answer_convert(const ConvertRequest& request, const Progress& progress);
Value write_convert(const ConvertAnswer& answer);
Result<Explained> explain_convert(const ConvertAnswer& answer, const tradeoff::TradeoffOptions& options,
                                  const Progress& progress);

struct SplitRequest {
  std::string at;
  SplitMethod method = SplitMethod::kBasic;
  MethodInfo info{"", "", ""};
  ApproxDp target;
  double count = 1;
};

struct SplitAnswer : AnswerBase {
  SplitResult split;
  MethodInfo method{"", "", ""};
};

Result<SplitRequest> read_split(const Value& request, const std::string& at);
Result<SplitAnswer> answer_split(const SplitRequest& request, const Progress& progress);
Value write_split(const SplitAnswer& answer);

}  // namespace dpcalc::api
