// Persisting-L2 control is read from the names Python code reads and the CUDA spellings of a
// call: a source string that mentions the APIs is not a Python site, and reading a limit is not
// setting one.

#include "kbaudit/semantic/condition_parts.h"
#include "kbaudit/semantic/l2_persistence.h"

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
  EXPECT_EQ(persistingL2NameIn(operandOf("cudart.cudaLimit.cudaLimitPersistingL2CacheSize").value),
            "cudaLimitPersistingL2CacheSize");
  EXPECT_EQ(persistingL2NameIn(operandOf("\"cudaLimitPersistingL2CacheSize\"").value), "cudaLimitPersistingL2CacheSize");
  EXPECT_EQ(persistingL2NameIn(operandOf("\"void f() { cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0); }\"").value), "");
  EXPECT_EQ(persistingL2NameIn(operandOf("n  # cudaLimitPersistingL2CacheSize").value), "");
  EXPECT_TRUE(marksPersisting(operandOf("cudart.cudaAccessProperty.cudaAccessPropertyPersisting").value));
  EXPECT_FALSE(marksPersisting(operandOf("cudart.cudaAccessProperty.cudaAccessPropertyStreaming").value));
}

} // namespace
} // namespace kbaudit::semantic
