// Where a kbaudit binary looks for the probes' Python environment (install_layout.h): a binary in
// its build tree uses the source tree's .venv; the installed case is covered by
// tests/package/run_install_test.sh, which runs an installed, moved binary.

#include "kbaudit/source/install_layout.h"

#include <gtest/gtest.h>

namespace fs = std::filesystem;

TEST(InstallLayout, SelfExecutableIsTheRunningBinary) {
  const fs::path self = kbaudit::selfExecutable();
  ASSERT_FALSE(self.empty());
  EXPECT_EQ(self.filename(), "kbaudit_tests");
  EXPECT_TRUE(fs::is_regular_file(self));
}

TEST(InstallLayout, BuildTreeBinaryUsesTheSourceTreeVenv) {
  const fs::path venv = fs::path(KBAUDIT_SOURCE_DIR) / ".venv";
  if (!fs::exists(venv / "bin" / "python"))
    GTEST_SKIP() << "no " << venv.string() << " (KBAUDIT_STATIC_ONLY=1 ./setup.sh)";
  EXPECT_EQ(fs::weakly_canonical(kbaudit::probeVenv()), fs::weakly_canonical(venv));
}
