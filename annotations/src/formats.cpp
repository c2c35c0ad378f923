#include "kbaudit/annotations/formats.h"

#include "kbaudit/annotations/terminal_text.h"

#include "json_text.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cmath>
#include <cstdio>

namespace kbaudit::annotations {

namespace {

using json::escapeDelAndC1;
using json::str;
using json::strings;

llvm::json::Value number(double v) { return std::isfinite(v) ? llvm::json::Value(v) : llvm::json::Value(nullptr); }

llvm::json::Array lines(const LineRange &r) { return llvm::json::Array{r.begin, r.end}; }

/// Keys are written in the order the YAML annotation has them (yaml_writer.cpp), with llvm's
/// streaming writer: a llvm::json::Object would print them sorted.
using Writer = llvm::json::OStream;

void runtimeJson(Writer &j, const std::optional<runtime::RuntimeReport> &report) {
  if (!report) {
    j.value(nullptr);
    return;
  }
  const runtime::RuntimeReport &r = *report;
  j.object([&] {
    j.attribute("outcome", str(r.outcome));
    j.attribute("reason", str(r.reason));
    j.attribute("device", str(r.device));
    j.attribute("torch", str(r.torchVersion));
    llvm::json::Array seeds;
    for (int s : r.seeds)
      seeds.push_back(s);
    j.attribute("seeds", std::move(seeds));
    j.attribute("seconds", number(r.seconds));
    j.attribute("isolation", strings(r.isolation));
    j.attribute("notes", strings(r.notes));
    j.attributeArray("probes", [&] {
      for (const runtime::ProbeOutcome &p : r.probes)
        j.object([&] {
          j.attribute("name", str(p.name));
          j.attribute("status", str(p.status));
          j.attribute("rule", str(p.rule));
          j.attribute("reason", str(p.reason));
          j.attributeObject("numbers", [&] {
            for (const auto &[k, v] : p.numbers)
              j.attribute(llvm::json::isUTF8(k) ? k : llvm::json::fixUTF8(k), number(v));
          });
          j.attribute("verified", p.verified);
        });
    });
    j.attributeArray("events", [&] {
      for (const runtime::RuntimeEvent &e : r.events)
        j.object([&] {
          j.attribute("kind", str(e.kind));
          j.attribute("detail", str(e.detail));
          if (!e.confidence.empty())
            j.attribute("confidence", str(e.confidence));
        });
    });
  });
}

void findingJson(Writer &j, const rules::Finding &f) {
  j.object([&] {
    j.attribute("rule", str(f.rule));
    j.attribute("name", str(f.name));
    j.attribute("category", str(f.category));
    j.attribute("verdict_class", rules::verdictClassName(f.verdict));
    j.attribute("confidence", rules::confidenceName(f.confidence));
    j.attribute("term", problems::termName(f.term));
    j.attribute("suite_note", f.suiteNote.empty() ? llvm::json::Value(nullptr) : str(f.suiteNote));
    j.attribute("lines", lines(f.lines));
    j.attribute("file", str(f.file));
    j.attribute("message", str(f.message));
    j.attribute("evidence", str(f.evidence));
    if (f.accepted)
      j.attributeObject("accepted", [&] {
        j.attribute("reason", str(f.acceptedReason));
        j.attribute("by", str(f.acceptedBy));
      });
    else
      j.attribute("accepted", nullptr);
  });
}

void selectionJson(Writer &j, const std::optional<RuleSelectionInfo> &selection) {
  if (!selection) {
    j.value(nullptr);
    return;
  }
  const RuleSelectionInfo &s = *selection;
  j.object([&] {
    j.attribute("source", str(s.source));
    j.attribute("config", str(s.configFile));
    j.attribute("select", strings(s.select));
    j.attribute("ignore", strings(s.ignore));
    j.attribute("disabled", strings(s.disabled));
    j.attribute("baseline", str(s.baseline));
  });
}

void suiteJson(Writer &j, const std::optional<SuiteJudgement> &suite) {
  if (!suite) {
    j.value(nullptr);
    return;
  }
  const SuiteJudgement &s = *suite;
  j.object([&] {
    j.attribute("id", str(s.id));
    j.attribute("version", s.version);
    j.attribute("name", str(s.name));
    j.attribute("profile", str(s.file));
    j.attribute("detected_by", str(s.detectedBy));
    j.attributeObject("score", [&] {
      j.attribute("correct", s.score.correct ? llvm::json::Value(*s.score.correct) : llvm::json::Value(nullptr));
      j.attribute("speedup", s.score.speedup ? number(*s.score.speedup) : llvm::json::Value(nullptr));
      j.attribute("peak_fraction", s.score.peakFraction ? number(*s.score.peakFraction) : llvm::json::Value(nullptr));
      j.attribute("sources", strings(s.score.sources));
    });
    j.attribute("gain", str(s.gain));
    j.attributeArray("permitted", [&] {
      for (const PermittedFinding &p : s.permitted)
        j.object([&] {
          j.attribute("rule", str(p.rule));
          j.attribute("lines", lines(p.lines));
          j.attribute("message", str(p.message));
        });
    });
  });
}

void kbauditJson(Writer &j, const KbauditBlock &k) {
  j.object([&] {
    j.attribute("version", str(k.version));
    j.attribute("content_sha256", str(k.contentSha256));
    j.attribute("complete", k.complete);
    j.attribute("incomplete", strings(k.incomplete));
    j.attribute("fingerprint", str(k.fingerprint));
    if (k.problemDir.empty())
      j.attribute("problem", nullptr);
    else
      j.attributeObject("problem", [&] {
        j.attribute("name", str(k.problemName));
        j.attribute("dir", str(k.problemDir));
        j.attribute("precision", str(k.problemPrecision));
      });
    j.attributeBegin("selection");
    selectionJson(j, k.selection);
    j.attributeEnd();
    j.attributeBegin("suite");
    suiteJson(j, k.suite);
    j.attributeEnd();
    j.attributeArray("findings", [&] {
      for (const rules::Finding &f : k.findings)
        findingJson(j, f);
    });
    j.attributeArray("skipped", [&] {
      for (const rules::SkippedRule &s : k.skipped)
        j.object([&] {
          j.attribute("rule", str(s.rule));
          j.attribute("reason", str(s.reason));
        });
    });
    j.attributeArray("diagnostics", [&] {
      for (const Diagnostic &d : k.diagnostics)
        j.object([&] {
          j.attribute("severity", severityName(d.severity));
          j.attribute("code", str(d.code));
          j.attribute("message", str(d.message));
          j.attribute("file", str(d.file));
          j.attribute("lines", lines(d.lines));
        });
    });
    j.attributeArray("embedded_sources", [&] {
      for (const EmbeddedSourceInfo &s : k.embeddedSources)
        j.object([&] {
          j.attribute("origin", str(s.origin));
          j.attribute("language", str(s.language));
          j.attribute("lines", lines(s.lines));
          j.attribute("line_count", s.lineCount);
          j.attribute("complete", s.complete);
        });
    });
    j.attributeBegin("runtime");
    runtimeJson(j, k.runtime);
    j.attributeEnd();
  });
}

void annotationJson(Writer &j, const Annotation &a) {
  j.object([&] {
    j.attribute("schema_version", kJsonSchemaVersion);
    j.attribute("run_id", str(a.runId));
    j.attribute("model", str(a.model));
    j.attribute("harness", str(a.harness));
    j.attribute("effort", str(a.effort));
    j.attribute("problem", str(a.problem));
    j.attribute("peak_fraction", a.peakFraction ? number(*a.peakFraction) : llvm::json::Value(nullptr));
    j.attribute("verdict", str(a.verdict));
    j.attribute("summary", str(a.summary));
    j.attributeArray("quotes", [&] {
      for (const Quote &q : a.quotes)
        j.object([&] {
          j.attribute("file", str(q.file));
          j.attribute("lines", lines(q.lines));
          j.attribute("label", str(q.label));
          j.attribute("text", str(q.text));
        });
    });
    j.attribute("implication", str(a.implication));
    j.attributeBegin("kbaudit");
    kbauditJson(j, a.kbaudit);
    j.attributeEnd();
  });
}

/// One document, indented by two, ending in a newline; DEL and C1 escaped (json_text.h).
template <typename Fn> std::string render(Fn &&write) {
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    Writer j(os, 2);
    write(j);
  }
  os << "\n";
  return escapeDelAndC1(os.str());
}

} // namespace

std::string toJson(const Annotation &a) {
  return render([&](Writer &j) { annotationJson(j, a); });
}

std::string toJsonList(const std::vector<Annotation> &annotations) {
  return render([&](Writer &j) {
    j.array([&] {
      for (const Annotation &a : annotations)
        annotationJson(j, a);
    });
  });
}

std::string toText(const Annotation &a) {
  // Appended piece by piece: every input-derived piece goes through terminalSafe.
  std::string out;
  const auto put = [&out](std::initializer_list<std::string_view> pieces) {
    for (std::string_view p : pieces)
      out += p;
  };
  const auto t = [](const std::string &s) { return terminalSafe(s); };
  put({t(a.runId), ": ", t(a.verdict), "\n  ", t(a.summary), "\n"});
  if (!a.implication.empty())
    put({"  implication: ", t(a.implication), "\n"});
  for (const rules::Finding &f : a.kbaudit.findings) {
    put({"  ", t(f.file), ":", std::to_string(f.lines.begin), ": ", t(f.rule), " ", t(f.name), " [",
         rules::verdictClassName(f.verdict), ", ", rules::confidenceName(f.confidence), "] ", t(f.message)});
    if (!f.evidence.empty())
      put({" (", t(f.evidence), ")"});
    if (!f.suiteNote.empty())
      put({" [suite: ", t(f.suiteNote), "]"});
    out += "\n";
  }
  if (a.kbaudit.suite)
    put({"  suite: ", t(a.kbaudit.suite->id), " (", t(a.kbaudit.suite->detectedBy), "); ", t(a.kbaudit.suite->gain), "\n"});
  for (const rules::SkippedRule &s : a.kbaudit.skipped)
    put({"  skipped ", t(s.rule), ": ", t(s.reason), "\n"});
  for (const Diagnostic &d : a.kbaudit.diagnostics) {
    put({"  ", t(d.file)});
    if (d.lines.valid())
      put({":", std::to_string(d.lines.begin)});
    put({": ", severityName(d.severity), ": ", t(d.code), ": ", t(d.message), "\n"});
  }
  return out;
}

} // namespace kbaudit::annotations
