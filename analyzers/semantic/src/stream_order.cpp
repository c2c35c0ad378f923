#include "kbaudit/semantic/stream_order.h"

#include "stream_order_cxx.h"
#include "stream_vocabulary.h"

#include <algorithm>
#include <map>
#include <set>

namespace kbaudit::semantic {
namespace {

using streams::kCaller;

/// Work launched on a stream, and what is ordered after it.
struct Work {
  int stream = kCaller;
  LineRange lines;
  LineRange site; ///< the switch that made the stream current, or the call itself
  std::string what;
  std::set<int> orderedOn; ///< streams ordered after it (its own included)
  bool hostDone = false;   ///< the host waited for it
};

/// One path through what the graded call runs.
struct PathState {
  int cur = kCaller;
  LineRange site; ///< the switch in force, for the work it puts on a side stream
  std::vector<Work> work;
  std::map<std::string, int> names;                 ///< "function\nname" -> stream
  std::map<std::string, std::set<std::size_t>> events; ///< event key -> work it captured
  std::map<int, std::set<std::size_t>> callEvents;  ///< record_event() call -> captured work
  int capturing = 0;
  bool steady = true; ///< not through a warm-up arm or an exception handler
  /// Something was copied into a buffer (`static.copy_(x)`, `buf[:] = x`) since the call began.
  bool copiedIn = false;
  /// Graph replays on this path: the replay's line and whether a copy-in preceded it.
  std::vector<std::pair<LineRange, bool>> replays;
  std::vector<std::string> notes;

  bool sameAs(const PathState &o) const {
    if (cur != o.cur || capturing != o.capturing || steady != o.steady || work.size() != o.work.size() ||
        names != o.names || events != o.events || copiedIn != o.copiedIn || replays != o.replays)
      return false;
    for (std::size_t i = 0; i < work.size(); ++i)
      if (work[i].lines != o.work[i].lines || work[i].stream != o.work[i].stream ||
          work[i].orderedOn != o.work[i].orderedOn || work[i].hostDone != o.work[i].hostDone)
        return false;
    return true;
  }
};

using States = std::vector<PathState>;

constexpr std::size_t kMaxStates = 64;
constexpr int kMaxDepth = 6;

class Walker {
public:
  Walker(const ForwardReach &reach, const HarnessView &harness)
      : reach_(reach), py_(reach.python()), harness_(harness),
        solution_(solutionView(reach.python(), reach.inputNames())), streams_(reach) {}

  StreamOrder run() {
    StreamOrder out;
    for (const std::string &entry : reach_.entries()) {
      States start(1);
      States finished = callFunction(entry, std::move(start), {}, 0);
      judge(finished, out);
    }
    cxxEscapes(reach_, out);
    out.limited = out.limited || limited_;
    return out;
  }

private:
  // ---- the walk ----------------------------------------------------------------------------

  /// Runs `qualname` on each state; returns the states after it returns.
  States callFunction(const std::string &qualname, States states, const std::vector<std::pair<std::string, int>> &params,
                      int depth) {
    const py::Function *fn = py_.findFunction(qualname);
    if (!fn || fn->stmt < 0 || depth > kMaxDepth || onStack_.count(qualname)) {
      if (depth > kMaxDepth)
        limited_ = true;
      return states;
    }
    const py::Stmt &def = py_.statements[static_cast<std::size_t>(fn->stmt)];
    const py::StmtBlock *body = nullptr;
    for (const py::StmtBlock &b : def.blocks)
      if (b.role == py::StmtBlock::Role::Body) {
        body = &b;
        break;
      }
    if (!body)
      return states;
    for (PathState &s : states)
      for (const auto &[name, stream] : params)
        s.names[streams::StreamNames::nameKey(name, qualname)] = stream;
    onStack_.insert(qualname);
    States returned;
    States fell = walkBlock(*body, std::move(states), returned, depth);
    onStack_.erase(qualname);
    for (PathState &s : fell)
      returned.push_back(std::move(s));
    return prune(std::move(returned));
  }

  States walkBlock(const py::StmtBlock &block, States states, States &returned, int depth) {
    for (int i : block.statements) {
      if (states.empty())
        break;
      states = walkStatement(py_.statements[static_cast<std::size_t>(i)], std::move(states), returned, depth);
    }
    return states;
  }

  States walkStatement(const py::Stmt &st, States states, States &returned, int depth) {
    switch (st.kind) {
    case py::StmtKind::Def:
    case py::StmtKind::Class:
      return states; // defining runs nothing of the body
    case py::StmtKind::Return:
      states = calls(st, std::move(states), depth);
      for (PathState &s : states)
        returned.push_back(std::move(s));
      return {};
    case py::StmtKind::Raise:
      return {}; // an exception is not a return the harness times
    case py::StmtKind::If:
      return walkIf(st, calls(st, std::move(states), depth), returned, depth);
    case py::StmtKind::With:
      return walkWith(st, std::move(states), returned, depth);
    case py::StmtKind::Try:
      return walkTry(st, std::move(states), returned, depth);
    case py::StmtKind::For:
    case py::StmtKind::While:
    case py::StmtKind::Match: {
      states = calls(st, std::move(states), depth);
      // A loop body is walked once: what one iteration launches and joins is what each does.
      for (const py::StmtBlock &b : st.blocks)
        states = walkBlock(b, std::move(states), returned, depth);
      return prune(std::move(states));
    }
    default:
      return assignments(st, calls(st, std::move(states), depth));
    }
  }

  States walkIf(const py::Stmt &st, States states, States &returned, int depth) {
    States out;
    States pending = std::move(states);
    for (const py::StmtBlock &b : st.blocks) {
      if (pending.empty())
        break;
      if (b.role == py::StmtBlock::Role::Else) {
        States after = walkBlock(b, std::move(pending), returned, depth);
        pending.clear();
        for (PathState &s : after)
          out.push_back(std::move(s));
        break;
      }
      const int bi = st.branch < 0 ? -1 : st.branch + b.arm;
      const py::Branch *branch =
          bi >= 0 && static_cast<std::size_t>(bi) < py_.branches.size() ? &py_.branches[static_cast<std::size_t>(bi)] : nullptr;
      const ConditionReading r = branch ? readCondition(*branch, harness_, solution_) : ConditionReading{};
      const bool warmup = r.state && blockWrites(b, *branch);
      States taken, skipped;
      for (PathState &s : pending) {
        if (r.outcome == Outcome::True) {
          taken.push_back(std::move(s));
        } else if (r.outcome == Outcome::False) {
          noteSkippedJoins(b, *branch, r, s);
          skipped.push_back(std::move(s));
        } else {
          PathState in = s;
          if (warmup)
            in.steady = false;
          taken.push_back(std::move(in));
          skipped.push_back(std::move(s));
        }
      }
      States after = walkBlock(b, std::move(taken), returned, depth);
      for (PathState &s : after)
        out.push_back(std::move(s));
      pending = std::move(skipped);
    }
    for (PathState &s : pending) // no else arm: the test fell through
      out.push_back(std::move(s));
    return prune(std::move(out));
  }

  States walkWith(const py::Stmt &st, States states, States &returned, int depth) {
    states = calls(st, std::move(states), depth);
    // What each item does on entry, undone on exit for the paths that leave normally.
    struct Saved {
      int cur;
      LineRange site;
      int capturing;
    };
    std::vector<Saved> saved;
    for (PathState &s : states) {
      saved.push_back({s.cur, s.site, s.capturing});
      for (const py::WithItem &item : st.items) {
        if (item.call < 0)
          continue;
        const py::Call &c = py_.calls[static_cast<std::size_t>(item.call)];
        if (streams::isStreamContext(c.resolved)) {
          if (const py::Argument *a = argumentOf(c, 0, "stream")) {
            s.cur = streams_.evaluate(a->value, s.names, s.cur, c.function);
            s.site = c.lines;
          }
        } else if (streams::isGraphCapture(c.resolved)) {
          // torch.cuda.graph synchronises the device before it captures; what runs under it is
          // recorded into the graph, not run.
          for (Work &w : s.work)
            w.hostDone = true;
          ++s.capturing;
        }
      }
    }
    // Walk the body state by state so each leaving path gets its own entry values back.
    States out;
    for (std::size_t i = 0; i < states.size(); ++i) {
      States one{std::move(states[i])};
      for (const py::StmtBlock &b : st.blocks)
        one = walkBlock(b, std::move(one), returned, depth);
      for (PathState &s : one) {
        s.cur = saved[i].cur;
        s.site = saved[i].site;
        s.capturing = saved[i].capturing;
        out.push_back(std::move(s));
      }
    }
    return prune(std::move(out));
  }

  States walkTry(const py::Stmt &st, States states, States &returned, int depth) {
    States entry = states;
    States out;
    States normal;
    for (const py::StmtBlock &b : st.blocks) {
      switch (b.role) {
      case py::StmtBlock::Role::Body:
        normal = walkBlock(b, std::move(states), returned, depth);
        break;
      case py::StmtBlock::Role::Except: {
        // An exception is not the path the harness times unless something is known to raise.
        States handler = entry;
        for (PathState &s : handler)
          s.steady = false;
        for (PathState &s : walkBlock(b, std::move(handler), returned, depth))
          out.push_back(std::move(s));
        break;
      }
      case py::StmtBlock::Role::Else:
        normal = walkBlock(b, std::move(normal), returned, depth);
        break;
      default:
        break;
      }
    }
    for (PathState &s : normal)
      out.push_back(std::move(s));
    for (const py::StmtBlock &b : st.blocks)
      if (b.role == py::StmtBlock::Role::Finally)
        out = walkBlock(b, std::move(out), returned, depth);
    return prune(std::move(out));
  }

  /// The statement's own calls, in evaluation order.
  States calls(const py::Stmt &st, States states, int depth) {
    for (int ci : st.calls) {
      const py::Call &c = py_.calls[static_cast<std::size_t>(ci)];
      const std::string local = streams::localCallee(reach_, c);
      if (!local.empty()) {
        states = callFunction(local, std::move(states), parameterStreams(c, local, states), depth + 1);
        continue;
      }
      for (PathState &s : states)
        apply(ci, c, s);
    }
    return states;
  }

  /// Streams handed to a local function's parameters (`self._run(x, self.stream)`).
  std::vector<std::pair<std::string, int>> parameterStreams(const py::Call &c, const std::string &callee,
                                                            const States &states) {
    std::vector<std::pair<std::string, int>> out;
    const py::Function *fn = py_.findFunction(callee);
    if (!fn || states.empty())
      return out;
    const bool method = !fn->className.empty() && !fn->params.empty() && fn->params.front() == "self";
    unsigned position = 0;
    for (const py::Argument &a : c.args) {
      std::string param;
      if (a.keyword.empty()) {
        const std::size_t p = position++ + (method ? 1 : 0);
        if (p < fn->params.size())
          param = fn->params[p];
      } else if (a.keyword != "*" && a.keyword != "**") {
        param = a.keyword;
      }
      if (param.empty())
        continue;
      const int stream = streams_.evaluateIfStream(a.value, states.front().names, states.front().cur, c.function);
      if (stream >= 0)
        out.emplace_back(param, stream);
    }
    return out;
  }

  /// What one call does to the ordering.
  void apply(int index, const py::Call &c, PathState &s) {
    using namespace streams;
    const std::string &m = c.method;
    if (c.resolved == "torch.cuda.synchronize" || c.resolved == "torch.cuda.device_synchronize") {
      for (Work &w : s.work)
        w.hostDone = true;
      return;
    }
    if (isSetStream(c.resolved)) {
      if (const py::Argument *a = argumentOf(c, 0, "stream")) {
        s.cur = streams_.evaluate(a->value, s.names, s.cur, c.function);
        s.site = c.lines;
      }
      return;
    }
    if (m == "wait_stream") {
      const int waiter = receiverStream(c, s);
      const py::Argument *a = argumentOf(c, 0, "stream");
      if (!a || waiter < 0)
        return;
      const int waited = streams_.evaluate(a->value, s.names, s.cur, c.function);
      if (waiter == waited && waited != kCaller) {
        s.notes.push_back("the wait at line " + std::to_string(c.lines.begin) + " runs while `" +
                          streams_.spelled(waited) + "` is current, so `" + streams_.spelled(waited) +
                          "` waits on itself");
        return;
      }
      order(s, waited, waiter);
      return;
    }
    if (m == "record_event") {
      const int on = receiverStream(c, s);
      s.callEvents[index] = captured(s, on < 0 ? s.cur : on);
      return;
    }
    // Nothing but an event has a `record` method: whatever the receiver's origin, it is one.
    if (m == "record" && !c.receiver.empty()) {
      const py::Argument *a = argumentOf(c, 0, "stream");
      const int on = a ? streams_.evaluate(a->value, s.names, s.cur, c.function) : s.cur;
      s.events[eventKey(c.receiver, c.function)] = captured(s, on);
      return;
    }
    if (m == "wait_event") {
      const int waiter = receiverStream(c, s);
      const py::Argument *a = argumentOf(c, 0, "event");
      if (a && waiter >= 0)
        waitFor(s, eventOf(a->value, c.function, s), waiter);
      return;
    }
    if (m == "wait" && isEvent(c.receiver, c.function, s)) {
      const py::Argument *a = argumentOf(c, 0, "stream");
      const int waiter = a ? streams_.evaluate(a->value, s.names, s.cur, c.function) : s.cur;
      waitFor(s, s.events[eventKey(c.receiver, c.function)], waiter);
      return;
    }
    if (m == "synchronize") {
      if (isEvent(c.receiver, c.function, s)) {
        for (std::size_t w : s.events[eventKey(c.receiver, c.function)])
          s.work[w].hostDone = true;
        return;
      }
      const int on = receiverStream(c, s);
      for (Work &w : s.work)
        if (on < 0 || w.orderedOn.count(on))
          w.hostDone = true;
      return;
    }
    if (isCopyIn(c))
      s.copiedIn = true;
    if (m == "replay" && !c.receiver.empty() && s.capturing == 0)
      s.replays.emplace_back(c.lines, s.copiedIn);
    if (isHostRead(m)) { // .item(), .cpu(), .tolist(): the host waits for the current stream
      for (Work &w : s.work)
        if (w.orderedOn.count(s.cur))
          w.hostDone = true;
      return;
    }
    if (s.capturing > 0)
      return; // recorded into a graph, not run now
    const std::vector<int> on = launches(c, s);
    for (int stream : on) {
      // Work on the caller's stream is ordered before the return by construction, and nothing
      // later can unorder it: only side-stream work needs following (and paths stay few).
      if (stream == kCaller)
        continue;
      // The same switch's work, ordered the same way, is one piece of work for the verdict.
      const LineRange site = stream == s.cur && s.site.valid() ? s.site : c.lines;
      if (std::any_of(s.work.begin(), s.work.end(), [&](const Work &o) {
            return o.stream == stream && o.site == site && o.orderedOn.size() == 1 && !o.hostDone;
          }))
        continue;
      Work w;
      w.stream = stream;
      w.lines = c.lines;
      w.site = site;
      w.what = c.callee;
      w.orderedOn.insert(stream);
      s.work.push_back(std::move(w));
    }
  }

  /// The streams a call runs GPU work on: none for host-side calls.
  std::vector<int> launches(const py::Call &c, const PathState &s) const {
    if (!streams::doesGpuWork(c, py_))
      return {};
    // An extension export runs on the stream its launches name: the current one, the legacy
    // default stream (the caller's, where the harness runs on it), or its own (cxxEscapes).
    if (const std::optional<streams::ExportStreams> ex = streams::exportStreamsOf(reach_, c)) {
      std::vector<int> out;
      if (ex->current || ex->library)
        out.push_back(s.cur);
      if (ex->legacyDefault)
        out.push_back(kCaller);
      if (ex->parameter) {
        // A launch on a stream the C++ was handed: a raw handle the Python passes
        // (`s.cuda_stream`), or else one a C++ caller passed down, which is the current stream
        // the export read (a created one is cxxEscapes' question).
        int handed = s.cur;
        for (const py::Argument &a : c.args)
          if (!a.value.chain.empty() && a.value.chain.back().name == "cuda_stream")
            handed = streams_.evaluateHandle(a.value, s.names, s.cur, c.function);
        out.push_back(handed);
      }
      return out;
    }
    return {s.cur};
  }

  int receiverStream(const py::Call &c, const PathState &s) const {
    if (c.receiverCall >= 0) {
      const py::Call &r = py_.calls[static_cast<std::size_t>(c.receiverCall)];
      return streams_.evaluateCall(r, s.cur);
    }
    if (c.receiver.empty())
      return -1;
    return streams_.evaluateName(c.receiver, s.names, s.cur, c.function);
  }

  bool isEvent(const std::string &receiver, const std::string &from, const PathState &s) const {
    return !receiver.empty() && (s.events.count(eventKey(receiver, from)) || streams_.boundToEvent(receiver, from));
  }

  static std::string eventKey(const std::string &name, const std::string &from) {
    return name.rfind("self.", 0) == 0 ? name : from + "\n" + name;
  }

  std::set<std::size_t> eventOf(const py::Expr &e, const std::string &from, PathState &s) const {
    if (e.kind == py::ExprKind::Call) {
      // `wait_event(s.record_event())`: the record made in the same statement.
      for (auto it = s.callEvents.rbegin(); it != s.callEvents.rend(); ++it)
        return it->second;
      return {};
    }
    return s.events[eventKey(e.resolved.empty() ? e.text : e.resolved, from)];
  }

  static std::set<std::size_t> captured(const PathState &s, int on) {
    std::set<std::size_t> out;
    for (std::size_t i = 0; i < s.work.size(); ++i)
      if (s.work[i].orderedOn.count(on))
        out.insert(i);
    return out;
  }

  static void order(PathState &s, int before, int after) {
    for (Work &w : s.work)
      if (w.orderedOn.count(before))
        w.orderedOn.insert(after);
  }

  static void waitFor(PathState &s, const std::set<std::size_t> &work, int waiter) {
    for (std::size_t i : work)
      if (i < s.work.size())
        s.work[i].orderedOn.insert(waiter);
  }

  /// Bindings made by the statement: `s = torch.cuda.current_stream()` binds the current
  /// stream at this point; `ev = s.record_event()` the event the call recorded.
  States assignments(const py::Stmt &st, States states) {
    // `main, helper = self.streams`: the targets unpacked from one value, each its element.
    std::map<std::string, int> unpacked;
    for (int ai : st.assignments)
      ++unpacked[py_.assignments[static_cast<std::size_t>(ai)].value.text];
    std::map<std::string, int> position;
    for (int ai : st.assignments) {
      const py::Assignment &a = py_.assignments[static_cast<std::size_t>(ai)];
      if (unpacked[a.value.text] > 1 && a.kind == py::Assignment::TargetKind::Name) {
        const int element = streams_.element(a.value, position[a.value.text]++, a.function);
        if (element >= 0) {
          for (PathState &s : states)
            s.names[streams::StreamNames::nameKey(a.target, a.function)] = element;
          continue;
        }
      }
      if (a.kind == py::Assignment::TargetKind::Subscript) // `self.static_x[:] = x`
        for (PathState &s : states)
          s.copiedIn = true;
      if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
        continue;
      for (PathState &s : states) {
        if (a.value.kind == py::ExprKind::Call && !s.callEvents.empty() && a.value.resolved.ends_with("record_event")) {
          s.events[eventKey(a.target, a.function)] = s.callEvents.rbegin()->second;
          continue;
        }
        const int stream = streams_.evaluateIfStream(a.value, s.names, s.cur, a.function);
        if (stream >= 0)
          s.names[streams::StreamNames::nameKey(a.target, a.function)] = stream;
      }
    }
    for (PathState &s : states)
      s.callEvents.clear();
    return states;
  }

  // ---- branch helpers ------------------------------------------------------------------------

  /// The arm assigns state its test reads on its normal path: it is the first-call (warm-up)
  /// arm. A write in an exception handler (`self.use_fast = False` after a failure) is not.
  bool blockWrites(const py::StmtBlock &b, const py::Branch &branch) const {
    std::set<std::string> read(branch.names.begin(), branch.names.end());
    bool any = false;
    forEachStatement(b, /*handlers=*/false, [&](const py::Stmt &st) {
      for (int ai : st.assignments) {
        // `self.graphs[key] = g` writes `self.graphs`.
        const std::string &t = py_.assignments[static_cast<std::size_t>(ai)].target;
        if (read.count(t.substr(0, t.find('['))))
          any = true;
      }
    });
    return any;
  }

  /// A join inside an arm the harness never takes, kept for the message.
  void noteSkippedJoins(const py::StmtBlock &b, const py::Branch &branch, const ConditionReading &r, PathState &s) const {
    forEachStatement(b, /*handlers=*/true, [&](const py::Stmt &st) {
      for (int ci : st.calls) {
        const py::Call &c = py_.calls[static_cast<std::size_t>(ci)];
        if (streams::isJoinCall(c))
          s.notes.push_back("the join at line " + std::to_string(c.lines.begin) + " is only under `" +
                            branch.condition + "`, which is not true when the harness calls (" + r.why + ")");
      }
    });
  }

  template <typename F> void forEachStatement(const py::StmtBlock &b, bool handlers, F &&f) const {
    for (int i : b.statements) {
      const py::Stmt &st = py_.statements[static_cast<std::size_t>(i)];
      f(st);
      if (st.kind == py::StmtKind::Def || st.kind == py::StmtKind::Class)
        continue;
      for (const py::StmtBlock &inner : st.blocks)
        if (handlers || inner.role != py::StmtBlock::Role::Except)
          forEachStatement(inner, handlers, f);
    }
  }

  States prune(States states) {
    States out;
    for (PathState &s : states) {
      if (std::any_of(out.begin(), out.end(), [&](const PathState &o) { return o.sameAs(s); }))
        continue;
      if (out.size() >= kMaxStates) {
        limited_ = true;
        continue;
      }
      out.push_back(std::move(s));
    }
    return out;
  }

  // ---- the verdict ---------------------------------------------------------------------------

  void judgeReplays(const States &finished, StreamOrder &out) const {
    std::map<std::pair<unsigned, unsigned>, std::pair<int, int>> seen; // replay -> (steady, stale)
    for (const PathState &s : finished) {
      if (!s.steady)
        continue;
      std::set<std::pair<unsigned, unsigned>> once;
      for (const auto &[lines, fresh] : s.replays) {
        const auto key = std::make_pair(lines.begin, lines.end);
        if (!once.insert(key).second)
          continue;
        auto &[steady, stale] = seen[key];
        ++steady;
        stale += fresh ? 0 : 1;
      }
    }
    for (const auto &[key, counts] : seen)
      if (counts.second > 0) {
        StaleReplay r;
        r.replay = LineRange{key.first, key.second};
        r.decisive = counts.second == counts.first && !limited_;
        out.staleReplays.push_back(std::move(r));
      }
  }

  void judge(const States &finished, StreamOrder &out) const {
    judgeReplays(finished, out);
    struct Site {
      LineRange work;
      int stream = -1;
      std::string what;
      int steadyWith = 0, steadyEscaping = 0;
      std::set<std::string> notes;
    };
    std::map<std::pair<unsigned, unsigned>, Site> sites;
    for (const PathState &s : finished) {
      std::map<std::pair<unsigned, unsigned>, bool> escapedHere;
      for (const Work &w : s.work) {
        if (w.stream == kCaller)
          continue;
        const auto key = std::make_pair(w.site.begin, w.site.end);
        const bool escaped = !w.hostDone && !w.orderedOn.count(kCaller);
        bool &e = escapedHere[key];
        e = e || escaped;
        Site &site = sites[key];
        if (escaped && (site.stream < 0 || !site.work.valid())) {
          site.work = w.lines;
          site.stream = w.stream;
          site.what = w.what;
        }
        if (site.stream < 0)
          site.stream = w.stream;
      }
      if (!s.steady)
        continue;
      for (const auto &[key, escaped] : escapedHere) {
        Site &site = sites[key];
        ++site.steadyWith;
        if (escaped) {
          ++site.steadyEscaping;
          site.notes.insert(s.notes.begin(), s.notes.end());
        }
      }
    }
    for (const auto &[key, site] : sites) {
      if (site.steadyEscaping == 0 || !site.work.valid())
        continue;
      StreamEscape e;
      e.site = LineRange{key.first, key.second};
      e.work = site.work;
      e.stream = streams_.spelled(site.stream);
      e.what = site.what;
      std::string why;
      for (const std::string &n : site.notes)
        why += (why.empty() ? "" : "; ") + n;
      e.why = why.empty() ? "no wait_stream, wait_event or synchronize on forward's path orders it before the caller's stream"
                          : why;
      e.decisive = site.steadyEscaping == site.steadyWith && streams_.isSide(site.stream) && !limited_;
      if (!e.decisive && site.steadyEscaping < site.steadyWith)
        e.why += " (on some paths only: a branch kbaudit cannot decide picks them)";
      out.escapes.push_back(std::move(e));
    }
  }

  const ForwardReach &reach_;
  const py::PythonFacts &py_;
  HarnessView harness_;
  SolutionView solution_;
  mutable streams::StreamNames streams_;
  std::set<std::string> onStack_;
  bool limited_ = false;
};

} // namespace

StreamOrder streamOrder(const ForwardReach &reach, const HarnessView &harness) {
  if (!reach.knownEntry())
    return {};
  return Walker(reach, harness).run();
}

} // namespace kbaudit::semantic
