// Persisting-L2 control is read from the names Python code reads and the CUDA spellings of a
// call: a source string that mentions the APIs is not a Python site, and reading a limit is not
// setting one.

#include "kbaudit/semantic/l2_persistence.h"
#include "python_test_support.h"

#include <gtest/gtest.h>

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
