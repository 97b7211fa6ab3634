#include "dpcalc/pld/profile_pair.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "dpcalc/floating_point.hpp"

namespace dpcalc::pld {
namespace {

// The points' δ are raised by this share and every line is lowered by kLineDrop, which raises the
// pair's curve by at least kLineDrop everywhere: above what the rounding of its masses to doubles
// (each within u, so δ(ε) = Σ (p − e^ε q)_+ moves by at most 2u) and the engine's renormalisation
// (a sum of K masses, each then within K u: 2 K u on δ) can take back, for K up to kMaxOutcomes.
// The hull is found in long double.
constexpr double kDeltaShare = 1e-9;
constexpr long double kLineDrop = 1e-13L;
constexpr std::size_t kMaxOutcomes = 400;
static_assert(2 * (kMaxOutcomes + 1) * kUnitRoundoff < 1e-13, "kLineDrop covers the rounding");

// A line s α + b of the trade-off bound with slope s = −e^loss < 0 (or the line 0, loss −inf).
struct ProfileLine {
  long double slope, intercept;
};

// α where lines a and b (a steeper) meet.
long double meeting(const ProfileLine& a, const ProfileLine& b) {
  return (b.intercept - a.intercept) / (a.slope - b.slope);
}

}  // namespace

FinitePair pair_from_profile(const std::vector<ApproxDp>& points) {
  std::vector<ProfileLine> lines;
  lines.reserve(2 * points.size() + 1);
  for (const ApproxDp& point : points) {
    const long double delta = std::min(1.0L, static_cast<long double>(point.delta) * (1 + kDeltaShare));
    const long double growth = std::exp(static_cast<long double>(point.epsilon));
    lines.push_back({-growth, 1 - delta - kLineDrop});                 // 1 − δ − e^ε α
    lines.push_back({-1 / growth, (1 - delta) / growth - kLineDrop});  // e^{−ε}(1 − δ − α)
  }
  lines.push_back({0, 0});
  // Steepest first; of equal slopes the highest.
  std::sort(lines.begin(), lines.end(), [](const ProfileLine& a, const ProfileLine& b) {
    return a.slope < b.slope || (a.slope == b.slope && a.intercept > b.intercept);
  });
  // The upper envelope on [0, ∞) (the convex hull trick): a line is dropped when the next one meets
  // its predecessor no later than it does, or when it is below the next one already at α = 0.
  std::vector<ProfileLine> hull;
  for (const ProfileLine& line : lines) {
    if (!hull.empty() && hull.back().slope == line.slope) continue;
    while (!hull.empty() && hull.back().intercept <= line.intercept) hull.pop_back();
    while (hull.size() >= 2 && meeting(hull[hull.size() - 2], line) <= meeting(hull[hull.size() - 2], hull.back())) {
      hull.pop_back();
    }
    hull.push_back(line);
  }
  // Outcomes: P alone (1 − f(0)), one per segment of the envelope, Q alone (beyond f = 0).
  FinitePair pair;
  const long double top = std::max(0.0L, hull.front().intercept);
  pair.p.push_back(static_cast<double>(1 - top));
  pair.q.push_back(0);
  long double from = 0;
  for (std::size_t k = 0; k + 1 < hull.size(); ++k) {
    const long double to = std::clamp(meeting(hull[k], hull[k + 1]), from, 1.0L);
    const long double width = to - from;
    if (width > 0) {
      pair.p.push_back(static_cast<double>(-hull[k].slope * width));
      pair.q.push_back(static_cast<double>(width));
    }
    from = to;
  }
  pair.p.push_back(0);
  pair.q.push_back(static_cast<double>(1 - from));
  return pair;
}

}  // namespace dpcalc::pld
