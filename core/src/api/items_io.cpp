#include "dpcalc/api/items_io.hpp"

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

std::string RequestItem::field() const { return field_path(path, mechanism ? "mechanism" : "guarantee"); }

Result<std::vector<RequestItem>> read_items(const Value& request, const std::string& at, const Shape& shape,
                                            bool count_optional) {
  const std::string items_path = field_path(at, "items");
  DPCALC_TRY(const Value* items, member(request, at, "items"));
  if (!items->is_array() || items->as_array().empty()) {
    return invalid_argument(items_path,
                            items_path + " must be a non-empty array of items {guarantee or mechanism, count}.");
  }
  DPCALC_TRY(const RelationAt relation, read_relation(request, at, *shape.field("relation")));
  std::vector<RequestItem> result;
  for (std::size_t i = 0; i < items->as_array().size(); ++i) {
    RequestItem item;
    item.path = field_path(items_path, std::to_string(i));
    DPCALC_TRY(const Value* object, require_object(items->as_array()[i], item.path));
    if (!count_optional || has_field(*object, "count")) {
      DPCALC_TRY(double count, number_field(*object, item.path, "count"));
      DPCALC_TRY(item.count, check_count(count, field_path(item.path, "count")));
    } else {
      item.count = 0;
    }
    const bool has_mechanism = has_field(*object, "mechanism");
    if (has_mechanism == has_field(*object, "guarantee")) {
      return invalid_argument(item.path, item.path + " needs exactly one of 'guarantee' and 'mechanism' (it has " +
                                             (has_mechanism ? "both" : "neither") + ").");
    }
    if (has_mechanism) {
      DPCALC_TRY(item.mechanism, read_mechanism(*object->find("mechanism"), field_path(item.path, "mechanism")));
      DPCALC_CHECK(check_relation(*item.mechanism, relation));
      item.relation = relation.relation;
    } else {
      DPCALC_TRY(item.guarantee, read_guarantee(*object->find("guarantee"), field_path(item.path, "guarantee")));
    }
    result.push_back(std::move(item));
  }
  return result;
}

Error on_item(Error error, const RequestItem& item) {
  error.item = Error::kNoItem;  // the item's own index in the callee's list, which `item` replaces
  if (error.field == "count") {
    error.field = field_path(item.path, "count");
    return error;
  }
  if (error.field.empty()) {
    error.field = item.path;
    return error;
  }
  if (item.mechanism) return on_mechanism(std::move(error), *item.mechanism);
  return at_path(std::move(error), item.field());
}

std::string magnitude_path(const RequestItem& item) {
  if (item.mechanism) return noise_path(*item.mechanism);
  return magnitude_field(*item.guarantee, item.field());
}

}  // namespace dpcalc::api
