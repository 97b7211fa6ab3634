#include "dpcalc/groupwise/group_privacy_estimate.hpp"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <cmath>
#include <limits>

#include "dpcalc/checks.hpp"
#include "dpcalc/groupwise/output_density.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc::groupwise {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
// A panel adding less than e^-41.4 ≈ 1e-18 of every integral ends the outward extension.
constexpr double kNegligibleLogShare = -41.4;
// Geometric grading towards y = 0: each panel is this fraction of the previous one.
constexpr double kGradingRatio = 0.15;
constexpr int kMaxGradedPanels = 200;
// Panel width in local standard deviations sqrt(σ² + r²y²) (a step of kPanelWidth r in asinh(r y/σ)).
constexpr double kPanelWidth = 2;
// The y range never extends beyond x ± kMaxReach sd(Y).
constexpr double kMaxReach = 40;
// ε(δ) on the mesh is solved to this relative width, far below the estimate's own error.
constexpr double kEpsilonTolerance = 1e-15;
// Progress: building the coarse mesh is about a third of the work, reported as kProgressPerPanel a
// panel up to kCoarseMeshProgress; halving its panels takes it to kFineMeshProgress; the
// divergences and ε(δ) take the rest.
constexpr double kProgressPerPanel = 0.002;
constexpr double kCoarseMeshProgress = 0.3;
constexpr double kFineMeshProgress = 0.95;

double log_add(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b - a < -40) return a;  // log1p(e^-40) is below the rounding of a
  return a + std::log1p(std::exp(b - a));
}

// log(1 + e^t), without overflow.
double log1p_exp(double t) { return t > 35 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

// log h_a(L), h_a(L) = expm1(a L) + a expm1(−L) >= 0 (a > 0); −inf at L = 0.
double log_tilt_excess(double a, double loss) {
  if (loss == 0) return kMinusInfinity;
  if (std::max(a, 1.0) * std::fabs(loss) < 0.5) {
    // h_a(L) = sum_{k>=2} (a^k + a (−1)^k) L^k / k!: no cancellation between the two expm1.
    // A term can be exactly 0 (every odd k at a = 1, order 2), so the stopping test uses the bound
    // (a^k + a) |L|^k / k! on the term instead: the later bounds shrink by at least
    // max(a, 1) |L| < 1/2 each, so what is left is below twice the last bound.
    double sum = 0, a_power = a, l_power = loss, factorial = 1;
    for (int k = 2; k < 60; ++k) {
      a_power *= a;
      l_power *= loss;
      factorial *= k;
      const double term = (a_power + (k % 2 == 0 ? a : -a)) * l_power / factorial;
      sum += term;
      if ((a_power + a) * std::fabs(l_power) / factorial < 1e-18 * std::fabs(sum)) break;
    }
    return std::log(sum);
  }
  if (loss > 0) {
    if (a * loss < 700) return std::log(std::expm1(a * loss) + a * std::expm1(-loss));
    return a * loss + std::log1p((a * std::expm1(-loss) - 1) * std::exp(-a * loss));
  }
  if (-loss < 700) return std::log(std::expm1(a * loss) + a * std::expm1(-loss));
  return std::log(a) - loss + std::log1p((std::exp(a * loss) - 1 - a) * std::exp(loss) / a);
}

// log |h_a'(L)| = log(a |e^{aL} − e^{−L}|).
double log_tilt_slope(double a, double loss) {
  if (loss == 0) return kMinusInfinity;
  const double gap = (a + 1) * std::fabs(loss);
  return std::log(a) + std::max(a * loss, -loss) + std::log(-std::expm1(-gap));
}

struct Node {
  double log_mass;  // log(quadrature weight × p_x(y))
  double loss;      // L(y)
  double density_error;
  double loss_error;
};

struct Interval {
  double a, b;
};

// 10-point Gauss–Legendre nodes and weights on [−1, 1] (Boost.Math).
struct GaussLegendre {
  std::vector<double> nodes, weights;
  GaussLegendre() {
    using Rule = boost::math::quadrature::gauss<double, 10>;
    for (std::size_t i = 0; i < Rule::abscissa().size(); ++i) {
      nodes.push_back(Rule::abscissa()[i]);
      weights.push_back(Rule::weights()[i]);
      nodes.push_back(-Rule::abscissa()[i]);
      weights.push_back(Rule::weights()[i]);
    }
  }
};

// The integrals the mesh must capture, in log space: for each order the forward and reverse
// tilted excess, then the density itself.
class Integrals {
 public:
  explicit Integrals(const std::vector<double>& orders)
      : orders_(orders), log_totals_(2 * orders.size() + 1, kMinusInfinity) {}

  std::vector<double> of(const std::vector<Node>& nodes) const {
    std::vector<double> sums(log_totals_.size(), kMinusInfinity);
    for (const Node& node : nodes) {
      for (std::size_t i = 0; i < orders_.size(); ++i) {
        const double a = orders_[i] - 1;
        sums[2 * i] = log_add(sums[2 * i], node.log_mass + log_tilt_excess(a, node.loss));
        sums[2 * i + 1] = log_add(sums[2 * i + 1], node.log_mass - node.loss + log_tilt_excess(a, -node.loss));
      }
      sums.back() = log_add(sums.back(), node.log_mass);
    }
    return sums;
  }
  // Adds a panel's sums; returns whether it changed any integral by more than 1e-18 of its value.
  bool add(const std::vector<double>& sums) {
    bool matters = false;
    for (std::size_t k = 0; k < sums.size(); ++k) {
      if (sums[k] - log_totals_[k] > kNegligibleLogShare) matters = true;
      log_totals_[k] = log_add(log_totals_[k], sums[k]);
    }
    return matters;
  }

 private:
  const std::vector<double>& orders_;
  std::vector<double> log_totals_;
};

class MeshBuilder {
 public:
  MeshBuilder(const TwoStageNoise& noise, double count, const std::vector<double>& orders,
              const ProgressCallback& progress)
      : noise_(noise), count_(count), integrals_(orders), progress_(progress) {}

  // The nodes of the 10-point rule on `interval` (failed nodes are left out and recorded).
  std::vector<Node> nodes_on(const Interval& interval) const {
    std::vector<Node> panel;
    const double half = 0.5 * (interval.b - interval.a), mid = 0.5 * (interval.a + interval.b);
    for (std::size_t i = 0; i < rule_.nodes.size(); ++i) {
      const double y = mid + half * rule_.nodes[i];
      if (y == 0) continue;  // not reached: Gauss nodes are interior
      const OutputPoint point = output_point(noise_, count_, y);
      if (!(std::isfinite(point.log_density) && std::isfinite(point.loss) && point.density_error < 1e-3)) {
        if (!failed_at) failed_at = y;
        continue;
      }
      panel.push_back(
          {std::log(half * rule_.weights[i]) + point.log_density, point.loss, point.density_error, point.loss_error});
    }
    return panel;
  }

  // Builds the coarse mesh. Returns false when cancelled; sets too_large when out of panels.
  bool build() {
    const double tau = output_sd(noise_, count_);
    step_ = kPanelWidth * noise_.relative_error;
    const long first = static_cast<long>(std::floor(to_z(count_ - 8 * tau) / step_));
    const long last = static_cast<long>(std::ceil(to_z(count_ + 8 * tau) / step_));
    // The panels next to y = 0 first: that is where the inner quadrature fails when it does (the
    // second stage's noise r·X vanishes there), and a failure ends the estimate, so it is found
    // before the rest of the work rather than after it.
    for (long k : {-1L, 0L}) {
      if (k >= first && k < last && (!add_panel(k) || failed_at)) return !cancelled;
    }
    for (long k = first; k < last; ++k) {
      if (k == -1 || k == 0) continue;
      if (!add_panel(k) || failed_at) return !cancelled;
    }
    // The extension stops at x ± kMaxReach sd(Y) at the latest: beyond, the densities are below
    // e^-800 of their peak and the quadrature of the loss there is no longer trustworthy.
    const long reach_last = static_cast<long>(std::ceil(to_z(count_ + kMaxReach * tau) / step_));
    const long reach_first = static_cast<long>(std::floor(to_z(count_ - kMaxReach * tau) / step_));
    for (int direction : {1, -1}) {
      int quiet = 0;
      for (long k = direction > 0 ? last : first - 1; quiet < 2 && !too_large && k >= reach_first && k < reach_last;
           k += direction) {
        if (!add_panel(k, &quiet)) return false;
        if (failed_at) return true;
      }
    }
    return true;
  }

  std::vector<Interval> intervals;
  std::vector<Node> nodes;
  // The first y where the inner quadrature failed (non-finite or inaccurate), if any.
  mutable std::optional<double> failed_at;
  bool too_large = false;
  bool cancelled = false;

 private:
  double to_z(double y) const { return std::asinh(noise_.relative_error * y / noise_.sigma); }
  double to_y(double z) const { return noise_.sigma / noise_.relative_error * std::sinh(z); }

  // Adds one panel of the z grid; the two next to y = 0 are graded towards it. Returns false only
  // when cancelled; `quiet` counts consecutive negligible panels.
  bool add_panel(long k, int* quiet = nullptr) {
    if (static_cast<int>(intervals.size()) >= kMaxPanels) {
      too_large = true;
      if (quiet) *quiet = 2;
      return true;
    }
    const double a = to_y(k * step_), b = to_y((k + 1) * step_);
    bool matters = false;
    if (k == 0 || k == -1) {
      const double outer = k == 0 ? b : a;  // graded from the outer end towards 0
      double end = outer;
      int graded_quiet = 0;
      for (int j = 0; j < kMaxGradedPanels && graded_quiet < 2; ++j) {
        const double inner = end * kGradingRatio;
        const bool piece_matters = add_interval(k == 0 ? Interval{inner, end} : Interval{end, inner});
        matters = matters || piece_matters;
        graded_quiet = piece_matters ? 0 : graded_quiet + 1;
        end = inner;
        if (cancelled) return false;
      }
      matters = add_interval(k == 0 ? Interval{0, end} : Interval{end, 0}) || matters;
    } else {
      matters = add_interval({a, b});
    }
    if (cancelled) return false;
    if (quiet) *quiet = matters ? 0 : *quiet + 1;
    return true;
  }

  bool add_interval(const Interval& interval) {
    std::vector<Node> panel = nodes_on(interval);
    const bool matters = integrals_.add(integrals_.of(panel));
    intervals.push_back(interval);
    nodes.insert(nodes.end(), panel.begin(), panel.end());
    if (progress_ && !progress_(std::min(kCoarseMeshProgress, kProgressPerPanel * intervals.size()))) cancelled = true;
    return matters;
  }

  const TwoStageNoise& noise_;
  double count_;
  Integrals integrals_;
  const ProgressCallback& progress_;
  GaussLegendre rule_;
  double step_ = 1;
};

struct Divergences {
  std::vector<double> forward, reverse;              // D_α in each direction
  std::vector<double> forward_error, reverse_error;  // propagated inner-quadrature error of D_α
  double log_normalization = kMinusInfinity;
};

Divergences divergences(const std::vector<Node>& nodes, const std::vector<double>& orders) {
  Divergences result;
  for (double order : orders) {
    const double a = order - 1;
    double forward = kMinusInfinity, reverse = kMinusInfinity;
    double forward_error = kMinusInfinity, reverse_error = kMinusInfinity;
    for (const Node& node : nodes) {
      const double log_h = log_tilt_excess(a, node.loss);
      const double log_h_reverse = log_tilt_excess(a, -node.loss);
      forward = log_add(forward, node.log_mass + log_h);
      reverse = log_add(reverse, node.log_mass - node.loss + log_h_reverse);
      // First-order propagation of the relative density error e and the loss error δL:
      // |Δ(p h)| <= p (e h + δL |h'|).
      const double log_loss_error = std::log(node.loss_error);
      forward_error = log_add(forward_error, node.log_mass + log_add(std::log(node.density_error) + log_h,
                                                                     log_loss_error + log_tilt_slope(a, node.loss)));
      reverse_error = log_add(reverse_error, node.log_mass - node.loss +
                                                 log_add(std::log(node.density_error + node.loss_error) + log_h_reverse,
                                                         log_loss_error + log_tilt_slope(a, -node.loss)));
    }
    // D_α = log(1 + I)/(α − 1), and |Δ D_α| <= |Δ I| / ((1 + I)(α − 1)).
    const double log_forward = log1p_exp(forward), log_reverse = log1p_exp(reverse);
    result.forward.push_back(log_forward / a);
    result.reverse.push_back(log_reverse / a);
    result.forward_error.push_back(std::exp(forward_error - log_forward) / a);
    result.reverse_error.push_back(std::exp(reverse_error - log_reverse) / a);
  }
  for (const Node& node : nodes) result.log_normalization = log_add(result.log_normalization, node.log_mass);
  return result;
}

// δ(ε) = max over the two directions of the hockey-stick divergence on the mesh. With
// `widen_losses`, each direction's loss is raised by its error estimate (the worse case).
double hockey_stick(const std::vector<Node>& nodes, double epsilon, bool widen_losses) {
  double forward = 0, reverse = 0;
  for (const Node& node : nodes) {
    const double widen = widen_losses ? node.loss_error : 0;
    const double forward_loss = node.loss + widen, reverse_loss = -node.loss + widen;
    if (forward_loss > epsilon) forward += -std::exp(node.log_mass) * std::expm1(epsilon - forward_loss);
    if (reverse_loss > epsilon) reverse += -std::exp(node.log_mass - node.loss) * std::expm1(epsilon - reverse_loss);
  }
  return std::max(forward, reverse);
}

// Smallest ε in [0, ceiling] with δ(ε) <= delta on the mesh (δ(ε) is non-increasing), to a
// relative kEpsilonTolerance; `ceiling` when even it does not meet delta.
double epsilon_for_delta(const std::vector<Node>& nodes, double delta, double ceiling, bool widen_losses = false) {
  const Excess excess = [&](double epsilon) { return hockey_stick(nodes, epsilon, widen_losses) - delta; };
  if (excess(0) <= 0) return 0;
  if (excess(ceiling) > 0) return ceiling;
  SolveOptions options;
  options.relative_width = kEpsilonTolerance;
  return solve_boundary(excess, Boundary{ceiling, 0}, options).meeting;
}

// The estimate ends at the first point where the inner quadrature fails (the mesh stops there).
Error estimate_quadrature_failed(double y, double count) {
  return Error{
      kNumeric, "count",
      "The quadrature of the output density failed " +
          (std::isfinite(y) ? "at y = " + format_number(y) : std::string("where the density is not a finite number")) +
          " for count " + format_number(count) +
          "; no estimate is given for these parameters (near y = 0 the second stage's noise r·y vanishes "
          "and the first stage's σ alone shapes the density)."};
}

}  // namespace

std::vector<double> default_orders() {
  std::vector<double> orders;
  const int count = 50;
  for (int i = 0; i < count; ++i) orders.push_back(1 + 0.01 * std::pow(25500.0, double(i) / (count - 1)));
  orders.back() = kMaxOrder;
  return orders;
}

Result<GroupPrivacyEstimate> estimate_group_privacy(const TwoStageNoise& noise, double count,
                                                    const std::vector<double>& orders, std::optional<double> delta,
                                                    double epsilon_ceiling, const ProgressCallback& progress) {
  const Error cancelled{pld::kCancelled, "", "The computation was cancelled."};
  MeshBuilder mesh(noise, count, orders, progress);
  if (!mesh.build() || mesh.cancelled) return cancelled;
  if (mesh.failed_at) return estimate_quadrature_failed(*mesh.failed_at, count);
  if (mesh.too_large) {
    return Error{kNumeric, "noise",
                 "The numerical estimate would need more than " + std::to_string(kMaxPanels) +
                     " quadrature panels at these orders (the tilted densities reach far into the tails); "
                     "use a smaller rho or lower orders."};
  }
  std::vector<Node> fine;
  for (std::size_t i = 0; i < mesh.intervals.size(); ++i) {
    const Interval& whole = mesh.intervals[i];
    const double mid = 0.5 * (whole.a + whole.b);
    for (const Interval& half : {Interval{whole.a, mid}, Interval{mid, whole.b}}) {
      std::vector<Node> nodes = mesh.nodes_on(half);
      fine.insert(fine.end(), nodes.begin(), nodes.end());
    }
    if (mesh.failed_at) return estimate_quadrature_failed(*mesh.failed_at, count);
    const double halved = double(i + 1) / mesh.intervals.size();
    if (progress && !progress(kCoarseMeshProgress + (kFineMeshProgress - kCoarseMeshProgress) * halved)) {
      return cancelled;
    }
  }
  if (mesh.failed_at) return estimate_quadrature_failed(*mesh.failed_at, count);
  const Divergences coarse = divergences(mesh.nodes, orders);
  const Divergences finer = divergences(fine, orders);

  GroupPrivacyEstimate estimate;
  estimate.count = count;
  estimate.orders = orders;
  estimate.panels = static_cast<int>(mesh.intervals.size());
  estimate.normalization = std::exp(finer.log_normalization);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double forward_error = std::fabs(finer.forward[i] - coarse.forward[i]) + finer.forward_error[i];
    const double reverse_error = std::fabs(finer.reverse[i] - coarse.reverse[i]) + finer.reverse_error[i];
    const double renyi = std::max(finer.forward[i], finer.reverse[i]);
    estimate.renyi.push_back(renyi);
    estimate.renyi_error.push_back(std::max(forward_error, reverse_error));
    estimate.rho_estimate = std::max(estimate.rho_estimate, renyi / orders[i]);
    estimate.error_estimate = std::max(estimate.error_estimate, estimate.renyi_error.back() / orders[i]);
  }
  if (delta) {
    // Error: the half-step difference plus the shift when every loss moves by its error estimate.
    const double epsilon = epsilon_for_delta(fine, *delta, epsilon_ceiling);
    estimate.epsilon_estimate = epsilon;
    estimate.epsilon_error = std::fabs(epsilon - epsilon_for_delta(mesh.nodes, *delta, epsilon_ceiling)) +
                             (epsilon_for_delta(fine, *delta, epsilon_ceiling, true) - epsilon);
  }
  if (progress && !progress(1)) return cancelled;
  return estimate;
}

}  // namespace dpcalc::groupwise
