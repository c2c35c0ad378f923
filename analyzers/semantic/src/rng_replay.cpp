#include "kbaudit/semantic/rng_replay.h"

#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/import_time.h"
#include "kbaudit/semantic/local_helper.h"
#include "kbaudit/semantic/python_text.h"
#include "kbaudit/semantic/random_draws.h"
#include "kbaudit/semantic/scoped_names.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace kbaudit::semantic {

using namespace pytext;
using scope::GradedScope;

namespace {

/// What a correctness or identity check between two tensors calls.
bool isComparison(const py::Call &c) {
  static const std::set<std::string_view> methods = {"equal",       "allclose",    "isclose",     "eq",
                                                     "array_equal", "array_equiv", "assert_close"};
  if (methods.count(c.method))
    return true;
  // `(x == x_ref).all()`
  return (c.method == "all" || c.method == "any" || c.method == "item") && c.receiver.find("==") != std::string::npos;
}

struct Source {
  const py::Call *call = nullptr;
  bool generator = false;           ///< the problem's input generator (else a seeded draw)
  const py::Call *reseed = nullptr; ///< the reseed or restore before it, if any
  std::string seededGenerator;      ///< the seeded private generator the draw uses
};

class ReplayScan {
public:
  ReplayScan(const Facts &facts, const std::set<std::string> &reachable, const std::set<std::string> &generators)
      : py_(facts.python), scope_(facts), reachable_(reachable), atImport_(functionsRunAtImport(facts.python, scope_)),
        generators_(generators), entries_(facts.kernels.entryPoints) {
    collectSeededGenerators();
    collectSources();
    collectNames();
    collectInputs();
  }

  std::vector<RngReplay> replays() const {
    std::vector<RngReplay> out;
    std::map<std::size_t, std::string> compared, returned;
    for (const py::Call &c : py_.calls) {
      if (!reachable_.count(c.function) || !isComparison(c))
        continue;
      // The receiver is kept only as written; a comparison's operands are usually its arguments.
      const auto replay = replayCompared(c);
      const std::string input = inputCompared(c);
      if (replay && !input.empty() && !compared.count(replay->second))
        compared[replay->second] =
            "`" + replay->first.second + "` is compared with forward's input `" + input + "` at " + lineText(c.lines);
    }
    for (const py::Return &r : py_.returns) {
      if (std::find(entries_.begin(), entries_.end(), r.function) == entries_.end())
        continue;
      // What is handed back is the replayed value (or a method of it: `.clone()`, `.to(dev)`),
      // itself or as an item of a returned tuple; a mere mention in a condition is not.
      std::vector<const py::Expr *> handed{&r.value};
      for (const py::Expr &item : r.value.elements)
        handed.push_back(&item);
      for (const py::Expr *e : handed) {
        const auto *replay = names_.readBy(r.function, *e);
        if (!replay || storageRoot(*e) != replay->first.second || !sources_[replay->second].generator ||
            returned.count(replay->second))
          continue;
        returned[replay->second] =
            r.function + " returns `" + replay->first.second + "`, computed from them, at " + lineText(r.lines);
      }
    }
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      const Source &s = sources_[i];
      // The generator called on forward's path is the regenerate finding already.
      if (s.generator && reachable_.count(s.call->function) && isInputGeneratorCall(*s.call, {}))
        continue;
      const std::string how = describe(s);
      if (auto it = compared.find(i); it != compared.end())
        out.push_back({s.call, how + " and compares its arguments with them", it->second, true});
      else if (auto rt = returned.find(i); rt != returned.end())
        out.push_back({s.call, how + " and answers with results computed from them", rt->second, true});
      else if (s.generator && s.reseed && !reachable_.count(s.call->function))
        out.push_back({s.call, how + " while the module is imported",
                       "nothing on forward's path compares its arguments with them or returns results of them; an "
                       "autotuning warm-up on reseeded inputs looks alike",
                       false});
    }
    return out;
  }

private:
  const py::PythonFacts &py_;
  GradedScope scope_;
  const std::set<std::string> &reachable_;
  std::set<std::string> atImport_;
  std::set<std::string> generators_;
  std::vector<std::string> entries_;
  std::map<std::string, std::set<std::string>> seeded_; ///< function -> seeded private generators
  std::vector<Source> sources_;
  ScopedNames<std::size_t> names_;                      ///< name -> source
  std::map<std::string, std::set<std::string>> inputs_; ///< function -> input names
  /// The calls that restore or reseed a random state outside a `__main__` block, in file order,
  /// found at the first draw: reseedBefore looks for one before every draw, and few calls are one.
  mutable std::optional<std::vector<const py::Call *>> restores_;

  /// Runs when the grader imports or calls the solution, outside the harness's and the
  /// weights' own seeding places.
  bool live(const std::string &fn, LineRange lines) const {
    // The solution's own copy of the harness's input generator draws what the harness draws.
    if (scope_.inMainGuard(lines) ||
        (!fn.empty() && (isInitLike(fn) || generators_.count(std::string(lastSegment(fn))))))
      return false;
    return reachable_.count(fn) || runsAtImport(atImport_, scope_, fn, lines);
  }

  void collectSeededGenerators() {
    // `g = torch.Generator(...).manual_seed(s)` and `g.manual_seed(s)` / `g.set_state(saved)`.
    for (const py::Assignment &a : py_.assignments)
      if (a.kind == py::Assignment::TargetKind::Name && a.value.kind == py::ExprKind::Call &&
          (lastSegment(a.value.resolved) == "manual_seed" || lastSegment(a.value.resolved) == "set_state"))
        seeded_[a.function].insert(a.target);
    for (const py::Call &c : py_.calls)
      if ((c.method == "manual_seed" || c.method == "set_state") && !c.receiver.empty() &&
          !isGlobalReseed(c.resolved) && !startsWith(c.resolved, "torch."))
        seeded_[c.function].insert(c.receiver);
  }

  const py::Call *reseedBefore(const py::Call &c) const {
    if (!restores_) {
      restores_.emplace();
      for (const py::Call &r : py_.calls)
        if (isRngRestore(r.resolved) && !scope_.inMainGuard(r.lines))
          restores_->push_back(&r);
    }
    const py::Call *best = nullptr;
    for (const py::Call *r : *restores_)
      if (r->function == c.function && r->lines.begin <= c.lines.begin && r != &c &&
          (!best || r->lines.begin > best->lines.begin))
        best = r;
    return best;
  }

  std::string seededGeneratorOf(const py::Call &c) const {
    const py::Argument *g = c.keywordArg("generator");
    if (!g)
      return {};
    const std::string name(dottedName(g->value));
    for (const std::string &fn : {c.function, std::string()})
      if (auto it = seeded_.find(fn); it != seeded_.end() && it->second.count(name))
        return name;
    return {};
  }

  void collectSources() {
    for (const py::Call &c : py_.calls) {
      if (!live(c.function, c.lines))
        continue;
      if (isInputGeneratorCall(c, generators_)) {
        sources_.push_back({&c, true, reseedBefore(c), {}});
        continue;
      }
      if (!isRandomDraw(c))
        continue;
      const py::Call *reseed = reseedBefore(c);
      std::string generator = seededGeneratorOf(c);
      if (reseed || !generator.empty())
        sources_.push_back({&c, false, reseed, std::move(generator)});
    }
  }

  /// Names bound to a source's value, then names computed from those (two rounds).
  void collectNames() {
    for (const py::Assignment &a : py_.assignments) {
      if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
        continue;
      for (std::size_t i = 0; i < sources_.size(); ++i) {
        const py::Call &c = *sources_[i].call;
        if (c.function == a.function && a.value.lines.begin <= c.lines.begin && c.lines.end <= a.value.lines.end)
          names_.bind(a.function, a.target, i);
      }
    }
    for (int round = 0; round < 2; ++round)
      for (const py::Assignment &a : py_.assignments) {
        if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
          continue;
        if (const auto *replay = names_.readBy(a.function, a.value))
          names_.bind(a.function, a.target, replay->second);
      }
  }

  /// A replay name a comparison's receiver or an argument reads. The receiver is kept only as
  /// written (`(x == x_ref).all()` compares inside it), so it is searched for whole names.
  const ScopedNames<std::size_t>::Entry *replayCompared(const py::Call &c) const {
    if (const auto *entry = names_.mentionedIn(c.function, c.receiver))
      return entry;
    for (const py::Argument &a : c.args)
      if (const auto *entry = names_.readBy(c.function, a.value))
        return entry;
    return nullptr;
  }

  /// The entry points' parameters and names bound from them, and the parameters of the
  /// file's helpers an entry point passes them to.
  void collectInputs() {
    for (const std::string &entry : entries_) {
      const py::Function *fn = py_.findFunction(entry);
      if (!fn)
        continue;
      std::set<std::string> &in = inputs_[entry];
      for (std::string p : fn->params) {
        p.erase(0, p.find_first_not_of('*'));
        if (p != "self" && !p.empty())
          in.insert(p);
      }
      // `a, b, c = data`, `x2 = x[0]`, `xc = x.contiguous()`: the input itself under another
      // name (a tensor merely shaped like it, `torch.randn(x.shape)`, is not).
      auto isInput = [&](const py::Expr &e) { return in.count(std::string(e.root)) && isViewOf(e, e.root); };
      for (const py::Assignment &a : py_.assignments)
        if (a.function == entry && a.kind == py::Assignment::TargetKind::Name && isInput(a.value))
          in.insert(a.target);
      for (const py::Call &c : py_.calls) {
        if (c.function != entry)
          continue;
        const py::Function *helper = helperCalled(py_, c, c.function);
        if (!helper)
          continue;
        const unsigned shift = !helper->className.empty() && !helper->params.empty() && helper->params[0] == "self";
        unsigned position = 0;
        for (const py::Argument &a : c.args) {
          if (!a.keyword.empty())
            continue;
          if (isInput(a.value) && position + shift < helper->params.size())
            inputs_[helper->qualname].insert(helper->params[position + shift]);
          ++position;
        }
      }
    }
  }

  /// An input of the comparison's function its receiver is rooted in or an argument reads.
  std::string inputCompared(const py::Call &c) const {
    auto it = inputs_.find(c.function);
    if (it == inputs_.end())
      return {};
    for (const std::string &name : it->second)
      if (mentionsName(c.receiver, name))
        return name;
    for (const py::Argument &a : c.args)
      if (const std::string *name = firstRead(a.value, it->second))
        return *name;
    return {};
  }

  static const std::string *firstRead(const py::Expr &e, const std::set<std::string> &names) {
    for (const std::string &n : names)
      if (reads(e, n))
        return &n;
    return nullptr;
  }

  static std::string describe(const Source &s) {
    if (s.generator)
      return "regenerates the problem's inputs with " + s.call->callee + "()" +
             (s.reseed ? " right after reseeding with " + s.reseed->callee + "()" : "");
    if (!s.seededGenerator.empty())
      return "replays the harness's random inputs with " + s.call->callee + "() on generator `" + s.seededGenerator +
             "` seeded with a fixed value";
    return "replays the harness's random inputs with " + s.call->callee + "() after " + s.reseed->callee + "()";
  }
};

} // namespace

bool isInitLike(std::string_view qualname) {
  const std::string_view l = lastSegment(qualname);
  return l == "__init__" || l == "get_inputs" || l == "get_init_inputs" || l == "reset_parameters" ||
         startsWith(l, "_init_weights") || l == "init_weights";
}

bool isInputGeneratorCall(const py::Call &c, const std::set<std::string> &referenceGenerators) {
  if (!c.launchedKernel.empty())
    return false;
  return c.method == "get_inputs" || c.method == "generate_input" || referenceGenerators.count(c.method) > 0;
}

std::set<std::string> referenceInputGenerators(const py::PythonFacts &ref) {
  std::set<std::string> out;
  for (const py::Function &fn : ref.functions) {
    if (!fn.className.empty() || fn.qualname != fn.name || fn.name.empty() || fn.name.front() == '_')
      continue;
    const bool draws = std::any_of(ref.calls.begin(), ref.calls.end(), [&](const py::Call &c) {
      return scope::inFunction(c.function, fn.qualname) && isRandomDraw(c);
    });
    if (draws)
      out.insert(fn.name);
  }
  return out;
}

std::vector<RngReplay> rngReplays(const Facts &facts, const std::set<std::string> &reachable,
                                  const std::set<std::string> &generators) {
  return ReplayScan(facts, reachable, generators).replays();
}

} // namespace kbaudit::semantic
