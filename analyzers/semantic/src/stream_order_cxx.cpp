#include "stream_order_cxx.h"

#include <algorithm>
#include <tuple>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::semantic {
namespace {

/// A stream or event argument as the code names it: `&s`, `(cudaStream_t)s`, `s.stream()` and
/// `s` are the same stream.
std::string normalized(std::string_view arg) {
  std::string out;
  for (char c : arg)
    if (c != ' ' && c != '\t' && c != '\n')
      out += c;
  for (std::string_view cast : {"(cudaStream_t)", "(cudaEvent_t)", "static_cast<cudaStream_t>("})
    if (out.starts_with(cast))
      out.erase(0, cast.size());
  while (!out.empty() && (out.front() == '&' || out.front() == '*'))
    out.erase(0, 1);
  for (std::string_view suffix : {".stream()", ".stream", "->stream()", ")"})
    if (out.size() > suffix.size() && out.ends_with(suffix))
      out.erase(out.size() - suffix.size());
  return out;
}

bool isCallerStreamText(std::string_view s) {
  return s.find("getCurrentCUDAStream") != std::string_view::npos ||
         s.find("getDefaultCUDAStream") != std::string_view::npos || s == "0" || s == "nullptr" ||
         s == "cudaStreamLegacy" || s == "NULL";
}

std::string lastComponent(std::string_view q) {
  const auto p = q.rfind("::");
  return std::string(p == std::string_view::npos ? q : q.substr(p + 2));
}

/// One step of an export, in source order.
struct Step {
  int source = -1;
  unsigned line = 0;
  unsigned offset = 0; ///< within one line (a unit written as one string literal)
  const cxx::KernelLaunch *launch = nullptr;
  const cxx::CxxCall *call = nullptr;
};

const std::string &arg(const cxx::CxxCall &c, std::size_t i) {
  static const std::string kNone;
  return i < c.arguments.size() ? c.arguments[i] : kNone;
}

bool heldInGlobal(const Facts &facts, const std::string &stream) {
  for (const cxx::MutableStatic &s : facts.cxx.statics)
    if (s.type.find("tream") != std::string::npos && lastComponent(s.name) == stream)
      return true;
  return false;
}

void exportEscapes(const Facts &f, const cxx::ExportedFunction &ex, StreamOrder &out) {
  std::vector<Step> steps;
  for (int li : ex.launches) {
    const cxx::KernelLaunch &l = f.cxx.launches[static_cast<std::size_t>(li)];
    steps.push_back({l.source, l.lines.begin, l.offset, &l, nullptr});
  }
  for (int ci : ex.calls) {
    const cxx::CxxCall &c = f.cxx.calls[static_cast<std::size_t>(ci)];
    if (c.category == cxx::CallCategory::Stream || c.category == cxx::CallCategory::Event ||
        c.category == cxx::CallCategory::Graph || c.category == cxx::CallCategory::Sync)
      steps.push_back({c.source, c.lines.begin, c.offset, nullptr, &c});
  }
  std::stable_sort(steps.begin(), steps.end(),
                   [](const Step &a, const Step &b) { return std::tie(a.source, a.line, a.offset) < std::tie(b.source, b.line, b.offset); });

  std::set<std::string> created;
  bool pool = false;
  for (const Step &s : steps)
    if (s.call) {
      const std::string name = lastComponent(s.call->callee);
      if (name.starts_with("cudaStreamCreate"))
        created.insert(normalized(arg(*s.call, 0)));
      if (name == "getStreamFromPool")
        pool = true;
    }

  // Pending side-stream work: the stream it runs on, and whether it is still unordered.
  struct Pending {
    const cxx::KernelLaunch *launch;
    const cxx::CxxCall *graphLaunch;
    std::string stream;
    bool joined = false;
  };
  std::vector<Pending> pending;
  std::set<std::string> capturing;                 // streams between Begin and EndCapture
  std::map<std::string, std::vector<std::size_t>> events; // event -> pending work it captured
  auto sideStream = [&](const std::string &s) {
    return !isCallerStreamText(s) && (created.count(s) || heldInGlobal(f, s) || (pool && !s.empty()));
  };
  auto onStream = [&](const std::string &s) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (!pending[i].joined && pending[i].stream == s)
        out.push_back(i);
    return out;
  };
  for (const Step &s : steps) {
    if (s.launch) {
      const cxx::KernelLaunch &l = *s.launch;
      const std::string stream = normalized(l.stream);
      if (l.streamKind != cxx::StreamKind::Other || capturing.count(stream) || !sideStream(stream))
        continue;
      pending.push_back({&l, nullptr, stream});
      continue;
    }
    const cxx::CxxCall &c = *s.call;
    const std::string name = lastComponent(c.callee);
    if (name == "cudaStreamBeginCapture" || name == "cuStreamBeginCapture") {
      capturing.insert(normalized(arg(c, 0)));
    } else if (name == "cudaStreamEndCapture" || name == "cuStreamEndCapture") {
      capturing.erase(normalized(arg(c, 0)));
    } else if (name == "cudaGraphLaunch" || name == "cuGraphLaunch") {
      const std::string stream = normalized(arg(c, 1));
      if (sideStream(stream))
        pending.push_back({nullptr, &c, stream});
    } else if (name == "cudaDeviceSynchronize" || name == "cuCtxSynchronize" || name == "synchronize") {
      for (Pending &p : pending)
        p.joined = true;
    } else if (name == "cudaStreamSynchronize" || name == "cuStreamSynchronize") {
      for (std::size_t i : onStream(normalized(arg(c, 0))))
        pending[i].joined = true;
    } else if (name == "cudaEventRecord" || name == "cuEventRecord" || name == "cudaEventRecordWithFlags") {
      events[normalized(arg(c, 0))] = onStream(normalized(arg(c, 1)));
    } else if (name == "cudaEventSynchronize" || name == "cuEventSynchronize") {
      for (std::size_t i : events[normalized(arg(c, 0))])
        pending[i].joined = true;
    } else if (name == "cudaStreamWaitEvent" || name == "cuStreamWaitEvent") {
      // The waiting stream is ordered after the event; only a wait by another stream than the
      // work's own (the caller's, or one the caller's stream waits for in turn) joins it.
      const std::string waiter = normalized(arg(c, 0));
      // A pool stream's variable is not known, so only a stream the export names as created
      // (or keeps in a global) counts as another side stream here.
      const bool waiterIsSide = created.count(waiter) || heldInGlobal(f, waiter);
      for (std::size_t i : events[normalized(arg(c, 1))])
        if (pending[i].stream != waiter && !waiterIsSide)
          pending[i].joined = true;
    }
  }
  for (const Pending &p : pending) {
    if (p.joined)
      continue;
    StreamEscape e;
    e.cxx = true;
    e.stream = p.launch ? p.launch->stream : arg(*p.graphLaunch, 1);
    if (p.launch) {
      e.site = e.work = p.launch->lines;
      e.what = "kernel `" + p.launch->kernel + "`";
    } else {
      e.site = e.work = p.graphLaunch->lines;
      e.what = "`" + p.graphLaunch->spelled + "`";
    }
    e.why = "export `" + ex.name + "` neither synchronises that stream nor makes another stream wait for an event "
            "recorded on it after the launch";
    e.decisive = true;
    if (e.site.valid())
      out.escapes.push_back(std::move(e));
  }
}

} // namespace

void cxxEscapes(const ForwardReach &reach, StreamOrder &out) {
  const Facts &f = reach.facts();
  std::set<std::pair<unsigned, unsigned>> seen;
  for (std::size_t e : reach.reachedExports()) {
    StreamOrder one;
    exportEscapes(f, f.cxx.exports[e], one);
    for (StreamEscape &x : one.escapes)
      if (seen.insert({x.site.begin, x.site.end}).second)
        out.escapes.push_back(std::move(x));
  }
}

} // namespace kbaudit::semantic
