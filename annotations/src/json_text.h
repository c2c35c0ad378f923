#pragma once

// Strings from input in kbaudit's JSON outputs (--format json, SARIF): one repair of invalid
// UTF-8 and one escaping of the characters a terminal acts on, shared by both writers.

#include <llvm/Support/JSON.h>

#include <string>
#include <vector>

namespace kbaudit::annotations::json {

/// A JSON string from input-derived text. llvm::json asserts on invalid UTF-8 (and repairs it
/// only where assertions are off); repairing here gives every build the same U+FFFD output.
inline llvm::json::Value str(const std::string &s) {
  return llvm::json::isUTF8(s) ? llvm::json::Value(s) : llvm::json::Value(llvm::json::fixUTF8(s));
}

/// A list of input-derived strings, each through str().
inline llvm::json::Array strings(const std::vector<std::string> &items) {
  llvm::json::Array out;
  for (const std::string &s : items)
    out.push_back(str(s));
  return out;
}

/// JSON needs only C0 escaped; DEL and the C1 controls (U+0080-U+009F) are legal raw, but act
/// on a terminal that shows the output. They can occur only inside strings (the rest of a
/// document is ASCII punctuation), so writing them as \u escapes keeps the same JSON.
std::string escapeDelAndC1(const std::string &json);

} // namespace kbaudit::annotations::json
