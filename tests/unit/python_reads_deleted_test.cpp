// The front end's record of names a function only deletes (`del x`): the value is never
// read, so RUB009 counts such an input as ignored.

#include "kbaudit/python/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kbaudit {
namespace {

TEST(PythonReads, NamesOnlyDeletedAreRecorded) {
  const py::PythonFacts f = py::analyze("def g(a, b, c, d):\n    del a\n    y = b.clone()\n    del b, c\n"
                                        "    del d[0]\n    return y\n");
  const py::Function *g = f.findFunction("g");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->onlyDeleted, (std::vector<std::string>{"a", "c"})) << "b is read before its del; `del d[0]` reads d";
  EXPECT_TRUE(std::binary_search(g->reads.begin(), g->reads.end(), std::string("a")))
      << "reads keeps its meaning: every mention";
}

} // namespace
} // namespace kbaudit
