// Whether a model's override of a load method makes loading lenient (semantic/state_load.h):
// RUB008 asks it.

#include "kbaudit/semantic/state_load.h"

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

std::optional<semantic::LenientLoad> overrideIn(const PythonFacts &f, std::string_view qualname) {
  const Function *fn = f.findFunction(qualname);
  EXPECT_NE(fn, nullptr) << qualname;
  return fn ? semantic::lenientLoadOverride(f, *fn) : std::nullopt;
}

TEST(SemanticStateLoad, LenientOverrides) {
  auto f = analyze(src(R"PY(
import torch
class A(torch.nn.Module):
    def load_state_dict(self, state_dict, strict=True):
        return super().load_state_dict(state_dict, strict=False)
class B(torch.nn.Module):
    def load_state_dict(self, state_dict, strict=True):
        print("state_dict ignored")
class C(torch.nn.Module):
    def load_state_dict(self, state_dict, strict=True):
        self._cache = None
        return super().load_state_dict(state_dict, strict)
class D(torch.nn.Module):
    def _load_from_state_dict(self, sd, prefix, meta, strict, missing, unexpected, errors):
        super()._load_from_state_dict(sd, prefix, meta, strict, missing, unexpected, errors)
        missing.clear()
)PY"));
  ASSERT_TRUE(overrideIn(f, "A.load_state_dict"));
  EXPECT_NE(overrideIn(f, "A.load_state_dict")->how.find("strict=False"), std::string::npos);
  ASSERT_TRUE(overrideIn(f, "B.load_state_dict")); // the name only in a string: never loaded
  EXPECT_NE(overrideIn(f, "B.load_state_dict")->how.find("without loading"), std::string::npos);
  EXPECT_FALSE(overrideIn(f, "C.load_state_dict")); // forwards unchanged
  ASSERT_TRUE(overrideIn(f, "D._load_from_state_dict"));
  EXPECT_NE(overrideIn(f, "D._load_from_state_dict")->how.find("discards the missing report"), std::string::npos);
}

} // namespace
} // namespace kbaudit::py::testing
