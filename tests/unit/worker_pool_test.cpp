// Per-run isolation: whatever one job does to its process, the others finish and the caller
// hears what happened to it.
#include "../../cli/src/worker_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

using kbaudit::cli::runInWorkers;
using kbaudit::cli::WorkerLimits;
using kbaudit::cli::WorkerOutcome;
using Status = WorkerOutcome::Status;

namespace {

std::map<std::size_t, WorkerOutcome> runAll(std::size_t count, unsigned jobs, const WorkerLimits &limits,
                                            const std::function<std::string(std::size_t)> &job) {
  std::map<std::size_t, WorkerOutcome> out;
  runInWorkers(count, jobs, limits, job, [&](std::size_t i, WorkerOutcome o) {
    EXPECT_FALSE(out.count(i)) << "job " << i << " reported twice";
    out[i] = std::move(o);
  });
  EXPECT_EQ(out.size(), count);
  return out;
}

int recurse(int depth) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(depth);
  return depth == 0 ? pad[0] : recurse(depth - 1) + pad[0];
}

TEST(WorkerPool, EveryJobAnswersWithItsPayloadAcrossWorkers) {
  const auto out = runAll(25, 3, WorkerLimits{}, [](std::size_t i) { return "job " + std::to_string(i); });
  for (const auto &[i, o] : out) {
    EXPECT_EQ(o.status, Status::Ok);
    EXPECT_EQ(o.payload, "job " + std::to_string(i));
  }
}

TEST(WorkerPool, PayloadsLargerThanAPipeBufferArriveWhole) {
  const auto out = runAll(3, 2, WorkerLimits{}, [](std::size_t i) { return std::string(3'000'000 + i, 'a' + static_cast<char>(i)); });
  for (const auto &[i, o] : out) {
    ASSERT_EQ(o.status, Status::Ok);
    EXPECT_EQ(o.payload.size(), 3'000'000 + i);
  }
}

TEST(WorkerPool, ACrashEndsOnlyItsOwnJob) {
  const auto out = runAll(6, 2, WorkerLimits{}, [](std::size_t i) -> std::string {
    if (i == 2)
      std::raise(SIGSEGV);
    if (i == 4)
      std::abort();
    return "ok";
  });
  EXPECT_EQ(out.at(2).status, Status::Crashed);
  EXPECT_NE(out.at(2).reason.find("signal 11"), std::string::npos) << out.at(2).reason;
  EXPECT_EQ(out.at(4).status, Status::Crashed);
  for (std::size_t i : {0u, 1u, 3u, 5u})
    EXPECT_EQ(out.at(i).status, Status::Ok) << i;
}

TEST(WorkerPool, AHangIsStoppedAtTheWallLimit) {
  WorkerLimits limits;
  limits.wall = std::chrono::seconds(1);
  const auto start = std::chrono::steady_clock::now();
  const auto out = runAll(3, 2, limits, [](std::size_t i) -> std::string {
    if (i == 0)
      std::this_thread::sleep_for(std::chrono::hours(1));
    return "ok";
  });
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(out.at(0).status, Status::TimedOut);
  EXPECT_EQ(out.at(1).status, Status::Ok);
  EXPECT_EQ(out.at(2).status, Status::Ok);
}

TEST(WorkerPool, MemoryBeyondTheLimitFailsTheJobNotTheBatch) {
  WorkerLimits limits;
  limits.memoryBytes = 1ull << 30;
  const auto out = runAll(2, 1, limits, [](std::size_t i) -> std::string {
    if (i == 0) {
      std::vector<std::vector<char>> hog;
      for (;;)
        hog.emplace_back(64u << 20, 'x');
    }
    return "ok";
  });
  EXPECT_EQ(out.at(0).status, Status::OutOfMemory) << out.at(0).reason;
  EXPECT_EQ(out.at(1).status, Status::Ok);
}

TEST(WorkerPool, ExceptionsAreFailuresWithTheirMessage) {
  const auto out = runAll(2, 1, WorkerLimits{}, [](std::size_t i) -> std::string {
    if (i == 0)
      throw std::runtime_error("broken front end");
    return "ok";
  });
  EXPECT_EQ(out.at(0).status, Status::Failed);
  EXPECT_NE(out.at(0).reason.find("broken front end"), std::string::npos);
  EXPECT_EQ(out.at(1).status, Status::Ok);
}

// Deep but legal recursion (a nested expression, a template chain) runs on the big stack.
TEST(WorkerPool, JobsRunOnAStackDeeperThanTheMainThreads) {
  const auto out = runAll(1, 1, WorkerLimits{}, [](std::size_t) { return std::to_string(recurse(100'000)); });
  EXPECT_EQ(out.at(0).status, Status::Ok) << out.at(0).reason;
}

} // namespace
