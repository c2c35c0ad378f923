#pragma once

// The device-work summary of one function body (see DeviceWork in facts.h). Private to
// analyzers/cxx; device_work.cpp is an AST TU.

#include "kbaudit/cxx/facts.h"

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace kbaudit::cxx::collect {

DeviceWork summarizeDeviceBody(const clang::FunctionDecl &fd, clang::ASTContext &ctx);

} // namespace kbaudit::cxx::collect
