// Rényi curves that are exact up to a certified rounding, against numerical integration of the
// divergences' definitions in mpmath at 50 digits (tests/reference/rdp_exact_reference.py, one
// section per test case) and, where it has the mechanism, dp_accounting run from source
// (google/differential-privacy b5b0286, python/dp_accounting 0.6.0).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"
#include "mechanisms_for_tests.hpp"

using namespace dpcalc;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// An upper bound within `rel` above the exact value, never below it.
void check_tight_upper(double value, double exact, double rel) {
  CHECK(value >= exact);
  CHECK(value <= exact * (1 + rel));
}

struct SubsampledCase {
  double q, sigma, order, exact;
};

// (mpmath quadrature, tests/reference/rdp_exact_reference.py subsampled)
constexpr SubsampledCase kSubsampled[] = {
    {0.2, 10, 1, 0.00020064008248784887},
    {0.2, 10, 1.25, 0.00025090084724645965},
    {0.2, 10, 2, 0.00040192590032947537},
    {0.2, 10, 2.25, 0.00045234870800724241},
    {0.2, 10, 4.5, 0.00090799126389326674},
    {0.2, 2, 1, 0.005400338291410512},
    {0.2, 2, 1.25, 0.0068247779061931632},
    {0.2, 2, 1.5, 0.0082814331732370559},
    {0.2, 2, 2, 0.011296964989239871},
    {0.2, 2, 3.7, 0.022731919486763791},
    {0.2, 0.5, 1, 0.16739696588028377},
    {0.2, 0.5, 1.25, 0.26931557988328515},
    {0.2, 0.5, 1.5, 0.43616107556051446},
    {0.2, 0.5, 2, 1.1454723378159812},
    {0.05, 1, 1, 0.0019434106170923676},
    {0.05, 1, 1.1, 0.0021570961711254635},
    {0.05, 1, 1.25, 0.0024853162980264662},
    {0.05, 1, 2, 0.0042865043704189779},
    {0.05, 1, 10.9, 2.1527263191979288},
    {0.01, 1, 1, 8.3812207650831791e-5},
    {0.01, 1, 1.5, 0.00012725374332744984},
    {0.01, 1, 2, 0.00017181342207454794},
    {0.01, 1, 4.5, 0.00041492706732521292},
    {0.01, 1, 10.9, 0.38761141130038889},
    {0.01, 1, 32, 11.246275937048069},
    {0.01, 1.1, 2, 0.0001285100816051618},
    {0.01, 1.1, 4.5, 0.00030303934941345493},
    {0.01, 1.1, 8, 0.00058407033552025108},
    {0.0001, 10, 1, 5.0250784751385218e-11},
    {0.0001, 10, 1.5, 7.5376215127249661e-11},
    {0.0001, 10, 2, 1.0050167083663029e-10},
    {0.0001, 10, 3.7, 1.8592840974391523e-10},
    {0.5, 3, 1, 0.014078335274147837},
    {0.5, 3, 1.3, 0.018454846627183852},
    {0.5, 3, 2, 0.028956453084608938},
    {0.5, 3, 5.5, 0.088347313372018418},
    {0.6, 1, 1, 0.19267096592176471},
    {0.6, 1, 1.7, 0.38287243818931942},
    {0.6, 1, 3, 0.88448195042508378},
    {0.9, 2, 1, 0.10138111565283936},
    {0.9, 2, 1.5, 0.15371663095863049},
    {0.9, 2, 2.5, 0.26135314073747064},
    {0.25, 0.25, 1.1, 2.2995489817799298},
    {0.25, 0.25, 1.9, 12.273392266147803},
    {0.25, 0.25, 3.5, 26.059187894432153},
    {0.5, 100, 1, 1.2500156247395915e-5},
    {0.5, 100, 1.25, 1.5625292966918993e-5},
    {0.499, 100, 1.1, 1.3695261108636692e-5},
    {0.5, 300, 1.25, 1.7361147280067475e-6},
    {0.004266666666666641, 1.0, 1.8, 2.8088920635030635e-5},
    {0.008515199697772702, 1.0, 1.4, 8.6089410925436965e-5},
    {0.012745675861601025, 2.0 / 3, 1.1, 0.0006375597897108271},
};

}  // namespace

TEST_CASE("[rdp] Poisson-subsampled Gaussian: certified upper bound within 1e-9 of the exact divergence") {
  for (const SubsampledCase& c : kSubsampled) {
    CAPTURE(c.q);
    CAPTURE(c.sigma);
    CAPTURE(c.order);
    const double value = rdp::subsampled_gaussian_rdp(c.q, c.sigma, c.order);
    CAPTURE(value);
    CAPTURE((value - c.exact) / c.exact);
    check_tight_upper(value, c.exact, 1e-9);
  }
}

TEST_CASE("[rdp] Poisson-subsampled Gaussian: order 1.25 at q = 0.2, sigma = 10, and the orders dp_accounting drops") {
  // 2.5090084724645965e-4 (mpmath quadrature, tests/reference/rdp_exact_reference.py subsampled), and
  // 2.509008471776042e-4 from the signed series of TF Privacy's compute_rdp (dp_accounting
  // _compute_log_a_frac(0.2, 10, 1.25)/0.25 run from google/differential-privacy 0b109e9^, no tail
  // bound); dp_accounting 0.6.0 (b5b0286) gives 0.004118892233977205, 16 times the divergence.
  const double value = rdp::subsampled_gaussian_rdp(0.2, 10, 1.25);
  CHECK_REL(value, 2.5090084724645965e-4, 1e-9);
  CHECK_REL(value, 2.509008471776042e-4, 1e-6);
  CHECK(value >= 2.5090084724645965e-4);
  // Order 2.25, 20% high in dp_accounting 0.6.0 (0.0005415459735960274; the signed series and the
  // quadrature: 4.5234870800724241e-4).
  CHECK_REL(rdp::subsampled_gaussian_rdp(0.2, 10, 2.25), 4.5234870800724241e-4, 1e-9);
  // dp_accounting 0.6.0 drops order 1.25 at q = 0.2, sigma = 2 (its series has not met its stopping
  // rule after 1000 terms); the divergence is finite: 0.0068247779061931632 (quadrature), and the
  // signed series of 0b109e9^ gives 0.006824777906471477.
  CHECK_REL(rdp::subsampled_gaussian_rdp(0.2, 2, 1.25), 0.0068247779061931632, 1e-9);
  CHECK_REL(rdp::subsampled_gaussian_rdp(0.2, 2, 1.25), 0.006824777906471477, 1e-9);
  // No order is dropped for q >= 0.05 and sigma from 0.25 to 2, at the default orders.
  for (double q : {0.05, 0.1, 0.2, 0.5, 0.9}) {
    for (double sigma : {0.25, 0.5, 1.0, 2.0}) {
      for (double order : rdp::default_orders()) {
        CAPTURE(q);
        CAPTURE(sigma);
        CAPTURE(order);
        const double epsilon = rdp::subsampled_gaussian_rdp(q, sigma, order);
        CHECK(std::isfinite(epsilon));
        CHECK(epsilon > 0);
      }
    }
  }
}

TEST_CASE("[rdp] composed curves are non-decreasing; orders 1 and infinity convert soundly") {
  const auto step = test_mechanisms::poisson_subsampled(0.01, test_mechanisms::gaussian(1));
  std::vector<double> orders{1};
  for (double order : rdp::default_orders()) orders.push_back(order);
  orders.push_back(kInf);
  const std::vector<double> curve = rdp::compose({{step, 1000}}, orders);
  for (std::size_t i = 1; i < orders.size(); ++i) CHECK(curve[i] >= curve[i - 1]);
  CHECK(curve.back() == kInf);
  // The KL divergence of 1000 steps, 1000 times one step's (mpmath quadrature, 8.3812207650831791e-5).
  CHECK_REL(curve[0], 1000 * 8.3812207650831791e-5, 1e-9);
  // Orders 1 and infinity change nothing when another order is better: dp_accounting's 2.1013665 at
  // 1e-5 (tests/core/rdp/repeat_and_select_test.cpp), here with the exact fractional orders.
  const auto converted = rdp::to_approx(orders, curve, 1e-5);
  REQUIRE(converted.ok());
  CHECK_REL(converted.value().guarantee.epsilon, 2.1013652716483952, 1e-9);
  // A curve known only at 1 and infinity: the KL divergence converts only through Bretagnolle–Huber
  // (ε = 0 once δ ≥ √(1 − e^{−KL})), infinity through the pure ε.
  const std::vector<double> ends{1, kInf};
  CHECK(rdp::to_approx(ends, {0.5, 2}, 1e-5).value().guarantee.epsilon == 2);
  CHECK(rdp::to_approx(ends, {0.5, 2}, 1e-5).value().order == kInf);
  CHECK(rdp::to_approx(ends, {1e-12, 2}, 1e-5).value().guarantee.epsilon == 0);
  CHECK_FALSE(rdp::to_approx(ends, {0.5, kInf}, 1e-5).ok());
  CHECK(rdp::to_approx(ends, {0.5, kInf}, 1e-5).error().field == "orders");
  // δ(ε) from the curve: Thm 21 solved for δ at ε = 2.1013652716483952 gives back 1e-5 (or less).
  RdpCurve finite{orders, curve};
  finite.orders.pop_back();
  finite.epsilons.pop_back();
  const RdpDeltaConversion delta = rdp_to_delta(finite, 2.1013652716483952);
  CHECK(delta.delta <= 1e-5 * (1 + 1e-9));
  CHECK(delta.delta >= 1e-5 * (1 - 1e-9));
  CHECK(rdp_to_delta(RdpCurve{{kInf}, {1}}, 1).delta == 0);
  // Below the pure ε only Bretagnolle–Huber remains (KL ≤ D_∞ = 1): √(1 − 1/e) = 0.79506009762065...
  // (mpmath).
  CHECK_REL(rdp_to_delta(RdpCurve{{kInf}, {1}}, 0.5).delta, 0.79506009762065, 1e-13);
  CHECK(rdp_to_delta(RdpCurve{{kInf}, {1}}, 0.5).delta >= 0.79506009762065);
}
