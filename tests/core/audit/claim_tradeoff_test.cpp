// The largest TPR a claim allows (core/include/dpcalc/audit/claim_tradeoff.hpp) against mpmath:
// tests/reference/audit_reference.py, section 5.
#include "dpcalc/audit/claim_tradeoff.hpp"

#include <cmath>

#include "approx.hpp"
#include "dpcalc/audit/counts_audit.hpp"
#include "dpcalc/result.hpp"

using namespace dpcalc;
using namespace dpcalc::audit;

TEST_CASE("[audit] (eps, delta) claims: the largest TPR at a false-positive rate") {
  // (3, 1e-5)-DP allows TPR ≤ 0.368 at FPR 0.0183, (4, 1e-5)-DP 0.982 (the science notes' example).
  check_upper_bound(approx_dp_allowed_tpr(3, 1e-5, 0.0183).value(), 0.36757532569433431966, 1e-14);
  check_upper_bound(approx_dp_allowed_tpr(4, 1e-5, 0.0183).value(), 0.98201972045931854255, 1e-14);
  check_upper_bound(approx_dp_allowed_tpr(0.5, 0, 0.3).value(), 0.49461638121003844405, 1e-14);
  CHECK(approx_dp_allowed_tpr(1, 0.1, 0.95).value() == 1);
  CHECK(approx_dp_allowed_tpr(800, 0, 1e-300).value() == 1);  // e^ε overflows: the other line
  CHECK(approx_dp_allowed_tpr(0, 0, 0.25).value() >= 0.25);
}

TEST_CASE("[audit] mu-GDP claims: the largest TPR at a false-positive rate") {
  check_upper_bound(gaussian_dp_allowed_tpr(1, 0.01).value(), 0.092362248073693935853, 1e-12);
  check_upper_bound(gaussian_dp_allowed_tpr(0.5, 1e-9).value(), 1.9227171568176663907e-8, 1e-12);
  check_upper_bound(gaussian_dp_allowed_tpr(2, 0.9).value(), 0.99948381177035619155, 1e-12);
  CHECK(gaussian_dp_allowed_tpr(0, 0.3).value() == 0.3);
  CHECK(gaussian_dp_allowed_tpr(2, 0).value() == 0);
  CHECK(gaussian_dp_allowed_tpr(2, 1).value() == 1);
}

TEST_CASE("[audit] the worked example refutes (3, 1e-5)-DP but not (4, 1e-5)-DP") {
  const CountsAudit audit = audit_counts({900, 1000, 10, 1000}, 0.95, 1e-5).value();
  CHECK(approx_dp_allowed_tpr(3, 1e-5, audit.bounds.fpr_upper).value() < audit.bounds.tpr_lower);
  CHECK(approx_dp_allowed_tpr(4, 1e-5, audit.bounds.fpr_upper).value() > audit.bounds.tpr_lower);
  // At μ = μ_lo the GDP curve passes (just) below the point: Φ(Φ⁻¹(FPR_hi) + μ_lo) ≤ TPR_lo, within the
  // roundings (mpmath: 0.87971206348129864157 at the μ and FPR_hi of the audit, section 5).
  const double allowed = gaussian_dp_allowed_tpr(audit.mu_lower, audit.bounds.fpr_upper).value();
  CHECK_REL(allowed, 0.87971206348129864157, 1e-12);
  CHECK(gaussian_dp_allowed_tpr(audit.mu_lower * 0.999, audit.bounds.fpr_upper).value() < audit.bounds.tpr_lower);
}

TEST_CASE("[audit] claim curves refuse inputs outside the domain on their names") {
  CHECK(approx_dp_allowed_tpr(-1, 0, 0.1).error().field == "epsilon");
  CHECK(approx_dp_allowed_tpr(1, 1.5, 0.1).error().field == "delta");
  CHECK(approx_dp_allowed_tpr(1, 0, 1.1).error().field == "false_positive_rate");
  CHECK(gaussian_dp_allowed_tpr(INFINITY, 0.1).error().field == "mu");
  CHECK(gaussian_dp_allowed_tpr(1, -0.1).error().field == "false_positive_rate");
}
