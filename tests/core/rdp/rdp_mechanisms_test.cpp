// Rényi DP curves of the mechanisms (rdp/laplace_rdp.hpp, bounded_range_rdp.hpp, renyi_terms.hpp,
// discrete_rdp.hpp, sampled_without_replacement_rdp.hpp) against their definitions, summed or
// integrated in mpmath at 50 digits (tests/reference/rdp_mechanisms_reference.py, the section named in
// each table), and where it has the mechanism against dp_accounting run from source
// (google/differential-privacy b5b0286, python/dp_accounting 0.6.0): each an upper bound within
// 1e-12 of the exact divergence (1e-9 for sampling without replacement), at orders 1 (KL), > 1 and
// infinity, non-decreasing in the order and never NaN.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "approx.hpp"
#include "dpcalc/rdp/bounded_range_rdp.hpp"
#include "dpcalc/rdp/discrete_rdp.hpp"
#include "dpcalc/rdp/laplace_rdp.hpp"
#include "dpcalc/rdp/renyi_terms.hpp"
#include "dpcalc/rdp/sampled_without_replacement_rdp.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

using namespace dpcalc;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// An upper bound within `rel` above the exact value (the reference, printed to 17 digits, may sit
// half an ulp off the double nearest it).
void check_tight_upper(double value, double exact, double rel) {
  CHECK(value >= exact * (1 - 2e-16));
  CHECK(value <= exact * (1 + rel));
}

struct OneParameter {
  double parameter, order, exact;
};
struct TwoParameters {
  double first, second, order, exact;
};

// Lap(ε₀, 1) against Lap(0, 1) by quadrature (section laplace).
constexpr OneParameter kLaplace[] = {
    {1, 1, 0.36787944117144232},
    {1, 1.5, 0.5128835112945086},
    {1, 2, 0.61912362999859288},
    {1, 10, 0.92868290209668022},
    {1, kInf, 1.0},
    {0.01, 1, 4.9833749168053576e-5},
    {0.01, 1.5, 7.4749693736344519e-5},
    {0.01, 2, 9.966419172325248e-5},
    {0.01, 100, 0.0043311855783713229},
    {1e-05, 1.01, 5.0499831667079007e-11},
    {1e-05, 2, 9.9999666664166708e-11},
    {2, 1.0001, 1.1354166949974154},
    {2, 3.3, 1.7700719135592192},
    {20, 1, 19.000000002061154},
    {20, 1.5, 19.424635855096438},
    {20, 40, 19.982549528247357},
    {0.5, 2, 0.20030389617361596},
};
// The supremum over the two-point ε-bounded-range pairs, maximised numerically (section bounded).
constexpr OneParameter kBoundedRange[] = {
    {1, 1, 0.12330156148224453},
    {1, 1.01, 0.12451763025844124},
    {1, 1.1, 0.1354311308621009},
    {1, 1.5, 0.18311253868055191},
    {1, 2, 0.24022901391655505},
    {1, 10, 0.68983357318291363},
    {1, kInf, 1.0},
    {0.1, 1, 0.0012498264274598376},
    {0.1, 1.01, 0.001262322921518293},
    {0.1, 2, 0.0024989590272511711},
    {0.1, 7.5, 0.0093109289798580871},
    {3, 1, 1.0075056198629566},
    {3, 1.01, 1.0165778558996634},
    {3, 2, 1.7108803420275935},
    {0.0001, 1, 1.249999999826389e-9},
    {0.0001, 3, 3.749999996354167e-9},
    {10, 1, 6.6978235259556807},
    {10, 1.25, 7.5838013365920004},
    {10, 5, 9.3745083208173578},
    {0.5, 4, 0.11973503213096031},
    {0.5, 100, 0.45285453226345914},
};
// The ε-DP randomized-response pair (section pure).
constexpr OneParameter kPure[] = {
    {1, 1, 0.46211715726000976},
    {1, 1.5, 0.62733264704949932},
    {1, 2, 0.73532566405551922},
    {1, 10, 0.96519314645384151},
    {1, kInf, 1.0},
    {0.1, 1, 0.0049958374957879978},
    {0.1, 1.5, 0.0074844186160418905},
    {0.1, 32, 0.07927219228248447},
    {5, 1, 4.9330714907571514},
    {5, 1.1, 4.9576033664861238},
    {5, 4, 4.9977615505036275},
};
// k-ary randomized response with noise p: {p, k, order, exact} (section rr).
constexpr TwoParameters kRandomizedResponse[] = {
    {0.5, 2, 1, 0.54930614433405485},   {0.5, 2, 1.5, 0.73396917508020044}, {0.5, 2, 2, 0.84729786038720361},
    {0.5, 2, 10, 1.0666476140468442},   {0.5, 2, kInf, 1.0986122886681097}, {0.1, 10, 1, 4.059773555865165},
    {0.1, 10, 1.5, 4.3408244155562957}, {0.1, 10, 3, 4.4637094748930681},   {0.9, 4, 1, 0.03677247801253172},
    {0.9, 4, 2, 0.072519409468584001},  {0.9, 4, 64, 0.3498846198629026},   {0.01, 2, 1.5, 5.2833302442149139},
    {0.01, 2, 20, 5.2930410067337795},
};
// Discrete Laplace of scale b and sensitivity Δ: {b, Δ, order, exact} (section dlaplace).
constexpr TwoParameters kDiscreteLaplace[] = {
    {1, 1, 1, 0.46211715726000976},
    {1, 1, 1.5, 0.62733264704949932},
    {1, 1, 2, 0.73532566405551922},
    {1, 1, 10, 0.96519314645384151},
    {1, 1, kInf, 1.0},
    {2.5, 3, 1, 0.51948695679618433},
    {2.5, 3, 1.5, 0.70700986734916532},
    {2.5, 3, 2, 0.83240829110886229},
    {2.5, 3, 8, 1.1268290925666737},
    {0.5, 4, 1, 7.4487438583468838},
    {0.5, 4, 2, 7.8752182994229274},
    {0.5, 4, 5.5, 7.9717937757198298},
    {10, 1, 1, 0.0049958374957879972},
    {10, 1, 3, 0.014840162053267893},
};
// Discrete Gaussian of σ and sensitivity Δ, the largest over the shifts 1..Δ: {σ, Δ, order, exact}
// (section dgaussian).
constexpr TwoParameters kDiscreteGaussian[] = {
    {1, 1, 1, 0.5},
    {1, 1, 1.5, 0.74999997859769607},
    {1, 1, 2, 1.0},
    {1, 1, 10.5, 5.249999998873563},
    {0.5, 1, 1, 2.0},
    {0.5, 1, 1.25, 2.4428747505971447},
    {0.5, 1, 2, 4.0},
    {0.5, 1, 3.3, 6.5918538924677814},
    {2, 3, 1, 1.125},
    {2, 3, 1.5, 1.6875},
    {2, 3, 2.5, 2.8125},
    {2, 3, 4, 4.5},
    {0.3, 2, 1.5, 33.333333333333336},
    {0.3, 2, 2, 44.444444444444448},
    {0.3, 2, 2.5, 55.55555555555556},
};
// Wang, Balle, Kasiviswanathan 2019, Thm 9 and the joint-convexity bound, the smaller, around the
// Laplace curve: {rate, ε₀, order, bound} (section swor).
constexpr TwoParameters kWithoutReplacementLaplace[] = {
    {0.01, 1, 2, 0.00034286107511087256}, {0.01, 1, 3, 0.00051856413476737722}, {0.01, 1, 8, 0.0014380172852966016},
    {0.01, 1, 32, 0.0065177661767914117}, {0.1, 0.5, 2, 0.0051285315382653963}, {0.1, 0.5, 5, 0.013704905663824704},
    {0.1, 0.5, 16, 0.045870894887245922}, {0.001, 4, 2, 7.2795107391154614e-5}, {0.001, 4, 10, 0.00041553545208020161},
    {0.2, 1, 2, 0.12854091140241819},
};
// The same around the Gaussian curve α/(2σ²): {rate, σ, order, bound} (section swor).
constexpr TwoParameters kWithoutReplacementGaussian[] = {
    {0.01, 1, 2, 0.00054350863810943249}, {0.01, 1, 3, 0.00083487268495441282}, {0.01, 1, 8, 0.0026841650126889324},
    {0.01, 1, 32, 11.26863552351778},     {0.1, 2, 2, 0.011296964989239871},    {0.1, 2, 5, 0.037250542087459492},
    {0.1, 2, 16, 0.14891302701901335},
};

// Orders from 1 to 10000 and infinity, for the properties every curve has.
std::vector<double> order_grid() {
  std::vector<double> orders{1, 1.0001, 1.001, 1.01, 1.1, 1.25, 1.5, 1.99, 2, 2.01, 2.5, 3, 4.75, 8, 10.9, 16};
  for (double order : {32.0, 63.5, 100.0, 256.0, 1000.0, 1024.5, 5000.0, 10000.0, kInf}) orders.push_back(order);
  return orders;
}

// Non-decreasing in the order up to the rounding of the bounds (where the divergence hardly moves
// with the order, two bounds of it may swap by an ulp or two; rdp::compose makes a curve
// non-decreasing exactly), never NaN, never negative.
void check_curve(const std::function<double(double)>& curve) {
  double previous = 0;
  for (double order : order_grid()) {
    CAPTURE(order);
    const double value = curve(order);
    CHECK_FALSE(std::isnan(value));
    CHECK(value >= 0);
    CHECK(value >= previous * (1 - 1e-12));
    previous = value;
  }
}

}  // namespace

TEST_CASE("[rdp] Laplace mechanism: Mironov 2017, Prop. 6, against quadrature and dp_accounting") {
  for (const OneParameter& c : kLaplace) {
    CAPTURE(c.parameter);
    CAPTURE(c.order);
    check_tight_upper(rdp::laplace_rdp(c.parameter, c.order), c.exact, 1e-12);
  }
  // dp_accounting's _laplace_rdp(ε₀, order), the same curve (its values at ε₀ = 1, order 2, and
  // ε₀ = 2, order 1.0001).
  CHECK_REL(rdp::laplace_rdp(1, 2), 0.6191236299985929, 1e-13);
  CHECK_REL(rdp::laplace_rdp(2, 1.0001), 1.1354166949974154, 1e-13);
  for (double epsilon : {1e-12, 1e-6, 0.3, 1.0, 7.0, 300.0}) {
    CAPTURE(epsilon);
    check_curve([epsilon](double order) { return rdp::laplace_rdp(epsilon, order); });
    CHECK(rdp::laplace_rdp(epsilon, kInf) == epsilon);
    CHECK(rdp::laplace_rdp(epsilon, 10000) <= epsilon);
  }
  CHECK(rdp::laplace_rdp(0, 2) == 0);
}

TEST_CASE("[rdp] exponential mechanism: the supremum over ε-bounded-range pairs, below Cesar & Rogers") {
  for (const OneParameter& c : kBoundedRange) {
    CAPTURE(c.parameter);
    CAPTURE(c.order);
    check_tight_upper(rdp::bounded_range_rdp(c.parameter, c.order), c.exact, 1e-12);
  }
  // Below dp_accounting 0.6.0's ExponentialMechanismDpEvent curve min(KL + (α − 1)ε²/8, ε) (Cesar
  // & Rogers 2021; its values at ε = 1, orders 1.5 and 2, ε = 0.1, orders 1.01, 2 and 7.5, and ε = 3,
  // order 2) and below αε²/8 at every order.
  // Near order 1 the supremum is below that curve, not above it: at ε = 1 by 0.027% at order 1.01,
  // 0.27% at 1.1, 1.45% at 1.5 and 3.3% at 2 (its values 0.12455156148224453 and
  // 0.13580156148224453 at 1.01 and 1.1). The curve is Cesar & Rogers' (ξ, ε²/8)-zCDP bound, valid
  // and looser; the supremum is attained by a two-point ε-bounded-range pair (the table above).
  CHECK(rdp::bounded_range_rdp(1, 1.01) < 0.12455156148224453);
  CHECK(rdp::bounded_range_rdp(1, 1.1) < 0.13580156148224453);
  CHECK(rdp::bounded_range_rdp(1, 1.5) < 0.18580156148224458);
  CHECK(rdp::bounded_range_rdp(1, 2) < 0.24830156148224458);
  CHECK(rdp::bounded_range_rdp(0.1, 1.01) <= 0.0012623264274598338);
  CHECK(rdp::bounded_range_rdp(0.1, 2) < 0.0024998264274598342);
  CHECK(rdp::bounded_range_rdp(0.1, 7.5) < 0.0093748264274598342);
  CHECK(rdp::bounded_range_rdp(3, 2) < 2.1325056198629566);
  for (double epsilon : {1e-12, 1e-6, 0.1, 0.5, 1.0, 4.0, 50.0, 600.0}) {
    CAPTURE(epsilon);
    check_curve([epsilon](double order) { return rdp::bounded_range_rdp(epsilon, order); });
    for (double order : order_grid()) {
      if (std::isfinite(order))
        CHECK(rdp::bounded_range_rdp(epsilon, order) <= order * epsilon * epsilon / 8 * (1 + 1e-12));
    }
    CHECK(rdp::bounded_range_rdp(epsilon, kInf) == epsilon);
  }
}

TEST_CASE("[rdp] pure ε-DP (permute-and-flip): the ε-DP randomized-response pair") {
  for (const OneParameter& c : kPure) {
    CAPTURE(c.parameter);
    CAPTURE(c.order);
    check_tight_upper(rdp::pure_dp_renyi(c.parameter, c.order), c.exact, 1e-12);
  }
  for (double epsilon : {1e-12, 1e-6, 0.1, 1.0, 10.0, 699.0}) {
    CAPTURE(epsilon);
    check_curve([epsilon](double order) { return rdp::pure_dp_renyi(epsilon, order); });
    CHECK(rdp::pure_dp_renyi(epsilon, kInf) == epsilon);
    // Above the Laplace curve of the same ε (which is ε-DP too, and so is dominated by the pair).
    CHECK(rdp::pure_dp_renyi(epsilon, 2) >= rdp::laplace_rdp(epsilon, 2) * (1 - 1e-12));
  }
}

TEST_CASE("[rdp] randomized response, discrete Laplace, discrete Gaussian: their exact pairs") {
  for (const TwoParameters& c : kRandomizedResponse) {
    CAPTURE(c.first);
    CAPTURE(c.second);
    CAPTURE(c.order);
    check_tight_upper(rdp::randomized_response_rdp(c.first, c.second, c.order), c.exact, 1e-12);
  }
  // dp_accounting's _randomized_response_rdp_replace_one (p = 0.5, k = 2, order 1.5; p = 0.1,
  // k = 10, order 3).
  CHECK_REL(rdp::randomized_response_rdp(0.5, 2, 1.5), 0.7339691750802002, 1e-13);
  CHECK_REL(rdp::randomized_response_rdp(0.1, 10, 3), 4.463709474893068, 1e-13);
  for (const TwoParameters& c : kDiscreteLaplace) {
    CAPTURE(c.first);
    CAPTURE(c.second);
    CAPTURE(c.order);
    check_tight_upper(rdp::discrete_laplace_rdp(c.first, c.second, c.order), c.exact, 1e-12);
  }
  for (const TwoParameters& c : kDiscreteGaussian) {
    CAPTURE(c.first);
    CAPTURE(c.second);
    CAPTURE(c.order);
    check_tight_upper(rdp::discrete_gaussian_rdp(c.first, c.second, c.order), c.exact, 1e-12);
    // At most the zCDP curve αΔ²/(2σ²) dp_accounting uses (Canonne, Kamath, Steinke 2020).
    CHECK(rdp::discrete_gaussian_rdp(c.first, c.second, c.order) <=
          c.order * c.second * c.second / (2 * c.first * c.first) * (1 + 1e-15));
  }
  CHECK(rdp::discrete_gaussian_rdp(1, 1, kInf) == kInf);
  for (double p : {1e-6, 0.01, 0.5, 0.99, 1.0}) {
    CAPTURE(p);
    check_curve([p](double order) { return rdp::randomized_response_rdp(p, 3, order); });
  }
  for (double scale : {0.01, 0.5, 3.0, 1000.0}) {
    CAPTURE(scale);
    check_curve([scale](double order) { return rdp::discrete_laplace_rdp(scale, 1, order); });
    check_curve([scale](double order) { return rdp::discrete_laplace_rdp(scale, 7, order); });
  }
  for (double sigma : {0.01, 0.3, 1.0, 50.0}) {
    CAPTURE(sigma);
    check_curve([sigma](double order) { return rdp::discrete_gaussian_rdp(sigma, 1, order); });
    check_curve([sigma](double order) { return rdp::discrete_gaussian_rdp(sigma, 4, order); });
  }
}

TEST_CASE("[rdp] sampling without replacement around an inner curve: Wang, Balle, Kasiviswanathan 2019") {
  for (const TwoParameters& c : kWithoutReplacementLaplace) {
    CAPTURE(c.first);
    CAPTURE(c.second);
    CAPTURE(c.order);
    const double epsilon = c.second;
    const double value = rdp::sampled_without_replacement_rdp(
        c.first, [epsilon](double order) { return rdp::laplace_rdp(epsilon, order); }, c.order);
    check_tight_upper(value, c.exact, 1e-9);
  }
  for (const TwoParameters& c : kWithoutReplacementGaussian) {
    CAPTURE(c.first);
    CAPTURE(c.second);
    CAPTURE(c.order);
    const double sigma = c.second;
    const double value = rdp::sampled_without_replacement_rdp(
        c.first, [sigma](double order) { return rdp::gaussian_rdp(sigma, order); }, c.order);
    check_tight_upper(value, c.exact, 1e-9);
  }
  // Orders 1 and infinity: γ·KL(inner) or the cumulant's slope up to 2; log(1 + γ(e^{ε(∞)} − 1))
  // (Balle, Barthe, Gaboardi 2018), infinite for a Gaussian inside.
  const auto laplace = [](double order) { return rdp::laplace_rdp(1, order); };
  CHECK(rdp::sampled_without_replacement_rdp(0.01, laplace, 1) <= 0.01 * rdp::laplace_rdp(1, 1) * (1 + 1e-12));
  CHECK_REL(rdp::sampled_without_replacement_rdp(0.01, laplace, kInf), std::log1p(0.01 * std::expm1(1.0)), 1e-14);
  CHECK(rdp::sampled_without_replacement_rdp(
            0.01, [](double order) { return rdp::gaussian_rdp(1, order); }, kInf) == kInf);
  for (double rate : {1e-6, 0.01, 0.3, 1.0}) {
    CAPTURE(rate);
    check_curve([rate, &laplace](double order) {
      return order > 1000 && std::isfinite(order) ? rdp::sampled_without_replacement_rdp(rate, laplace, 1000)
                                                  : rdp::sampled_without_replacement_rdp(rate, laplace, order);
    });
  }
}

TEST_CASE("[rdp] Poisson-subsampled Gaussian: non-decreasing in the order, orders 1 and infinity, never NaN") {
  for (double q : {1e-6, 0.001, 0.01, 0.2, 0.5, 0.9, 1.0}) {
    for (double sigma : {0.3, 0.7, 1.0, 2.0, 10.0, 100.0}) {
      CAPTURE(q);
      CAPTURE(sigma);
      check_curve([q, sigma](double order) { return rdp::subsampled_gaussian_rdp(q, sigma, order); });
      CHECK(rdp::subsampled_gaussian_rdp(q, sigma, kInf) == kInf);
    }
  }
}
