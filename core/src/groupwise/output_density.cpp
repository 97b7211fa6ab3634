#include "dpcalc/groupwise/output_density.hpp"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <limits>
#include <vector>

namespace dpcalc::groupwise {

double output_sd(const TwoStageNoise& noise, double count) {
  const double sigma2 = noise.sigma * noise.sigma;
  const double r = noise.relative_error;
  return std::sqrt(sigma2 + r * r * (count * count + sigma2));
}

namespace {

using boost::math::constants::pi;
constexpr double kQuadratureTolerance = 1e-12;
constexpr unsigned kMaxDepth = 12;
// Integrand values below e^-kNegligibleLog relative to the mode do not move a double sum.
constexpr double kNegligibleLog = 80;

// The two integrals p_x(y) and p_{x+1}(y) − p_x(y) share their nodes: Boost's Gauss–Kronrod is
// generic in the integrand's value type, which only needs arithmetic and an abs() for the error.
struct Moments {
  double density = 0;                                            // ∫ w(s) ds
  double shifted = 0;                                            // ∫ w(s) expm1(l(s)) ds
  Moments(double value = 0) : density(value), shifted(value) {}  // NOLINT: Boost writes K(0)
  Moments(double d, double s) : density(d), shifted(s) {}
  Moments& operator+=(const Moments& o) {
    density += o.density;
    shifted += o.shifted;
    return *this;
  }
};
Moments operator+(Moments a, const Moments& b) { return a += b; }
Moments operator-(const Moments& a, const Moments& b) { return {a.density - b.density, a.shifted - b.shifted}; }
Moments operator-(const Moments& a) { return {-a.density, -a.shifted}; }
Moments operator*(const Moments& a, double k) { return {a.density * k, a.shifted * k}; }
Moments operator*(double k, const Moments& a) { return a * k; }
double abs(const Moments& m) { return std::max(std::fabs(m.density), std::fabs(m.shifted)); }

// log of N(s; x, σ²) N(y; s, (r s)²) without the constant 1/(2π σ r).
struct LogJoint {
  double x, y, sigma, r;
  double operator()(double s) const { return without_jacobian(s) - std::log(std::fabs(s)); }
  // Without the −log|s| of N(y; s, (r s)²), which cancels against ds = |s| du in u = log|s|.
  double without_jacobian(double s) const {
    const double prior = (s - x) / sigma;
    const double kernel = (y / s - 1) / r;
    return -0.5 * prior * prior - 0.5 * kernel * kernel;
  }
  double second_derivative(double s) const {
    const double t = y / s;
    return -1 / (sigma * sigma) + (2 * t - 3 * t * t) / (r * r * s * s) + 1 / (s * s);
  }
};

// The integrand normalised by e^{reference}, in s or (for pieces far from or next to 0) in
// u = log|s| with s = side e^u and ds = |s| du.
// The second component is w expm1(l) while the loss at the mode, l*, is small (no cancellation in
// p_{x+1}/p_x − 1), and w e^{l − l*} otherwise (p_{x+1}/p_x far from 1; scaled to the size of w so
// that one tolerance serves both components).
struct Integrand {
  LogJoint joint;
  double reference;
  double mode_loss;
  bool ratio_form;
  // In s (in_log_s false) or in u = log|s| (in_log_s true, where the 1/|s| and ds = |s| du cancel).
  Moments at(double s, bool in_log_s) const {
    const double log_w = (in_log_s ? joint.without_jacobian(s) : joint(s)) - reference;
    const double w = std::exp(log_w);
    if (w == 0) return {};
    const double loss = (2 * (s - joint.x) - 1) / (2 * joint.sigma * joint.sigma);
    if (ratio_form) return {w, std::exp(log_w + loss - mode_loss)};
    return {w, loss > 30 ? std::exp(log_w + loss) - w : w * std::expm1(loss)};
  }
};

std::vector<double> breakpoints(const LogJoint& joint) {
  std::vector<double> points{0};
  for (double k : {-40.0, -12.0, -4.0, -1.0, 0.0, 1.0, 4.0, 12.0, 40.0}) points.push_back(joint.x + k * joint.sigma);
  // The second stage N(y; s, (r s)²) is large where y/s is within a few r of 1.
  for (double k : {-12.0, -1.0, 0.0, 1.0, 12.0}) {
    const double t = 1 + k * joint.r;
    if (t > 0) points.push_back(joint.y / t);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

bool same_side(double a, double b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

// The mode of the integrand, added as a breakpoint; returns its log value. It lies between the
// prior's mode x and the second stage's s ≈ y, possibly across many orders of magnitude, so the
// breakpoints and a geometric grid between the smallest and largest of them on each side of 0 are
// searched, and Brent's method refines the best candidate.
double add_mode(const LogJoint& joint, std::vector<double>& points, double& mode_location) {
  std::vector<double> candidates;
  for (double side : {-1.0, 1.0}) {
    double smallest = std::numeric_limits<double>::infinity(), largest = 0;
    for (double point : points) {
      if (point * side > 0)
        smallest = std::min(smallest, std::fabs(point)), largest = std::max(largest, std::fabs(point));
    }
    if (!(largest > smallest)) continue;
    constexpr int kGrid = 12;
    for (int i = 0; i <= kGrid; ++i)
      candidates.push_back(side * smallest * std::pow(largest / smallest, double(i) / kGrid));
  }
  for (double point : points) {
    if (point != 0) candidates.push_back(point);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  double best = -std::numeric_limits<double>::infinity();
  std::size_t best_index = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const double value = joint(candidates[i]);
    if (value > best) best = value, best_index = i;
  }
  const double centre = candidates[best_index];
  double lo = best_index > 0 ? candidates[best_index - 1] : centre - joint.sigma;
  double hi = best_index + 1 < candidates.size() ? candidates[best_index + 1] : centre + joint.sigma;
  if (!same_side(lo, centre)) lo = centre * 1e-6;
  if (!same_side(hi, centre)) hi = centre * 1e-6;
  if (lo > hi) std::swap(lo, hi);
  // The best candidate at the outer end of its side: push that end out until the integrand falls.
  const bool last_on_side = best_index + 1 == candidates.size() || !same_side(candidates[best_index + 1], centre);
  const bool first_on_side = best_index == 0 || !same_side(candidates[best_index - 1], centre);
  if (centre > 0 && last_on_side) hi = centre + joint.sigma;
  if (centre < 0 && first_on_side) lo = centre - joint.sigma;
  for (int i = 0; i < 60 && centre > 0 && last_on_side && joint(hi) >= best; ++i) hi += 2 * (hi - centre);
  for (int i = 0; i < 60 && centre < 0 && first_on_side && joint(lo) >= best; ++i) lo -= 2 * (centre - lo);
  const auto negative = [&joint](double s) { return -joint(s); };
  const auto mode = boost::math::tools::brent_find_minima(negative, lo, hi, 40);
  if (-mode.second > best) best = -mode.second;
  mode_location = mode.first;
  // Pieces scaled to the mode's width (from the curvature), so that no piece hides a narrow peak.
  std::vector<double> around{mode.first};
  const double curvature = joint.second_derivative(mode.first);
  if (curvature < 0) {
    const double width = 1 / std::sqrt(-curvature);
    for (double k : {-30.0, -8.0, -2.0, 2.0, 8.0, 30.0}) {
      if (same_side(mode.first + k * width, mode.first)) around.push_back(mode.first + k * width);
    }
  }
  points.insert(points.end(), around.begin(), around.end());
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return best;
}

// Pushes the outermost breakpoints out until the integrand there is negligible.
void extend_ends(const LogJoint& joint, double reference, std::vector<double>& points) {
  for (int i = 0; i < 60 && joint(points.front()) - reference > -kNegligibleLog; ++i) {
    points.insert(points.begin(), points.front() - (points.back() - points.front() + joint.sigma));
  }
  for (int i = 0; i < 60 && joint(points.back()) - reference > -kNegligibleLog; ++i) {
    points.push_back(points.back() + (points.back() - points.front() + joint.sigma));
  }
}

struct Integral {
  Moments value;
  double error = 0;
};

// Boost 1.74's Gauss–Kronrod floors its error estimate at 2 eps times the integral over the
// *unscaled* interval [−1, 1], so on an interval much shorter than 1 the tolerance can never be met
// and every level is refined. Each piece is therefore integrated over [0, 1].
template <class K, class F>
K integrate_unit(F f, double a, double b, unsigned max_depth, double tolerance, double* error) {
  using Rule = boost::math::quadrature::gauss_kronrod<double, 15>;
  const double width = b - a;
  const auto mapped = [&f, a, width](double t) { return f(a + width * t) * width; };
  return Rule::integrate(mapped, 0.0, 1.0, max_depth, tolerance, error);
}

// `max_depth` 0 is a single Gauss–Kronrod rule; otherwise Boost bisects until its error estimate is
// below `tolerance` times the piece's first estimate.
Integral integrate_piece(const Integrand& integrand, double a, double b, unsigned max_depth, double tolerance) {
  Integral piece;
  const double y = integrand.joint.y;
  const bool touches_zero = a == 0 || b == 0;
  const double side = (a + b) > 0 ? 1.0 : -1.0;
  double near = std::fabs(touches_zero ? a + b : (side > 0 ? a : b));
  const double far = std::fabs(side > 0 ? b : a);
  if (!touches_zero && far <= 3 * near) {
    const auto f = [&integrand](double s) { return integrand.at(s, false); };
    piece.value = integrate_unit<Moments>(f, a, b, max_depth, tolerance, &piece.error);
    return piece;
  }
  if (touches_zero) {
    // Next to s = 0 the second stage makes the integrand vanish like e^{-y²/(2 r² s²)}: below
    // |s| = |y| / (1 + 40 r) it is under e^-800 of its value at |s| = |y|.
    near = std::fabs(y) / (1 + 40 * integrand.joint.r);
    if (near >= far) return piece;
  }
  const auto f = [&integrand, side](double u) { return integrand.at(side * std::exp(u), true); };
  piece.value = integrate_unit<Moments>(f, std::log(near), std::log(far), max_depth, tolerance, &piece.error);
  return piece;
}

}  // namespace

OutputPoint output_point(const TwoStageNoise& noise, double count, double y) {
  const LogJoint joint{count, y, noise.sigma, noise.relative_error};
  std::vector<double> points = breakpoints(joint);
  double mode = count;
  const double reference = add_mode(joint, points, mode);
  extend_ends(joint, reference, points);
  const double mode_loss = (2 * (mode - count) - 1) / (2 * noise.sigma * noise.sigma);
  const Integrand integrand{joint, reference, mode_loss, std::fabs(mode_loss) > 0.5};
  // One rule per piece first; then only the pieces whose error matters for the total are refined,
  // to an absolute tolerance (Boost's tolerance is relative to each piece, which would refine
  // negligible pieces to no purpose).
  std::vector<Integral> pieces;
  double scale = 0;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    pieces.push_back(integrate_piece(integrand, points[i], points[i + 1], 0, kQuadratureTolerance));
    scale += std::fabs(pieces.back().value.density);
  }
  Moments total;
  double error = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    Integral& piece = pieces[i];
    const double size = abs(piece.value);
    if (piece.error > kQuadratureTolerance * scale && size > 0) {
      piece = integrate_piece(integrand, points[i], points[i + 1], kMaxDepth, kQuadratureTolerance * scale / size);
    }
    total += piece.value;
    error += piece.error;
  }
  OutputPoint point;
  point.log_density =
      reference + std::log(total.density) - std::log(2 * pi<double>() * noise.sigma * noise.relative_error);
  point.density_error = error / total.density;
  if (integrand.ratio_form) {
    // p_{x+1}/p_x = e^{l*} T/D, so L = −l* − log T + log D and δL <= error/T + error/D.
    point.loss = -mode_loss - std::log(total.shifted) + std::log(total.density);
    point.loss_error = error / total.shifted + error / total.density;
  } else {
    // p_{x+1}/p_x = 1 + T/D, so L = −log1p(T/D) and δL <= (1 + |T/D|) error/(D + T).
    const double ratio = total.shifted / total.density;
    point.loss = -std::log1p(ratio);
    point.loss_error = (1 + std::fabs(ratio)) * error / (total.density + total.shifted);
  }
  return point;
}

double output_density(const TwoStageNoise& noise, double count, double y) {
  if (y == 0) return std::numeric_limits<double>::infinity();
  return std::exp(output_point(noise, count, y).log_density);
}

double expected_absolute_error(const TwoStageNoise& noise, double count, double* error) {
  const double sigma = noise.sigma;
  const double r = noise.relative_error;
  const auto integrand = [&](double s) {
    const double z = (s - count) / sigma;
    const double prior = std::exp(-0.5 * z * z) / (sigma * std::sqrt(2 * pi<double>()));
    const double mu = s - count;
    const double v = r * std::fabs(s);
    if (v == 0) return prior * std::fabs(mu);
    const double t = mu / v;
    return prior * (v * std::sqrt(2 / pi<double>()) * std::exp(-0.5 * t * t) + mu * std::erf(t / std::sqrt(2.0)));
  };
  std::vector<double> points;
  for (double k : {-40.0, -12.0, -4.0, -1.0, 0.0, 1.0, 4.0, 12.0, 40.0}) points.push_back(count + k * sigma);
  if (points.front() < 0) points.push_back(0);  // v = r|s| has a kink at s = 0
  std::sort(points.begin(), points.end());
  double total = 0, total_error = 0;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    double piece_error = 0;
    total += integrate_unit<double>(integrand, points[i], points[i + 1], kMaxDepth, kQuadratureTolerance, &piece_error);
    total_error += piece_error;
  }
  if (error) *error = total_error;
  return total;
}

}  // namespace dpcalc::groupwise
