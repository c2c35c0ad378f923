// Modules and attributes reached through strings (kbaudit/semantic/dynamic_access.h): WRAP005
// reads them as the import and the dotted name they are.

#include "kbaudit/semantic/dynamic_access.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

TEST(SemanticDynamicAccess, ImportsAndGetattrByString) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import importlib
import torch
NAME = "flash_attn"
a = importlib.import_module(NAME)
b = __import__("triton")
c = importlib.import_module(NAME + suffix)
d = getattr(torch, "topk")
e = getattr(torch.nn.functional, "linear")
g = getattr(local_obj, "topk")
h = getattr(torch, attr_name)
i = len("x")
)PY"));
  const auto on = [&](unsigned line) -> const py::Call & {
    for (const py::Call &c : f.python.calls)
      if (c.lines.begin == line)
        return c;
    ADD_FAILURE() << "no call on line " << line;
    return f.python.calls.front();
  };
  EXPECT_EQ(semantic::dynamicImportTarget(f.python, on(4)), "flash_attn") << "through the module binding";
  EXPECT_EQ(semantic::dynamicImportTarget(f.python, on(5)), "triton");
  EXPECT_EQ(semantic::dynamicImportTarget(f.python, on(6)), std::nullopt) << "not statically known";
  EXPECT_EQ(semantic::dynamicImportTarget(f.python, on(11)), std::nullopt);
  EXPECT_EQ(semantic::getattrTarget(f.python, on(7)), "torch.topk");
  EXPECT_EQ(semantic::getattrTarget(f.python, on(8)), "torch.nn.functional.linear");
  EXPECT_EQ(semantic::getattrTarget(f.python, on(9)), std::nullopt) << "an object no import binds";
  EXPECT_EQ(semantic::getattrTarget(f.python, on(10)), std::nullopt) << "a computed attribute name";
}

} // namespace
} // namespace kbaudit
