#include "dpcalc/api/audit_claim.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/tradeoff_op.hpp"
#include "dpcalc/audit/claim_tradeoff.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The curve op 'tradeoff' reports for the claim, its TPR asked at `fprs`.
Result<Explained> claim_explained(const AuditClaim& claim, const std::vector<double>& fprs, const Progress& progress) {
  tradeoff::TradeoffOptions options;
  options.alphas = fprs;
  options.fprs = fprs;
  if (claim.kind == AuditClaim::Kind::kRequest) return explain_request(claim.request, claim.path, options, progress);
  return explain_guarantee(*claim.guarantee, options);
}

std::string audit_request_op(const AuditClaim& claim) {
  const Value* op = claim.request.find("op");
  return op != nullptr && op->is_string() ? op->as_string() : "";
}

}  // namespace

std::string audit_number_text(double value) {
  std::string text = format_number(value);
  const std::size_t exponent = text.find("e-0");
  if (exponent != std::string::npos) text.erase(exponent + 2, 1);
  return text;
}

Result<AuditClaimCurve> audit_claim_curve(const AuditClaim& claim) {
  AuditClaimCurve curve;
  curve.claim = &claim;
  if (claim.kind == AuditClaim::Kind::kRequest) {
    curve.described = "trade-off of the '" + audit_request_op(claim) + "' request";
    return curve;
  }
  if (claim.kind == AuditClaim::Kind::kGaussian) {
    curve.closed_form = true;
    curve.mu = claim.mu;
    curve.described = audit_number_text(claim.mu) + "-GDP";
    curve.method = audit::kGaussianClaimCurve;
    return curve;
  }
  const Guarantee& guarantee = *claim.guarantee;
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) {
    curve.closed_form = true;
    curve.epsilon = pure->epsilon;
    curve.described = audit_number_text(pure->epsilon) + "-DP";
  } else if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) {
    curve.closed_form = true;
    curve.epsilon = approx->epsilon;
    curve.delta = approx->delta;
    curve.described = "(" + audit_number_text(approx->epsilon) + ", " + audit_number_text(approx->delta) + ")-DP";
  } else if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    curve.described = audit_number_text(zcdp->rho) + "-zCDP";
  } else {
    curve.described = "Rényi DP curve";
  }
  if (curve.closed_form) curve.method = audit::kApproxDpClaimCurve;
  return curve;
}

Result<double> claim_allowed_tpr(AuditClaimCurve& curve, double fpr, const Progress& progress) {
  if (curve.closed_form) {
    return curve.claim->kind == AuditClaim::Kind::kGaussian
               ? audit::gaussian_dp_allowed_tpr(curve.mu, fpr)
               : audit::approx_dp_allowed_tpr(curve.epsilon, curve.delta, fpr);
  }
  DPCALC_TRY(const Explained explained, claim_explained(*curve.claim, {fpr}, progress));
  curve.method = explained.tradeoff.method;
  return explained.tradeoff.tpr_at_fpr.front().tpr;
}

Result<std::function<double(double)>> claim_allowed_estimate(AuditClaimCurve& curve, const Progress& progress) {
  if (curve.closed_form) {
    const AuditClaimCurve closed = curve;
    return std::function<double(double)>([closed](double fpr) {
      const Result<double> allowed = closed.claim->kind == AuditClaim::Kind::kGaussian
                                         ? audit::gaussian_dp_allowed_tpr(closed.mu, fpr)
                                         : audit::approx_dp_allowed_tpr(closed.epsilon, closed.delta, fpr);
      return allowed.ok() ? allowed.value() : 1.0;
    });
  }
  DPCALC_TRY(const Explained explained, claim_explained(*curve.claim, {0.5}, progress));
  // The plotted TPR at the first plotted FPR at or above fpr: 1 − f is nondecreasing, so it is at
  // least the TPR allowed at fpr.
  auto plotted = std::make_shared<const tradeoff::TradeoffCurve>(explained.tradeoff.curve);
  return std::function<double(double)>([plotted](double fpr) {
    const auto next = std::lower_bound(plotted->alpha.begin(), plotted->alpha.end(), fpr);
    if (next == plotted->alpha.end()) return 1.0;
    return plotted->tpr[static_cast<std::size_t>(next - plotted->alpha.begin())];
  });
}

}  // namespace dpcalc::api
