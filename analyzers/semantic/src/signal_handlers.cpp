#include "kbaudit/semantic/signal_handlers.h"

#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/static_value.h"

#include <map>

namespace kbaudit::semantic {

using namespace pytext;
using scope::inFunction;

namespace {

// Signals a harness bounds or aborts a run with (time limits, watchdogs, crashes), by number
// on Linux for code that writes them as integers.
const std::map<std::string_view, int> kLimitSignals = {
    {"SIGALRM", 14}, {"SIGVTALRM", 26}, {"SIGPROF", 27}, {"SIGTERM", 15}, {"SIGINT", 2}, {"SIGXCPU", 24},
    {"SIGXFSZ", 25}, {"SIGSEGV", 11},   {"SIGBUS", 7},   {"SIGABRT", 6},  {"SIGHUP", 1}, {"SIGQUIT", 3}};

bool isExitLike(std::string_view r) {
  return r == "sys.exit" || r == "os._exit" || r == "os.abort" || r == "os.kill" || r == "signal.raise_signal" ||
         r == "exit" || r == "quit";
}

} // namespace

std::string harnessSignal(const py::PythonFacts &py, const py::Expr &e) {
  const py::Expr &v = bindingOf(py, e);
  if (v.number)
    for (const auto &[name, number] : kLimitSignals)
      if (*v.number == number)
        return std::string(name);
  const std::string_view last = lastSegment(v.resolved);
  return kLimitSignals.count(last) ? std::string(last) : std::string();
}

std::vector<std::string> harnessSignalsIn(const py::PythonFacts &py, const py::Expr &e) {
  std::vector<std::string> out;
  const py::Expr &v = bindingOf(py, e);
  for (const py::Expr &el : v.elements)
    if (std::string s = harnessSignal(py, el); !s.empty())
      out.push_back(s);
  return out;
}

bool restoresHandler(const py::PythonFacts &py, const py::Expr &v, const std::string &function) {
  return readsBackSetting(py, v, function, "", "signal.getsignal") ||
         readsBackSetting(py, v, function, "", "signal.signal");
}

std::optional<bool> handlerSwallows(const py::PythonFacts &py, const scope::GradedScope &graded, const py::Expr &v,
                                    const py::Call &install) {
  const std::string &from = install.function;
  if (v.kind == py::ExprKind::Lambda) {
    // A call inside the lambda's lines other than the installing one, whose callee the lambda
    // reads (or that is no plain name, `getattr(os, "_exit")(0)`), is the lambda's own.
    for (const py::Call &c : py.calls)
      if (&c != &install && c.function == from && v.lines.begin <= c.lines.begin && c.lines.end <= v.lines.end &&
          (reads(v, c.callee) || c.callee.find_first_of("([") != std::string::npos))
        return false; // the lambda calls something (an exit, the previous handler): not a plain swallow
    return true;
  }
  const std::string fn = v.resolved.empty() ? std::string() : graded.calleeFunction(from, v.resolved);
  if (fn.empty())
    return std::nullopt;
  for (const py::Raise &r : py.raises)
    if (inFunction(r.function, fn))
      return false;
  bool callsOwnCode = false;
  for (const py::Call &c : py.calls) {
    if (!inFunction(c.function, fn))
      continue;
    if (isExitLike(c.resolved))
      return false;
    callsOwnCode = callsOwnCode || !graded.calleeFunction(c.function, c).empty();
  }
  // A helper of the file's own may raise on the handler's behalf.
  return callsOwnCode ? std::nullopt : std::optional<bool>(true);
}

} // namespace kbaudit::semantic
