#include "parse.h"

#include "tree.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>

namespace kbaudit::py {

namespace {

// Generous: the corpus parses at ~15 MB/s; this only stops pathological inputs.
constexpr uint64_t kParseTimeoutMicros = 20'000'000;
constexpr unsigned kRepairRounds = 6;
// Beyond this many error regions the file is not Python-with-a-typo; repairing it costs
// reparses for nothing.
constexpr size_t kMaxRepairRegions = 16;
constexpr size_t kMaxRepairErrorNodes = 64;
constexpr unsigned kMergeGapLines = 2;

struct ParserHolder {
  TSParser *parser = ts_parser_new();
  ParserHolder() {
    ts_parser_set_language(parser, tree_sitter_python());
    ts_parser_set_timeout_micros(parser, kParseTimeoutMicros);
  }
  ~ParserHolder() { ts_parser_delete(parser); }
};

TSTree *parseText(std::string_view text) {
  thread_local ParserHolder holder;
  ts_parser_reset(holder.parser);
  return ts_parser_parse_string(holder.parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
}

struct ErrorRegion {
  LineRange lines;
  uint32_t startByte = 0;
  uint32_t bytes = 0;
  std::string missing; ///< expected token for MISSING nodes
};

bool isStatement(ts::K k) {
  using ts::K;
  switch (k) {
  case K::ExpressionStatement:
  case K::ImportStatement:
  case K::ImportFromStatement:
  case K::FutureImportStatement:
  case K::FunctionDefinition:
  case K::ClassDefinition:
  case K::DecoratedDefinition:
  case K::IfStatement:
  case K::ForStatement:
  case K::WhileStatement:
  case K::TryStatement:
  case K::WithStatement:
  case K::MatchStatement:
  case K::AssertStatement:
  case K::ReturnStatement:
  case K::RaiseStatement:
  case K::GlobalStatement:
  case K::NonlocalStatement:
  case K::DeleteStatement:
    return true;
  default:
    return false;
  }
}

/// The broken parts of an ERROR node. tree-sitter sometimes wraps a whole module in one
/// ERROR whose children are mostly well-formed statements; only the runs of children
/// between those statements are broken text.
void errorParts(TSNode error, std::vector<ErrorRegion> &out, llvm::SmallVectorImpl<TSNode> &stack) {
  ts::Children kids = ts::children(error);
  bool anyStatement = llvm::any_of(kids, [](TSNode c) { return isStatement(ts::kind(c)); });
  if (!anyStatement) {
    uint32_t b = ts::startByte(error), e = ts::endByte(error);
    out.push_back({ts::lines(error), b, e - b, {}});
    return;
  }
  TSNode first{}, last{};
  auto flush = [&] {
    if (ts::isNull(first))
      return;
    uint32_t b = ts::startByte(first), e = ts::endByte(last);
    out.push_back({ts::span(first, last), b, e - b, {}});
    first = last = TSNode{};
  };
  for (TSNode c : kids) {
    if (isStatement(ts::kind(c))) {
      flush();
      if (ts_node_has_error(c))
        stack.push_back(c);
      continue;
    }
    if (ts::isNull(first))
      first = c;
    last = c;
  }
  flush();
}

std::vector<ErrorRegion> errorRegions(TSNode root) {
  std::vector<ErrorRegion> out;
  llvm::SmallVector<TSNode, 64> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.pop_back_val();
    if (ts_node_is_missing(n)) {
      out.push_back({ts::lines(n), ts::startByte(n), 0, ts_node_type(n)});
      continue;
    }
    if (ts::kind(n) == ts::K::Error) {
      errorParts(n, out, stack);
      continue;
    }
    if (!ts_node_has_error(n))
      continue;
    ts::Children kids = ts::children(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      stack.push_back(*it);
  }
  std::sort(out.begin(), out.end(), [](const ErrorRegion &a, const ErrorRegion &b) { return a.startByte < b.startByte; });
  return out;
}

/// Binary or mis-encoded input is not Python with a typo: repairing it is wasted reparses.
bool looksLikeText(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == 0)
      return false;
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size())
      return false;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
        return false;
    i += len;
  }
  return true;
}

/// ERROR and MISSING nodes at any depth. Garbage input has hundreds; a typo has a few.
size_t countErrorNodes(TSNode root, size_t limit) {
  size_t count = 0;
  llvm::SmallVector<TSNode, 64> stack{root};
  while (!stack.empty() && count <= limit) {
    TSNode n = stack.pop_back_val();
    if (ts_node_is_missing(n) || ts::kind(n) == ts::K::Error)
      ++count;
    if (!ts_node_has_error(n))
      continue;
    for (TSNode c : ts::children(n))
      stack.push_back(c);
  }
  return count;
}

uint64_t errorBytes(const std::vector<ErrorRegion> &regions) {
  uint64_t n = 0;
  for (const auto &r : regions)
    n += r.bytes + 1;
  return n;
}

/// Blanks the line containing byte `at`; false if it was already blank.
bool blankLine(std::string &text, uint32_t at) {
  if (text.empty())
    return false;
  size_t pos = std::min<size_t>(at, text.size() - 1);
  // A region starting on a '\n' starts at the end of that line.
  size_t prev = pos == 0 ? std::string::npos : text.rfind('\n', pos - 1);
  size_t b = prev == std::string::npos ? 0 : prev + 1;
  size_t e = text.find('\n', pos);
  if (e == std::string::npos)
    e = text.size();
  bool changed = false;
  for (size_t i = b; i < e; ++i)
    if (text[i] != ' ' && text[i] != '\r') {
      text[i] = ' ';
      changed = true;
    }
  return changed;
}

} // namespace

std::vector<Diagnostic> syntaxDiagnostics(TSNode root, std::string_view) {
  std::vector<Diagnostic> diags;
  std::vector<ErrorRegion> regions = errorRegions(root);
  // One diagnostic per region of broken text: regions that overlap or are at most
  // kMergeGapLines apart are one (C++ pasted into a .py breaks every other line).
  std::vector<ErrorRegion> merged;
  for (const auto &r : regions) {
    if (!merged.empty() && r.lines.begin <= merged.back().lines.end + kMergeGapLines + 1) {
      merged.back().lines.end = std::max(merged.back().lines.end, r.lines.end);
      if (merged.back().missing.empty())
        merged.back().missing = r.missing;
      continue;
    }
    merged.push_back(r);
  }
  for (const auto &r : merged) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::Warning;
    d.code = "syntax-error";
    d.lines = r.lines;
    if (r.lines.begin == r.lines.end)
      d.message = "syntax error at line " + std::to_string(r.lines.begin);
    else
      d.message = "syntax error in lines " + std::to_string(r.lines.begin) + "-" + std::to_string(r.lines.end);
    if (!r.missing.empty())
      d.message += " (missing '" + r.missing + "')";
    d.message += "; facts from the rest of the file are kept";
    diags.push_back(std::move(d));
  }
  return diags;
}

ParseResult parse(std::string_view source) {
  ParseResult result;
  if (source.size() > UINT32_MAX / 2) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::Error;
    d.code = "file-too-large";
    d.message = "solution.py is too large to parse";
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  result.tree.reset(parseText(source));
  if (!result.tree) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::Error;
    d.code = "parse-timeout";
    d.message = "the Python parser gave up (time limit); no facts extracted";
    result.diagnostics.push_back(std::move(d));
    return result;
  }
  TSNode root = ts_tree_root_node(result.tree.get());
  if (!ts_node_has_error(root))
    return result;
  result.diagnostics = syntaxDiagnostics(root, source);

  std::vector<ErrorRegion> regions = errorRegions(root);
  size_t errorNodes = std::count_if(regions.begin(), regions.end(), [](const ErrorRegion &r) { return r.missing.empty(); });
  if (errorNodes == 0 || regions.size() > kMaxRepairRegions ||
      countErrorNodes(root, kMaxRepairErrorNodes) > kMaxRepairErrorNodes || !looksLikeText(source))
    return result;
  uint64_t best = errorBytes(regions);
  std::string text(source);
  for (unsigned round = 0; round < kRepairRounds && best > 0; ++round) {
    bool changed = false;
    for (const ErrorRegion &r : regions)
      if (r.missing.empty())
        changed |= blankLine(text, r.startByte);
    if (!changed)
      break;
    TreePtr candidate(parseText(text));
    if (!candidate)
      break;
    regions = errorRegions(ts_tree_root_node(candidate.get()));
    uint64_t score = ts_node_has_error(ts_tree_root_node(candidate.get())) ? errorBytes(regions) : 0;
    if (score < best) {
      best = score;
      result.tree = std::move(candidate);
      result.repaired = text;
    }
    if (regions.size() > kMaxRepairRegions)
      break;
  }
  return result;
}

Diagnostic nestingTooDeep(TSNode n, unsigned limit, std::string_view what) {
  Diagnostic d;
  d.severity = Diagnostic::Severity::Warning;
  d.code = "nesting-too-deep";
  d.message = std::string(what) + " nested deeper than " + std::to_string(limit) + " levels at line " +
              std::to_string(ts::firstLine(n)) + " were not analysed";
  d.lines = ts::lines(n);
  return d;
}

} // namespace kbaudit::py
