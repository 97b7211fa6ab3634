// Rényi DP of hyperparameter tuning (Papernot & Steinke 2022, Thms 2 and 6) on DP-SGD with sampling
// rate 0.01, noise multiplier 1 and 1000 steps, at δ = 1e-5, against dp_accounting run from source
// (google/differential-privacy b5b0286, python/dp_accounting 0.6.0, RepeatAndSelectDpEvent) and the
// theorems restated in mpmath (tests/reference/repeat_and_select_reference.py, sections named below).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/repeat_and_select_rdp.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"
#include "mechanisms_for_tests.hpp"

using namespace dpcalc;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// dp_accounting's curve of the 1000 steps at its DEFAULT_RDP_ORDERS (section dp_accounting): at the
// fractional orders its series of |C(α, i)| terms, an upper bound 1e-6 above the exact divergence here.
constexpr std::pair<double, double> kDpAccountingBase[] = {
    {1.1, 0.099247110211764966}, {1.2, 0.10766368899668205}, {1.3, 0.11598839611039817}, {1.4, 0.12422283169243699},
    {1.5, 0.13236850293993049},  {1.6, 0.14042684281942483}, {1.7, 0.14839921885570909}, {1.8, 0.15628694182391348},
    {1.9, 0.16409127139687321},  {2.0, 0.17181342207455164}, {2.1, 0.18092724716660466}, {2.2, 0.19008098344684535},
    {2.3, 0.1992736472974318},   {2.4, 0.20850429609128965}, {2.5, 0.21777202424064354}, {2.6, 0.22707596140833886},
    {2.7, 0.23641527192597994},  {2.8, 0.24578915265204282}, {2.9, 0.25519683315855823}, {3.0, 0.2646375745846693},
    {3.1, 0.27422314143849291},  {3.2, 0.28386628017819637}, {3.3, 0.29356757279489881}, {3.4, 0.30332759902209694},
    {3.5, 0.3131469388752075},   {3.6, 0.32302617563635649}, {3.7, 0.33296589862383091}, {3.8, 0.34296670716437189},
    {3.9, 0.35302921377951729},  {4.0, 0.3631540489107668},  {4.1, 0.37336516908115019}, {4.2, 0.38364731097012966},
    {4.3, 0.39400205723171361},  {4.4, 0.40443105653940886}, {4.5, 0.41493603123284156}, {4.6, 0.42551878627910744},
    {4.7, 0.43618121958079681},  {4.8, 0.44692533463325484}, {4.9, 0.45775325507724068}, {5.0, 0.46866724216915762},
    {5.1, 0.47967807953189201},  {5.2, 0.49078319604243953}, {5.3, 0.50198596135106266}, {5.4, 0.51329004007731793},
    {5.5, 0.5246994367072696},   {5.6, 0.53621855027759258}, {5.7, 0.54785224096496687}, {5.8, 0.55960591184282005},
    {5.9, 0.57148560944887039},  {6.0, 0.58349814893818086}, {6.1, 0.59565532891332917}, {6.2, 0.60796372099619489},
    {6.3, 0.62043394353735692},  {6.4, 0.63307834944675401}, {6.5, 0.64591143551023811}, {6.6, 0.65895037020269942},
    {6.7, 0.67221567964624351},  {6.8, 0.6857321457261859},  {6.9, 0.69952999114342806}, {7.0, 0.7136464550963677},
    {7.1, 0.72813025117461017},  {7.2, 0.74303851451022751}, {7.3, 0.75844575154599092}, {7.4, 0.77444771395149314},
    {7.5, 0.79116878270184965},  {7.6, 0.80877226931901047}, {7.7, 0.82747490527593515}, {7.8, 0.84756739233454015},
    {7.9, 0.86944379196623545},  {8.0, 0.89364390760604095}, {8.1, 0.92091642737488855}, {8.2, 0.95230554547615631},
    {8.3, 0.98928775607465635},  {8.4, 1.0339701170536673},  {8.5, 1.0893895801187488},  {8.6, 1.159966425581447},
    {8.7, 1.2521964345346119},   {8.8, 1.3757152025124213},  {8.9, 1.5449455630708502},  {9.0, 1.7816620433830028},
    {9.1, 2.1190003574553038},   {9.2, 2.6077312302631483},  {9.3, 3.3260695240847689},  {9.4, 4.3948710178174926},
    {9.5, 6.0007499731823888},   {9.6, 8.429988070286635},   {9.7, 12.114932921550288},  {9.8, 17.689177347409679},
    {9.9, 26.033672495409668},   {10.0, 38.270418894948683}, {10.1, 55.636408697580691}, {10.2, 79.194397319443894},
    {10.3, 109.45835262332226},  {10.4, 146.15926870245434}, {10.5, 188.33969143979334}, {10.6, 234.70831247546403},
    {10.7, 284.00662379599652},  {10.8, 335.21744266783509}, {10.9, 387.61141130702219}, {11, 440.70496817263972},
    {12, 978.01171802536214},    {13, 1511.728604295045},    {14, 2040.8275189351573},   {15, 2565.9773718232773},
    {16, 3087.8507836962453},    {17, 3607.0185164290278},   {18, 4123.9417900100134},   {19, 4638.988617470256},
    {20, 5152.4530196775004},    {21, 5664.5715189701523},   {22, 6175.536074273612},    {23, 6685.5039253380055},
    {24, 7194.6050339177445},    {25, 7702.9477268221799},   {26, 8210.6230080022888},   {27, 8717.7078843068502},
    {28, 9224.2679554645747},    {29, 9730.3594502975175},   {30, 10236.030842107335},   {31, 10741.324141155212},
    {32, 11246.275937048073},    {33, 11750.918245701074},   {34, 12255.279202315776},   {35, 12759.383632071256},
    {36, 13263.253522983743},    {37, 13766.908419956708},   {38, 14270.365754931159},   {39, 14773.641124906964},
    {40, 15276.748527191703},    {41, 15779.700559362207},   {42, 16282.50858996342},    {43, 16785.182904821719},
    {44, 17287.73283294242},     {45, 17790.166855239451},   {46, 18292.492698767728},   {47, 18794.717418664342},
    {48, 19296.847469629185},    {49, 19798.88876847049},    {50, 20300.846748991746},   {51, 20802.726410292147},
    {52, 21304.532359384695},    {53, 21806.268848896758},   {54, 22307.939810502703},   {55, 22809.548884641757},
    {56, 23311.099446993947},    {57, 23812.594632119264},   {58, 24314.037354608608},   {59, 24815.430328046594},
    {60, 25316.77608204601},     {61, 25818.076977578774},   {62, 26319.335220798992},   {63, 26820.552875528232},
    {128, 59358.568631445072},   {256, 123376.77032308647},  {512, 251385.81773928393},  {1024, 507390.32818137656},
};

rdp::Repetitions runs(double mean, double shape) {
  return {rdp::RepetitionLaw::kTruncatedNegativeBinomial, mean, shape};
}
rdp::Repetitions poisson(double mean) { return {rdp::RepetitionLaw::kPoisson, mean, 0}; }

double converted(const std::vector<double>& orders, const std::vector<double>& curve) {
  const auto answer = rdp::to_approx(orders, curve, 1e-5);
  REQUIRE(answer.ok());
  return answer.value().guarantee.epsilon;
}

struct TuningCase {
  rdp::Repetitions repetitions;
  double dp_accounting, exact;
};

// dp_accounting's ε (section dp_accounting; the formulas section gives the same within 2e-11) and the
// exact curve's at dpcalc's default orders (section exact).
const TuningCase kCases[] = {
    {runs(10, 1), 4.10327065640215, 4.1032555771587101},    // geometric, mean 10
    {runs(10, 0), 3.5226334451373686, 3.5226299512599141},  // logarithmic
    {poisson(10), 4.329497680252047, 4.3294058641289684},   // Poisson
    {runs(100, 1), 5.2700216080110405, 5.2700203030089264}, {runs(100, 0), 4.30116943987793, 4.3011681960462096},
    {poisson(100), 16.396757095095097, 16.396424691790468},
};

}  // namespace

TEST_CASE("[rdp] hyperparameter tuning: dp_accounting's numbers from its own base curve and orders") {
  std::vector<double> orders, base;
  for (const auto& [order, epsilon] : kDpAccountingBase) {
    orders.push_back(order);
    base.push_back(epsilon);
  }
  // One run and ten runs composed (RDP adds up).
  CHECK_REL(converted(orders, base), 2.101366525420273, 1e-12);
  std::vector<double> ten(base);
  for (double& epsilon : ten) epsilon *= 10;
  CHECK_REL(converted(orders, ten), 6.712756664482653, 1e-12);
  for (const TuningCase& c : kCases) {
    CAPTURE(c.repetitions.mean);
    CAPTURE(c.repetitions.shape);
    const auto tuned = rdp::repeat_and_select_rdp(c.repetitions, orders, base);
    REQUIRE(tuned.ok());
    // dp_accounting solves for γ to about 1e-11 (the logarithmic law); otherwise the same theorems.
    CHECK_REL(converted(orders, tuned.value()), c.dp_accounting, 1e-10);
    // Between one run and ten runs composed.
    CHECK(converted(orders, tuned.value()) > 2.101366525420273);
    for (std::size_t i = 0; i < orders.size(); ++i) CHECK(tuned.value()[i] >= base[i]);
  }
}

TEST_CASE("[rdp] hyperparameter tuning: dpcalc's own curve, orders and conversion") {
  const auto step = test_mechanisms::poisson_subsampled(0.01, test_mechanisms::gaussian(1));
  const std::vector<double> orders = rdp::default_orders();
  const auto base = [&step](double order) { return rdp::compose({{step, 1000}}, {order})[0]; };
  std::vector<double> one;
  for (double order : orders) one.push_back(base(order));
  // The exact curve at the same orders (section exact), just below dp_accounting's.
  CHECK_REL(converted(orders, one), 2.1013652716483952, 1e-9);
  CHECK(converted(orders, one) >= 2.1013652716483952);
  for (const TuningCase& c : kCases) {
    CAPTURE(c.repetitions.mean);
    CAPTURE(c.repetitions.shape);
    const auto tuned = rdp::repeat_and_select_rdp(c.repetitions, orders, rdp::RdpFunction(base));
    REQUIRE(tuned.ok());
    const double epsilon = converted(orders, tuned.value());
    CHECK(epsilon >= c.exact);
    CHECK_REL(epsilon, c.exact, 1e-9);
    CHECK(epsilon <= c.dp_accounting);
  }
}

TEST_CASE("[rdp] hyperparameter tuning: one run, orders 1 and infinity, monotone, refusals") {
  const std::vector<double> orders{1, 1.5, 2, 4, 8, 32, kInf};
  // Pure ε = 1 (the ε-DP pair's curve, here at two orders): the geometric law gives 3ε at order
  // infinity (λ̂ = ∞: ε + 2ε), as Liu & Talwar's pure-DP result for a geometric number of runs.
  const std::vector<double> pure_orders{2, kInf};
  const auto pure = rdp::repeat_and_select_rdp(runs(10, 1), pure_orders, std::vector<double>{0.73532566405551922, 1});
  REQUIRE(pure.ok());
  CHECK(pure.value()[1] == doctest::Approx(3).epsilon(1e-15));
  // Mean 1 is a single run: the base curve itself.
  const std::vector<double> base{0.1, 0.15, 0.2, 0.4, 0.8, 3.2, kInf};
  const auto single = rdp::repeat_and_select_rdp(runs(1, 1), orders, base);
  REQUIRE(single.ok());
  for (std::size_t i = 1; i + 1 < orders.size(); ++i) CHECK(single.value()[i] == base[i]);
  for (const rdp::Repetitions& repetitions : {runs(10, 1), runs(10, 0), runs(10, 0.5), runs(10, -0.5), poisson(10)}) {
    CAPTURE(repetitions.shape);
    const auto tuned = rdp::repeat_and_select_rdp(repetitions, orders, base);
    REQUIRE(tuned.ok());
    // Order 1 takes the bound of the orders above it; order infinity stays infinite (a Gaussian
    // curve); non-decreasing, never NaN.
    CHECK(tuned.value()[0] == tuned.value()[1]);
    CHECK(tuned.value().back() == kInf);
    for (std::size_t i = 0; i < orders.size(); ++i) {
      CHECK_FALSE(std::isnan(tuned.value()[i]));
      if (i > 0) CHECK(tuned.value()[i] >= tuned.value()[i - 1]);
    }
  }
  // More runs on average cost more.
  CHECK(rdp::repeat_and_select_rdp(runs(100, 1), orders, base).value()[3] >
        rdp::repeat_and_select_rdp(runs(10, 1), orders, base).value()[3]);
  // γ of the laws (dp_accounting's _gamma_truncated_negative_binomial(shape, mean): 0.1 for the
  // geometric law with mean 10, 0.02691825958900153 logarithmic, mean 10), rounded down.
  CHECK(rdp::truncated_negative_binomial_gamma(1, 10) <= 0.1);
  CHECK_REL(rdp::truncated_negative_binomial_gamma(1, 10), 0.1, 1e-11);
  CHECK_REL(rdp::truncated_negative_binomial_gamma(0, 10), 0.02691825958900153, 1e-9);
  // Refusals name the parameter.
  CHECK(rdp::repeat_and_select_rdp(runs(0.5, 1), orders, base).error().field == "mean");
  CHECK(rdp::repeat_and_select_rdp(runs(10, -1), orders, base).error().field == "shape");
  CHECK(rdp::repeat_and_select_rdp(runs(10, std::nan("")), orders, base).error().field == "shape");
  CHECK(rdp::repeat_and_select_rdp(poisson(kInf), orders, base).error().field == "mean");
  CHECK(rdp::repeat_and_select_rdp(runs(10, 1), orders, std::vector<double>{1}).error().field == "base_epsilons");
}
