#pragma once

// Helpers for the Clang front-end tests: embedded sources with line maps, fact lookup.

#include "kbaudit/cxx/facts.h"
#include "kbaudit/embed/embedded_source.h"

#include <string>
#include <vector>

namespace kbaudit::cxx::test {

/// An embedded source whose line i+1 maps to solution.py line firstLine + i * step: a
/// non-identity map, as for a string literal starting at `firstLine`.
inline embed::EmbeddedSource source(std::string text, embed::Language language = embed::Language::Cuda,
                                    unsigned firstLine = 1, unsigned step = 1, int module = 0) {
  embed::EmbeddedSource s;
  s.language = language;
  s.origin = language == embed::Language::Cuda ? embed::Origin::LoadInlineCuda
                                               : embed::Origin::LoadInlineCpp;
  s.module = module;
  s.text = std::move(text);
  unsigned lines = 1;
  for (char c : s.text)
    lines += c == '\n';
  for (unsigned i = 0; i < lines; ++i)
    s.lineMap.push_back(firstLine + i * step);
  return s;
}

inline embed::EmbeddedSource cuda(std::string text, unsigned firstLine = 1, int module = 0) {
  return source(std::move(text), embed::Language::Cuda, firstLine, 1, module);
}

inline embed::EmbeddedSource cpp(std::string text, unsigned firstLine = 1, int module = 0) {
  return source(std::move(text), embed::Language::Cpp, firstLine, 1, module);
}

template <class T, class Pred> const T *findFact(const std::vector<T> &facts, Pred pred) {
  for (const T &f : facts)
    if (pred(f))
      return &f;
  return nullptr;
}

template <class T, class Pred> size_t countFacts(const std::vector<T> &facts, Pred pred) {
  size_t n = 0;
  for (const T &f : facts)
    n += pred(f) ? 1 : 0;
  return n;
}

inline const CxxCall *call(const CxxFacts &f, const std::string &callee) {
  return findFact(f.calls, [&](const CxxCall &c) { return c.callee == callee; });
}

inline const CxxFunction *function(const CxxFacts &f, const std::string &qualified) {
  return findFact(f.functions, [&](const CxxFunction &fn) { return fn.qualifiedName == qualified; });
}

inline const ExportedFunction *exported(const CxxFacts &f, const std::string &name) {
  return findFact(f.exports, [&](const ExportedFunction &e) { return e.name == name; });
}

/// All parse errors, for failure messages.
inline std::string errors(const CxxFacts &f) {
  std::string out;
  for (const ParseReport &r : f.parses)
    for (const ParseDiagnostic &d : r.firstErrors)
      out += "line " + std::to_string(d.embeddedLine) + ": " + d.message + "\n";
  return out;
}

inline unsigned errorCount(const CxxFacts &f) {
  unsigned n = 0;
  for (const ParseReport &r : f.parses)
    n += r.errors;
  return n;
}

} // namespace kbaudit::cxx::test
