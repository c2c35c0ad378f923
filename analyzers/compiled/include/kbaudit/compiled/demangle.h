#pragma once

// PTX entry names are Itanium-mangled C++ names (extern "C" kernels keep their own). The rules
// match compiled kernels to the Clang front end's functions by qualified name.

#include <string>

namespace kbaudit::compiled {

/// The demangled signature ("void ns::k<128>(float const*)" for templates, "ns::k(float const*)"
/// otherwise); the name itself when it is not mangled or cannot be demangled.
std::string demangle(const std::string &mangled);

/// The qualified function name of a demangled signature, without return type, template
/// arguments or parameters: "void ns::k<128>(float const*)" -> "ns::k".
std::string functionName(const std::string &demangled);

} // namespace kbaudit::compiled
