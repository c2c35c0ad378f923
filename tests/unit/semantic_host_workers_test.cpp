// Host workers (semantic/host_workers.h): TIME003 asks what a thread, process or pool runs,
// whether the function that started it waits, and what state forward hands to a worker
// started elsewhere.

#include "kbaudit/semantic/host_workers.h"

#include "python_test_support.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

using py::testing::src;

const py::Call &onlyCall(const Facts &f, std::string_view resolved) {
  const py::Call *c = py::testing::callTo(f.python, resolved);
  EXPECT_NE(c, nullptr) << resolved;
  static const py::Call none;
  return c ? *c : none;
}

TEST(SemanticHostWorkers, TargetsHandlesAndJoins) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import threading
import torch
class Filler(threading.Thread):
    def run(self):
        torch.relu(self.x)
def _fill(out, x):
    out.copy_(x)
class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        t = threading.Thread(target=_fill, args=(out, x))
        t.start()
        timer = threading.Timer(0.1, _fill, (out, x))
        timer.start()
        timer.join()
        Filler().start()
        return out
)PY")));
  const semantic::ForwardReach reach(f, nullptr, "");
  const std::vector<std::string> classes = semantic::workerClasses(f.python);
  EXPECT_EQ(classes, std::vector<std::string>{"Filler"});
  const py::Call &thread = onlyCall(f, "threading.Thread");
  const semantic::WorkerTarget t = semantic::workerTarget(reach, thread, classes);
  EXPECT_EQ(t.function, "_fill");
  ASSERT_NE(t.expr, nullptr);
  EXPECT_EQ(semantic::handleOf(reach, thread), "t");
  EXPECT_FALSE(semantic::joinedIn(reach, "ModelNew.forward", "t"));
  EXPECT_TRUE(semantic::workerStarted(reach, thread, "t"));

  const py::Call &timer = onlyCall(f, "threading.Timer");
  EXPECT_EQ(semantic::workerTarget(reach, timer, classes).function, "_fill"); // positional function
  EXPECT_EQ(semantic::handleOf(reach, timer), "timer");
  EXPECT_TRUE(semantic::joinedIn(reach, "ModelNew.forward", "timer"));
  EXPECT_FALSE(semantic::joinedIn(reach, "ModelNew.forward", ""));

  const py::Call &filler = onlyCall(f, "Filler");
  EXPECT_EQ(semantic::workerTarget(reach, filler, classes).function, "Filler.run");
  EXPECT_TRUE(semantic::workerStarted(reach, filler, semantic::handleOf(reach, filler)));
}

TEST(SemanticHostWorkers, FuturesJoinedThroughALoop) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import concurrent.futures
import torch
pool = concurrent.futures.ThreadPoolExecutor(2)
def _part(x):
    return torch.relu(x)
class ModelNew(torch.nn.Module):
    def forward(self, x):
        futs = [pool.submit(_part, c) for c in x.chunk(2)]
        for fut in futs:
            fut.result()
        return x
)PY")));
  const semantic::ForwardReach reach(f, nullptr, "");
  const py::Call *submit = nullptr;
  for (const py::Call &c : f.python.calls)
    if (c.method == "submit")
      submit = &c;
  ASSERT_NE(submit, nullptr);
  EXPECT_EQ(semantic::handleOf(reach, *submit), "futs");
  EXPECT_TRUE(semantic::joinedIn(reach, "ModelNew.forward", "futs"));
}

TEST(SemanticHostWorkers, SharedStateAWorkerPolls) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import threading
import torch
_pending = []
_other = []
def _loop():
    while True:
        if _pending:
            torch.relu(_pending.pop())
threading.Thread(target=_loop, daemon=True).start()
class ModelNew(torch.nn.Module):
    def forward(self, x):
        _pending.append(x)
        _other.append(x)
        return x
)PY")));
  const semantic::ForwardReach reach(f, nullptr, "");
  const std::vector<semantic::SharedFeed> feeds = semantic::sharedFeeds(reach, "_loop");
  ASSERT_EQ(feeds.size(), 1u);
  EXPECT_EQ(feeds[0].what, "`_pending.append`");
  EXPECT_EQ(feeds[0].function, "ModelNew.forward");
  EXPECT_TRUE(semantic::sharedFeeds(reach, "_missing").empty());
}

TEST(SemanticHostWorkers, StartsPoolsQueuesAndWaits) {
  const Facts f = analyzeSource(SourceFile::fromBytes(src(R"PY(
import asyncio
import concurrent.futures
import os
import queue
import subprocess
import torch
jobs = queue.Queue()
done = queue.Queue()
def _part(x):
    return torch.relu(x)
class ModelNew(torch.nn.Module):
    def forward(self, x):
        p = subprocess.Popen(["true"])
        asyncio.create_task(self.tick())
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            fut = pool.submit(_part, x)
        other = concurrent.futures.ProcessPoolExecutor(2)
        late = other.submit(_part, x)
        notes = {}
        notes.update(a=1)
        jobs.put(x)
        result = done.get()
        jobs.put(x)
        pid = os.fork()
        os.waitpid(pid, 0)
        return result
    async def tick(self):
        pass
)PY")));
  const semantic::ForwardReach reach(f, nullptr, "");
  const auto call = [&](std::string_view method, int nth = 0) -> const py::Call & {
    for (const py::Call &c : f.python.calls)
      if ((c.method == method || c.resolved == method) && nth-- == 0)
        return c;
    ADD_FAILURE() << method;
    static const py::Call none;
    return none;
  };
  EXPECT_TRUE(semantic::startsThreadOrProcess(call("subprocess.Popen")));
  EXPECT_TRUE(semantic::startsThreadOrProcess(call("os.fork")));
  EXPECT_FALSE(semantic::startsThreadOrProcess(call("submit")));
  EXPECT_TRUE(semantic::schedulesTask(call("asyncio.create_task")));
  EXPECT_FALSE(semantic::handsToLoopThread(call("asyncio.create_task")));
  const py::Call &inContext = call("submit", 0);
  const py::Call &loose = call("submit", 1);
  EXPECT_TRUE(semantic::submitsToPool(reach, inContext));
  EXPECT_TRUE(semantic::submitsToPool(reach, loose));
  EXPECT_FALSE(semantic::submitsToPool(reach, call("update"))); // a dict, not a pool
  EXPECT_TRUE(semantic::poolIsContext(reach, inContext));
  EXPECT_FALSE(semantic::poolIsContext(reach, loose));
  const py::Call &firstPut = call("put", 0);
  const py::Call &secondPut = call("put", 1);
  EXPECT_TRUE(semantic::feedsQueue(reach, firstPut));
  EXPECT_FALSE(semantic::feedsQueue(reach, call("update")));
  EXPECT_TRUE(semantic::waitsAfter(reach, "ModelNew.forward", firstPut.lines));   // done.get() follows
  EXPECT_FALSE(semantic::waitsAfter(reach, "ModelNew.forward", secondPut.lines)); // nothing after it
  EXPECT_TRUE(semantic::waitsForChildren(reach, "ModelNew.forward"));
  EXPECT_FALSE(semantic::waitsForChildren(reach, "_part"));
}

} // namespace
} // namespace kbaudit
