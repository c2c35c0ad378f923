// The ordering model (semantic/stream_order.h): whether, when the graded call returns, the
// caller's stream is ordered after the work it launched, on every path the harness takes, and
// which graph replays no copy-in precedes. Each case is a behaviour, spelled as code would.

#include "kbaudit/semantic/stream_order.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

semantic::StreamOrder orderOf(const Facts &f) {
  const semantic::ForwardReach reach(f, nullptr, "");
  return semantic::streamOrder(reach, semantic::HarnessView{});
}

Facts facts(std::string_view code) { return analyzeSource(SourceFile::fromBytes(src(code))); }

TEST(SemanticStreamOrder, JoinInsideTheStreamContextIsASelfWait) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
    def forward(self, x):
        with torch.cuda.stream(self.s):
            y = torch.relu(x)
            torch.cuda.current_stream().wait_stream(self.s)
        return y
)PY");
  const semantic::StreamOrder o = orderOf(f);
  ASSERT_EQ(o.escapes.size(), 1u);
  EXPECT_EQ(o.escapes[0].site.begin, 7u); // the `with` line (the raw string's first newline is not a line)
  EXPECT_TRUE(o.escapes[0].decisive);
  EXPECT_NE(o.escapes[0].why.find("waits on itself"), std::string::npos) << o.escapes[0].why;
}

TEST(SemanticStreamOrder, JoinAfterTheBlockOrdersTheCaller) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
    def forward(self, x):
        cur = torch.cuda.current_stream()
        self.s.wait_stream(cur)
        with torch.cuda.stream(self.s):
            y = torch.relu(x)
        cur.wait_stream(self.s)
        return y
)PY");
  EXPECT_TRUE(orderOf(f).escapes.empty());
}

TEST(SemanticStreamOrder, JoinBetweenSideStreamsNeverReachesTheCaller) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.cuda.Stream()
        self.b = torch.cuda.Stream()
    def forward(self, x):
        with torch.cuda.stream(self.a):
            y = torch.relu(x)
        self.b.wait_stream(self.a)
        with torch.cuda.stream(self.b):
            z = torch.mul(y, 2)
        return z
)PY");
  const semantic::StreamOrder o = orderOf(f);
  EXPECT_EQ(o.escapes.size(), 2u);
}

TEST(SemanticStreamOrder, JoinOnlyUnderRequiresGradIsSkippedWhenGraded) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
    def forward(self, x):
        with torch.cuda.stream(self.s):
            y = torch.relu(x)
        if x.requires_grad:
            torch.cuda.current_stream().wait_stream(self.s)
        return y
)PY");
  const semantic::StreamOrder o = orderOf(f);
  ASSERT_EQ(o.escapes.size(), 1u);
  EXPECT_TRUE(o.escapes[0].decisive);
  EXPECT_NE(o.escapes[0].why.find("requires_grad"), std::string::npos) << o.escapes[0].why;
}

TEST(SemanticStreamOrder, EventRecordedOnTheSideStreamAndWaitedForJoins) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
        self.ev = torch.cuda.Event()
    def forward(self, x):
        with torch.cuda.stream(self.s):
            y = torch.relu(x)
            self.ev.record()
        torch.cuda.current_stream().wait_event(self.ev)
        return y
)PY");
  EXPECT_TRUE(orderOf(f).escapes.empty());
}

TEST(SemanticStreamOrder, GraphReplayOnAPrivateStreamEscapesAndOnTheCallersDoesNot) {
  const Facts bad = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
        self.g = torch.cuda.CUDAGraph()
    def forward(self, x):
        self.static_x.copy_(x)
        with torch.cuda.stream(self.s):
            self.g.replay()
        return self.static_y
)PY");
  EXPECT_EQ(orderOf(bad).escapes.size(), 1u);
  const Facts good = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
        self.g = torch.cuda.CUDAGraph()
        with torch.cuda.stream(self.s):
            with torch.cuda.graph(self.g):
                self.static_y = torch.relu(self.static_x)
    def forward(self, x):
        self.static_x.copy_(x)
        self.g.replay()
        return self.static_y
)PY");
  const semantic::StreamOrder o = orderOf(good);
  EXPECT_TRUE(o.escapes.empty());
  EXPECT_TRUE(o.staleReplays.empty());
}

TEST(SemanticStreamOrder, WarmupArmIsNotTheSteadyState) {
  // Side-stream work only on the first call (the arm that sets the flag) is not timed; on the
  // steady path it is.
  const Facts warmOnly = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
        self.warm = False
    def forward(self, x):
        if not self.warm:
            with torch.cuda.stream(self.s):
                torch.relu(x)
            self.warm = True
        return torch.relu(x)
)PY");
  EXPECT_TRUE(orderOf(warmOnly).escapes.empty());
  const Facts steady = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.cuda.Stream()
        self.warm = False
    def forward(self, x):
        if not self.warm:
            self.warm = True
            return torch.relu(x)
        with torch.cuda.stream(self.s):
            y = torch.relu(x)
        return y
)PY");
  const semantic::StreamOrder o = orderOf(steady);
  ASSERT_EQ(o.escapes.size(), 1u);
  EXPECT_TRUE(o.escapes[0].decisive);
}

TEST(SemanticStreamOrder, StaleReplayWithoutCopyInAndCopyAfterReplay) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x):
        if self.g is None:
            self.static_x = x.clone()
            self.g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.g):
                self.static_y = torch.relu(self.static_x)
        self.g.replay()
        self.static_x.copy_(x)
        return self.static_y
)PY");
  const semantic::StreamOrder o = orderOf(f);
  ASSERT_EQ(o.staleReplays.size(), 1u);
  EXPECT_EQ(o.staleReplays[0].replay.begin, 9u);
  EXPECT_TRUE(o.staleReplays[0].decisive);
}

TEST(SemanticStreamOrder, UnknownStreamIsReviewOnly) {
  const Facts f = facts(R"PY(
import torch
class ModelNew(torch.nn.Module):
    def forward(self, x, stream):
        with torch.cuda.stream(stream):
            y = torch.relu(x)
        return y
)PY");
  const semantic::StreamOrder o = orderOf(f);
  ASSERT_EQ(o.escapes.size(), 1u);
  EXPECT_FALSE(o.escapes[0].decisive);
}

} // namespace
} // namespace kbaudit
