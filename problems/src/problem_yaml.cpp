#include "problem_yaml.h"

#include "kbaudit/source/data_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace kbaudit::problems {

namespace fs = std::filesystem;

namespace {

using Severity = Diagnostic::Severity;

// A problem.yaml is a few hundred bytes. The limits keep a hostile one (problems come from the
// same untrusted sweeps as solutions) from costing every run audited against it: the file's
// size, the entries of `forbidden` read, and the diagnostics one list may add to each annotation.
constexpr std::size_t kMaxYamlBytes = 1u << 20;
constexpr std::size_t kMaxForbidden = 1000;
constexpr std::size_t kMaxEntryDiagnostics = 10;

/// The keys kbaudit reads; problem.yaml holds many more (flops_formula, sota, hardware, ...).
constexpr std::array<std::string_view, 8> kKnownKeys = {"name",      "display_name", "precision", "regime",
                                                       "tolerance", "forbidden",    "hardware",  "harness_mode"};

bool isNumber(const YAML::Node &n) {
  double d = 0;
  return YAML::convert<double>::decode(n, d);
}

/// A plain (unquoted) scalar YAML reads as a number or boolean is not a string: `forbidden: 42`.
/// A quoted one ("42") is a string whatever it spells.
bool isString(const YAML::Node &n) {
  if (!n.IsScalar())
    return false;
  if (n.Tag() != "?")
    return true;
  bool b = false;
  return !isNumber(n) && !YAML::convert<bool>::decode(n, b);
}

std::string kindOf(const YAML::Node &n) {
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  if (n.IsNull()) return "null";
  if (isString(n)) return "a string";
  bool b = false;
  if (n.Tag() == "?" && !isNumber(n) && YAML::convert<bool>::decode(n, b)) return "a boolean (" + n.Scalar() + ")";
  return "a number (" + n.Scalar() + ")";
}

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

class Reader {
public:
  explicit Reader(ProblemContext &ctx) : ctx_(ctx) {}

  void diagnose(const YAML::Node &at, Severity severity, std::string code, std::string message) {
    const YAML::Mark mark = at.Mark();
    const LineRange lines = mark.line >= 0 ? LineRange{static_cast<unsigned>(mark.line) + 1,
                                                       static_cast<unsigned>(mark.line) + 1}
                                           : LineRange{};
    ctx_.diagnostics.push_back(Diagnostic{severity, std::move(code), std::move(message), "problem.yaml", lines});
  }

  /// A string-valued key: any scalar is taken as written; a list or mapping is ignored.
  std::string scalar(const YAML::Node &root, const char *key) {
    const YAML::Node v = root[key];
    if (!v || v.IsNull())
      return {};
    if (v.IsScalar())
      return v.Scalar();
    diagnose(v, Severity::Warning, "problem-yaml-type",
             std::string("`") + key + "` should be a string, not " + kindOf(v) + "; it is ignored");
    return {};
  }

  void tolerance(const YAML::Node &root) {
    const YAML::Node tol = root["tolerance"];
    if (!tol || tol.IsNull())
      return;
    if (!tol.IsMap()) {
      diagnose(tol, Severity::Warning, "problem-yaml-type",
               "`tolerance` should be a mapping of dtype to number, not " + kindOf(tol) + "; it is ignored");
      return;
    }
    for (const auto &kv : tol) {
      double v = 0;
      if (kv.second.IsScalar() && YAML::convert<double>::decode(kv.second, v)) {
        // `.nan` or `.inf` would make every comparison against the tolerance false (or true).
        if (!std::isfinite(v) || v < 0) {
          diagnose(kv.second, Severity::Warning, "problem-yaml-value",
                   "`tolerance` of `" + kv.first.Scalar() + "` is " + kv.second.Scalar() +
                       ", not a finite non-negative number; it is ignored");
          continue;
        }
        ctx_.tolerance[kv.first.Scalar()] = v;
        continue;
      }
      diagnose(kv.second, Severity::Warning, "problem-yaml-type",
               "`tolerance` of `" + kv.first.Scalar() + "` should be a number, not " + kindOf(kv.second) +
                   "; it is ignored");
    }
  }

  /// WRAP005 judges against this list, so a shape it cannot use must never pass silently.
  void forbidden(const YAML::Node &root) {
    const YAML::Node forb = root["forbidden"];
    if (!forb || forb.IsNull())
      return;
    if (isString(forb)) {
      ctx_.forbidden.push_back(forb.Scalar());
      diagnose(forb, Severity::Note, "problem-yaml-coerced",
               "`forbidden` is a single string, not a list; read as the one-entry list [\"" + forb.Scalar() + "\"]");
      return;
    }
    if (!forb.IsSequence()) {
      diagnose(forb, Severity::Warning, "problem-yaml-type",
               "`forbidden` should be a list of strings, not " + kindOf(forb) + "; it is ignored");
      return;
    }
    std::size_t index = 0, bad = 0;
    for (const auto &item : forb) {
      if (++index > kMaxForbidden) {
        diagnose(item, Severity::Warning, "problem-yaml-value",
                 "`forbidden` lists " + std::to_string(forb.size()) + " entries; kbaudit reads the first " +
                     std::to_string(kMaxForbidden) + " (a real list names a few operations)");
        break;
      }
      if (isString(item) && !item.Scalar().empty()) {
        ctx_.forbidden.push_back(item.Scalar());
        continue;
      }
      if (++bad <= kMaxEntryDiagnostics)
        diagnose(item, Severity::Warning, "problem-yaml-type",
                 "`forbidden` entry " + std::to_string(index) + " should be a non-empty string, not " +
                     (isString(item) ? std::string("an empty one") : kindOf(item)) + "; it is ignored");
    }
    if (bad > kMaxEntryDiagnostics)
      diagnose(forb, Severity::Warning, "problem-yaml-type",
               std::to_string(bad - kMaxEntryDiagnostics) + " more `forbidden` entries are not non-empty strings; "
               "they are ignored");
  }

  /// `hardware: [H100]` (or one string): the GPUs the problem is graded on, which the compiled
  /// front end compiles for. Entries that are not strings are ignored.
  void hardware(const YAML::Node &root) {
    const YAML::Node hw = root["hardware"];
    if (!hw || hw.IsNull())
      return;
    if (isString(hw)) {
      ctx_.hardware.push_back(hw.Scalar());
      return;
    }
    if (hw.IsSequence())
      for (const YAML::Node &item : hw)
        if (isString(item) && !item.Scalar().empty())
          ctx_.hardware.push_back(item.Scalar());
  }

  /// A key one or two edits from one kbaudit reads is most likely that key misspelt, and the
  /// contract it states would otherwise be dropped without a word.
  void misspeltKeys(const YAML::Node &root) {
    for (const auto &kv : root) {
      if (!kv.first.IsScalar())
        continue;
      const std::string key = kv.first.Scalar();
      if (std::find(kKnownKeys.begin(), kKnownKeys.end(), key) != kKnownKeys.end())
        continue;
      for (std::string_view known : kKnownKeys) {
        const std::size_t limit = known.size() <= 5 ? 1 : 2;
        if (editDistance(key, known) <= limit) {
          diagnose(kv.first, Severity::Warning, "problem-yaml-key",
                   "`" + key + "` is not a key kbaudit reads; did you mean `" + std::string(known) + "`?");
          break;
        }
      }
    }
  }

private:
  ProblemContext &ctx_;
};

} // namespace

void readProblemYaml(ProblemContext &ctx, const fs::path &yamlPath) {
  const auto malformed = [&](const std::string &why) {
    ctx.diagnostics.push_back(Diagnostic{Severity::Warning, "problem-malformed", why, "problem.yaml", {}});
  };
  std::variant<std::string, std::string> read = data::readText(yamlPath, kMaxYamlBytes);
  if (const std::string *why = std::get_if<1>(&read)) {
    malformed(*why);
    return;
  }
  const std::string &text = std::get<0>(read);
  if (const std::size_t bad = data::invalidUtf8At(text); bad != std::string::npos) {
    const unsigned line = data::lineAt(text, bad);
    ctx.diagnostics.push_back(Diagnostic{Severity::Warning, "problem-yaml-encoding",
                                         "problem.yaml is not valid UTF-8 (byte " + std::to_string(bad) +
                                             "); values holding such bytes may not be what the author wrote",
                                         "problem.yaml", LineRange{line, line}});
  }
  if (std::optional<std::string> why = data::yamlTooDeep(text)) {
    malformed(yamlPath.string() + " is " + *why);
    return;
  }
  try {
    const std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() > 1)
      // A second document is invisible to a reader that loads one: whichever the grader
      // reads, kbaudit must not silently judge by the other.
      ctx.diagnostics.push_back(Diagnostic{Severity::Warning, "problem-yaml-documents",
                                           "problem.yaml holds " + std::to_string(documents.size()) +
                                               " YAML documents; kbaudit reads the first only",
                                           "problem.yaml", {}});
    const YAML::Node root = documents.empty() ? YAML::Node() : documents.front();
    if (!root.IsMap()) {
      malformed(yamlPath.string() + " is not a mapping");
      return;
    }
    Reader r(ctx);
    if (auto n = r.scalar(root, "name"); !n.empty())
      ctx.name = n;
    ctx.displayName = r.scalar(root, "display_name");
    ctx.precision = r.scalar(root, "precision");
    if (!ctx.precision.empty() && canonicalDtype(ctx.precision).empty())
      r.diagnose(root["precision"], Severity::Warning, "problem-yaml-value",
                 "`precision: " + ctx.precision +
                     "` is not a dtype kbaudit knows; the contract dtype comes from the reference's inputs");
    ctx.regime = r.scalar(root, "regime");
    // How the grader runs the models: `eval` when it calls eval() before checking and timing
    // (BatchNorm then normalises with running statistics on both sides); training mode otherwise.
    if (const std::string mode = r.scalar(root, "harness_mode"); mode == "eval" || mode == "train") {
      ctx.harness.mode = mode == "eval" ? ModelMode::Eval : ModelMode::Train;
      ctx.harnessModeStated = true;
    } else if (!mode.empty()) {
      r.diagnose(root["harness_mode"], Severity::Warning, "problem-yaml-value",
                 "`harness_mode: " + mode + "` is neither `train` nor `eval`; the suite's mode is assumed");
    }
    r.tolerance(root);
    r.forbidden(root);
    r.hardware(root);
    r.misspeltKeys(root);
  } catch (const YAML::Exception &e) {
    malformed(yamlPath.string() + ": " + e.what());
  }
}

} // namespace kbaudit::problems
