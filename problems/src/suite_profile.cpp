// Reading one suite profile. Every key is checked against the schema: a profile decides what a
// finding costs, so a misspelt key or a wrong type must fail loudly, naming the file and the key,
// instead of silently leaving a term at its default.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/problems/suite_profile.h"
#include "kbaudit/source/data_file.h"

#include <yaml-cpp/yaml.h>

#include <array>
#include <cmath>
#include <set>
#include <utility>

namespace kbaudit::problems {

namespace {

constexpr std::array<std::pair<Term, const char *>, 11> kTerms = {{
    {Term::Correctness, "correctness"},
    {Term::Timing, "timing"},
    {Term::Grader, "grader"},
    {Term::AuthoredKernel, "authored-kernel"},
    {Term::AuthoredCompute, "authored-compute"},
    {Term::ForbiddenOps, "forbidden-ops"},
    {Term::ForbiddenLibraries, "forbidden-libraries"},
    {Term::Precision, "precision"},
    {Term::ProblemPromise, "problem-promise"},
    {Term::TestDistribution, "test-distribution"},
    {Term::SuiteGate, "suite-gate"},
}};

constexpr std::array<std::pair<ModelMode, const char *>, 3> kModes = {{
    {ModelMode::Unknown, "unknown"},
    {ModelMode::Train, "train"},
    {ModelMode::Eval, "eval"},
}};

constexpr std::array<std::pair<CallOrder, const char *>, 3> kOrders = {{
    {CallOrder::Unknown, "unknown"},
    {CallOrder::ReferenceFirst, "reference-first"},
    {CallOrder::SolutionOnCopy, "solution-on-copy"},
}};

constexpr std::array<std::pair<GateAction, const char *>, 2> kGateActions = {{
    {GateAction::Reject, "reject"},
    {GateAction::Warn, "warn"},
}};

constexpr std::array<std::pair<WeightSharing, const char *>, 4> kWeights = {{
    {WeightSharing::SameSeed, "same-seed"},
    {WeightSharing::StrictLoad, "strict-load"},
    {WeightSharing::LenientLoad, "lenient-load"},
    {WeightSharing::Inputs, "inputs"},
}};

constexpr std::array<std::pair<ProblemLayout, const char *>, 5> kLayouts = {{
    {ProblemLayout::None, "none"},
    {ProblemLayout::ProblemYaml, "problem-yaml"},
    {ProblemLayout::Module, "module"},
    {ProblemLayout::GpuModeReference, "gpumode-reference"},
    {ProblemLayout::ReferenceOnly, "reference-only"},
}};

constexpr std::array<std::pair<EntryShape, const char *>, 5> kEntries = {{
    {EntryShape::Unknown, "unknown"},
    {EntryShape::ModelNew, "model-new"},
    {EntryShape::Model, "model"},
    {EntryShape::CustomKernel, "custom-kernel"},
    {EntryShape::OutputKernel, "output-kernel"},
}};

constexpr std::array<std::pair<Cost, const char *>, 3> kCosts = {{
    {Cost::Hack, "hack"},
    {Cost::Review, "review"},
    {Cost::Allowed, "allowed"},
}};

template <typename E, std::size_t N> const char *nameOf(const std::array<std::pair<E, const char *>, N> &table, E v) {
  for (const auto &[value, name] : table)
    if (value == v)
      return name;
  return "?";
}

template <typename E, std::size_t N>
std::optional<E> valueOf(const std::array<std::pair<E, const char *>, N> &table, std::string_view name) {
  for (const auto &[value, text] : table)
    if (name == text)
      return value;
  return std::nullopt;
}

template <typename E, std::size_t N> std::string choices(const std::array<std::pair<E, const char *>, N> &table) {
  std::string out;
  for (const auto &entry : table)
    out += (out.empty() ? "" : ", ") + std::string(entry.second);
  return out;
}

/// Thrown inside the parser only; parseSuiteProfile turns it into a ProfileError.
struct Bad {
  std::string key, message;
};

class Reader {
public:
  explicit Reader(const YAML::Node &root) : root_(root) {}

  /// Rejects keys of `node` (at `path`) outside `known`.
  static void onlyKeys(const YAML::Node &node, const std::string &path, const std::set<std::string> &known) {
    if (!node.IsMap())
      throw Bad{path, "expected a mapping"};
    for (const auto &kv : node) {
      const std::string key = kv.first.Scalar();
      if (!known.count(key)) {
        std::string list;
        for (const std::string &k : known)
          list += (list.empty() ? "" : ", ") + k;
        throw Bad{join(path, key), "unknown key (expected one of: " + list + ")"};
      }
    }
  }

  static std::string join(const std::string &path, const std::string &key) { return path.empty() ? key : path + "." + key; }

  static std::string text(const YAML::Node &n, const std::string &path, bool required) {
    if (!n) {
      if (required)
        throw Bad{path, "missing"};
      return {};
    }
    if (!n.IsScalar())
      throw Bad{path, "expected a string"};
    return n.Scalar();
  }

  static bool boolean(const YAML::Node &n, const std::string &path) {
    if (!n)
      return false;
    bool v = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v))
      throw Bad{path, "expected true or false"};
    return v;
  }

  static double positive(const YAML::Node &n, const std::string &path) {
    double v = 0;
    if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v) || v <= 0)
      throw Bad{path, "expected a positive number"};
    return v;
  }

  static std::vector<std::string> texts(const YAML::Node &n, const std::string &path) {
    std::vector<std::string> out;
    if (!n)
      return out;
    if (!n.IsSequence())
      throw Bad{path, "expected a list of strings"};
    for (std::size_t i = 0; i < n.size(); ++i)
      out.push_back(text(n[i], path + "[" + std::to_string(i) + "]", true));
    return out;
  }

  template <typename E, std::size_t N>
  static E oneOf(const std::array<std::pair<E, const char *>, N> &table, const YAML::Node &n, const std::string &path) {
    const std::string t = text(n, path, true);
    if (auto v = valueOf(table, t))
      return *v;
    throw Bad{path, "'" + t + "' is not one of: " + choices(table)};
  }

  template <typename E, std::size_t N>
  static std::vector<E> listOf(const std::array<std::pair<E, const char *>, N> &table, const YAML::Node &n,
                               const std::string &path) {
    std::vector<E> out;
    if (!n)
      return out;
    if (!n.IsSequence())
      throw Bad{path, "expected a list"};
    for (std::size_t i = 0; i < n.size(); ++i)
      out.push_back(oneOf(table, n[i], path + "[" + std::to_string(i) + "]"));
    return out;
  }

  SuiteProfile read() {
    onlyKeys(root_, "", {"id", "version", "name", "summary", "sources", "detect", "entry_points", "mandate", "terms",
                         "precision", "weights", "harness", "inputs", "timing", "score", "gate"});
    SuiteProfile p;
    p.id = text(root_["id"], "id", true);
    if (p.id.empty() || p.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
      throw Bad{"id", "expected lower-case letters, digits and '-'"};
    const YAML::Node version = root_["version"];
    if (!version)
      throw Bad{"version", "missing"};
    int v = 0;
    if (!version.IsScalar() || !YAML::convert<int>::decode(version, v) || v < 1)
      throw Bad{"version", "expected a positive integer"};
    p.version = static_cast<unsigned>(v);
    p.name = text(root_["name"], "name", true);
    p.summary = text(root_["summary"], "summary", true);
    readSources(p);
    readDetect(p);
    p.entryPoints = texts(root_["entry_points"], "entry_points");
    p.mandate = text(root_["mandate"], "mandate", true);
    if (p.mandate != "none" && p.mandate != "some" && p.mandate != "all")
      throw Bad{"mandate", "'" + p.mandate + "' is not one of: none, some, all"};
    readTerms(p);
    readPrecision(p);
    p.weights = oneOf(kWeights, root_["weights"], "weights");
    readHarness(p);
    p.inputs = text(root_["inputs"], "inputs", false);
    p.timing = text(root_["timing"], "timing", false);
    readScore(p);
    readGate(p);
    return p;
  }

private:
  void readSources(SuiteProfile &p) {
    const YAML::Node n = root_["sources"];
    if (!n || !n.IsSequence() || n.size() == 0)
      throw Bad{"sources", "expected a non-empty list of {file, says}: a profile cites the public files it comes from"};
    for (std::size_t i = 0; i < n.size(); ++i) {
      const std::string path = "sources[" + std::to_string(i) + "]";
      onlyKeys(n[i], path, {"file", "says"});
      p.sources.push_back({text(n[i]["file"], path + ".file", true), text(n[i]["says"], path + ".says", true)});
    }
  }

  void readDetect(SuiteProfile &p) {
    const YAML::Node n = root_["detect"];
    if (!n)
      return;
    onlyKeys(n, "detect", {"bench", "layouts", "entries", "table", "markers"});
    p.detect.bench = texts(n["bench"], "detect.bench");
    p.detect.layouts = listOf(kLayouts, n["layouts"], "detect.layouts");
    p.detect.entries = listOf(kEntries, n["entries"], "detect.entries");
    p.detect.table = boolean(n["table"], "detect.table");
    p.detect.markers = texts(n["markers"], "detect.markers");
  }

  void readTerms(SuiteProfile &p) {
    const YAML::Node n = root_["terms"];
    if (!n)
      throw Bad{"terms", "missing: say what each contract term costs in this suite"};
    if (!n.IsMap())
      throw Bad{"terms", "expected a mapping of term to hack, review or allowed"};
    for (const auto &kv : n) {
      const std::string key = kv.first.Scalar();
      const std::string path = "terms." + key;
      const std::optional<Term> t = termNamed(key);
      if (!t)
        throw Bad{path, "unknown term (expected one of: " + choices(kTerms) + ")"};
      if (universalTerm(*t))
        throw Bad{path, "defeating the grader's " + key + " check is a hack under every profile; it cannot be priced"};
      p.costs[*t] = oneOf(kCosts, kv.second, path);
    }
  }

  void readPrecision(SuiteProfile &p) {
    const YAML::Node n = root_["precision"];
    if (!n)
      return;
    onlyKeys(n, "precision", {"reference", "declared", "tolerance"});
    if (n["reference"]) {
      p.referencePrecision = text(n["reference"], "precision.reference", true);
      if (p.referencePrecision != "problem" && canonicalDtype(p.referencePrecision).empty())
        throw Bad{"precision.reference", "'" + p.referencePrecision + "' is neither 'problem' nor a dtype"};
    }
    p.precisionDeclared = boolean(n["declared"], "precision.declared");
    if (const YAML::Node t = n["tolerance"]) {
      if (!t.IsMap())
        throw Bad{"precision.tolerance", "expected a mapping of dtype to tolerance"};
      for (const auto &kv : t) {
        const std::string path = "precision.tolerance." + kv.first.Scalar();
        const std::string dtype = canonicalDtype(kv.first.Scalar());
        if (dtype.empty())
          throw Bad{path, "not a dtype"};
        p.tolerance[dtype] = positive(kv.second, path);
      }
    }
  }

  void readHarness(SuiteProfile &p) {
    const YAML::Node n = root_["harness"];
    if (!n)
      return;
    onlyKeys(n, "harness", {"mode", "order", "packages"});
    if (n["mode"])
      p.harness.mode = oneOf(kModes, n["mode"], "harness.mode");
    if (n["order"])
      p.harness.order = oneOf(kOrders, n["order"], "harness.order");
    p.harness.packages = texts(n["packages"], "harness.packages");
  }

  void readScore(SuiteProfile &p) {
    const YAML::Node n = root_["score"];
    if (!n)
      return;
    onlyKeys(n, "score", {"from", "baseline", "min_speedup", "min_peak_fraction"});
    p.score.from = texts(n["from"], "score.from");
    p.score.baseline = text(n["baseline"], "score.baseline", false);
    if (n["min_speedup"])
      p.score.minSpeedup = positive(n["min_speedup"], "score.min_speedup");
    if (n["min_peak_fraction"])
      p.score.minPeakFraction = positive(n["min_peak_fraction"], "score.min_peak_fraction");
  }

  // The suite's own gate, check by check. Each check cites its file and names what answers it:
  // a check nothing answers is a gap in kbaudit, so it fails here rather than in a table.
  void readGate(SuiteProfile &p) {
    const YAML::Node n = root_["gate"];
    if (!n)
      return;
    if (!n.IsSequence())
      throw Bad{"gate", "expected a list of checks"};
    std::set<std::string> ids;
    for (std::size_t i = 0; i < n.size(); ++i) {
      const std::string path = "gate[" + std::to_string(i) + "]";
      onlyKeys(n[i], path, {"id", "check", "action", "source", "says", "harm", "answers", "test"});
      GateCheck c;
      c.id = text(n[i]["id"], path + ".id", true);
      if (c.id.empty() || c.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
        throw Bad{path + ".id", "expected lower-case letters, digits and '-'"};
      if (!ids.insert(c.id).second)
        throw Bad{path + ".id", "'" + c.id + "' appears twice"};
      c.check = text(n[i]["check"], path + ".check", true);
      c.action = oneOf(kGateActions, n[i]["action"], path + ".action");
      c.source = text(n[i]["source"], path + ".source", true);
      c.says = text(n[i]["says"], path + ".says", true);
      c.harm = text(n[i]["harm"], path + ".harm", true);
      c.answers = texts(n[i]["answers"], path + ".answers");
      if (c.answers.empty())
        throw Bad{path + ".answers", "missing: name the rules that answer this check (a check nothing answers is a gap)"};
      if (const YAML::Node t = n[i]["test"]) {
        onlyKeys(t, path + ".test", {"kind", "names"});
        c.test = GateTest{text(t["kind"], path + ".test.kind", true), texts(t["names"], path + ".test.names")};
      }
      p.gate.push_back(std::move(c));
    }
  }

  const YAML::Node &root_;
};

} // namespace

const char *termName(Term t) { return nameOf(kTerms, t); }
std::optional<Term> termNamed(std::string_view name) { return valueOf(kTerms, name); }
bool universalTerm(Term t) { return t == Term::Correctness || t == Term::Timing || t == Term::Grader; }
bool gainMatters(Term t) {
  return t == Term::AuthoredKernel || t == Term::AuthoredCompute || t == Term::ForbiddenOps ||
         t == Term::ForbiddenLibraries;
}
const std::vector<Term> &allTerms() {
  static const std::vector<Term> all = [] {
    std::vector<Term> out;
    for (const auto &entry : kTerms)
      out.push_back(entry.first);
    return out;
  }();
  return all;
}
const char *costName(Cost c) { return nameOf(kCosts, c); }
const char *gateActionName(GateAction a) { return nameOf(kGateActions, a); }
const char *weightSharingName(WeightSharing w) { return nameOf(kWeights, w); }
const char *modelModeName(ModelMode m) { return nameOf(kModes, m); }
const char *callOrderName(CallOrder o) { return nameOf(kOrders, o); }
const char *layoutName(ProblemLayout l) { return nameOf(kLayouts, l); }
const char *entryShapeName(EntryShape e) { return nameOf(kEntries, e); }

Cost SuiteProfile::cost(Term t) const {
  if (universalTerm(t))
    return Cost::Hack;
  auto it = costs.find(t);
  return it == costs.end() ? Cost::Hack : it->second;
}

std::string ProfileError::text() const { return file + ": " + (key.empty() ? "" : key + ": ") + message; }

std::optional<SuiteProfile> parseSuiteProfile(std::string_view yaml, const std::string &file, ProfileError &error) {
  error = ProfileError{file, {}, {}};
  // yaml-cpp recurses once per level: a user folder's profile is refused before it can overflow.
  if (std::optional<std::string> why = data::yamlTooDeep(yaml)) {
    error.message = *why;
    return std::nullopt;
  }
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    if (!root || root.IsNull()) {
      error.message = "empty profile";
      return std::nullopt;
    }
    SuiteProfile p = Reader(root).read();
    p.file = file;
    return p;
  } catch (const Bad &bad) {
    error.key = bad.key;
    error.message = bad.message;
  } catch (const YAML::Exception &e) {
    error.message = "not YAML: " + std::string(e.what());
  }
  return std::nullopt;
}

} // namespace kbaudit::problems
