// `--output-format junit`: the JUnit XML that CI systems (GitLab, Jenkins, Azure) show as a test
// report, laid out as ruff writes it: a suite per file, a failed case per finding. pugixml does
// the escaping; terminalSafe first turns the control characters XML 1.0 cannot hold into text.

#include "kbaudit/annotations/report_formats.h"

#include "kbaudit/annotations/terminal_text.h"

#include <pugixml.hpp>

#include <sstream>

namespace kbaudit::annotations {

namespace {

std::string safe(const std::string &s) { return terminalSafe(s); }

void failedCase(pugi::xml_node suite, const CheckedFile &file, const rules::Finding &f) {
  pugi::xml_node tc = suite.append_child("testcase");
  tc.append_attribute("name") = ("kbaudit." + safe(f.rule)).c_str();
  tc.append_attribute("classname") = safe(file.pathOf(f.file)).c_str();
  std::string where;
  if (f.lines.valid()) {
    tc.append_attribute("line") = f.lines.begin;
    where = "line " + std::to_string(f.lines.begin);
    if (const std::string *text = file.sourceOf(f.file)) {
      const Span span = spanOf(*text, f.lines, ColumnUnit::CodePoint);
      if (span.startColumn) {
        tc.append_attribute("column") = span.startColumn;
        where += ", col " + std::to_string(span.startColumn);
      }
    }
    where += ", ";
  }
  pugi::xml_node failure = tc.append_child("failure");
  failure.append_attribute("message") = safe(f.message).c_str();
  failure.append_attribute("type") = rules::verdictClassName(f.verdict);
  failure.text() = (where + safe(f.name) + " [" + rules::confidenceName(f.confidence) + "]: " + safe(f.message) +
                    (f.evidence.empty() ? std::string() : " (" + safe(f.evidence) + ")"))
                       .c_str();
}

} // namespace

std::string toJunit(const std::vector<CheckedFile> &files) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = doc.append_child("testsuites");
  root.append_attribute("name") = "kbaudit";
  std::size_t tests = 0, failures = 0, errors = 0;
  for (const CheckedFile &file : files) {
    const Annotation &a = file.annotation;
    pugi::xml_node suite = root.append_child("testsuite");
    suite.append_attribute("name") = safe(file.path).c_str();
    std::size_t suiteTests = 0, suiteFailures = 0, suiteErrors = 0;
    for (const rules::Finding &f : a.kbaudit.findings)
      if (!f.accepted) {
        failedCase(suite, file, f);
        ++suiteTests;
        ++suiteFailures;
      }
    if (a.verdict == "bug") { // could not be audited: an error, not a pass
      pugi::xml_node tc = suite.append_child("testcase");
      tc.append_attribute("name") = "kbaudit.audit";
      tc.append_attribute("classname") = safe(file.path).c_str();
      tc.append_child("error").append_attribute("message") = safe(a.summary).c_str();
      ++suiteTests;
      ++suiteErrors;
    } else if (suiteTests == 0) {
      pugi::xml_node tc = suite.append_child("testcase");
      tc.append_attribute("name") = ("kbaudit.verdict." + safe(a.verdict)).c_str();
      tc.append_attribute("classname") = safe(file.path).c_str();
      ++suiteTests;
    }
    suite.append_attribute("tests") = suiteTests;
    suite.append_attribute("failures") = suiteFailures;
    suite.append_attribute("errors") = suiteErrors;
    tests += suiteTests;
    failures += suiteFailures;
    errors += suiteErrors;
  }
  root.append_attribute("tests") = tests;
  root.append_attribute("failures") = failures;
  root.append_attribute("errors") = errors;
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

} // namespace kbaudit::annotations
