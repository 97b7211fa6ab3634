#include "dpcalc/api/citation.hpp"

#include <algorithm>
#include <vector>

namespace dpcalc::api {

void set_citation(Value& result, const std::string& citation, const std::string& keys) {
  std::vector<std::string> split;
  for (std::size_t start = 0; start < keys.size();) {
    const std::size_t end = std::min(keys.find(' ', start), keys.size());
    if (end > start) split.push_back(keys.substr(start, end - start));
    start = end + 1;
  }
  Value key = split.size() == 1 ? Value(split.front()) : Value::array();
  if (split.size() != 1)
    for (const std::string& each : split) key.push(Value(each));
  result.set("citation", citation).set("citation_key", std::move(key));
}

void set_method(Value& result, const MethodInfo& info) {
  result.set("method", info.method);
  set_citation(result, info.citation, info.citation_key);
}

}  // namespace dpcalc::api
