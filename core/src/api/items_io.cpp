#include "dpcalc/api/items_io.hpp"

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

std::string RequestItem::field() const { return field_path(path, mechanism ? "mechanism" : "guarantee"); }

Result<std::vector<RequestItem>> read_items(const Value& request) {
  DPCALC_TRY(const Value* items, member(request, "", "items"));
  if (!items->is_array() || items->as_array().empty()) {
    return invalid_argument("items", "items must be a non-empty array of items {guarantee or mechanism, count}.");
  }
  DPCALC_TRY(const mechanisms::Relation relation, read_relation(request));
  std::vector<RequestItem> result;
  for (std::size_t i = 0; i < items->as_array().size(); ++i) {
    RequestItem item;
    item.path = "items." + std::to_string(i);
    DPCALC_TRY(const Value* object, require_object(items->as_array()[i], item.path));
    DPCALC_TRY(double count, number_field(*object, item.path, "count"));
    DPCALC_TRY(item.count, check_count(count, field_path(item.path, "count")));
    const bool has_mechanism = has_field(*object, "mechanism");
    if (has_mechanism == has_field(*object, "guarantee")) {
      return invalid_argument(item.path, item.path + " needs exactly one of 'guarantee' and 'mechanism' (it has " +
                                             (has_mechanism ? "both" : "neither") + ").");
    }
    if (has_mechanism) {
      DPCALC_TRY(item.mechanism, read_mechanism(*object->find("mechanism"), field_path(item.path, "mechanism")));
      DPCALC_TRY(const bool supported, check_relation(request, *item.mechanism, relation));
      (void)supported;
      item.relation = relation;
    } else {
      DPCALC_TRY(item.guarantee, read_guarantee(*object->find("guarantee"), field_path(item.path, "guarantee")));
    }
    result.push_back(std::move(item));
  }
  return result;
}

}  // namespace dpcalc::api
