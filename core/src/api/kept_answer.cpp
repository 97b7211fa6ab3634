#include "dpcalc/api/kept_answer.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace dpcalc::api {
namespace {

// The request as text that two equal requests share: object fields sorted by name, numbers in
// hexadecimal (exact), strings quoted with their length (no escaping needed).
void append_canonical(const Value& value, std::string& text) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      text += "null";
      return;
    case Value::Kind::kBool:
      text += value.as_bool() ? "true" : "false";
      return;
    case Value::Kind::kNumber: {
      char number[32];
      std::snprintf(number, sizeof number, "%a", value.as_number());
      text += number;
      return;
    }
    case Value::Kind::kString:
      text += std::to_string(value.as_string().size()) + '"' + value.as_string();
      return;
    case Value::Kind::kArray:
      text += '[';
      for (const Value& item : value.as_array()) {
        append_canonical(item, text);
        text += ',';
      }
      text += ']';
      return;
    case Value::Kind::kObject: {
      std::vector<const Value::Object::value_type*> fields;
      for (const auto& field : value.as_object()) fields.push_back(&field);
      std::sort(fields.begin(), fields.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
      text += '{';
      for (const auto* field : fields) {
        text += std::to_string(field->first.size()) + '"' + field->first + ':';
        append_canonical(field->second, text);
        text += ',';
      }
      text += '}';
      return;
    }
  }
}

std::string canonical(const Value& request) {
  std::string text;
  append_canonical(request, text);
  return text;
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
  std::string request;
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
  std::string key = canonical(request);
  if (kept.request != key) {
    kept = Entry{};  // the old entry is freed before the new one is stored
    kept.request = std::move(key);
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
  if (kept.parts.empty() || kept.request != canonical(request)) return nullptr;
  for (const Part& each : kept.parts) {
    if (each.key == part) return each.answered;
  }
  return nullptr;
}

}  // namespace dpcalc::api
