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

// For each segment start c_m (`ends`, increasing): the components at or below c_m (`below[m]`) and
// above it (`above[m]`) summed from their own ends, `add`ing `term` of each to `zero`; `sorted` by
// shift.
template <class Term, class Add>
void sums_by_end(const std::vector<MixtureComponent>& sorted, const std::vector<double>& ends, double zero, Term term,
                 Add add, std::vector<double>& below, std::vector<double>& above) {
  below.assign(ends.size(), zero);
  above.assign(ends.size(), zero);
  double sum = zero;
  std::size_t i = 0;
  for (std::size_t m = 0; m < ends.size(); ++m) {
    for (; i < sorted.size() && sorted[i].shift <= ends[m]; ++i) sum = add(sum, term(sorted[i]));
    below[m] = sum;
  }
  sum = zero;
  i = sorted.size();
  for (std::size_t m = ends.size(); m-- > 0;) {
    for (; i > 0 && sorted[i - 1].shift > ends[m]; --i) sum = add(sum, term(sorted[i - 1]));
    above[m] = sum;
  }
}

bool has_positive_shift(const std::vector<MixtureComponent>& components) {
  return std::any_of(components.begin(), components.end(), [](const MixtureComponent& c) { return c.shift > 0; });
}

}  // namespace

Result<LaplaceMixtureLoss> LaplaceMixtureLoss::create(double scale, std::vector<MixtureComponent> p, bool prune_p,
                                                      const std::string& shifts_parameter) {
  for (const MixtureComponent& c : p) {
    if (!(c.shift >= 0 && std::isfinite(c.shift))) {
      return invalid_argument(shifts_parameter,
                              "The shifts of a Laplace mixture must be finite and >= 0 " + got(c.shift) + ".");
    }
  }
  if (!has_positive_shift(p)) {
    return invalid_argument(shifts_parameter,
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
  const auto log_add = [](double a, double b) { return log_add_exp(a, b); };
  const auto plus = [](double a, double b) { return a + b; };
  std::vector<double> unused;
  sums_by_end(
      components, loss.ends_, kNegativeInfinity,
      [&](const MixtureComponent& c) { return std::log(c.weight) + c.shift / scale; }, log_add, loss.log_a_, unused);
  sums_by_end(
      components, loss.ends_, kNegativeInfinity,
      [&](const MixtureComponent& c) { return std::log(c.weight) - c.shift / scale; }, log_add, unused, loss.log_b_);
  sums_by_end(
      components, loss.ends_, 0.0, [](const MixtureComponent& c) { return c.weight; }, plus, loss.weight_below_,
      loss.weight_above_);
  for (std::size_t m = 0; m < loss.ends_.size(); ++m) {
    const double level = log_add_exp(loss.log_a_[m], loss.log_b_[m] + 2 * loss.ends_[m] / scale);
    // l increases; rounding must not make the levels searched by cut() decrease.
    loss.levels_.push_back(m == 0 ? level : std::max(level, loss.levels_.back()));
  }
  // The point masses x <= 0 and x >= a_max and the interior between them, under P.
  const double top = loss.ends_.back();
  for (const MixtureComponent& c : components) {
    loss.low_p_ += c.weight * 0.5 * std::exp(-c.shift / scale);
    loss.high_p_ += c.weight * 0.5 * std::exp(-(top - c.shift) / scale);
    loss.interior_p_ += c.weight * laplace_between(c.shift, scale, 0, top);
  }
  return loss;
}

LaplaceMixtureLoss::Cut LaplaceMixtureLoss::cut(double t, bool strict) const {
  const double low = infimum(), high = supremum();
  const std::size_t last = ends_.size() - 2;  // the segment that ends at a_max
  if (std::isnan(t) || (strict ? t <= low : t < low)) return {kNegativeInfinity, 0};
  if (t == low) return {0, 0};  // {l <= infimum} is the point mass x <= 0
  if (strict ? t > high : t >= high) return {kInfinity, last};
  if (t == high) return {ends_.back(), last};  // {l < supremum}: all below the point mass x >= a_max
  // levels_[m] <= t < levels_[m + 1]: the root lies on [c_m, c_{m+1}], where e^l = A + B e^{2x/b}.
  const auto m = static_cast<std::size_t>(std::upper_bound(levels_.begin(), levels_.end(), t) - levels_.begin()) - 1;
  const double x = 0.5 * scale_ * (log_sub_exp(t, log_a_[m]) - log_b_[m]);
  return {std::clamp(x, ends_[m], ends_[m + 1]), m};
}

// With x on segment m, the components at or below c_m lie below x and the others above it:
//   P[X <= x] = W - (1/2) e^{-x/b} A + (1/2) e^{x/b} B,  P[X > x] = (1/2) e^{-x/b} A + S - (1/2) e^{x/b} B,
// with W (S) the weight below (above). Each subtracted term is at most half the weight it comes
// from, so neither sum cancels.
SublevelMasses LaplaceMixtureLoss::below(const Cut& cut) const {
  SublevelMasses result;
  const Split q = laplace_below(0, scale_, cut.x);
  result.q_inside = q.inside;
  result.q_outside = q.outside;
  if (std::isinf(cut.x)) {
    (cut.x > 0 ? result.p_inside : result.p_outside) = weight_below_.back();
    return result;
  }
  const double down = 0.5 * std::exp(log_a_[cut.segment] - cut.x / scale_);
  const double up = 0.5 * std::exp(log_b_[cut.segment] + cut.x / scale_);
  result.p_inside = weight_below_[cut.segment] - down + up;
  result.p_outside = down + weight_above_[cut.segment] - up;
  return result;
}

SublevelMasses LaplaceMixtureLoss::sublevel_masses(double t, bool strict) const { return below(cut(t, strict)); }

SublevelMasses LaplaceMixtureLoss::interior_masses(double t, bool strict) const {
  const Cut at = cut(t, strict);
  const double top = ends_.back();
  const double x = std::clamp(at.x, 0.0, top);
  SublevelMasses result;
  result.q_inside = laplace_between(0, scale_, 0, x);
  result.q_outside = laplace_between(0, scale_, x, top);
  if (x == 0 || x == top) {
    (x == 0 ? result.p_outside : result.p_inside) = interior_p_;
    return result;
  }
  // Each side less its point mass: a few rounding errors of the side's mass in absolute terms.
  const SublevelMasses whole = below(at);
  result.p_inside = std::max(0.0, whole.p_inside - low_p_);
  result.p_outside = std::max(0.0, whole.p_outside - high_p_);
  return result;
}

LaplaceMixtureLoss::Atom LaplaceMixtureLoss::low_atom() const { return {infimum(), low_p_, 0.5}; }

LaplaceMixtureLoss::Atom LaplaceMixtureLoss::high_atom() const {
  return {supremum(), high_p_, 0.5 * std::exp(-ends_.back() / scale_)};
}

}  // namespace dpcalc::pld
