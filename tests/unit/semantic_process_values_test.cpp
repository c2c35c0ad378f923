// The semantic layer's process values (kbaudit/semantic/process_values.h): where a descriptor
// number, a pid or a file path comes from, so RUB012/RUB013 can tell a channel the harness
// handed down from one the solution opened itself.

#include "kbaudit/semantic/process_values.h"

#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using semantic::DescriptorSource;
using semantic::ProcessTarget;

const Argument &arg(const PythonFacts &f, std::string_view resolved, unsigned index, size_t nth = 0) {
  const Call *c = callTo(f, resolved, nth);
  EXPECT_NE(c, nullptr) << resolved;
  static const Argument none;
  if (!c || !c->positionalArg(index))
    return none;
  return *c->positionalArg(index);
}

TEST(SemanticProcessValues, DescriptorNumbersByOrigin) {
  auto f = analyze(src(R"PY(
import os, sys, socket
RESULT_FD = 5
def report(data):
    fd = int(os.environ.get("RESULT_FD", "3"))
    os.write(fd, data)
    os.write(int(os.getenv("OTHER_FD")), data)
    os.write(4, data)
    os.write(RESULT_FD, data)
    os.write(sys.stdout.fileno(), data)
    os.write(2, data)
    own = os.open("/tmp/log", os.O_WRONLY)
    os.write(own, data)
    r, w = os.pipe()
    os.write(w, data)
    with open("x.log", "w") as fh:
        os.write(fh.fileno(), data)
    os.write(data.fd, data)
)PY"));
  const auto at = [&](size_t nth) { return semantic::descriptorOf(f, arg(f, "os.write", 0, nth).value, "report"); };
  EXPECT_EQ(at(0).source, DescriptorSource::Environment) << "a name bound to an environment read";
  EXPECT_EQ(at(1).source, DescriptorSource::Environment) << "read in place";
  EXPECT_EQ(at(2).source, DescriptorSource::Literal);
  EXPECT_EQ(at(2).number, 4);
  EXPECT_EQ(at(3).source, DescriptorSource::Literal) << "a module constant";
  EXPECT_EQ(at(3).number, 5);
  EXPECT_EQ(at(4).source, DescriptorSource::Stdout);
  EXPECT_EQ(at(5).source, DescriptorSource::Stderr);
  EXPECT_EQ(at(6).source, DescriptorSource::Own) << "os.open";
  EXPECT_EQ(at(7).source, DescriptorSource::Own) << "an end of its own pipe";
  EXPECT_EQ(at(8).source, DescriptorSource::Own) << "fileno() of a file it opened";
  EXPECT_EQ(at(9).source, DescriptorSource::Unknown) << "an attribute of an argument";
}

TEST(SemanticProcessValues, ProcessTargets) {
  auto f = analyze(src(R"PY(
import os, signal, subprocess
def stop(proc):
    parent = os.getppid()
    os.kill(parent, signal.SIGTERM)
    os.kill(os.getppid(), signal.SIGSTOP)
    os.kill(0, signal.SIGTERM)
    os.kill(-proc.pid, signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGUSR1)
    os.kill(proc.pid, signal.SIGKILL)
)PY"));
  const auto at = [&](size_t nth) { return semantic::processTargetOf(f, arg(f, "os.kill", 0, nth).value, "stop"); };
  EXPECT_EQ(at(0), ProcessTarget::Parent);
  EXPECT_EQ(at(1), ProcessTarget::Parent);
  EXPECT_EQ(at(2), ProcessTarget::Group) << "pid 0 is the caller's process group";
  EXPECT_EQ(at(3), ProcessTarget::Group) << "a negative pid names a group";
  EXPECT_EQ(at(4), ProcessTarget::Self);
  EXPECT_EQ(at(5), ProcessTarget::Unknown) << "a child it started";
}

TEST(SemanticProcessValues, PathPartsAndWhereTheDirectoryComesFrom) {
  auto f = analyze(src(R"PY(
import os, tempfile
CACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".cache")
def save(rec):
    open(os.path.join(os.environ.get("RESULTS_DIR", ".."), "results.json"), "w")
    open(os.path.join(CACHE, "plan.json"), "w")
    open(os.path.join(tempfile.gettempdir(), "k.log"), "w")
    open("../result.json", "w")
    name = f"score-{rec}.txt"
    open(name, "w")
)PY"));
  const auto at = [&](size_t nth) { return semantic::pathPartsOf(f, arg(f, "open", 0, nth).value, "save"); };
  const semantic::PathParts env = at(0);
  EXPECT_TRUE(env.environment);
  EXPECT_FALSE(env.ownLocation);
  ASSERT_FALSE(env.parts.empty());
  EXPECT_EQ(env.parts.back(), "results.json");
  const semantic::PathParts cache = at(1);
  EXPECT_TRUE(cache.ownLocation) << "built from __file__ through a module constant";
  EXPECT_EQ(cache.parts.back(), "plan.json");
  EXPECT_TRUE(at(2).ownLocation) << "a tempfile directory";
  const semantic::PathParts rel = at(3);
  EXPECT_FALSE(rel.ownLocation);
  EXPECT_FALSE(rel.environment);
  ASSERT_EQ(rel.parts.size(), 1u);
  EXPECT_EQ(rel.parts[0], "../result.json");
  const semantic::PathParts fstr = at(4);
  ASSERT_FALSE(fstr.parts.empty());
  EXPECT_NE(fstr.parts[0].find("score-"), std::string::npos) << "static pieces of an f-string";
}

} // namespace
} // namespace kbaudit::py::testing
