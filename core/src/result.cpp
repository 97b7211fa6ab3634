#include "dpcalc/result.hpp"

namespace dpcalc {

Error::Error() = default;
// Parameters named apart from their members, for GCC's -Wshadow.
Error::Error(std::string code_, std::string field_, std::string message_)
    : code(std::move(code_)), field(std::move(field_)), message(std::move(message_)) {}
Error::Error(const Error& other) = default;
Error::Error(Error&& other) noexcept = default;
Error& Error::operator=(const Error& other) = default;
Error& Error::operator=(Error&& other) noexcept = default;
Error::~Error() = default;

}  // namespace dpcalc
