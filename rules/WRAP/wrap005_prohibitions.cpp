// WRAP005's forbidden list, parsed (wrap005_prohibitions.h).

#include "wrap005_prohibitions.h"

#include "semantic_names.h"

#include <array>

namespace kbaudit::rules::wrap005 {

using pytext::startsWith;

bool isUnder(std::string_view name, std::string_view prefix, std::string_view sep) {
  return name == prefix ||
         (startsWith(name, prefix) && name.size() > prefix.size() && name.substr(prefix.size(), sep.size()) == sep);
}

std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  for (std::size_t at = 0;;) {
    std::size_t next = s.find(sep, at);
    out.emplace_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos)
      return out;
    at = next + sep.size();
  }
}

static std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return std::string(s);
}

// The conventional aliases problem statements write, expanded to what the resolver produces.
static std::string expandAlias(std::string name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kAliases = {{
      {"F.", "torch.nn.functional."},
      {"nn.", "torch.nn."},
      {"Tensor.", "torch.Tensor."},
      {"tl.", "triton.language."},
      {"aten.", "torch.ops.aten."},
  }};
  for (const auto &[alias, full] : kAliases)
    if (startsWith(name, alias))
      return std::string(full) + name.substr(alias.size());
  return name;
}

static Prohibition parseStated(const std::string &written, bool curated) {
  std::string s = trim(written);
  if (startsWith(s, "import ") || startsWith(s, "from ")) {
    std::string rest = trim(s.substr(s.find(' ') + 1));
    rest = rest.substr(0, rest.find(' ')); // "from x import y" names module x
    return {written, Kind::Module, rest, curated};
  }
  if (startsWith(s, "@"))
    return {written, Kind::Decorator, expandAlias(s.substr(1)), curated};
  if (s.find("::") != std::string::npos)
    return {written, Kind::Cxx, s, curated};
  if (s.find('.') != std::string::npos)
    return {written, Kind::Dotted, expandAlias(s), curated};
  return {written, Kind::Bare, s, curated};
}

std::vector<Prohibition> prohibitions(const problems::ProblemContext &p) {
  std::vector<Prohibition> out;
  for (const std::string &f : p.forbidden)
    out.push_back(parseStated(f, false));
  if (!p.policy)
    return out;
  for (const std::string &op : p.policy->forbiddenOps)
    out.push_back(parseStated(op, true));
  for (const std::string &lib : p.policy->forbiddenLibraries)
    out.push_back({lib, Kind::Module, lib, true});
  if (p.policy->compileForbidden) {
    out.push_back({"torch.compile", Kind::Dotted, "torch.compile", true});
    out.push_back({"torch.jit", Kind::Dotted, "torch.jit", true});
  }
  return out;
}

// The ATen names a torch-level name also goes by in embedded C++ (`torch.topk` is
// `at::topk` and `x.topk(k)`, `F.linear` is `at::linear`).
std::vector<std::string> cxxEquivalents(std::string_view dotted) {
  static constexpr std::array<std::string_view, 4> kTorchNamespaces = {"torch.nn.functional.", "torch.ops.aten.",
                                                                       "torch.Tensor.", "torch."};
  for (std::string_view ns : kTorchNamespaces) {
    if (!startsWith(dotted, ns))
      continue;
    std::string op(dotted.substr(ns.size()));
    if (op.empty() || op.find('.') != std::string::npos)
      return {};
    return {"at::" + op, "at::Tensor::" + op, "torch::" + op};
  }
  return {};
}

// A tensor method with the op's name: `torch.X` and `Tensor.X` (not `F.X`, which is no method).
std::string tensorMethodOf(std::string_view dotted) {
  for (std::string_view ns : {"torch.Tensor.", "torch."}) {
    if (!startsWith(dotted, ns))
      continue;
    std::string_view op = dotted.substr(ns.size());
    if (!op.empty() && op.find('.') == std::string_view::npos)
      return std::string(op);
    return {};
  }
  return {};
}

// Methods Python lists (or other builtins) also have: on an unknown receiver they say little.
bool builtinContainerMethod(std::string_view m) {
  for (std::string_view b : {"sort", "index", "count", "copy", "pop", "clear", "reverse", "append", "extend"})
    if (m == b)
      return true;
  return false;
}

} // namespace kbaudit::rules::wrap005
