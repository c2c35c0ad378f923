// Side streams and their joins (semantic/side_streams.h): TIME001 asks which calls switch to
// a stream, which stream is the caller's, which calls make the caller wait, and what an
// extension export does with streams.

#include "kbaudit/semantic/side_streams.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

TEST(SemanticSideStreams, ForksJoinsAndCallerStreams) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import torch
side = torch.cuda.Stream()
class ModelNew(torch.nn.Module):
    def forward(self, x):
        cur = torch.cuda.current_stream()
        side.wait_stream(cur)
        with torch.cuda.stream(side):
            y = x * 2
        ev = torch.cuda.Event()
        ev.wait()
        cur.wait_stream(side)
        torch.cuda.synchronize()
        x.wait()
        return y
)PY")));
  const semantic::ForwardReach reach(f, nullptr, "");
  EXPECT_TRUE(semantic::isStreamSwitch("torch.cuda.stream"));
  EXPECT_TRUE(semantic::isStreamSwitch("torch.cuda.set_stream"));
  EXPECT_FALSE(semantic::isStreamSwitch("torch.cuda.synchronize"));
  EXPECT_TRUE(semantic::boundToCreatedStream(reach, "side", "ModelNew.forward"));
  EXPECT_FALSE(semantic::boundToCreatedStream(reach, "cur", "ModelNew.forward"));
  std::vector<const py::Call *> waits;
  for (const py::Call &c : f.python.calls)
    if (c.method == "wait_stream")
      waits.push_back(&c);
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_TRUE(semantic::isCallerStream(reach, waits[0]->positionalArg(0)->value, "ModelNew.forward"));
  EXPECT_FALSE(semantic::isCallerStream(reach, waits[1]->positionalArg(0)->value, "ModelNew.forward"));
  EXPECT_FALSE(semantic::isStreamJoin(reach, *waits[0])); // the fork: side waits for the caller
  EXPECT_TRUE(semantic::isStreamJoin(reach, *waits[1]));
  for (const py::Call &c : f.python.calls) {
    if (c.method == "wait")
      EXPECT_EQ(semantic::isStreamJoin(reach, c), c.receiver == "ev") << c.receiver;
    if (c.resolved == "torch.cuda.synchronize")
      EXPECT_TRUE(semantic::isStreamJoin(reach, c));
    if (semantic::isStreamSwitch(c.resolved))
      EXPECT_FALSE(semantic::isStreamJoin(reach, c));
  }
}

TEST(SemanticSideStreams, ExportStreamsAndGlobals) {
  Facts f;
  const auto call = [&](std::string callee, cxx::CallCategory category) {
    cxx::CxxCall c;
    c.callee = std::move(callee);
    c.category = category;
    f.cxx.calls.push_back(c);
    return static_cast<int>(f.cxx.calls.size() - 1);
  };
  cxx::ExportedFunction creates;
  creates.calls = {call("cudaStreamCreateWithFlags", cxx::CallCategory::Stream)};
  cxx::ExportedFunction joins = creates;
  joins.calls.push_back(call("cudaStreamWaitEvent", cxx::CallCategory::Event));
  cxx::ExportedFunction plain;
  plain.calls = {call("at::cuda::getCurrentCUDAStream", cxx::CallCategory::Stream)};
  EXPECT_TRUE(semantic::exportStreams(f, creates).created);
  EXPECT_FALSE(semantic::exportStreams(f, creates).joined);
  EXPECT_TRUE(semantic::exportStreams(f, joins).joined);
  EXPECT_FALSE(semantic::exportStreams(f, plain).created);

  cxx::MutableStatic held;
  held.name = "Runner::side_";
  held.type = "cudaStream_t";
  f.cxx.statics.push_back(held);
  cxx::MutableStatic counter;
  counter.name = "calls";
  counter.type = "int";
  f.cxx.statics.push_back(counter);
  EXPECT_TRUE(semantic::streamHeldInGlobal(f, "side_"));
  EXPECT_TRUE(semantic::streamHeldInGlobal(f, "this->side_"));
  EXPECT_FALSE(semantic::streamHeldInGlobal(f, "side"));   // a whole identifier, not a prefix
  EXPECT_FALSE(semantic::streamHeldInGlobal(f, "calls"));  // not of stream type
  EXPECT_FALSE(semantic::streamHeldInGlobal(f, "stream")); // a parameter handed down
}

} // namespace
} // namespace kbaudit
