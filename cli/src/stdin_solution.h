#pragma once

// `kbaudit check -`: the solution comes on stdin. The audit reads files, so the bytes are
// written to a private directory (mkdtemp, mode 0700) as solution.py, audited there, and the
// directory is removed; the temporary path is then scrubbed from the annotation, so the output
// names the input as the user did ("-" or --stdin-filename).

#include "kbaudit/annotations/annotation.h"

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

namespace kbaudit::cli {

class StdinSolution {
public:
  /// Reads `in` to its end into a fresh temporary solution.py; nullopt with `error` set when
  /// the directory cannot be made, the file cannot be written, or stdin holds more than the
  /// 16 MiB kbaudit reads of any solution.
  static std::optional<StdinSolution> read(std::istream &in, std::string &error);
  ~StdinSolution();
  StdinSolution(StdinSolution &&other) noexcept;
  StdinSolution &operator=(StdinSolution &&other) noexcept;
  StdinSolution(const StdinSolution &) = delete;

  const std::filesystem::path &solution() const { return solution_; }
  const std::filesystem::path &dir() const { return dir_; }

private:
  StdinSolution() = default;
  std::filesystem::path dir_, solution_;
};

/// Replaces every occurrence of `from` in the annotation's messages, summary, diagnostics and
/// runtime notes with `to` (never in quotes or evidence of the source itself).
void replacePath(annotations::Annotation &a, const std::string &from, const std::string &to);

} // namespace kbaudit::cli
