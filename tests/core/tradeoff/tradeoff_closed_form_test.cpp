#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/tradeoff/approx_dp_tradeoff.hpp"
#include "dpcalc/tradeoff/gaussian_tradeoff.hpp"
#include "dpcalc/tradeoff/profile_tradeoff.hpp"
#include "dpcalc/tradeoff/renyi_tradeoff.hpp"

using namespace dpcalc;
using namespace dpcalc::tradeoff;

namespace {

struct Point {
  double alpha, beta;
};

// The false-positive rates of tests/reference/tradeoff_reference.py.
const std::vector<double> kAlphas = {1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.9};

TradeoffOptions at_alphas(const std::vector<Point>& points) {
  TradeoffOptions options;
  options.alphas.clear();
  for (const Point& point : points) options.alphas.push_back(point.alpha);
  return options;
}

// A sound closed form: beta never above the exact value (beyond the reference's last digit) and
// within 1e-12 below it.
void check_tight_lower_bounds(const TradeoffResult& result, const std::vector<Point>& exact) {
  REQUIRE(result.beta.size() == exact.size());
  for (std::size_t i = 0; i < exact.size(); ++i) {
    CAPTURE(exact[i].alpha);
    CHECK(result.beta[i] <= exact[i].beta * (1 + 1e-15));
    CHECK(result.beta[i] >= exact[i].beta - 1e-12);
  }
}

// G_mu at kAlphas: tests/reference/tradeoff_reference.py, section 1 (mpmath).
const std::vector<Point> kGaussianMu1 = {{1e-9, 0.99999971007013689457}, {1e-6, 0.9999127823898596108},
                                         {1e-3, 0.98170153159434340198}, {0.01, 0.90763775192630606415},
                                         {0.1, 0.61085630835463903096},  {0.3, 0.3171798703640042593},
                                         {0.5, 0.15865525393145705141},  {0.9, 0.011257914512604765376}};

}  // namespace

TEST_CASE("[tradeoff] mu-GDP is the Gaussian trade-off G_mu at mpmath precision") {
  struct Case {
    double mu;
    std::vector<Point> exact;
    double advantage;
  };
  // tests/reference/tradeoff_reference.py, section 1: Phi(Phi^-1(1 - alpha) - mu), and
  // 2 Phi(mu / 2) - 1, with mpmath.
  const Case cases[] = {
      {0.5,
       {{1e-9, 0.99999998077282843182},
        {1e-6, 0.99998947369397450349},
        {1e-3, 0.99520444079085782608},
        {0.01, 0.96610106087715722259},
        {0.1, 0.78276091957269480537},
        {0.3, 0.50973343031669251241},
        {0.5, 0.30853753872598689636},
        {0.9, 0.037411194400060123625}},
       0.19741265136584744848},
      {1, kGaussianMu1, 0.38292492254802620728},
      {3,
       {{1e-9, 0.99864035095856069689},
        {1e-6, 0.96023539929242807484},
        {1e-3, 0.53594869378997433258},
        {0.01, 0.25026625253320305124},
        {0.1, 0.042857426172889598121},
        {0.3, 0.0066506348784848047515},
        {0.5, 0.0013498980316300945267},
        {0.9, 9.2797351640756195218e-6}},
       0.86638559746228386799},
  };
  for (const Case& c : cases) {
    CAPTURE(c.mu);
    const auto result = gaussian_tradeoff(c.mu, at_alphas(c.exact));
    REQUIRE(result.ok());
    check_tight_lower_bounds(result.value(), c.exact);
    for (std::size_t i = 0; i < c.exact.size(); ++i) {
      CHECK(result.value().beta_upper[i] >= c.exact[i].beta * (1 - 1e-15));
      CHECK(result.value().beta_upper[i] <= c.exact[i].beta + 1e-12);
    }
    check_upper_bound(result.value().advantage, c.advantage, 1e-9);
    REQUIRE(result.value().mu.has_value());
    CHECK(*result.value().mu == c.mu);
    CHECK_FALSE(result.value().vacuous);
  }
}

TEST_CASE("[tradeoff] mu = 0 is perfect privacy: beta = 1 - alpha, advantage 0, the posterior is the prior") {
  TradeoffOptions options;
  options.alphas = {0, 0.25, 1};
  options.prior = 0.3;
  const auto result = gaussian_tradeoff(0, options);
  REQUIRE(result.ok());
  CHECK(result.value().beta == std::vector<double>{1, 0.75, 0});
  CHECK(result.value().advantage == 0);
  CHECK_REL(result.value().posterior->max_posterior, 0.3, 1e-14);
}

TEST_CASE("[tradeoff] an (eps, delta) guarantee gives f_{eps,delta}") {
  struct Case {
    double epsilon, delta;
    std::vector<double> exact;
    double advantage;
  };
  // tests/reference/tradeoff_reference.py, section 5 (mpmath), at kAlphas.
  const Case cases[] = {
      {1,
       1e-5,
       {0.99998999728171817154, 0.99998728171817154095, 0.99727171817154095476, 0.97280718171540954765,
        0.72816181715409547646, 0.25751193002559791069, 0.18393604179130944637, 0.036784265322732517736},
       0.4621225360884371584},
      {2,
       0,
       {0.99999999261094390107, 0.99999261094390106935, 0.99261094390106934977, 0.92610943901069349773,
        0.26109439010693497728, 0.094734698265628884326, 0.067667641618306345947, 0.013533528323661269189},
       0.76159415595576488812},
  };
  for (const Case& c : cases) {
    CAPTURE(c.epsilon);
    std::vector<Point> exact;
    for (std::size_t i = 0; i < kAlphas.size(); ++i) exact.push_back({kAlphas[i], c.exact[i]});
    const auto result = approx_dp_tradeoff(ApproxDp{c.epsilon, c.delta}, at_alphas(exact));
    REQUIRE(result.ok());
    check_tight_lower_bounds(result.value(), exact);
    CHECK(result.value().beta_upper.empty());
    check_upper_bound(result.value().advantage, c.advantage, 1e-14);
    CHECK_FALSE(result.value().mu.has_value());
  }
}

TEST_CASE("[tradeoff] statements derived from the curve") {
  SUBCASE("TPR at an FPR is 1 - beta there; reconstruction success at baseline kappa is 1 - f(kappa)") {
    TradeoffOptions options;
    options.fprs = {1e-3, 0.01};
    options.reconstruction_baselines = {0.01};
    const auto result = gaussian_tradeoff(1, options);
    REQUIRE(result.ok());
    REQUIRE(result.value().tpr_at_fpr.size() == 2);
    // 1 - G_1(alpha) from kGaussianMu1 (mpmath).
    CHECK(result.value().tpr_at_fpr[0].fpr == 1e-3);
    check_upper_bound(result.value().tpr_at_fpr[0].tpr, 1 - 0.98170153159434340198, 1e-11);
    check_upper_bound(result.value().tpr_at_fpr[1].tpr, 1 - 0.90763775192630606415, 1e-11);
    REQUIRE(result.value().reconstruction.size() == 1);
    CHECK(result.value().reconstruction[0].baseline == 0.01);
    check_upper_bound(result.value().reconstruction[0].max_success, 1 - 0.90763775192630606415, 1e-11);
  }
  SUBCASE("pure eps-DP bounds the posterior by pi e^eps / (pi e^eps + 1 - pi); a Gaussian does not bound it") {
    TradeoffOptions options;
    options.prior = 0.1;
    options.fprs = {0.01};
    const auto pure = approx_dp_tradeoff(ApproxDp{2, 0}, options);
    REQUIRE(pure.ok());
    // tests/reference/tradeoff_reference.py, section 5 (mpmath).
    check_upper_bound(pure.value().posterior->max_posterior, 0.45085306037928382251, 1e-14);
    // At FPR 0.01 the TPR is at most e^2 0.01, the same likelihood ratio.
    check_upper_bound(pure.value().posterior->at_fpr[0].posterior, 0.45085306037928382251, 1e-14);
    const auto gaussian = gaussian_tradeoff(1, options);
    REQUIRE(gaussian.ok());
    CHECK(gaussian.value().posterior->max_posterior == 1);
    // At FPR 0.01: 0.1 TPR / (0.1 TPR + 0.9 * 0.01) with TPR = 1 - G_1(0.01) (kGaussianMu1).
    const double tpr = 1 - 0.90763775192630606415;
    check_upper_bound(gaussian.value().posterior->at_fpr[0].posterior, 0.1 * tpr / (0.1 * tpr + 0.009), 1e-11);
  }
  SUBCASE("the plot curve: 213 points from 0 to 1, log-spaced from 1e-9 to 1e-2, then steps of 0.01") {
    const auto result = gaussian_tradeoff(1, {});
    REQUIRE(result.ok());
    const TradeoffCurve& curve = result.value().curve;
    REQUIRE(curve.alpha.size() == kCurvePoints);
    REQUIRE(kCurvePoints >= 200);
    CHECK(curve.alpha.front() == 0);
    CHECK_REL(curve.alpha[1], 1e-9, 1e-15);
    CHECK(curve.alpha[112] < 1e-2);
    CHECK(curve.alpha[113] == 0.01);
    CHECK(curve.alpha.back() == 1);
    for (std::size_t i = 1; i < curve.alpha.size(); ++i) {
      CHECK(curve.alpha[i] > curve.alpha[i - 1]);
      CHECK(curve.beta[i] <= curve.beta[i - 1]);  // a trade-off function is nonincreasing
      CHECK(curve.beta[i] <= curve.beta_upper[i]);
      CHECK(curve.tpr[i] == doctest::Approx(1 - curve.beta[i]).epsilon(1e-15));
    }
    CHECK(curve.beta.front() == 1);
    CHECK(curve.beta.back() == 0);
  }
  SUBCASE("a vacuous guarantee (delta = 1) lets a test catch everyone") {
    const auto result = approx_dp_tradeoff(ApproxDp{1, 1}, {});
    REQUIRE(result.ok());
    CHECK(result.value().vacuous);
    CHECK(result.value().advantage == 1);
    for (double beta : result.value().curve.beta) CHECK(beta == 0);
  }
}

TEST_CASE("[tradeoff] zCDP and RDP: the envelope of the privacy profile, in closed form") {
  SUBCASE("zCDP matches the numeric envelope of the Canonne-Kamath-Steinke profile") {
    struct Case {
      double rho;
      std::vector<double> exact;  // at kAlphas without 0.9
    };
    // tests/reference/tradeoff_reference.py, section 4 (mpmath, numeric envelope over eps and orders).
    const Case cases[] = {
        {0.01,
         {0.99999999753927437089, 0.99999791788451330144, 0.9983252696337002207, 0.98479265859759448559,
          0.86589063659957899613, 0.63009956910077208459, 0.4190948121020192977}},
        {0.5,
         {0.99999962086282501673, 0.99988365943792818825, 0.97504879322284119579, 0.87385407752126231058,
          0.48139826830205601607, 0.18245068259422893701, 0.093428653038915629613}},
        {2,
         {0.99994711917066532464, 0.99502070526996902675, 0.77097197460593802071, 0.41460103248262407115,
          0.048633254859177112319, 0.017494376269276739482, 0.0064223754264761970757}},
    };
    for (const Case& c : cases) {
      CAPTURE(c.rho);
      std::vector<Point> exact;
      for (std::size_t i = 0; i < c.exact.size(); ++i) exact.push_back({kAlphas[i], c.exact[i]});
      const auto result = zcdp_tradeoff(Zcdp{c.rho}, at_alphas(exact));
      REQUIRE(result.ok());
      check_tight_lower_bounds(result.value(), exact);
    }
  }
  SUBCASE("an RDP curve matches the numeric envelope of its profile") {
    // tests/reference/tradeoff_reference.py, section 4 (mpmath), at kAlphas.
    const std::vector<double> exact = {0.99999994592303932505, 0.99997719593476732706, 0.99049385131022750407,
                                       0.94654299748336834029, 0.69938918364093526673, 0.36363717717578682651,
                                       0.19707000840760785343, 0.023049448010144160596};
    std::vector<Point> points;
    for (std::size_t i = 0; i < kAlphas.size(); ++i) points.push_back({kAlphas[i], exact[i]});
    const RdpCurve curve{{1.5, 2, 4, 8, 16, 32, 64}, {0.2, 0.3, 0.7, 1.6, 3.5, 7.5, 15.8}};
    const auto result = rdp_tradeoff(curve, at_alphas(points));
    REQUIRE(result.ok());
    check_tight_lower_bounds(result.value(), points);
  }
  SUBCASE("the Gaussian mechanism satisfies (mu^2/2)-zCDP and its RDP curve, so both curves lie below G_mu") {
    const double mu = 1;
    const auto zcdp = zcdp_tradeoff(Zcdp{mu * mu / 2}, at_alphas(kGaussianMu1));
    std::vector<double> orders, epsilons;
    for (double order = 1.25; order <= 256; order *= 1.25) {
      orders.push_back(order);
      epsilons.push_back(order * mu * mu / 2);
    }
    const auto rdp = rdp_tradeoff(RdpCurve{orders, epsilons}, at_alphas(kGaussianMu1));
    REQUIRE(zcdp.ok());
    REQUIRE(rdp.ok());
    for (std::size_t i = 0; i < kGaussianMu1.size(); ++i) {
      CAPTURE(kGaussianMu1[i].alpha);
      CHECK(zcdp.value().beta[i] <= kGaussianMu1[i].beta);
      CHECK(rdp.value().beta[i] <= zcdp.value().beta[i]);  // the orders are a subset of lambda > 1
    }
    // delta(0) of the profile bounds the total variation 2 Phi(1/2) - 1 (mpmath, section 1).
    CHECK(zcdp.value().advantage >= 0.38292492254802620728);
    CHECK(zcdp.value().advantage <= rdp.value().advantage);
  }
  SUBCASE("rho = 0 is perfect privacy") {
    const auto result = zcdp_tradeoff(Zcdp{0}, at_alphas({{0.2, 0.8}}));
    REQUIRE(result.ok());
    CHECK_REL(result.value().beta[0], 0.8, 1e-15);
    CHECK(result.value().advantage == 0);
  }
}

TEST_CASE("[tradeoff] a privacy profile given at points: the envelope of their lines") {
  // The exact Gaussian profile (mu = 1) at eps = 0, 0.05, ..., 10 (Balle, Wang 2018, Thm 8): its
  // envelope lies below G_1 and within the gaps of the eps grid of it.
  ProfilePoints gaussian;
  for (int i = 0; i <= 200; ++i) {
    gaussian.epsilons.push_back(0.05 * i);
    gaussian.deltas.push_back(gaussian_delta_for_epsilon(1, 0.05 * i));
  }
  const auto result = profile_tradeoff(gaussian, at_alphas(kGaussianMu1));
  REQUIRE(result.ok());
  for (std::size_t i = 0; i < kGaussianMu1.size(); ++i) {
    CAPTURE(kGaussianMu1[i].alpha);
    CHECK(result.value().beta[i] <= kGaussianMu1[i].beta);
    CHECK(result.value().beta[i] >= kGaussianMu1[i].beta - 0.005);
  }
  // The profile includes eps = 0: the advantage is delta(0) (rounded up), 2 Phi(1/2) - 1 (mpmath).
  check_upper_bound(result.value().advantage, 0.38292492254802620728, 1e-9);

  SUBCASE("one direction alone bounds only its side of the curve") {
    const auto remove_only = profile_tradeoff(gaussian, ProfilePoints{}, at_alphas(kGaussianMu1));
    REQUIRE(remove_only.ok());
    // Small alpha: the remove lines alone are tight; large alpha needs the add direction's lines.
    CHECK(remove_only.value().beta[2] >= kGaussianMu1[2].beta - 0.005);
    CHECK(remove_only.value().beta[7] < result.value().beta[7]);
  }
  SUBCASE("without an eps = 0 pair the advantage is still bounded, by where the envelopes cross") {
    ProfilePoints shifted = gaussian;
    shifted.epsilons.erase(shifted.epsilons.begin());
    shifted.deltas.erase(shifted.deltas.begin());
    const auto without_zero = profile_tradeoff(shifted, {});
    REQUIRE(without_zero.ok());
    CHECK(without_zero.value().advantage >= 0.38292492254802620728);
    CHECK(without_zero.value().advantage <= 0.39);
  }
}

TEST_CASE("[tradeoff] invalid input names the option, and the value of a list by its index") {
  auto rejects = [](const Result<TradeoffResult>& result, const char* field, std::size_t item = Error::kNoItem) {
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == kInvalidArgument);
    CHECK(result.error().field == field);
    CHECK(result.error().item == item);
  };
  TradeoffOptions options;
  options.alphas = {0.1, 1.5};
  rejects(gaussian_tradeoff(1, options), "alphas", 1);
  options = {};
  options.fprs = {std::nan("")};
  const auto nan_fpr = gaussian_tradeoff(1, options);
  rejects(nan_fpr, "fpr", 0);
  CHECK(nan_fpr.error().message.find("not a number") != std::string::npos);
  options = {};
  options.prior = 1;
  rejects(gaussian_tradeoff(1, options), "prior");
  options = {};
  options.reconstruction_baselines = {-0.1};
  rejects(gaussian_tradeoff(1, options), "reconstruction_baselines", 0);
  options = {};
  options.alphas.assign(kMaxRequestedPoints + 1, 0.5);
  rejects(gaussian_tradeoff(1, options), "alphas");
  rejects(gaussian_tradeoff(-1, {}), "mu");
  rejects(gaussian_tradeoff(INFINITY, {}), "mu");
  rejects(profile_tradeoff(ProfilePoints{{1, 2}, {0.1}}, {}), "deltas");
  rejects(profile_tradeoff(ProfilePoints{{1}, {1.5}}, ProfilePoints{}, {}), "remove_deltas", 0);
  rejects(profile_tradeoff(ProfilePoints{}, ProfilePoints{{-1}, {0.5}}, {}), "add_epsilons", 0);
}
