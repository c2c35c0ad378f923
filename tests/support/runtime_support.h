#pragma once

// What the runtime-probe tests share: the probes' default interpreter and the skip they take,
// saying why, where it cannot import torch (setup.sh creates the project's .venv unless
// KBAUDIT_STATIC_ONLY=1).

#include "kbaudit/runtime/probe.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <string>

namespace kbaudit::test {

inline const std::string &probePython() {
  static const std::string python = runtime::defaultPython().string();
  return python;
}

inline bool torchAvailable() {
  static const bool ok = runCommand(probePython() + " -c 'import torch' >/dev/null 2>&1") == 0;
  return ok;
}

} // namespace kbaudit::test

#define REQUIRE_TORCH()                                                                                            \
  do {                                                                                                             \
    if (!kbaudit::test::torchAvailable()) {                                                                        \
      GTEST_SKIP() << kbaudit::test::probePython()                                                                 \
                   << " cannot import torch (run setup.sh without KBAUDIT_STATIC_ONLY=1 to create the project's " \
                   << ".venv): the runtime probes cannot run here";                                                \
    }                                                                                                              \
  } while (false)
