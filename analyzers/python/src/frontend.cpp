#include "kbaudit/python/frontend.h"

#include "evaluator.h"
#include "extractor.h"
#include "parse.h"
#include "resolver.h"
#include "scope.h"

namespace kbaudit::py {

PythonFacts analyze(std::string_view source) {
  PythonFacts facts;
  try {
    ParseResult parsed = parse(source);
    facts.diagnostics = std::move(parsed.diagnostics);
    if (!parsed.tree)
      return facts;
    // After a repair the tree indexes the repaired text (same offsets, error lines blanked).
    llvm::StringRef src = parsed.repaired.empty() ? llvm::StringRef(source.data(), source.size())
                                                  : llvm::StringRef(parsed.repaired);
    TSNode root = ts_tree_root_node(parsed.tree.get());
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
