// nvcc's front ends report errors as
//   unit.cu(12): error: identifier "foo" is undefined           (cudafe++/EDG)
//   unit.cu:3:10: fatal error: cutlass/cutlass.h: No such file   (the host preprocessor)
//   unit.cu(3): catastrophic error: cannot open source file "x.h"
//   ptxas fatal   : ...
// followed by the offending source line (the submission's text, which is not kept).

#include "compiler_log.h"

#include <cctype>
#include <sstream>

namespace kbaudit::compiled {

namespace {

std::string clip(std::string s, std::size_t n = 240) {
  for (char &c : s)
    if (static_cast<unsigned char>(c) < 0x20)
      c = ' ';
  if (s.size() > n) {
    s.resize(n);
    s += "...";
  }
  return s;
}

/// The line number right after `file` followed by '(' or ':' at the start of `line`; 0 if none.
unsigned lineIn(const std::string &line, const std::string &file) {
  if (!line.starts_with(file) || line.size() <= file.size())
    return 0;
  const char sep = line[file.size()];
  if (sep != '(' && sep != ':')
    return 0;
  unsigned n = 0;
  for (size_t i = file.size() + 1; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i)
    n = n * 10 + static_cast<unsigned>(line[i] - '0');
  return n;
}

} // namespace

std::string missingHeader(const std::string &log) {
  for (const char *marker : {"cannot open source file \"", "fatal error: "}) {
    size_t at = log.find(marker);
    while (at != std::string::npos) {
      const size_t start = at + std::char_traits<char>::length(marker);
      const size_t end = log.find_first_of(marker[0] == 'c' ? "\"\n" : ":\n", start);
      const std::string name = log.substr(start, end == std::string::npos ? std::string::npos : end - start);
      const size_t eol = log.find('\n', start);
      const std::string rest = log.substr(start, eol == std::string::npos ? std::string::npos : eol - start);
      if (marker[0] == 'c' || rest.find("No such file") != std::string::npos)
        return clip(name, 160);
      at = log.find(marker, start);
    }
  }
  return {};
}

std::vector<CompiledUnit::Error> compilerErrors(const std::string &log, const std::string &fileName,
                                                const embed::Unit &unit, unsigned preludeLines,
                                                const std::vector<embed::EmbeddedSource> &sources) {
  std::vector<CompiledUnit::Error> out;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line) && out.size() < 8;) {
    const size_t err = line.find("error");
    if (err == std::string::npos || line.starts_with(" ") || line.find("error detected") != std::string::npos ||
        line.find("errors detected") != std::string::npos)
      continue;
    CompiledUnit::Error e;
    const size_t colon = line.find(": ", err);
    e.message = clip(colon == std::string::npos ? line : line.substr(colon + 2));
    if (const unsigned n = lineIn(line, fileName); n > preludeLines) {
      const embed::LineOrigin origin = unit.origin(n - preludeLines);
      if (origin.source >= 0 && static_cast<size_t>(origin.source) < sources.size()) {
        e.source = origin.source;
        e.line = sources[static_cast<size_t>(origin.source)].mapLine(origin.line);
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

} // namespace kbaudit::compiled
