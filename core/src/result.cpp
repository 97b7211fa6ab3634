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

}  // namespace dpcalc
