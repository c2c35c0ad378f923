// LoopBinding facts: `for` statements and comprehension clauses, with the names they bind and
// what they iterate.

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

TEST(PythonLoops, ForStatementsAndComprehensionClauses) {
  auto f = analyze(src(R"PY(
def wait_all(futures, table):
    for fut in futures:
        fut.result()
    for k, (a, b) in table.items():
        pass
    done = [g.result() for g in futures if g]
    total = sum(x * y for x, y in zip(futures, table))
    for self_attr in range(3):
        pass
    return done, total
)PY"));
  ASSERT_EQ(f.loops.size(), 5u);
  const LoopBinding &first = f.loops[0];
  EXPECT_EQ(first.targets, std::vector<std::string>{"fut"});
  EXPECT_EQ(first.iterable.text, "futures");
  EXPECT_EQ(first.iterable.kind, ExprKind::Name);
  EXPECT_FALSE(first.comprehension);
  EXPECT_EQ(first.function, "wait_all");
  EXPECT_EQ(first.lines.begin, 2u);
  EXPECT_EQ(first.lines.end, 3u) << "the whole statement, so calls in the body sit inside it";

  EXPECT_EQ(f.loops[1].targets, (std::vector<std::string>{"k", "a", "b"})) << "nested tuple targets";
  EXPECT_EQ(f.loops[1].iterable.resolved, "table.items");

  const LoopBinding &comp = f.loops[2];
  EXPECT_TRUE(comp.comprehension);
  EXPECT_EQ(comp.targets, std::vector<std::string>{"g"});
  EXPECT_EQ(comp.iterable.text, "futures");
  EXPECT_EQ(comp.lines.begin, 6u);

  EXPECT_TRUE(f.loops[3].comprehension) << "a generator expression";
  EXPECT_EQ(f.loops[3].targets, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(f.loops[4].iterable.resolved, "range");
}

TEST(PythonLoops, ModuleLevelLoopsAndAttributeTargets) {
  auto f = analyze(src(R"PY(
class C:
    pass
obj = C()
for obj.i in range(2):
    pass
for name in ["a", "b"]:
    print(name)
)PY"));
  ASSERT_EQ(f.loops.size(), 1u) << "an attribute target binds no name";
  EXPECT_EQ(f.loops[0].function, "");
  EXPECT_EQ(f.loops[0].iterable.elements.size(), 2u);
}

} // namespace
} // namespace kbaudit::py::testing
