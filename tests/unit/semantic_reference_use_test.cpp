// Whether a solution that imports the reference runs its model or only borrows helpers
// (kbaudit/semantic/reference_use.h): RUB002 and WRAP005 both decide on this.

#include "kbaudit/semantic/reference_use.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

semantic::ModelUse useIn(const std::string &text) {
  const Facts facts = analyzeSource(SourceFile::fromBytes(text));
  return semantic::referenceModelUse(facts, "Model");
}

TEST(SemanticReferenceUse, HelpersOnlyThroughDunderImport) {
  EXPECT_EQ(useIn("import torch\n_ref = __import__(\"reference\")\ninit_state = _ref.init_state\n"
                  "class Model(torch.nn.Module):\n    def forward(self, x):\n        return _ref._rmsnorm(x)\n"),
            semantic::ModelUse::None);
}

TEST(SemanticReferenceUse, ModelRunInForwardIsGraded) {
  EXPECT_EQ(useIn("import torch\nimport reference as R\nclass ModelNew(torch.nn.Module):\n"
                  "    def __init__(self):\n        super().__init__()\n        self.m = R.Model()\n"
                  "    def forward(self, x):\n        return self.m(x)\n"),
            semantic::ModelUse::Graded);
}

TEST(SemanticReferenceUse, ReExportedModelIsGraded) {
  EXPECT_EQ(useIn("from reference import Model\n"), semantic::ModelUse::Graded);
}

TEST(SemanticReferenceUse, ModelBuiltOnlyInAScriptHelperIsElsewhere) {
  EXPECT_EQ(useIn("import torch\nimport reference\nclass ModelNew(torch.nn.Module):\n"
                  "    def forward(self, x):\n        return x * 2\n"
                  "def compare():\n    return reference.Model()\n"),
            semantic::ModelUse::Elsewhere);
}

} // namespace
} // namespace kbaudit
