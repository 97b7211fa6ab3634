#include "dpcalc/api/locate.hpp"

#include "dpcalc/api/fields.hpp"

namespace dpcalc::api {

Error at_path(Error error, const std::string& path) {
  std::string field = field_path(path, error.field);
  if (error.item != Error::kNoItem) field = field_path(field, std::to_string(error.item));
  error.field = std::move(field);
  error.item = Error::kNoItem;
  return error;
}

}  // namespace dpcalc::api
