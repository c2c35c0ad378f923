// `check --output-format github`: GitHub Actions workflow commands, which the Actions runner
// turns into annotations on the pull request's diff.
// https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions

#include "kbaudit/annotations/formats.h"
#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/terminal_text.h"

namespace kbaudit::annotations {

namespace {

/// The runner splits a command at the first "::" and its properties at ',' and '=' after
/// un-escaping, so these are escaped the way @actions/core's escapeData/escapeProperty do.
std::string githubEscape(const std::string &s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '%': out += "%25"; break;
    case '\r': out += "%0D"; break;
    case '\n': out += "%0A"; break;
    case ':': out += property ? "%3A" : ":"; break;
    case ',': out += property ? "%2C" : ","; break;
    default: out += c;
    }
  }
  // The Actions log renders ANSI sequences: what is left of the controls is shown, not obeyed.
  return terminalSafe(out);
}

std::string command(const char *kind, const std::string &file, const LineRange &lines, const std::string &title,
                    const std::string &message) {
  std::string out = std::string("::") + kind + " file=" + githubProperty(file);
  if (lines.valid())
    out += ",line=" + std::to_string(lines.begin) + ",endLine=" + std::to_string(lines.end);
  return out + ",title=" + githubProperty(title) + "::" + githubMessage(message) + "\n";
}

} // namespace

std::string githubMessage(const std::string &s) { return githubEscape(s, false); }

std::string githubProperty(const std::string &s) { return githubEscape(s, true); }

std::string toGithub(const Annotation &a, const std::string &artifactPath) {
  std::string out;
  for (const rules::Finding &f : a.kbaudit.findings) {
    if (f.accepted)
      continue;
    std::string message = f.name + ": " + f.message;
    if (!f.evidence.empty())
      message += " (" + f.evidence + ")";
    out += command(decisive(f) ? "error" : "notice", artifactPath, f.lines, f.rule, message);
  }
  for (const Diagnostic &d : a.kbaudit.diagnostics)
    if (d.severity == Diagnostic::Severity::Error)
      out += command("error", artifactPath, d.lines, "kbaudit " + d.code, d.message);
  return out;
}

} // namespace kbaudit::annotations
