#pragma once

// The `audit` progress display: one line, redrawn in place with '\r' on an interactive stderr,
//   kbaudit: 120/207 runs (57%)  30.0 runs/s  ETA 3s
// (below one run per second the rate reads "12.5 s/run")
// and nothing at all when stderr is not a terminal (logs, CI, Slurm) or with --quiet.

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>

namespace kbaudit::cli {

/// "45s", "3m05s", "2h07m"; "--" for a negative or non-finite duration.
std::string formatDuration(double seconds);

/// The progress text (no '\r', no newline) after `done` of `total` runs in `elapsedSeconds`.
/// Rate and ETA read "--" until one run is done; a rate under 1 run/s is shown as s/run.
std::string formatProgress(std::size_t done, std::size_t total, double elapsedSeconds);

/// Whether this process's stderr (fd 2) is a terminal.
bool stderrIsTerminal();

/// Where `audit` draws its progress: `err` when it is std::cerr, stderr is a terminal and
/// --quiet was not given; nullptr (no display) otherwise. A caller's own stream (tests,
/// embedding) never gets a progress line.
std::ostream *progressSinkFor(std::ostream &err, bool quiet);

/// A progress line over a fixed number of runs. advance() may be called from any thread;
/// redraws are throttled to one per `minInterval` (the last run always redraws). A null
/// sink makes every call a no-op. finish() (or the destructor) erases the line.
class ProgressLine {
public:
  ProgressLine(std::ostream *sink, std::size_t total,
               std::chrono::milliseconds minInterval = std::chrono::milliseconds(100));
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  /// One more run done.
  void advance();
  /// Erases the line so what follows starts on a clean line; idempotent.
  void finish();

private:
  void drawLocked(std::chrono::steady_clock::time_point now);

  std::ostream *sink_;
  const std::size_t total_;
  const std::chrono::milliseconds minInterval_;
  const std::chrono::steady_clock::time_point start_;
  std::mutex mu_;
  std::size_t done_ = 0;
  std::size_t width_ = 0; ///< widest line drawn, to blank what a shorter one leaves behind
  std::chrono::steady_clock::time_point lastDraw_;
  bool finished_ = false;
};

} // namespace kbaudit::cli
