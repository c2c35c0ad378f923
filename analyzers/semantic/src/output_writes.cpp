#include "kbaudit/semantic/output_writes.h"

#include "entry_text.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::semantic {

using namespace entrytext;
using pytext::startsWith;

namespace {

constexpr unsigned kMaxHelperDepth = 4;

bool isContainerLiteral(const py::Expr &e) {
  return e.kind == py::ExprKind::List || e.kind == py::ExprKind::Tuple || e.kind == py::ExprKind::Dict ||
         e.kind == py::ExprKind::Set;
}

/// Callees that only read a tensor handed to them: builtins, and torch's public functional ops
/// (their writing forms take `out=` or end in `_`); torch.ops holds registered custom ops,
/// torch.distributed collectives write their argument, and private `torch._*` entry points
/// (`torch._C` bindings) may write anything.
bool onlyReads(const py::Call &c) {
  static constexpr std::array<std::string_view, 20> kBuiltins = {
      "len",  "print", "isinstance", "type", "id",  "str",   "repr", "range", "enumerate", "zip",
      "list", "tuple", "min",        "max",  "abs", "float", "int",  "bool",  "hasattr",   "getattr"};
  if (c.receiver.empty() && std::find(kBuiltins.begin(), kBuiltins.end(), c.callee) != kBuiltins.end())
    return true;
  const std::string_view r = c.resolved;
  if (startsWith(r, "torch.") && !startsWith(r, "torch.ops.") && !startsWith(r, "torch.distributed") &&
      !startsWith(r, "torch.library") && !startsWith(r, "torch._") && !isInPlaceMethod(c.method))
    return true;
  return startsWith(r, "triton.") || startsWith(r, "math.");
}

bool isExtensionCall(const Facts &facts, const py::Call &c) {
  if (startsWith(c.resolved, "torch.ops."))
    return true;
  return std::any_of(facts.embedded.calls.begin(), facts.embedded.calls.end(), [&](const embed::ExtensionCall &e) {
    return e.function == c.function && scope::overlaps(e.lines, c.lines) && c.method == e.exported;
  });
}

/// `k(grid, block, args)` where `k` is bound to a runtime-compiled kernel (`cupy.RawKernel`,
/// `RawModule.get_function`, a jiterator function): a launch of authored device code.
bool isKernelObjectCall(const py::PythonFacts &py, const py::Call &c) {
  static constexpr std::array<std::string_view, 6> kMakers = {"RawKernel",         "get_function",
                                                              "ElementwiseKernel", "ReductionKernel",
                                                              "_create_jit_fn",    "_create_multi_output_jit_fn"};
  if (c.callee.empty() || c.callee.find('(') != std::string::npos)
    return false;
  return std::any_of(py.assignments.begin(), py.assignments.end(), [&](const py::Assignment &a) {
    return a.target == c.callee && a.value.kind == py::ExprKind::Call &&
           std::find(kMakers.begin(), kMakers.end(), pytext::lastSegment(a.value.resolved)) != kMakers.end();
  });
}

/// The file's function a call runs: a method through `self.`, a def nested in the caller, a
/// module-level function.
const py::Function *localCallee(const py::PythonFacts &py, const py::Call &c) {
  if (const py::Function *f = helperCalled(py, c, c.function))
    return f;
  if (!c.receiver.empty() || !c.launchedKernel.empty())
    return nullptr;
  for (std::string scope = c.function; !scope.empty();) {
    if (const py::Function *f = py.findFunction(scope + "." + c.callee))
      return f;
    const auto dot = scope.rfind('.');
    scope = dot == std::string::npos ? std::string{} : scope.substr(0, dot);
  }
  return nullptr;
}

/// The helper's parameter an argument binds; nullopt when a `*args`/`**kwargs` (or an
/// unpacked argument) makes it unknown.
std::optional<std::string> boundParameter(const py::Function &helper, const py::Call &c, const py::Argument &arg,
                                          std::size_t positionalIndex) {
  if (arg.keyword == "*" || arg.keyword == "**")
    return std::nullopt;
  const std::size_t offset = !helper.className.empty() && c.receiver == "self" ? 1 : 0;
  if (!arg.keyword.empty()) {
    if (std::find(helper.params.begin(), helper.params.end(), arg.keyword) != helper.params.end())
      return arg.keyword;
    return std::nullopt;
  }
  for (std::size_t i = 0; i <= offset + positionalIndex && i < helper.params.size(); ++i)
    if (!helper.params[i].empty() && helper.params[i].front() == '*')
      return std::nullopt;
  if (offset + positionalIndex >= helper.params.size())
    return std::nullopt;
  return helper.params[offset + positionalIndex];
}

class WriteScan {
public:
  WriteScan(const Facts &facts, const py::Function &fn, const std::string &root, std::set<std::string> weak,
            unsigned depth, std::set<std::string> visiting)
      : facts_(facts), py_(facts.python), fn_(fn), root_(root), weak_(std::move(weak)), depth_(depth),
        visiting_(std::move(visiting)) {
    visiting_.insert(fn.qualname);
  }

  OutputWrites run() {
    if (fn_.opaqueReads)
      escape(fn_.lines, "possibly written through exec/eval/locals(), which the body uses");
    aliases();
    for (const py::Call *c : callsIn(py_, fn_.qualname))
      call(*c);
    for (const py::Assignment *a : assignmentsIn(py_, fn_.qualname))
      assignment(*a);
    if (written_)
      return *written_;
    if (escaped_)
      return *escaped_;
    return {};
  }

private:
  const Facts &facts_;
  const py::PythonFacts &py_;
  const py::Function &fn_;
  const std::string &root_;
  std::set<std::string> weak_;
  unsigned depth_;
  std::set<std::string> visiting_;
  std::set<std::string> names_;
  /// Each binding of a name in the function: line, and whether it binds the buffer's storage.
  std::map<std::string, std::vector<std::pair<unsigned, bool>>> bindings_;
  std::optional<OutputWrites> written_, escaped_;

  void escape(LineRange where, std::string how) {
    if (!escaped_)
      escaped_ = OutputWrites{OutputFate::Escapes, where, std::move(how)};
  }

  /// Names holding the buffer's storage: views, items, containers of it.
  void aliases() {
    names_ = {root_};
    const std::vector<const py::Assignment *> assigns = assignmentsIn(py_, fn_.qualname);
    for (int round = 0; round < 4; ++round) {
      const std::size_t before = names_.size();
      for (const py::Assignment *a : assigns)
        if (a->kind == py::Assignment::TargetKind::Name && a->op == "=" &&
            (isStorageOf(a->value, names_) || (isContainerLiteral(a->value) && usesStorage(a->value.text, names_))))
          names_.insert(a->target);
      if (names_.size() == before)
        break;
    }
    // A binding from the container the buffer came in (`a, b, c = data`) hands the buffer too.
    std::set<std::string> holders = names_;
    holders.insert(weak_.begin(), weak_.end());
    for (const py::Assignment *a : assigns)
      if (a->kind == py::Assignment::TargetKind::Name && (a->op == "=" || a->op == ":=" || a->op == "with") &&
          names_.count(a->target))
        bindings_[a->target].push_back(
            {a->lines.begin,
             isStorageOf(a->value, holders) || (isContainerLiteral(a->value) && usesStorage(a->value.text, holders))});
  }

  /// A write through `name` at `where`: certain when the name holds the buffer there.
  void write(const std::string &name, LineRange where, std::string how) {
    if (written_)
      return;
    std::optional<bool> live = name == root_ ? std::optional<bool>(true) : std::nullopt;
    unsigned rebound = 0;
    for (const auto &[line, alias] : bindings_[name])
      if (line < where.begin) {
        live = alias;
        if (!alias)
          rebound = line;
      }
    if (live.value_or(false)) {
      written_ = OutputWrites{OutputFate::Written, where, std::move(how)};
      return;
    }
    escape(where, "written by " + how + ", but only after `" + name + "` " +
                      (rebound ? "was rebound to another value on line " + std::to_string(rebound)
                               : "is bound, which the facts do not order before it"));
  }

  void passed(const py::Call &c, const py::Argument &arg, std::size_t positional, const std::string &name) {
    const std::string callee = c.launchedKernel.empty() ? c.callee : c.launchedKernel;
    if (!c.launchedKernel.empty())
      return write(name, c.lines, "passed to the kernel launch `" + callee + "[...]`");
    if (isExtensionCall(facts_, c))
      return write(name, c.lines, "passed to the extension function `" + c.callee + "`");
    if (isKernelObjectCall(py_, c))
      return write(name, c.lines, "passed to the runtime-compiled kernel `" + c.callee + "`");
    if (const py::Function *helper = localCallee(py_, c)) {
      const std::optional<std::string> param = boundParameter(*helper, c, arg, positional);
      if (!param || depth_ >= kMaxHelperDepth || visiting_.count(helper->qualname))
        return escape(c.lines, "passed to `" + c.callee + "`, whose use of it is not followed");
      WriteScan inner(facts_, *helper, *param, {}, depth_ + 1, visiting_);
      const OutputWrites w = inner.run();
      if (w.fate == OutputFate::Written)
        return write(name, c.lines, "passed to `" + c.callee + "`, which writes it (" + w.how + ")");
      if (w.fate == OutputFate::Escapes)
        return escape(c.lines, "passed to `" + c.callee + "`, where it is " + w.how);
      return;
    }
    // torch's function form of an in-place op (`torch.relu_(out)`, `torch.Tensor.copy_(out, x)`)
    // writes its first argument.
    if (startsWith(c.resolved, "torch.") && isInPlaceMethod(c.method) && arg.keyword.empty() && positional == 0)
      return write(name, c.lines, "`" + c.callee + "(" + name + ", ...)`");
    // The source of another tensor's in-place op, or a function that only reads.
    if (onlyReads(c) || (isInPlaceMethod(c.method) && !c.receiver.empty()))
      return;
    escape(c.lines, "passed to `" + c.callee + "`, whose effect on it is unknown");
  }

  void call(const py::Call &c) {
    if (!c.receiver.empty() && isInPlaceMethod(c.method)) {
      if (isStorageOf(c.receiver, names_))
        return write(std::string(headName(c.receiver)), c.lines, "`" + c.receiver + "." + c.method + "(...)`");
      if (isStorageOf(c.receiver, weak_))
        return escape(c.lines,
                      "possibly written through the container it came in (`" + c.receiver + "." + c.method + "(...)`)");
    }
    std::size_t positional = 0;
    for (const py::Argument &arg : c.args) {
      const std::size_t index = arg.keyword.empty() ? positional++ : 0;
      std::vector<const py::Expr *> exprs;
      exprs.push_back(&arg.value);
      if (arg.value.kind == py::ExprKind::Tuple || arg.value.kind == py::ExprKind::List)
        for (const py::Expr &item : arg.value.elements)
          exprs.push_back(&item);
      bool handled = false;
      for (const py::Expr *e : exprs) {
        const bool pointer = e->text.find("data_ptr") != std::string::npos && usesStorage(e->text, names_);
        if (isStorageOf(*e, names_) || pointer) {
          const std::string name(headName(e->text));
          if (arg.keyword == "out")
            write(name, c.lines, "`out=" + e->text + "` of `" + c.callee + "`");
          else
            passed(c, arg, index, names_.count(name) ? name : root_);
          handled = true;
          break;
        }
        if (isStorageOf(*e, weak_) &&
            (!c.launchedKernel.empty() || isExtensionCall(facts_, c) || arg.keyword == "out")) {
          escape(c.lines,
                 "possibly passed as an item of `" + std::string(headName(e->text)) + "` to `" + c.callee + "`");
          handled = true;
          break;
        }
      }
      // Another form of the buffer (`output.numpy()`, `output + 0`) handed to a call the facts
      // cannot see into may still share its memory.
      if (!handled && usesStorage(arg.value.text, names_) && c.launchedKernel.empty() && !onlyReads(c) &&
          !isExtensionCall(facts_, c) && !localCallee(py_, c) && !(isInPlaceMethod(c.method) && !c.receiver.empty()))
        escape(c.lines, "passed (as `" + arg.value.text + "`) to `" + c.callee + "`, whose effect on it is unknown");
    }
  }

  void assignment(const py::Assignment &a) {
    using TK = py::Assignment::TargetKind;
    const std::string head(headName(a.target));
    if (a.kind == TK::Subscript && names_.count(head))
      return write(head, a.lines, "`" + a.target + " " + a.op + " ...`");
    if (a.kind == TK::Subscript && weak_.count(head))
      return escape(a.lines, "possibly written through the container it came in (`" + a.target + " = ...`)");
    if (a.kind == TK::Attribute && names_.count(head)) {
      const std::string_view attr = pytext::lastSegment(a.target);
      if (attr == "data" || attr == "real" || attr == "imag")
        return write(head, a.lines, "`" + a.target + " = ...`");
    }
    if (a.kind == TK::Name && names_.count(a.target) && a.op != "=" && a.op != ":=" && a.op != "with")
      return write(a.target, a.lines, "`" + a.target + " " + a.op + " ...` (in place on a tensor)");
    // Kept in state another call may write through.
    if ((a.kind == TK::SelfAttribute || a.kind == TK::Attribute || a.kind == TK::Subscript ||
         a.kind == TK::ModuleAttribute) &&
        (isStorageOf(a.value, names_) || (isContainerLiteral(a.value) && usesStorage(a.value.text, names_))))
      escape(a.lines, "stored in `" + a.target + "`");
  }
};

/// `name`'s last binding in `entry` before `line` is an item of `data` (or a view of a name
/// that is): the buffer came in `data`. Returns that binding.
const py::Assignment *handedFromData(const py::PythonFacts &py, const py::Function &entry, const std::string &data,
                                     const std::string &name, unsigned line, unsigned depth = 0) {
  if (depth > 3)
    return nullptr;
  const py::Assignment *last = nullptr;
  for (const py::Assignment &a : py.assignments)
    if (a.function == entry.qualname && a.kind == py::Assignment::TargetKind::Name && a.target == name &&
        a.lines.begin < line && (!last || a.lines.begin >= last->lines.begin))
      last = &a;
  if (!last || last->op != "=")
    return nullptr;
  if (isStorageOf(last->value, {data}))
    return last;
  const std::string from(headName(last->value.text));
  if (!from.empty() && from != name && isStorageOf(last->value, {from}))
    return handedFromData(py, entry, data, from, last->lines.begin, depth + 1) ? last : nullptr;
  if (from == name && isStorageOf(last->value, {from})) // `c = c.view(-1)`
    return handedFromData(py, entry, data, name, last->lines.begin, depth + 1) ? last : nullptr;
  return nullptr;
}

} // namespace

std::vector<OutputBuffer> preallocatedOutputs(const Facts &facts, const GradedEntry &entry) {
  std::vector<OutputBuffer> out;
  const py::Function &fn = *entry.function;
  const LineRange def{fn.lines.begin, fn.lines.begin};
  if (entry.convention == EntryConvention::OutputKernel) {
    out.push_back({entry.output, entry.output, def, {}});
    return out;
  }
  if (entry.convention != EntryConvention::CustomKernel || fn.params.empty())
    return out;
  const std::string &data = fn.params.front();
  std::set<std::string> seen;
  for (const py::Return &r : facts.python.returns) {
    if (r.function != fn.qualname)
      continue;
    std::vector<const py::Expr *> items;
    if (r.value.kind == py::ExprKind::Tuple && !r.value.elements.empty())
      for (const py::Expr &e : r.value.elements)
        items.push_back(&e);
    else
      items.push_back(&r.value);
    for (const py::Expr *e : items) {
      if (e->kind == py::ExprKind::Subscript && isStorageOf(*e, {data})) {
        if (seen.insert(data).second)
          out.push_back({data, e->text, r.lines, r.lines});
      } else if (e->kind == py::ExprKind::Name && e->text != data) {
        if (const py::Assignment *a = handedFromData(facts.python, fn, data, e->text, r.lines.begin))
          if (seen.insert(e->text).second)
            out.push_back({e->text, e->text, a->lines, r.lines});
      }
    }
  }
  return out;
}

OutputWrites outputWrites(const Facts &facts, const py::Function &function, const std::string &name,
                          const std::vector<std::string> &weakAliases) {
  std::set<std::string> weak(weakAliases.begin(), weakAliases.end());
  weak.erase(name);
  return WriteScan(facts, function, name, std::move(weak), 0, {}).run();
}

} // namespace kbaudit::semantic
