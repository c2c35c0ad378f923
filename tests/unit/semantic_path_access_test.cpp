// What the solution does with a path string (semantic/path_access.h): RUB002 judges a grader
// file's name by the strongest access among the calls it flows into.

#include "kbaudit/semantic/path_access.h"

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using semantic::PathAccess;

TEST(SemanticPathAccess, WhatACallDoesToAPath) {
  auto f = analyze(src(R"PY(
import os, subprocess, shutil
open("check.py")
open("check.py", "w")
os.system("sed -i s/a/b/ check.py")
subprocess.run(["cat", "check.py"])
subprocess.run(["rm", "check.py"])
shutil.copy("check.py", "x.py")
s = "abc".replace("a", "b")
exec(code)
)PY"));
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "open", 0)), PathAccess::Read);
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "open", 1)), PathAccess::Modify);
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "os.system")), PathAccess::Modify);
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "subprocess.run", 0)), PathAccess::Process);
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "subprocess.run", 1)), PathAccess::Modify);
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "shutil.copy")), PathAccess::Modify);
  EXPECT_EQ(semantic::pathAccessOf(*callTo(f, "exec")), PathAccess::Execute);
  for (const Call &c : f.calls)
    if (c.method == "replace")
      EXPECT_EQ(semantic::pathAccessOf(c), PathAccess::None); // str.replace edits a value, not a file
}

TEST(SemanticPathAccess, CallsAStringFlowsIntoThroughNames) {
  auto f = analyze(src(R"PY(
import os
def run():
    p = os.path.join(root, "check.py")
    q = p + ".bak"
    print("p is not read here")
    return open(q).read()
)PY"));
  const StringConstant *s = stringsWithValue(f, "check.py").front();
  std::vector<std::string> callees;
  for (const Call *c : semantic::callsReceiving(f, *s))
    callees.push_back(c->resolved);
  EXPECT_NE(std::find(callees.begin(), callees.end(), "os.path.join"), callees.end()); // its own statement
  EXPECT_NE(std::find(callees.begin(), callees.end(), "open"), callees.end());         // through p, then q
  EXPECT_EQ(std::find(callees.begin(), callees.end(), "print"), callees.end());        // spells p, reads nothing
}

} // namespace
} // namespace kbaudit::py::testing
