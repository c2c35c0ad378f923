// Build-time tool: parses the embedded suite profiles (problems/suites/*.yaml, parseSuiteProfile)
// and writes a C++ source that constructs the same SuiteProfile values, so kbaudit does not run
// yaml-cpp over them at every start (about 14 M instructions, an eighth of a small
// `kbaudit check`). A profile that does not parse fails the build, naming the file and the key.
// Profiles from --suites folders are still parsed at run time (suite_catalog.cpp).
//
// Usage: kbaudit_suites_gen OUTPUT.cpp

#include "embedded_suites.h"
#include "kbaudit/problems/suite_profile.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace kbaudit::problems;

constexpr std::string_view kDelimiter = "kbsuite";

/// `text` as a C++ raw string literal.
std::string literal(const std::string &text) {
  if (text.find(")" + std::string(kDelimiter) + "\"") != std::string::npos)
    throw std::runtime_error("a text holds the raw-string delimiter )" + std::string(kDelimiter) + "\"");
  return "R\"" + std::string(kDelimiter) + "(" + text + ")" + std::string(kDelimiter) + "\"";
}

/// The shortest decimal that reads back as exactly `v` (std::to_chars' guarantee).
std::string number(double v) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  if (res.ec != std::errc())
    throw std::runtime_error("cannot print a number");
  std::string text(buf, res.ptr);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0"; // a double literal, not an int
  return text;
}

std::string strings(const std::vector<std::string> &items) {
  std::string out = "{";
  for (const std::string &i : items)
    out += literal(i) + ", ";
  return out + "}";
}

template <typename E> std::string enums(const char *type, const std::vector<E> &items) {
  std::string out = "{";
  for (E e : items)
    out += "static_cast<" + std::string(type) + ">(" + std::to_string(static_cast<int>(e)) + "), ";
  return out + "}";
}

std::string profileSource(const SuiteProfile &p) {
  std::string out = "  {\n    SuiteProfile p;\n";
  out += "    p.id = " + literal(p.id) + ";\n";
  out += "    p.version = " + std::to_string(p.version) + ";\n";
  out += "    p.name = " + literal(p.name) + ";\n";
  out += "    p.summary = " + literal(p.summary) + ";\n";
  out += "    p.file = " + literal(p.file) + ";\n";
  out += "    p.builtin = true;\n";
  for (const ProfileSource &s : p.sources)
    out += "    p.sources.push_back({" + literal(s.file) + ", " + literal(s.says) + "});\n";
  out += "    p.detect.bench = " + strings(p.detect.bench) + ";\n";
  out += "    p.detect.layouts = " + enums("ProblemLayout", p.detect.layouts) + ";\n";
  out += "    p.detect.entries = " + enums("EntryShape", p.detect.entries) + ";\n";
  out += "    p.detect.table = " + std::string(p.detect.table ? "true" : "false") + ";\n";
  out += "    p.detect.markers = " + strings(p.detect.markers) + ";\n";
  out += "    p.entryPoints = " + strings(p.entryPoints) + ";\n";
  out += "    p.mandate = " + literal(p.mandate) + ";\n";
  for (const auto &[term, cost] : p.costs)
    out += "    p.costs[static_cast<Term>(" + std::to_string(static_cast<int>(term)) + ")] = static_cast<Cost>(" +
           std::to_string(static_cast<int>(cost)) + ");\n";
  out += "    p.referencePrecision = " + literal(p.referencePrecision) + ";\n";
  out += "    p.precisionDeclared = " + std::string(p.precisionDeclared ? "true" : "false") + ";\n";
  for (const auto &[dtype, tol] : p.tolerance)
    out += "    p.tolerance[" + literal(dtype) + "] = " + number(tol) + ";\n";
  out += "    p.weights = static_cast<WeightSharing>(" + std::to_string(static_cast<int>(p.weights)) + ");\n";
  out += "    p.harness.mode = static_cast<ModelMode>(" + std::to_string(static_cast<int>(p.harness.mode)) + ");\n";
  out += "    p.harness.order = static_cast<CallOrder>(" + std::to_string(static_cast<int>(p.harness.order)) + ");\n";
  out += "    p.inputs = " + literal(p.inputs) + ";\n";
  out += "    p.timing = " + literal(p.timing) + ";\n";
  out += "    p.harness.packages = " + strings(p.harness.packages) + ";\n";
  out += "    p.score.from = " + strings(p.score.from) + ";\n";
  out += "    p.score.baseline = " + literal(p.score.baseline) + ";\n";
  out += "    p.score.minSpeedup = " + number(p.score.minSpeedup) + ";\n";
  if (p.score.minPeakFraction)
    out += "    p.score.minPeakFraction = " + number(*p.score.minPeakFraction) + ";\n";
  for (const GateCheck &c : p.gate) {
    out += "    {\n      GateCheck c;\n";
    out += "      c.id = " + literal(c.id) + ";\n";
    out += "      c.check = " + literal(c.check) + ";\n";
    out += "      c.action = static_cast<GateAction>(" + std::to_string(static_cast<int>(c.action)) + ");\n";
    out += "      c.source = " + literal(c.source) + ";\n";
    out += "      c.says = " + literal(c.says) + ";\n";
    out += "      c.harm = " + literal(c.harm) + ";\n";
    out += "      c.answers = " + strings(c.answers) + ";\n";
    if (c.test)
      out += "      c.test = GateTest{" + literal(c.test->kind) + ", " + strings(c.test->names) + "};\n";
    out += "      p.gate.push_back(std::move(c));\n    }\n";
  }
  out += "    all.push_back(std::move(p));\n  }\n";
  return out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: kbaudit_suites_gen OUTPUT.cpp\n";
    return 2;
  }
  std::string out = "// Generated by problems/src/suites_gen.cpp from problems/suites/*.yaml; do not edit.\n"
                    "#include \"compiled_suites.h\"\n\n"
                    "namespace kbaudit::problems {\n\n"
                    "std::vector<SuiteProfile> compiledSuiteProfiles() {\n"
                    "  std::vector<SuiteProfile> all;\n";
  for (const EmbeddedFile &f : embeddedSuites()) {
    if (f.path.empty())
      continue;
    ProfileError error;
    const std::optional<SuiteProfile> p = parseSuiteProfile(f.content, std::string(f.path), error);
    if (!p) {
      std::cerr << "kbaudit_suites_gen: " << error.text() << "\n";
      return 1;
    }
    try {
      out += profileSource(*p);
    } catch (const std::exception &e) {
      std::cerr << "kbaudit_suites_gen: " << f.path << ": " << e.what() << "\n";
      return 1;
    }
  }
  out += "  return all;\n}\n\n} // namespace kbaudit::problems\n";
  const std::string tmp = std::string(argv[1]) + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary);
    file << out;
    if (!file) {
      std::cerr << "kbaudit_suites_gen: cannot write " << tmp << "\n";
      return 1;
    }
  }
  return std::rename(tmp.c_str(), argv[1]) == 0 ? 0 : 1;
}
