// Persisting-L2 control is read from the names Python code reads and the CUDA spellings of a
// call: a source string that mentions the APIs is not a Python site, and reading a limit is not
// setting one.

#include "kbaudit/semantic/l2_persistence.h"
#include "python_test_support.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace kbaudit::semantic {
namespace {

TEST(SemanticL2Persistence, CudaSpellingsAndLimitReads) {
  EXPECT_EQ(persistingL2Name("cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, n)"), "cudaLimitPersistingL2CacheSize");
  EXPECT_EQ(persistingL2Name("cudaDevAttrMaxPersistingL2CacheSize"), "");
  EXPECT_EQ(persistingL2Name("cudaLimit.cudaLimitPersistingL2CacheSize"), "cudaLimitPersistingL2CacheSize");
  EXPECT_EQ(persistingL2Name("attr.accessPolicyWindow"), "");
  EXPECT_EQ(persistingL2Name("attr.accessPolicyWindow", true), "accessPolicyWindow");
  EXPECT_EQ(l2EffectOf("cudaCtxResetPersistingL2Cache"), L2Effect::Reset);
  EXPECT_EQ(l2EffectOf("cudaLimitPersistingL2CacheSize"), L2Effect::Reserve);
  EXPECT_EQ(l2EffectOf("cudaStreamAttributeAccessPolicyWindow"), L2Effect::Window);
}

// Every spelling is found as written, alone and inside a longer text (a text holding none of
// them is answered by a quick test that must not miss one).
TEST(SemanticL2Persistence, EverySpellingIsFound) {
  for (std::string_view n : {"cudaLimitPersistingL2CacheSize", "cudaStreamAttributeAccessPolicyWindow",
                             "cudaAccessPropertyPersisting", "cudaCtxResetPersistingL2Cache",
                             "CU_LIMIT_PERSISTING_L2_CACHE_SIZE", "CU_ACCESS_PROPERTY_PERSISTING",
                             "cuCtxResetPersistingL2Cache", "CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW"}) {
    EXPECT_EQ(persistingL2Name(n), n);
    EXPECT_EQ(persistingL2Name("f(" + std::string(n) + ", 0)"), n);
  }
  for (std::string_view n : {"PersistingL2CacheSize", "AccessPolicyWindow", "accessPolicyWindow", "ResetPersistingL2Cache"}) {
    EXPECT_EQ(persistingL2Name(n, true), n);
    EXPECT_EQ(persistingL2Name(n), "");
  }
  EXPECT_EQ(persistingL2Name("cudaDeviceSetLimit(cudaLimitStackSize, n)", true), "");
  EXPECT_EQ(persistingL2NameIn(py::testing::exprOf("cfg.accessPolicyWindow")), "accessPolicyWindow");
  EXPECT_EQ(persistingL2NameIn(py::testing::exprOf("cfg.window")), "");
}

TEST(SemanticL2Persistence, PythonNamesNotSourceText) {
  EXPECT_EQ(persistingL2NameIn(py::testing::exprOf("cudart.cudaLimit.cudaLimitPersistingL2CacheSize")),
            "cudaLimitPersistingL2CacheSize");
  EXPECT_EQ(persistingL2NameIn(py::testing::exprOf("\"cudaLimitPersistingL2CacheSize\"")), "cudaLimitPersistingL2CacheSize");
  EXPECT_EQ(persistingL2NameIn(py::testing::exprOf("\"void f() { cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0); }\"")), "");
  EXPECT_EQ(persistingL2NameIn(py::testing::exprOf("n  # cudaLimitPersistingL2CacheSize")), "");
  EXPECT_TRUE(marksPersisting(py::testing::exprOf("cudart.cudaAccessProperty.cudaAccessPropertyPersisting")));
  EXPECT_FALSE(marksPersisting(py::testing::exprOf("cudart.cudaAccessProperty.cudaAccessPropertyStreaming")));
}

} // namespace
} // namespace kbaudit::semantic
