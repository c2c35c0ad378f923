#pragma once

// Provenance of values the interpreter hands out (RUB010 asks it): values the solution obtains
// from the interpreter instead of from its arguments (the garbage collector's object lists, its
// callers' frames and their namespaces), through the names they are bound to, to where they end
// up: mutated in place, returned by the graded entry point or written into its output.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_scope.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::semantic::interp {

/// How strongly a value is tied to what the interpreter handed out.
enum class Reach {
  None,
  Frame,  ///< a caller's frame (or a list of frames): its namespaces are one attribute away
  Data,   ///< computed from objects found through the interpreter (a new object)
  Object, ///< the found object itself, a namespace, or a container of found objects
};

/// One place where the solution reaches objects it was not given: a gc scan or a read of a
/// caller's frame namespace.
struct Origin {
  std::string how; ///< "gc.get_objects()", "sys._getframe(...).f_locals"
  std::string function;
  LineRange lines;
  bool used = false; ///< something other than logging or measuring consumes what it found
  std::string harm;  ///< what proves harm, empty when nothing does
  LineRange harmLines;
  std::string harmFunction;
};

/// A store into a caller frame's namespace (`f_locals`/`f_globals` written, or
/// `PyFrame_LocalsToFast`), the strongest form: the caller's own variables change.
struct NamespaceWrite {
  std::string how;    ///< quoted for the message: "`frame.f_locals` of a calling frame"
  std::string effect; ///< what the store does
  std::string function;
  LineRange lines;
};

class InterpreterReach {
public:
  explicit InterpreterReach(const Facts &facts);

  const std::vector<Origin> &origins() const { return origins_; }
  const std::vector<NamespaceWrite> &namespaceWrites() const { return writes_; }

private:
  struct Taint {
    Reach reach = Reach::None;
    int origin = -1; ///< index into origins_, -1 for frames
    LineRange at;    ///< where the name took this value
  };

  const Facts &facts_;
  const py::PythonFacts &py_;
  scope::GradedScope scope_;
  std::vector<Origin> origins_;
  std::vector<NamespaceWrite> writes_;
  std::map<std::string, Taint> names_;                        ///< "fn|name", "|global", "Class|self.attr"
  std::map<std::string, Taint> returns_;                      ///< helper functions returning found values or frames
  std::map<const py::FrameAttribute *, int> namespaceOrigin_; ///< caller namespace reads
  std::map<const py::Call *, int> scanOrigin_;                ///< gc scans

  void bindFrames();
  void findOrigins();
  void bindValues();
  void findHarm();
  void findUses();

  bool callerFrameCall(const py::Call &c) const;
  bool callerChain(const py::FrameAttribute &fa) const;
  Taint lookup(const std::string &fn, const std::string &name) const;
  /// The strongest taint among the followed names seen from `fn` that `readsName` says are read.
  template <typename Reads> Taint strongest(const std::string &fn, Reads readsName) const;
  /// The strongest followed name `e` reads, seen from `fn`.
  Taint mentioned(const std::string &fn, const py::Expr &e) const;
  /// The strongest followed name among a branch test's dotted names (or one they are attributes of).
  Taint mentionedAmong(const std::string &fn, const std::vector<std::string> &names) const;
  Taint frameReach(const std::string &fn, const py::Expr &e) const;
  Taint valueReach(const std::string &fn, const py::Expr &e) const;
  bool bind(const std::string &key, Taint t);
  std::string keyFor(const std::string &fn, const std::string &name) const;
  void harm(const Taint &t, std::string what, const std::string &fn, LineRange lines);
  bool onlyLogs(const py::Branch &b) const;
};

} // namespace kbaudit::semantic::interp
