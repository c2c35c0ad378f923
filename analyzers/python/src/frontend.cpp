#include "kbaudit/python/frontend.h"

#include "evaluator.h"
#include "extractor.h"
#include "nesting_scan.h"
#include "parse.h"
#include "resolver.h"
#include "scope.h"

namespace kbaudit::py {

PythonFacts analyze(std::string_view source) {
  PythonFacts facts;
  try {
    ParseResult parsed = parse(source);
    facts.diagnostics = std::move(parsed.diagnostics);
    // Past CPython's own nesting limits the parser's tree is no reliable view of the file
    // (300 nested `if`s parse as syntax errors, and the walkers stop earlier still).
    if (const TextNesting depth = measureNesting(source);
        depth.indentLevels > kCpythonMaxIndent || depth.brackets > kCpythonMaxBrackets) {
      const bool indent = depth.indentLevels > kCpythonMaxIndent;
      const unsigned line = indent ? depth.indentLine : depth.bracketLine;
      Diagnostic d;
      d.severity = Diagnostic::Severity::Warning;
      d.code = "nesting-too-deep";
      d.message = indent ? "statements nested " + std::to_string(depth.indentLevels) +
                               " indentation levels deep (CPython stops at " + std::to_string(kCpythonMaxIndent) +
                               ") at line " + std::to_string(line) + " were not analysed reliably"
                         : std::to_string(depth.brackets) + " brackets open at once (CPython stops at " +
                               std::to_string(kCpythonMaxBrackets) + ") at line " + std::to_string(line) +
                               " were not analysed reliably";
      d.lines = LineRange{line, line};
      facts.diagnostics.push_back(std::move(d));
    }
    if (!parsed.tree)
      return facts;
    // After a repair the tree indexes the repaired text (same offsets, error lines blanked).
    llvm::StringRef src = parsed.repaired.empty() ? llvm::StringRef(source.data(), source.size())
                                                  : llvm::StringRef(parsed.repaired);
    TSNode root = ts_tree_root_node(parsed.tree.get());
    const ts::NodeMemo memo(parsed.tree.get()); // every walker below lists the same nodes again
    bool reported = false;
    auto tooDeep = [&](TSNode n) {
      if (reported)
        return;
      reported = true;
      facts.diagnostics.push_back(nestingTooDeep(n, kMaxDepth, "statements"));
    };
    ScopeTable table = buildScopes(root, src, tooDeep);
    Resolver resolver(table, src);
    Evaluator evaluator(table, resolver, src);
    Extractor(src, table, resolver, evaluator, facts).run(root);
  } catch (const std::exception &e) {
    // Out of memory or a bug: report it as a diagnostic rather than take the audit down.
    Diagnostic d;
    d.severity = Diagnostic::Severity::Error;
    d.code = "python-frontend-failure";
    d.message = std::string("the Python front end failed: ") + e.what();
    facts.diagnostics.push_back(std::move(d));
  }
  return facts;
}

} // namespace kbaudit::py
