// RUB012 result-channel-forgery: the solution writes the channel the grader reads its verdict
// from (an inherited descriptor, a results file, stdout, the exit status) instead of letting
// the grader compute it.

#include "all_checks.h"
#include "rub_process_site.h"
#include "semantic_names.h"

#include "kbaudit/semantic/channel_write.h"
#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/process_values.h"

#include <algorithm>
#include <vector>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using semantic::Descriptor;
using semantic::DescriptorSource;

bool isExit(std::string_view r) {
  return r == "os._exit" || r == "sys.exit" || r == "exit" || r == "quit" || r == "builtins.exit" ||
         r == "builtins.quit" || r == "SystemExit" || r == "builtins.SystemExit";
}

bool isFork(std::string_view r) { return r == "os.fork" || r == "os.forkpty" || r == "pty.fork"; }

/// A descriptor the harness handed down: a number from the environment, or a literal past
/// stderr in a file that opens no descriptors of its own (which could carry that number).
bool inherited(const Descriptor &d, bool opensDescriptors) {
  return d.source == DescriptorSource::Environment ||
         (d.source == DescriptorSource::Literal && d.number >= 3 && !opensDescriptors);
}

bool standardStream(const Descriptor &d) {
  return d.source == DescriptorSource::Stdout || d.source == DescriptorSource::Stderr;
}

std::string describe(const Descriptor &d, const py::Expr &e) {
  switch (d.source) {
  case DescriptorSource::Environment:
    return "descriptor `" + semantic::quote(e) + "`, a number the environment hands down";
  case DescriptorSource::Stdout:
    return "the process's stdout descriptor";
  case DescriptorSource::Stderr:
    return "the process's stderr descriptor";
  default:
    return "descriptor " + std::to_string(d.number);
  }
}

/// A literal descriptor number reads as one the process inherited (the solution opens none).
std::string inheritedNote(const Descriptor &d) {
  return d.source == DescriptorSource::Literal ? ", which the solution never opened" : "";
}

class Rub012 final : public Check {
public:
  std::string_view id() const override { return "RUB012"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const py::PythonFacts &py = ctx.facts.python;
    const rub::ProcessSites sites(ctx.facts);
    const bool opensDescriptors = std::any_of(py.calls.begin(), py.calls.end(),
                                              [](const py::Call &c) { return semantic::opensDescriptor(c.resolved); });
    std::vector<const py::Call *> decisiveIn; // sites a fork in the same function answers through
    for (const py::Call &c : py.calls) {
      if (c.resolved == "os.write" || c.resolved == "os.pwrite" || c.resolved == "os.writev")
        rawWrite(py, sites, c, opensDescriptors, sink, decisiveIn);
      else if (c.resolved == "os.fdopen" || c.resolved == "open" || c.resolved == "io.open" ||
               c.resolved == "builtins.open" || c.method == "write_text" || c.method == "write_bytes")
        fileOpen(py, sites, c, opensDescriptors, sink, decisiveIn);
      else if (c.resolved == "os.dup2")
        dup2(py, sites, c, opensDescriptors, sink);
      else if (isExit(c.resolved))
        exitCall(py, sites, c, sink, decisiveIn);
    }
    for (const py::Assignment &a : py.assignments)
      streamSwap(py, sites, a, sink);
    for (const py::Call &c : py.calls)
      if (isFork(c.resolved) && std::any_of(decisiveIn.begin(), decisiveIn.end(), [&](const py::Call *d) {
            return d->function == c.function && d->lines.begin > c.lines.begin;
          }))
        sites.report(sink, c.function, c.lines,
                     "`" + c.callee + "()` forks a process that answers to the harness for the other one", "", true);
  }

private:
  static void remember(const rub::ProcessSites &sites, const py::Call &c, std::vector<const py::Call *> &decisiveIn) {
    if (sites.scopeOf(c.function, c.lines) == rub::SiteScope::Graded)
      decisiveIn.push_back(&c);
  }

  static void rawWrite(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                       bool opensDescriptors, FindingSink &sink, std::vector<const py::Call *> &decisiveIn) {
    const py::Argument *fd = c.positionalArg(0);
    if (!fd)
      return;
    const Descriptor d = semantic::descriptorOf(py, fd->value, c.function);
    const py::Argument *data = c.positionalArg(1);
    if (inherited(d, opensDescriptors)) {
      sites.report(sink, c.function, c.lines, "`" + c.callee + "` writes to " + describe(d, fd->value) + inheritedNote(d), "", true);
      remember(sites, c, decisiveIn);
    } else if (d.source == DescriptorSource::Literal && d.number >= 3) {
      sites.report(sink, c.function, c.lines, "`" + c.callee + "` writes to " + describe(d, fd->value),
                   "the file also opens descriptors of its own, which may carry that number", false);
    } else if (standardStream(d) && data && semantic::readsAsVerdict(py, data->value, c.function)) {
      sites.report(sink, c.function, c.lines,
                   "`" + c.callee + "` writes a verdict straight onto " + describe(d, fd->value), "", true);
      remember(sites, c, decisiveIn);
    }
  }

  static void fileOpen(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                       bool opensDescriptors, FindingSink &sink, std::vector<const py::Call *> &decisiveIn) {
    const semantic::Opened o = semantic::openedTarget(py, c);
    if (!o.writes)
      return;
    const std::vector<std::string> written = semantic::textWrittenThrough(py, c);
    const bool verdict = semantic::anyVerdict(written);
    if (o.descriptor) {
      const Descriptor &d = *o.descriptor;
      if (inherited(d, opensDescriptors)) {
        sites.report(sink, c.function, c.lines, "`" + c.callee + "` opens for writing " + describe(d, o.what) + inheritedNote(d),
                     "", true);
        remember(sites, c, decisiveIn);
      } else if (standardStream(d) && verdict) {
        sites.report(sink, c.function, c.lines,
                     "`" + c.callee + "` opens " + describe(d, o.what) + " and writes a verdict there", "", true);
        remember(sites, c, decisiveIn);
      }
      return;
    }
    if (!o.path)
      return;
    const semantic::ResultFile f = semantic::judgeResultFile(*o.path, verdict);
    if (!f.report)
      return;
    sites.report(sink, c.function, c.lines, "`" + c.callee + "` writes " + f.what, f.note, f.decisive);
    if (f.decisive)
      remember(sites, c, decisiveIn);
  }

  static void dup2(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c,
                   bool opensDescriptors, FindingSink &sink) {
    const py::Argument *dst = c.positionalArg(1);
    if (!dst)
      return;
    const Descriptor d = semantic::descriptorOf(py, dst->value, c.function);
    if (inherited(d, opensDescriptors)) {
      sites.report(sink, c.function, c.lines, "`os.dup2` replaces " + describe(d, dst->value) + inheritedNote(d), "",
                   true);
      return;
    }
    if (!standardStream(d))
      return;
    // Putting a saved copy back (`os.dup2(saved, 1)` after `saved = os.dup(1)`) restores the
    // stream; a redirection in a file that also restores it somewhere is listed for review.
    if (savedCopy(py, c))
      return;
    bool restored = false;
    for (const py::Call &o : py.calls)
      if (o.resolved == "os.dup2" && &o != &c && o.positionalArg(1) && savedCopy(py, o) &&
          semantic::descriptorOf(py, o.positionalArg(1)->value, o.function).source == d.source)
        restored = true;
    sites.report(sink, c.function, c.lines, "`os.dup2` redirects " + describe(d, dst->value),
                 restored ? "a saved copy of the stream is put back elsewhere in the file, as around a silenced build"
                          : "never restored: what the harness prints afterwards goes where the solution chose",
                 !restored);
  }

  /// `os.dup2(src, ...)` whose source is a copy saved with os.dup.
  static bool savedCopy(const py::PythonFacts &py, const py::Call &c) {
    const py::Argument *src = c.positionalArg(0);
    const std::string_view name = src ? semantic::dottedName(src->value) : std::string_view();
    if (name.empty())
      return false;
    const std::vector<const py::Assignment *> defs = semantic::bindingsOf(py, name, c.function);
    return !defs.empty() && std::all_of(defs.begin(), defs.end(), [](const py::Assignment *a) {
      return a->value.kind == py::ExprKind::Call && a->value.resolved == "os.dup";
    });
  }

  static void exitCall(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Call &c, FindingSink &sink,
                       std::vector<const py::Call *> &decisiveIn) {
    const py::Argument *status = c.positionalArg(0);
    if (!status)
      for (std::string_view kw : {"status", "code", "n"})
        if ((status = c.keywordArg(kw)))
          break;
    std::optional<bool> success;
    if (!status) {
      success = c.resolved != "os._exit"; // sys.exit() and SystemExit() mean status 0
    } else {
      const py::Expr &v = semantic::bindingOf(py, status->value);
      if (v.kind == py::ExprKind::None || (v.kind == py::ExprKind::Bool && semantic::staticTruth(py, v) == false))
        success = true;
      else if (v.number)
        success = *v.number == 0.0;
      else if (v.kind == py::ExprKind::String || v.kind == py::ExprKind::Bool)
        success = false; // a message or True: status 1
    }
    if (success == false)
      return; // a failing exit is reported by the harness as a failure
    if (!success) {
      sites.report(sink, c.function, c.lines, "`" + c.callee + "` ends the process with status `" + semantic::quote(status->value) + "`",
                   "the status is not known statically", false);
      return;
    }
    sites.report(sink, c.function, c.lines,
                 "`" + c.callee + "` ends the process with a success status before the harness reports", "", true);
    remember(sites, c, decisiveIn);
  }

  static void streamSwap(const py::PythonFacts &py, const rub::ProcessSites &sites, const py::Assignment &a,
                         FindingSink &sink) {
    if (a.kind != py::Assignment::TargetKind::ModuleAttribute)
      return;
    std::string stream;
    for (std::string_view s : {"sys.stdout", "sys.stderr"})
      if (a.resolved == s || a.resolved == std::string(s) + ".write")
        stream = s;
    if (stream.empty() || restores(py, a, stream))
      return;
    bool restored = false;
    for (const py::Assignment &b : py.assignments)
      if (b.resolved == a.resolved && &b != &a && restores(py, b, stream))
        restored = true;
    sites.report(sink, a.function, a.lines, "`" + a.target + "` is replaced by `" + semantic::quote(a.value) + "`",
                 restored ? "the original is put back in the file, as around a noisy step"
                          : "never put back: what the harness prints afterwards passes through the replacement",
                 !restored);
  }

  static bool restores(const py::PythonFacts &py, const py::Assignment &a, const std::string &stream) {
    const std::string original = "sys.__" + stream.substr(4) + "__";
    return a.value.resolved == original ||
           semantic::readsBackSetting(py, a.value, a.function, a.resolved == stream ? stream : stream + ".write");
  }
};

} // namespace

std::unique_ptr<Check> makeRub012() { return std::make_unique<Rub012>(); }

} // namespace kbaudit::rules
