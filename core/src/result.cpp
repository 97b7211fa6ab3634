#include "dpcalc/result.hpp"

namespace dpcalc {

Error::Error() = default;
Error::Error(std::string error_code, std::string error_subject, std::string error_message)
    : code(std::move(error_code)), field(std::move(error_subject)), message(std::move(error_message)) {}
Error::Error(const Error& other) = default;
Error::Error(Error&& other) noexcept = default;
Error& Error::operator=(const Error& other) = default;
Error& Error::operator=(Error&& other) noexcept = default;
Error::~Error() = default;

Error invalid_argument(std::string field, std::string message) {
  return Error{kInvalidArgument, std::move(field), std::move(message)};
}

Error about_item(Error error, std::size_t item) {
  error.item = item;
  return error;
}

}  // namespace dpcalc
