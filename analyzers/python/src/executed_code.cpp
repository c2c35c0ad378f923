#include "kbaudit/python/executed_code.h"

#include "kbaudit/python/frontend.h"

#include "decorator_calls.h"
#include "lambda_defs.h"
#include "line_edit.h"

#include <algorithm>
#include <map>
#include <set>

namespace kbaudit::py {

namespace {

/// exec/compile/eval however reached (`builtins.exec`, an alias the resolver followed).
std::string_view runnerOf(std::string_view r) {
  if (r.rfind("builtins.", 0) == 0)
    r.remove_prefix(9);
  if (r == "exec" || r == "compile" || r == "eval")
    return r;
  return {};
}

std::string_view runner(const Call &c) { return runnerOf(c.resolved); }

bool atModuleLevel(const std::vector<std::string> &lines, unsigned line) {
  return line >= 1 && line <= lines.size() && !lines[line - 1].empty() && lines[line - 1][0] != ' ' &&
         lines[line - 1][0] != '\t';
}

Diagnostic unseen(const Call &c, std::string why) {
  return Diagnostic{Diagnostic::Severity::Warning, "code-built-at-run-time",
                    std::string(runner(c)) + "() runs code kbaudit cannot read as code (" + std::move(why) +
                        "); what it runs was not analysed",
                    "solution.py", c.lines};
}

/// The lines of the statement(s) that hold `line` at module level: an assignment's, else the line.
LineRange statementAt(const PythonFacts &facts, unsigned line) {
  for (const Assignment &a : facts.assignments)
    if (a.function.empty() && a.lines.begin <= line && line <= a.lines.end)
      return a.lines;
  return LineRange{line, line};
}

} // namespace

ExecutedCode readExecutedCode(std::string_view source, const PythonFacts &facts) {
  ExecutedCode out;
  // Without an exec, compile or eval call there is nothing to read or report: return before the
  // text is split into lines (most files have none).
  if (std::none_of(facts.calls.begin(), facts.calls.end(), [](const Call &c) { return !runner(c).empty(); }))
    return out;
  const std::vector<std::string> lines = linesOf(source);
  std::vector<std::string> rewritten = lines;
  std::set<unsigned> taken; // solution lines already given to inlined code
  bool any = false;
  // `code = compile(SRC, ...)` at module level: an exec of `code` runs what the compile reads.
  std::map<std::string, LineRange> compiledNames;
  for (const Assignment &a : facts.assignments)
    if (a.function.empty() && a.kind == Assignment::TargetKind::Name && a.value.kind == ExprKind::Call &&
        runnerOf(a.value.resolved) == "compile")
      compiledNames[a.target] = a.lines;
  std::vector<std::pair<LineRange, LineRange>> execOfCompiled; // (exec call, compile statement)
  std::vector<LineRange> inlinedCompiles;
  for (const Call &c : facts.calls) {
    const std::string_view kind = runner(c);
    if (kind.empty())
      continue;
    const Argument *arg = c.positionalArg(0);
    if (!arg)
      arg = c.keywordArg(kind == "compile" ? "source" : "");
    if (!arg)
      continue;
    // exec(compile(src, ...)): the compile call is read on its own.
    if (kind == "exec" && arg->value.kind == ExprKind::Call && runnerOf(arg->value.resolved) == "compile")
      continue;
    if (kind == "exec" && arg->value.kind == ExprKind::Name && compiledNames.count(arg->value.text)) {
      execOfCompiled.emplace_back(c.lines, compiledNames[arg->value.text]);
      continue;
    }
    const std::optional<StringValue> &s = arg->value.string;
    if (!s || !s->complete || s->limited) {
      out.diagnostics.push_back(unseen(c, s && s->limited ? "a limit of the string evaluator was hit"
                                          : "its string is computed at run time"));
      continue;
    }
    if (kind == "eval") {
      out.diagnostics.push_back(unseen(c, "an expression's value is not modelled"));
      continue;
    }
    // One solution line per line of the code, in order, each inside a module-level statement.
    // A trailing newline opens no line of its own (StringValue::lineOrigins counts the same way).
    const std::string_view value = s->value;
    const std::vector<std::string> code = linesOf(value.ends_with('\n') ? value.substr(0, value.size() - 1) : value);
    const std::vector<unsigned> &origin = s->lineOrigins;
    bool placeable = !c.function.size() && atModuleLevel(lines, c.lines.begin) && code.size() == origin.size() &&
                     std::is_sorted(origin.begin(), origin.end()) &&
                     std::adjacent_find(origin.begin(), origin.end()) == origin.end();
    std::vector<LineRange> cleared{c.lines};
    for (std::size_t i = 0; placeable && i < origin.size(); ++i) {
      const unsigned line = origin[i];
      const bool inCleared = std::any_of(cleared.begin(), cleared.end(),
                                         [&](const LineRange &r) { return r.begin <= line && line <= r.end; });
      if (!inCleared) {
        const LineRange st = statementAt(facts, line);
        placeable = atModuleLevel(lines, st.begin) && st.begin <= line && line <= st.end;
        cleared.push_back(st);
      }
      placeable = placeable && line >= 1 && line <= lines.size() && !taken.count(line);
    }
    if (!placeable) {
      out.diagnostics.push_back(unseen(c, c.function.size() ? "it runs inside a function"
                                                            : "its lines cannot be placed on the solution's lines"));
      continue;
    }
    for (const LineRange &r : cleared)
      for (unsigned l = r.begin; l <= r.end && l <= lines.size(); ++l)
        if (!taken.count(l))
          rewritten[l - 1].clear();
    for (std::size_t i = 0; i < origin.size(); ++i) {
      rewritten[origin[i] - 1] = code[i];
      taken.insert(origin[i]);
    }
    any = true;
    if (kind == "compile")
      inlinedCompiles.push_back(c.lines);
    out.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Note, "executed-code-read",
                                         std::string(kind) + "() of a constant string: its " +
                                             std::to_string(code.size()) +
                                             " line(s) are analysed as module code, on the lines they are written on",
                                         "solution.py", c.lines});
  }
  // The exec of a compiled name goes with the compile it runs: read there, gone here.
  for (const auto &pair : execOfCompiled) {
    const LineRange exec = pair.first, compileStatement = pair.second;
    const bool read = std::any_of(inlinedCompiles.begin(), inlinedCompiles.end(),
                                  [&](const LineRange &r) { return compileStatement.overlaps(r); });
    if (!read)
      continue; // the compile said why it could not be read
    for (unsigned l = exec.begin; l <= exec.end && l <= lines.size(); ++l)
      if (!taken.count(l))
        rewritten[l - 1].clear();
  }
  if (any)
    out.inlined = joinLines(rewritten);
  return out;
}

PythonFacts analyzeWithExecutedCode(std::string_view source) {
  PythonFacts facts = analyze(source);
  // The text read last: the source itself until a rewrite (no copy of a file that has none).
  std::string rewritten;
  std::string_view current = source;
  std::vector<Diagnostic> notes;
  // Lambdas bound to names first: code in an exec'd string gets the same reading below.
  const auto readLambdas = [&] {
    if (std::optional<std::string> defs = lambdasAsDefs(current, facts)) {
      rewritten = std::move(*defs);
      current = rewritten;
      facts = analyze(current);
    }
  };
  readLambdas();
  // A few rounds: code exec'd from exec'd code. Each round blanks the statements it reads, so
  // a string is never read twice.
  for (int round = 0; round < 4; ++round) {
    ExecutedCode e = readExecutedCode(current, facts);
    if (!e.inlined) {
      notes.insert(notes.end(), e.diagnostics.begin(), e.diagnostics.end());
      break;
    }
    for (Diagnostic &d : e.diagnostics)
      if (d.severity == Diagnostic::Severity::Note)
        notes.push_back(std::move(d));
    rewritten = std::move(*e.inlined);
    current = rewritten;
    facts = analyze(current);
    readLambdas();
    if (round == 3)
      notes.push_back(Diagnostic{Diagnostic::Severity::Warning, "code-built-at-run-time",
                                 "code executed from strings four levels deep: deeper levels were not analysed",
                                 "solution.py", {}});
  }
  facts.diagnostics.insert(facts.diagnostics.end(), notes.begin(), notes.end());
  applyDecoratorCalls(facts);
  return facts;
}

} // namespace kbaudit::py
