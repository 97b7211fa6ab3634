// The core is built with -fno-exceptions and BOOST_NO_EXCEPTIONS, so Boost asks the program to
// define what a throw does. Every Boost.Math call uses errno_on_error policies, so this is
// unreachable; if it is ever reached it is a bug, and aborting beats returning a wrong bound.
#include <boost/throw_exception.hpp>
#include <cstdlib>
#include <exception>

namespace boost {
void throw_exception(const std::exception&) { std::abort(); }
void throw_exception(const std::exception&, const boost::source_location&) { std::abort(); }
}  // namespace boost
