#include "dpcalc/result.hpp"

namespace dpcalc {

Error::Error() = default;
Error::Error(std::string code, std::string field, std::string message)
    : code(std::move(code)), field(std::move(field)), message(std::move(message)) {}
Error::Error(const Error& other) = default;
Error::Error(Error&& other) noexcept = default;
Error& Error::operator=(const Error& other) = default;
Error& Error::operator=(Error&& other) noexcept = default;
Error::~Error() = default;

}  // namespace dpcalc
