#include "dpcalc/result.hpp"

namespace dpcalc {

Error::Error() = default;
Error::Error(std::string error_code, std::string error_field, std::string error_message)
    : code(std::move(error_code)), field(std::move(error_field)), message(std::move(error_message)) {}
Error::Error(const Error& other) = default;
Error::Error(Error&& other) noexcept = default;
Error& Error::operator=(const Error& other) = default;
Error& Error::operator=(Error&& other) noexcept = default;
Error::~Error() = default;

Error invalid_argument(std::string field, std::string message) {
  return Error{kInvalidArgument, std::move(field), std::move(message)};
}

std::string field_path(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

}  // namespace dpcalc
