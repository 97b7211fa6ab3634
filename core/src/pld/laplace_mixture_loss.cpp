#include "dpcalc/pld/laplace_mixture_loss.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::pld {
namespace {

struct Split {
  double inside = 0, outside = 0;
};

// Lap(mean, scale) masses of (-inf, x] and (x, inf), each without cancellation.
Split laplace_below(double mean, double scale, double x) {
  if (x == kInfinity) return {1, 0};
  if (x == kNegativeInfinity) return {0, 1};
  const double z = (x - mean) / scale;
  const double tail = 0.5 * std::exp(-std::fabs(z));
  return z < 0 ? Split{tail, 1 - tail} : Split{1 - tail, tail};
}

// Mass of Lap(mean, scale) on the interval (lo, hi), without cancellation: the factor
// 1 - e^{-(hi - lo)/b} times the density-like term of the end nearer the mean.
double laplace_between(double mean, double scale, double lo, double hi) {
  if (!(hi > lo)) return 0;
  const double width_factor = -std::expm1(-(hi - lo) / scale);
  if (lo >= mean) return 0.5 * std::exp(-(lo - mean) / scale) * width_factor;
  if (hi <= mean) return 0.5 * std::exp((hi - mean) / scale) * width_factor;
  return -0.5 * std::expm1(-(hi - mean) / scale) - 0.5 * std::expm1((lo - mean) / scale);
}

bool has_positive_shift(const std::vector<MixtureComponent>& components) {
  return std::any_of(components.begin(), components.end(), [](const MixtureComponent& c) { return c.shift > 0; });
}

}  // namespace

Result<LaplaceMixtureLoss> LaplaceMixtureLoss::create(double scale, std::vector<MixtureComponent> p, bool prune_p,
                                                      const std::string& field) {
  for (const MixtureComponent& c : p) {
    if (!(c.shift >= 0 && std::isfinite(c.shift))) {
      return invalid_argument(field, "The shifts of a Laplace mixture must be finite and >= 0 " + got(c.shift) + ".");
    }
  }
  if (!has_positive_shift(p)) {
    return invalid_argument(field,
                            "The mixture equals Lap(0, b) (every component at shift 0), so there is nothing to "
                            "account; give at least one component at a positive shift.");
  }
  LaplaceMixtureLoss loss;
  loss.scale_ = scale;
  loss.p_ = p;
  if (prune_p) loss.pruned_p_ = prune_lightest(loss.p_);
  if (!has_positive_shift(loss.p_)) {  // never prune the pair into P = Q
    loss.p_ = std::move(p);
    loss.pruned_p_ = 0;
  }
  auto& components = loss.p_;
  std::sort(components.begin(), components.end(),
            [](const MixtureComponent& a, const MixtureComponent& b) { return a.shift < b.shift; });
  loss.ends_.push_back(0);
  for (const MixtureComponent& c : components) {
    if (c.shift > loss.ends_.back()) loss.ends_.push_back(c.shift);
  }
  const std::size_t n = loss.ends_.size() - 1;
  loss.log_a_.assign(n + 1, kNegativeInfinity);
  loss.log_b_.assign(n + 1, kNegativeInfinity);
  double sum = kNegativeInfinity;
  std::size_t i = 0;
  for (std::size_t m = 0; m <= n; ++m) {
    for (; i < components.size() && components[i].shift <= loss.ends_[m]; ++i) {
      sum = log_add_exp(sum, std::log(components[i].weight) + components[i].shift / scale);
    }
    loss.log_a_[m] = sum;
  }
  sum = kNegativeInfinity;
  i = components.size();
  for (std::size_t m = n + 1; m-- > 0;) {
    for (; i > 0 && components[i - 1].shift > loss.ends_[m]; --i) {
      sum = log_add_exp(sum, std::log(components[i - 1].weight) - components[i - 1].shift / scale);
    }
    loss.log_b_[m] = sum;
  }
  for (std::size_t m = 0; m <= n; ++m) {
    const double level = log_add_exp(loss.log_a_[m], loss.log_b_[m] + 2 * loss.ends_[m] / scale);
    // l increases; rounding must not make the levels searched by boundary() decrease.
    loss.levels_.push_back(m == 0 ? level : std::max(level, loss.levels_.back()));
  }
  return loss;
}

double LaplaceMixtureLoss::boundary(double t, bool strict) const {
  const double low = infimum(), high = supremum();
  if (std::isnan(t) || (strict ? t <= low : t < low)) return kNegativeInfinity;
  if (t == low) return 0;  // {l <= infimum} is the point mass x <= 0
  if (strict ? t > high : t >= high) return kInfinity;
  if (t == high) return ends_.back();  // {l < supremum}: everything below the point mass x >= a_max
  // levels_[m] <= t < levels_[m + 1]: the root lies on [c_m, c_{m+1}], where e^l = A + B e^{2x/b}.
  const auto m = static_cast<std::size_t>(std::upper_bound(levels_.begin(), levels_.end(), t) - levels_.begin()) - 1;
  const double x = 0.5 * scale_ * (log_sub_exp(t, log_a_[m]) - log_b_[m]);
  return std::clamp(x, ends_[m], ends_[m + 1]);
}

SublevelMasses LaplaceMixtureLoss::sublevel_masses(double t, bool strict) const {
  const double x = boundary(t, strict);
  SublevelMasses result;
  for (const MixtureComponent& c : p_) {
    const Split s = laplace_below(c.shift, scale_, x);
    result.p_inside += c.weight * s.inside;
    result.p_outside += c.weight * s.outside;
  }
  const Split q = laplace_below(0, scale_, x);
  result.q_inside = q.inside;
  result.q_outside = q.outside;
  return result;
}

SublevelMasses LaplaceMixtureLoss::interior_masses(double t, bool strict) const {
  const double top = ends_.back();
  const double x = std::clamp(boundary(t, strict), 0.0, top);
  SublevelMasses result;
  for (const MixtureComponent& c : p_) {
    result.p_inside += c.weight * laplace_between(c.shift, scale_, 0, x);
    result.p_outside += c.weight * laplace_between(c.shift, scale_, x, top);
  }
  result.q_inside = laplace_between(0, scale_, 0, x);
  result.q_outside = laplace_between(0, scale_, x, top);
  return result;
}

LaplaceMixtureLoss::Atom LaplaceMixtureLoss::low_atom() const {
  double p = 0;
  for (const MixtureComponent& c : p_) p += c.weight * 0.5 * std::exp(-c.shift / scale_);
  return {infimum(), p, 0.5};
}

LaplaceMixtureLoss::Atom LaplaceMixtureLoss::high_atom() const {
  const double top = ends_.back();
  double p = 0;
  for (const MixtureComponent& c : p_) p += c.weight * 0.5 * std::exp(-(top - c.shift) / scale_);
  return {supremum(), p, 0.5 * std::exp(-top / scale_)};
}

}  // namespace dpcalc::pld
