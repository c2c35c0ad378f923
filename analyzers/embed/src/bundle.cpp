#include "kbaudit/embed/bundle.h"

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace kbaudit::embed {

namespace {

struct Line {
  llvm::StringRef text; ///< without its terminator
  std::size_t begin = 0;
  std::size_t next = 0; ///< offset of the following line
};

std::vector<Line> linesOf(llvm::StringRef s) {
  std::vector<Line> lines;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t nl = s.find('\n', pos);
    const std::size_t end = nl == llvm::StringRef::npos ? s.size() : nl;
    lines.push_back(Line{s.slice(pos, end).rtrim('\r'), pos, nl == llvm::StringRef::npos ? end : nl + 1});
    pos = lines.back().next;
  }
  return lines;
}

bool isRule(llvm::StringRef line) {
  llvm::StringRef rest = line.rtrim();
  return rest.consume_front("# ==") && rest.find_first_not_of('=') == llvm::StringRef::npos;
}

/// "kernels.cu" from `# ===== sidecar: kernels.cu (63037 bytes, loaded by solution.py) =====`.
std::optional<std::string> bannerName(llvm::StringRef line) {
  llvm::StringRef rest = line.rtrim();
  if (!rest.consume_front("# ===== sidecar: ") || !rest.consume_back(" =====") ||
      !rest.contains(" bytes, loaded by "))
    return std::nullopt;
  const llvm::StringRef name = rest.split(" (").first.trim();
  if (name.empty())
    return std::nullopt;
  return name.str();
}

} // namespace

Bundle splitBundle(std::string_view solutionText) {
  const llvm::StringRef text(solutionText.data(), solutionText.size());
  const std::vector<Line> lines = linesOf(text);
  Bundle bundle;
  bundle.pythonBytes = text.size();
  // Index of the file whose text runs to the next banner, and where its text starts.
  std::optional<std::size_t> open;
  std::size_t openBegin = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto name = bannerName(lines[i].text);
    if (!name)
      continue;
    // The banner sits between two rule lines; the one above belongs to it, not to the
    // text before.
    const std::size_t start = i > 0 && isRule(lines[i - 1].text) ? lines[i - 1].begin : lines[i].begin;
    if (open)
      bundle.files[*open].text = text.slice(openBegin, start).str();
    else
      bundle.pythonBytes = start;
    std::size_t body = i + 1;
    if (body < lines.size() && isRule(lines[body].text))
      ++body;
    if (body < lines.size() && lines[body].text.trim().empty())
      ++body; // the separating blank line
    bundle.files.push_back(BundledFile{*name, {}, static_cast<unsigned>(body + 1)});
    open = bundle.files.size() - 1;
    openBegin = body < lines.size() ? lines[body].begin : text.size();
    i = body - 1;
  }
  if (open)
    bundle.files[*open].text = text.substr(openBegin).str();
  // A blank line separates a file from the next banner; it is not part of the file.
  for (std::size_t f = 0; f + 1 < bundle.files.size(); ++f) {
    std::string &t = bundle.files[f].text;
    if (llvm::StringRef(t).endswith("\n\n"))
      t.pop_back();
  }
  return bundle;
}

} // namespace kbaudit::embed
