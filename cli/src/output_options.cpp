#include "output_options.h"

#include "args.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/sarif.h"
#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/annotations/yaml_writer.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kbaudit::cli {

namespace fs = std::filesystem;
using annotations::terminalSafe;

namespace {

constexpr std::uintmax_t kMaxSourceBytes = 8u << 20;

std::optional<std::string> readText(const fs::path &file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec) || fs::file_size(file, ec) > kMaxSourceBytes || ec)
    return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof())
    return std::nullopt;
  return text.str();
}

bool noColorSet() {
  const char *v = std::getenv("NO_COLOR");
  return v && *v;
}

} // namespace

std::optional<OutputOptions> outputOptionsFrom(const Args &args, const std::string &command, const std::string &defaultFormat,
                                               bool stdoutIsTerminal, std::ostream &err) {
  // --format is CLI11's alias of --output-format: one option, so its values are all here.
  const std::vector<std::string> formats = args.values("output-format");
  for (const std::string &f : formats)
    if (f != formats.front()) {
      err << "kbaudit " << command << ": --output-format " << terminalSafe(formats.front()) << " and "
          << terminalSafe(f) << " disagree\n";
      return std::nullopt;
    }
  OutputOptions o;
  o.format = formats.empty() ? defaultFormat : formats.front();
  if (o.format == "text")
    o.format = "full";
  if (auto file = args.value("output-file")) {
    if (file->empty()) {
      err << "kbaudit " << command << ": --output-file needs a path\n";
      return std::nullopt;
    }
    o.file = fs::path(*file);
  }
  const std::string color = args.value("color").value_or("auto");
  o.style.color = color == "always" || (color == "auto" && stdoutIsTerminal && !o.file && !noColorSet());
  o.newOnly = args.has("new-only");
  return o;
}

std::string artifactPath(const fs::path &solution) {
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(solution, ec), fs::current_path(ec), ec);
  if (ec || rel.empty() || *rel.begin() == "..")
    return solution.generic_string();
  return rel.generic_string();
}

annotations::CheckedFile checkedFile(annotations::Annotation a, const RunTarget &target, const std::string &path) {
  annotations::CheckedFile file{std::move(a), path, {}};
  if (auto text = readText(target.solution))
    file.sources["solution.py"] = std::move(*text);
  for (const rules::Finding &f : file.annotation.kbaudit.findings) {
    if (f.file.empty() || file.sources.count(f.file))
      continue;
    // Only files inside the run directory: a finding's file name comes from the analysis of it.
    const fs::path rel = fs::path(f.file).lexically_normal();
    if (rel.is_absolute() || rel.empty() || *rel.begin() == "..")
      continue;
    if (auto text = readText(target.dir / rel))
      file.sources[f.file] = std::move(*text);
  }
  return file;
}

namespace {

/// --new-only: the files with the findings a baseline accepted left out.
std::vector<annotations::CheckedFile> withoutAccepted(std::vector<annotations::CheckedFile> files) {
  for (annotations::CheckedFile &file : files)
    std::erase_if(file.annotation.kbaudit.findings, [](const rules::Finding &f) { return f.accepted; });
  return files;
}

} // namespace

std::string renderFiles(const std::vector<annotations::CheckedFile> &files, const OutputOptions &options,
                        const std::string &docBaseUrl) {
  if (options.newOnly) {
    OutputOptions plain = options;
    plain.newOnly = false;
    return renderFiles(withoutAccepted(files), plain, docBaseUrl);
  }
  const std::string &f = options.format;
  if (f == "full")
    return annotations::toFull(files, options.style);
  if (f == "concise")
    return annotations::toConcise(files, options.style);
  if (f == "grouped")
    return annotations::toGrouped(files, options.style);
  if (f == "junit")
    return annotations::toJunit(files);
  if (f == "sarif")
    return annotations::toSarif(files, docBaseUrl);
  std::string out;
  if (f == "github") {
    for (const annotations::CheckedFile &file : files)
      out += annotations::toGithub(file.annotation, file.path);
    return out;
  }
  if (f == "json") {
    if (options.singleJsonObject && files.size() == 1)
      return annotations::toJson(files.front().annotation);
    std::vector<annotations::Annotation> all;
    for (const annotations::CheckedFile &file : files)
      all.push_back(file.annotation);
    return annotations::toJsonList(all);
  }
  if (f == "yaml") { // one document per file: a YAML stream
    for (const annotations::CheckedFile &file : files)
      out += (files.size() > 1 ? "---\n" : "") + annotations::toYaml(file.annotation);
    return out;
  }
  return out;
}

bool emitOutput(const std::string &text, const OutputOptions &options, std::ostream &out, std::ostream &err,
                const std::string &command) {
  if (!options.file) {
    out << text;
    return true;
  }
  std::string error;
  if (!source::writeFileAtomically(*options.file, text, error)) {
    err << "kbaudit " << command << ": cannot write " << terminalSafe(options.file->string()) << ": "
        << terminalSafe(error) << "\n";
    return false;
  }
  return true;
}

} // namespace kbaudit::cli
