// The graded entry's convention and inputs (kbaudit/semantic/graded_entry.h): RUB009, MEM006
// and RUB015 start from it.

#include "kbaudit/semantic/graded_entry.h"

#include "kbaudit/facts.h"
#include "kbaudit/python/frontend.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

Facts factsOf(const std::string &text) { return analyzeSource(SourceFile::fromBytes(text)); }

TEST(SemanticGradedEntry, ConventionsAndInputs) {
  {
    const Facts f = factsOf("import torch\nclass ModelNew(torch.nn.Module):\n"
                            "    def forward(self, x, y, *rest, eps=1e-6):\n        return x\n");
    const auto e = semantic::gradedEntry(f);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->convention, semantic::EntryConvention::Module);
    EXPECT_EQ(e->inputs, (std::vector<std::string>{"x", "y"}));
  }
  {
    const Facts f = factsOf("def custom_kernel(data):\n    return data[0]\n");
    const auto e = semantic::gradedEntry(f);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->convention, semantic::EntryConvention::CustomKernel);
    EXPECT_EQ(e->inputs, (std::vector<std::string>{"data"}));
  }
  {
    const Facts f = factsOf("def kernel(out, a, b):\n    out.copy_(a + b)\n");
    const auto e = semantic::gradedEntry(f);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->convention, semantic::EntryConvention::OutputKernel);
    EXPECT_EQ(e->output, "out");
    EXPECT_EQ(e->inputs, (std::vector<std::string>{"a", "b"}));
  }
  EXPECT_FALSE(semantic::gradedEntry(factsOf("import triton\n@triton.jit\ndef kernel(x_ptr, y_ptr):\n    pass\n")))
      << "a JIT kernel named `kernel` is not a harness entry";
}

TEST(SemanticGradedEntry, UnreadInputsByPositionAgainstTheReference) {
  const Facts sol = factsOf("import torch\nclass ModelNew(torch.nn.Module):\n"
                            "    def forward(self, a, b, c):\n        del b\n        return a\n");
  const auto e = semantic::gradedEntry(sol);
  ASSERT_TRUE(e);
  const auto standalone = semantic::unreadEntryInputs(*e, nullptr);
  ASSERT_EQ(standalone.size(), 2u);
  EXPECT_EQ(standalone[0].parameter, "b");
  EXPECT_EQ(standalone[1].parameter, "c");

  const py::PythonFacts ref = py::analyze("import torch\nclass Model(torch.nn.Module):\n"
                                          "    def forward(self, x, y, unused):\n        return x + y\n");
  const py::Function *refEntry = semantic::referenceEntry(*e, ref, "Model");
  ASSERT_NE(refEntry, nullptr);
  const auto paired = semantic::unreadEntryInputs(*e, refEntry);
  ASSERT_EQ(paired.size(), 1u) << "the reference ignores its third input too";
  EXPECT_EQ(paired[0].parameter, "b");
  EXPECT_EQ(paired[0].referenceParameter, "y");
}

TEST(SemanticGradedEntry, GpuModeEntryPairsWithRefKernel) {
  const Facts sol = factsOf("def custom_kernel(inputs):\n    return 0\n");
  const auto e = semantic::gradedEntry(sol);
  ASSERT_TRUE(e);
  const py::PythonFacts ref = py::analyze("def ref_kernel(data):\n    x, out = data\n    return out\n");
  const py::Function *refEntry = semantic::referenceEntry(*e, ref, "");
  ASSERT_NE(refEntry, nullptr);
  EXPECT_EQ(refEntry->qualname, "ref_kernel");
  ASSERT_EQ(semantic::unreadEntryInputs(*e, refEntry).size(), 1u);
}

} // namespace
} // namespace kbaudit
