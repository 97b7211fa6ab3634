#include "dpcalc/api/tradeoff_op.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/op_table.hpp"
#include "dpcalc/api/request_shapes.hpp"

namespace dpcalc::api {
namespace {

Result<std::vector<double>> optional_rates(const Value& object, const std::string& at, const char* key,
                                           const std::vector<double>& fallback) {
  if (!has_field(object, key)) return fallback;
  return number_array_field(object, at, key);
}

// "'group', 'compose', 'profile', 'convert', 'dpsgd' or 'databases'": the ops `of` may name.
std::string explained_ops() {
  const std::vector<const Shape*>& requests = declared(request_shapes().tradeoff, "of").requests;
  std::string accepted;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    accepted += (i == 0 ? "'" : i + 1 == requests.size() ? " or '" : ", '") + requests[i]->name + "'";
  }
  return accepted;
}

}  // namespace

Result<tradeoff::TradeoffOptions> read_tradeoff_options(const Value& object, const std::string& at) {
  tradeoff::TradeoffOptions options;
  DPCALC_TRY(options.alphas, optional_rates(object, at, "alphas", options.alphas));
  DPCALC_TRY(options.fprs, optional_rates(object, at, "fpr", options.fprs));
  DPCALC_TRY(options.reconstruction_baselines, optional_rates(object, at, "reconstruction_baselines", {}));
  DPCALC_TRY(options.prior, optional_number_field(object, at, "prior"));
  return at_path(tradeoff::check_options(options), at);
}

Result<Explained> explain_request(const Value& of, const std::string& at, const tradeoff::TradeoffOptions& options,
                                  const Progress& progress) {
  if (!of.is_object()) {
    return invalid_argument(
        at, std::string("of must be a request object ({op, …} or {guarantee}) (got ") + of.kind_name() + ").");
  }
  if (!has_field(of, "op")) {
    DPCALC_TRY(const Value* guarantee, member(of, at, "guarantee"));
    DPCALC_TRY(Guarantee parsed, read_guarantee(*guarantee, field_path(at, "guarantee")));
    return explain_guarantee(parsed, options);
  }
  DPCALC_TRY(std::string op, string_field(of, at, "op"));
  for (const Op& entry : op_table()) {
    if (entry.shape->name == op && entry.explain) return entry.explain(of, at, options, progress);
  }
  return invalid_argument(field_path(at, "op"), "op '" + op + "' has no trade-off here: " + at +
                                                    " must be a request of op " + explained_ops() +
                                                    " (a forward request, not a calibration), or a bare {guarantee}.");
}

Result<TradeoffRequest> read_tradeoff(const Value& request, const std::string& at) {
  TradeoffRequest read;
  DPCALC_TRY(read.options, read_tradeoff_options(request, at));
  DPCALC_TRY(const Value* of, member(request, at, "of"));
  read.of = *of;
  read.of_path = field_path(at, "of");
  return read;
}

Result<TradeoffAnswer> answer_tradeoff(const TradeoffRequest& request, const Progress& progress) {
  TradeoffAnswer answer;
  DPCALC_TRY(answer.explained, explain_request(request.of, request.of_path, request.options, progress));
  return answer;
}

Value write_tradeoff_answer(const TradeoffAnswer& answer) { return write_tradeoff(answer.explained); }

}  // namespace dpcalc::api
