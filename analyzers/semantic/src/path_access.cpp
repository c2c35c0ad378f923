#include "kbaudit/semantic/path_access.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {

using namespace pytext;
using scope::contains;
using scope::inFunction;

namespace {
bool isOpenCall(const py::Call &c) { return c.resolved == "open" || c.resolved == "io.open" || c.method == "open"; }
} // namespace

PathAccess pathAccessOf(const py::Call &c) {
  const std::string_view r = c.resolved, m = c.method;
  if (isOpenCall(c)) {
    const py::Argument *mode = c.positionalArg(c.resolved == "open" || c.resolved == "io.open" ? 1 : 0);
    if (!mode)
      mode = c.keywordArg("mode");
    const std::string text = mode && mode->value.string ? mode->value.string->value : "";
    return text.find_first_of("wax+") != std::string::npos ? PathAccess::Modify : PathAccess::Read;
  }
  if (r == "os.system" || startsWith(r, "subprocess.") || r == "os.popen") {
    std::string cmd;
    for (const py::Argument &a : c.args)
      cmd += " " + semantic::commandWords(a.value) + " ";
    for (std::string_view edit :
         {"sed ", " > ", ">>", "rm ", "cp ", "mv ", "tee ", "patch ", "truncate", "perl -pi", "echo "})
      if (cmd.find(edit) != std::string::npos)
        return PathAccess::Modify;
    return PathAccess::Process;
  }
  // `Path.replace(target)` renames; `str.replace(old, new)` (two arguments) edits a string value.
  const bool pathReplace = m == "replace" && c.args.size() == 1;
  if (m == "write_text" || m == "write_bytes" || m == "unlink" || m == "rename" || pathReplace || m == "symlink_to" ||
      m == "touch" || startsWith(r, "shutil.") || r == "os.remove" || r == "os.unlink" || r == "os.rename" ||
      r == "os.replace" || r == "os.symlink" || r == "os.chmod" || r == "os.truncate")
    return PathAccess::Modify;
  if (r == "exec" || r == "compile" || r == "eval" || startsWith(r, "runpy.") || r == "__import__" ||
      r == "importlib.import_module" || startsWith(r, "importlib.util.") || startsWith(r, "importlib.machinery.") ||
      m == "exec_module" || m == "load_module")
    return PathAccess::Execute;
  if (m == "read_text" || m == "read_bytes" || m == "read" || m == "readlines" || m == "exists" || m == "is_file" ||
      m == "iterdir" || m == "glob" || m == "rglob" || startsWith(r, "glob.") || r == "os.listdir" ||
      r == "os.scandir" || r == "os.walk" || r == "os.path.exists" || r == "os.path.isfile" ||
      r == "os.path.getmtime" || (m == "load" && r.find("cpp_extension") == std::string_view::npos) ||
      m == "safe_load" || m == "loadtxt" || r == "linecache.getlines" || r == "filecmp.cmp")
    return PathAccess::Read;
  return PathAccess::None;
}

std::vector<const py::Call *> callsReceiving(const py::PythonFacts &facts, const py::StringConstant &s) {
  std::vector<const py::Call *> out;
  for (const py::Call &c : facts.calls)
    if (c.function == s.function && contains(c.lines, s.lines))
      out.push_back(&c);
  std::vector<std::pair<std::string, std::string>> names; // (function, name)
  for (const py::Assignment &a : facts.assignments)
    if (a.function == s.function && contains(a.lines, s.lines) && a.kind != py::Assignment::TargetKind::Subscript)
      names.emplace_back(a.function, a.target);
  for (size_t i = 0; i < names.size() && i < 16; ++i) {
    const std::string fn = names[i].first, name = names[i].second;
    const auto visible = [&](std::string_view f) { return fn.empty() || inFunction(f, fn); };
    for (const py::Call &c : facts.calls) {
      if (!visible(c.function))
        continue;
      bool mentions = mentionsName(c.receiver, name) || mentionsName(c.callee, name);
      for (const py::Argument &a : c.args)
        mentions |= semantic::reads(a.value, name);
      if (mentions && std::find(out.begin(), out.end(), &c) == out.end())
        out.push_back(&c);
    }
    for (const py::Assignment &a : facts.assignments)
      if (visible(a.function) && a.kind == py::Assignment::TargetKind::Name && semantic::reads(a.value, name) &&
          std::find_if(names.begin(), names.end(), [&](const auto &p) { return p.second == a.target; }) == names.end())
        names.emplace_back(a.function, a.target);
  }
  return out;
}

} // namespace kbaudit::semantic
