#include "kbaudit/cli/progress.h"

#include <cmath>
#include <cstdio>
#include <iostream>

#include <unistd.h>

namespace kbaudit::cli {

std::string formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0)
    return "--";
  const auto total = static_cast<unsigned long long>(std::llround(seconds));
  char buf[48];
  if (total < 60)
    std::snprintf(buf, sizeof buf, "%llus", total);
  else if (total < 3600)
    std::snprintf(buf, sizeof buf, "%llum%02llus", total / 60, total % 60);
  else
    std::snprintf(buf, sizeof buf, "%lluh%02llum", total / 3600, (total % 3600) / 60);
  return buf;
}

std::string formatProgress(std::size_t done, std::size_t total, double elapsedSeconds) {
  const unsigned percent =
      total == 0 ? 100u : static_cast<unsigned>((done >= total ? total : done) * 100 / total);
  std::string line = "kbaudit: " + std::to_string(done) + "/" + std::to_string(total) + " runs (" +
                     std::to_string(percent) + "%)  ";
  if (done == 0 || !(elapsedSeconds > 0) || !std::isfinite(elapsedSeconds))
    return line + "-- runs/s  ETA --";
  const double rate = static_cast<double>(done) / elapsedSeconds;
  // Slow runs (runtime probes on a GPU) read better as seconds per run than as 0.0 runs/s.
  char buf[48];
  if (rate >= 1.0)
    std::snprintf(buf, sizeof buf, "%.1f runs/s", rate);
  else
    std::snprintf(buf, sizeof buf, "%.1f s/run", 1.0 / rate);
  const double remaining = done >= total ? 0.0 : static_cast<double>(total - done) / rate;
  return line + buf + "  ETA " + formatDuration(remaining);
}

bool stderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

std::ostream *progressSinkFor(std::ostream &err, bool quiet) {
  if (quiet || &err != &std::cerr || !stderrIsTerminal())
    return nullptr;
  return &err;
}

ProgressLine::ProgressLine(std::ostream *sink, std::size_t total, std::chrono::milliseconds minInterval)
    : sink_(sink), total_(total), minInterval_(minInterval), start_(std::chrono::steady_clock::now()) {
  if (sink_) {
    std::lock_guard lock(mu_);
    drawLocked(start_);
  }
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::advance() {
  if (!sink_)
    return;
  std::lock_guard lock(mu_);
  if (finished_)
    return;
  ++done_;
  const auto now = std::chrono::steady_clock::now();
  if (done_ >= total_ || now - lastDraw_ >= minInterval_)
    drawLocked(now);
}

void ProgressLine::finish() {
  if (!sink_)
    return;
  std::lock_guard lock(mu_);
  if (finished_)
    return;
  finished_ = true;
  *sink_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
}

void ProgressLine::drawLocked(std::chrono::steady_clock::time_point now) {
  lastDraw_ = now;
  std::string text = formatProgress(done_, total_, std::chrono::duration<double>(now - start_).count());
  if (text.size() < width_)
    text.append(width_ - text.size(), ' ');
  width_ = text.size();
  *sink_ << '\r' << text << std::flush;
}

} // namespace kbaudit::cli
