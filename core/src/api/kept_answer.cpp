#include "dpcalc/api/kept_answer.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace dpcalc::api {
namespace {

// True when two requests are the same: objects with the same fields in any order, numbers with the
// same bits (so -0 is not 0), the same strings, literals and arrays.
bool same_request(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::kNull:
      return true;
    case Value::Kind::kBool:
      return a.as_bool() == b.as_bool();
    case Value::Kind::kNumber: {
      const double x = a.as_number(), y = b.as_number();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    case Value::Kind::kString:
      return a.as_string() == b.as_string();
    case Value::Kind::kArray:
      return a.as_array().size() == b.as_array().size() &&
             std::equal(a.as_array().begin(), a.as_array().end(), b.as_array().begin(), same_request);
    case Value::Kind::kObject:
      return a.as_object().size() == b.as_object().size() &&
             std::all_of(a.as_object().begin(), a.as_object().end(), [&b](const auto& field) {
               const Value* other = b.find(field.first);
               return other != nullptr && same_request(field.second, *other);
             });
  }
  return false;
}

std::size_t masses_of(const pld::ComposedPlds& plds) {
  return plds.upper_remove.masses.size() + plds.upper_add.masses.size() + plds.lower_remove.masses.size() +
         plds.lower_add.masses.size();
}

struct Part {
  std::vector<double> key;
  std::shared_ptr<const pld::AnsweredEpsilon> answered;
};

struct Entry {
  Value request;
  std::vector<Part> parts;
  std::size_t masses = 0;  // of every part
};

Entry& entry() {
  static Entry kept;
  return kept;
}

}  // namespace

void keep_answer(const Value& request, pld::AnsweredEpsilon answered, const std::vector<double>& part) {
  Entry& kept = entry();
  if (!same_request(kept.request, request)) {
    kept = Entry{};  // the old entry is freed before the new one is stored
    kept.request = request;
  }
  const auto same = std::find_if(kept.parts.begin(), kept.parts.end(), [&](const Part& p) { return p.key == part; });
  if (same != kept.parts.end()) {
    kept.masses -= masses_of(same->answered->plds);
    kept.parts.erase(same);
  }
  const std::size_t masses = masses_of(answered.plds);
  if (masses > kMaxKeptMasses - kept.masses) return;
  kept.masses += masses;
  kept.parts.push_back({part, std::make_shared<const pld::AnsweredEpsilon>(std::move(answered))});
}

std::shared_ptr<const pld::AnsweredEpsilon> kept_answer(const Value& request, const std::vector<double>& part) {
  const Entry& kept = entry();
  if (kept.parts.empty() || !same_request(kept.request, request)) return nullptr;
  for (const Part& each : kept.parts) {
    if (each.key == part) return each.answered;
  }
  return nullptr;
}

}  // namespace dpcalc::api
