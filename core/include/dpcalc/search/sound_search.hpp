// Searches on a sound predicate: `meets(x)` says that x *certainly* meets a bound (it evaluates an
// upper bound with its rounding and compares). The answer of such a search is a guarantee only
// when it is a point where `meets` was evaluated and held: a root finder's interpolated answer, or
// the midpoint of its last bracket, may lie on the wrong side by rounding. Both searches below
// return an evaluated meeting point together with the nearest point they saw fail. They assume
// `meets` is monotone between the two; where it is not, the answer still meets, it is only not the
// nearest such point.
//
// The bisection and the root finder here are Boost.Math's (tools::bisect on the predicate's sign,
// tools::toms748_solve on a function whose sign is the verdict), wrapped once with the checks they
// need under the project's non-throwing policy. step_until_met is the one hand-written search loop:
// Boost's bracketing walks from a guess by a constant factor, whereas closed forms that round a few
// ulps past their bound need steps of one ulp, then two, four, ..., towards a limit they name.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace dpcalc {

using SoundPredicate = std::function<bool(double)>;

struct Boundary {
  double meeting = 0;  // meets(meeting) was evaluated and held (or the caller knows it holds)
  double failing = 0;  // meets(failing) was evaluated and did not hold; equals `meeting` when no
                       // failing point was seen
};

// From `start` towards `limit`, by steps of first_step·2^j (j = 0, 1, 2, ...; each clamped to
// `limit`), until `meets` holds. Returns the first point that meets and the point before it (or
// {start, start} when start meets); nothing when even `limit` fails. first_step > 0; the walk ends
// within about 2100 steps (the doublings from the smallest double to the largest).
std::optional<Boundary> step_until_met(const SoundPredicate& meets, double start, double limit, double first_step);

// How bisection picks the next point.
enum class Midpoint {
  kArithmetic,  // (a + b)/2
  kGeometric,   // √(ab), for positive ends: the answer may lie orders of magnitude from either end
  kWhole,       // whole numbers: `meets` is asked about ⌊x⌋ and the search ends at adjacent integers
  // Positive ends, geometric midpoints rounded to the shortest decimal within relative_width/8 of
  // them, so that an answer prints short; the search narrows to relative_width/2, so that the ends
  // it returns are still within relative_width of each other.
  kShortDecimal,
};

// Bisection between an evaluated meeting point and a failing one (in either order) until they are
// within `relative_width` of each other (|meeting − failing| <= relative_width · max(|meeting|,
// |failing|); ignored for kWhole). Returns the narrowed boundary; its ends are never re-evaluated.
Boundary bisect_boundary(const SoundPredicate& meets, const Boundary& boundary, double relative_width,
                         Midpoint midpoint = Midpoint::kGeometric);

// The point of [meeting, towards] (or [towards, meeting]) nearest `towards` that meets, given that
// `meeting` meets (the caller evaluated it, or knows): `towards` itself when it meets, else the
// meeting end of bisect_boundary between the two. With towards = high it is "the largest x in
// [low, high] meeting a monotone bound", with towards = low "the smallest".
double farthest_meeting(const SoundPredicate& meets, double meeting, double towards, double relative_width,
                        Midpoint midpoint = Midpoint::kGeometric);

// A function whose sign is the verdict: x meets where excess(x) <= 0. Never NaN.
using Excess = std::function<double(double)>;

struct SolveOptions {
  double relative_width = 0;  // stop once |meeting − failing| <= relative_width · max(|meeting|, |failing|)
  // Evaluations of `excess` after which the search stops (400 covers ~100 halvings of the bracket,
  // TOMS 748's worst case of four evaluations per halving).
  std::uintmax_t max_evaluations = 400;
  std::function<bool()> stop;  // asked after every evaluation; true ends the search
};

// The boundary of a continuous, monotone `excess` between an evaluated meeting point
// (excess <= 0) and a failing one (excess > 0), in either order, by TOMS 748 (Alefeld, Potra, Shi
// 1995, ACM TOMS 21(3); Boost.Math tools::toms748_solve): superlinear on smooth functions, and
// never slower than bisection by more than a factor of four. The solver keeps each end of its
// bracket by the sign of `excess` there, so the returned meeting end was evaluated and met (an
// excess of exactly 0 counts as meeting) and the failing end was evaluated and failed. Values are clamped to ±1e6
// before the solver interpolates them (only their sign is the verdict), so that no interpolation overflows. The ends
// are evaluated once more; where `excess` there disagrees with the caller's classification, the
// boundary is returned as it was given.
Boundary solve_boundary(const Excess& excess, const Boundary& boundary, const SolveOptions& options);

}  // namespace dpcalc
