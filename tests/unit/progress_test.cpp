// The `audit` progress line: its text as a pure function, the redraw protocol ('\r', padding,
// erase at the end) under concurrent workers, and that it appears only on a terminal.

#include "kbaudit/cli/cli.h"
#include "kbaudit/cli/progress.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <thread>
#include <vector>

using namespace kbaudit;
using kbaudit::test::readFile;
using kbaudit::test::runCommand;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(cli::formatDuration(0), "0s");
  EXPECT_EQ(cli::formatDuration(0.4), "0s");
  EXPECT_EQ(cli::formatDuration(44.6), "45s");
  EXPECT_EQ(cli::formatDuration(59.4), "59s");
  EXPECT_EQ(cli::formatDuration(60), "1m00s");
  EXPECT_EQ(cli::formatDuration(185), "3m05s");
  EXPECT_EQ(cli::formatDuration(3599), "59m59s");
  EXPECT_EQ(cli::formatDuration(3600), "1h00m");
  EXPECT_EQ(cli::formatDuration(7620), "2h07m");
  EXPECT_EQ(cli::formatDuration(-1), "--");
  EXPECT_EQ(cli::formatDuration(std::numeric_limits<double>::infinity()), "--");
  EXPECT_EQ(cli::formatDuration(std::nan("")), "--");
}

TEST(Progress, FormatsDoneTotalRateAndEta) {
  EXPECT_EQ(cli::formatProgress(0, 207, 0.0), "kbaudit: 0/207 runs (0%)  -- runs/s  ETA --");
  EXPECT_EQ(cli::formatProgress(0, 207, 5.0), "kbaudit: 0/207 runs (0%)  -- runs/s  ETA --");
  EXPECT_EQ(cli::formatProgress(3, 207, 0.0), "kbaudit: 3/207 runs (1%)  -- runs/s  ETA --");
  // 120 runs in 4 s: 30 runs/s, 87 left: 2.9 s.
  EXPECT_EQ(cli::formatProgress(120, 207, 4.0), "kbaudit: 120/207 runs (57%)  30.0 runs/s  ETA 3s");
  // Slow runtime probes: 10 runs in 300 s, 990 left at 1/30 runs/s: 29700 s.
  EXPECT_EQ(cli::formatProgress(10, 1000, 300.0), "kbaudit: 10/1000 runs (1%)  30.0 s/run  ETA 8h15m");
  EXPECT_EQ(cli::formatProgress(1, 3, 120.0), "kbaudit: 1/3 runs (33%)  120.0 s/run  ETA 4m00s");
  EXPECT_EQ(cli::formatProgress(1, 3, 1.0), "kbaudit: 1/3 runs (33%)  1.0 runs/s  ETA 2s");
  EXPECT_EQ(cli::formatProgress(207, 207, 1.7), "kbaudit: 207/207 runs (100%)  121.8 runs/s  ETA 0s");
  EXPECT_EQ(cli::formatProgress(0, 0, 0.0), "kbaudit: 0/0 runs (100%)  -- runs/s  ETA --");
}

/// The segments between '\r's, empty ones dropped.
std::vector<std::string> redraws(const std::string &s) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == '\r') {
      if (!cur.empty())
        parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty())
    parts.push_back(cur);
  return parts;
}

TEST(Progress, LineIsRedrawnInPlaceAndErasedAtTheEnd) {
  std::ostringstream sink;
  {
    cli::ProgressLine line(&sink, 3, std::chrono::milliseconds(0));
    line.advance();
    line.advance();
    line.advance();
    line.finish();
    line.finish(); // idempotent
    line.advance(); // after finish: ignored
  }
  const std::string s = sink.str();
  EXPECT_EQ(s.find('\n'), std::string::npos) << "a progress line never scrolls";
  const std::vector<std::string> parts = redraws(s);
  ASSERT_EQ(parts.size(), 5u) << s; // 0/3, 1/3, 2/3, 3/3, then the blanking spaces
  EXPECT_EQ(parts[0].rfind("kbaudit: 0/3 runs (0%)", 0), 0u) << parts[0];
  EXPECT_EQ(parts[3].rfind("kbaudit: 3/3 runs (100%)", 0), 0u) << parts[3];
  EXPECT_EQ(parts[4].find_first_not_of(' '), std::string::npos) << "the last write blanks the line";
  std::size_t widest = 0;
  for (std::size_t i = 0; i < 4; ++i)
    widest = std::max(widest, parts[i].size());
  EXPECT_GE(parts[4].size(), widest) << "the blanking covers the widest line drawn";
  EXPECT_EQ(s.back(), '\r');
}

TEST(Progress, ShorterLinesArePaddedOverLongerOnes) {
  std::ostringstream sink;
  cli::ProgressLine line(&sink, 2, std::chrono::milliseconds(0));
  line.advance();
  line.advance();
  const std::vector<std::string> parts = redraws(sink.str());
  ASSERT_EQ(parts.size(), 3u);
  for (std::size_t i = 1; i < parts.size(); ++i)
    EXPECT_GE(parts[i].size(), parts[i - 1].size()) << "'" << parts[i] << "' leaves part of the last line";
}

TEST(Progress, ThrottlesRedrawsButAlwaysDrawsTheLastRun) {
  std::ostringstream sink;
  cli::ProgressLine line(&sink, 1000, std::chrono::hours(1));
  for (int i = 0; i < 1000; ++i)
    line.advance();
  const std::vector<std::string> parts = redraws(sink.str());
  ASSERT_EQ(parts.size(), 2u) << sink.str(); // the initial 0/1000 and the final 1000/1000
  EXPECT_EQ(parts[1].rfind("kbaudit: 1000/1000 runs (100%)", 0), 0u) << parts[1];
}

TEST(Progress, CountsEveryRunFromManyThreads) {
  std::ostringstream sink;
  constexpr unsigned kThreads = 8, kEach = 2000;
  {
    cli::ProgressLine line(&sink, kThreads * kEach, std::chrono::milliseconds(0));
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < kThreads; ++t)
      workers.emplace_back([&] {
        for (unsigned i = 0; i < kEach; ++i)
          line.advance();
      });
    for (std::thread &w : workers)
      w.join();
  }
  const std::vector<std::string> parts = redraws(sink.str());
  ASSERT_GE(parts.size(), 2u);
  // Every redraw is whole (no interleaved writes) and the counts never go backwards.
  std::size_t last = 0;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    ASSERT_EQ(parts[i].rfind("kbaudit: ", 0), 0u) << "torn redraw: '" << parts[i] << "'";
    const std::size_t done = std::stoul(parts[i].substr(9));
    EXPECT_GE(done, last);
    last = done;
  }
  EXPECT_EQ(last, kThreads * kEach);
  EXPECT_EQ(parts.back().find_first_not_of(' '), std::string::npos);
}

TEST(Progress, NullSinkWritesNothing) {
  cli::ProgressLine line(nullptr, 5);
  line.advance();
  line.finish();
  std::ostringstream err;
  EXPECT_EQ(cli::progressSinkFor(err, false), nullptr) << "a caller's own stream is never a terminal";
  EXPECT_EQ(cli::progressSinkFor(err, true), nullptr);
}

const char *kWrapper = R"(import torch


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)
)";

void makeRuns(const TempDir &runs) {
  for (int i = 0; i < 4; ++i)
    writeFile(runs / ("20260101_00000" + std::to_string(i) + "_h_model-a_01_x/solution.py"), kWrapper);
}

TEST(Progress, RealBinaryPrintsNoProgressWhenStderrIsNotATerminal) {
  TempDir runs, out;
  makeRuns(runs);
  const std::string bin = KBAUDIT_BINARY;
  const std::string cmd = bin + " audit " + runs.path().string() + " --out " + (out / "annotations").string() +
                          " >" + (out / "stdout").string() + " 2>" + (out / "stderr").string() + " </dev/null";
  ASSERT_EQ(runCommand(cmd), 0);
  EXPECT_EQ(readFile(out / "stderr"), "") << "no progress line (or anything) on a non-terminal stderr";
  const std::string stdoutText = readFile(out / "stdout");
  EXPECT_NE(stdoutText.find("audited 4 runs"), std::string::npos) << stdoutText;
  EXPECT_EQ(stdoutText.find('\r'), std::string::npos) << stdoutText;
}

TEST(Progress, RealBinaryDrawsTheLineOnATerminalUnlessQuiet) {
  // util-linux `script` runs the command on a pseudo-terminal and copies what it prints.
  if (runCommand("script -qec true /dev/null >/dev/null 2>&1 </dev/null") != 0)
    GTEST_SKIP() << "no `script` or no pseudo-terminals here";
  TempDir runs, out;
  makeRuns(runs);
  const std::string bin = KBAUDIT_BINARY;
  const auto onTerminal = [&](const std::string &extra, const std::string &name) {
    const std::string inner = bin + " audit " + runs.path().string() + " --out " + (out / name).string() + extra;
    EXPECT_EQ(runCommand("script -qec '" + inner + "' /dev/null >" + (out / (name + ".tty")).string() +
                         " 2>&1 </dev/null"),
              0);
    return readFile(out / (name + ".tty"));
  };
  const std::string shown = onTerminal("", "a");
  EXPECT_NE(shown.find("\rkbaudit: 0/4 runs (0%)"), std::string::npos) << shown;
  EXPECT_NE(shown.find("\rkbaudit: 4/4 runs (100%)"), std::string::npos) << shown;
  EXPECT_NE(shown.find("  ETA "), std::string::npos) << shown;
  EXPECT_NE(shown.find("audited 4 runs"), std::string::npos) << shown;
  const std::string quiet = onTerminal(" --quiet", "b");
  EXPECT_EQ(quiet.find("ETA"), std::string::npos) << quiet;
  EXPECT_EQ(quiet.find('\r'), std::string::npos) << quiet;
}

} // namespace
