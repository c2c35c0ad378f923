#include "kbaudit/problems/problem_context.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace kbaudit::problems {

namespace fs = std::filesystem;

namespace {

void warn(ProblemContext &ctx, std::string code, std::string message) {
  ctx.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Warning, std::move(code),
                                       std::move(message), "problem.yaml", {}});
}

std::string scalar(const YAML::Node &node, const char *key) {
  const YAML::Node v = node[key];
  return v && v.IsScalar() ? v.as<std::string>() : std::string();
}

std::optional<std::string> readText(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void readReference(ProblemContext &ctx, const fs::path &path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    warn(ctx, "problem-no-reference", "no reference.py in " + ctx.dir.string());
    return;
  }
  if (auto text = readText(path))
    ctx.reference = summarizeReference(*text, path);
  else
    warn(ctx, "problem-no-reference", "cannot read " + path.string());
}

void readYaml(ProblemContext &ctx, const fs::path &yamlPath);

} // namespace

ProblemContext loadProblem(const fs::path &dirOrFile) {
  ProblemContext ctx;
  std::error_code ec;
  // A KernelBench level file: the reference is the file itself and states no contract
  // beyond the dtypes it creates.
  if (fs::is_regular_file(dirOrFile, ec)) {
    ctx.dir = dirOrFile.parent_path();
    ctx.name = dirOrFile.stem().string();
    readReference(ctx, dirOrFile);
    ctx.policy = findPolicy(ctx.name);
    return ctx;
  }
  ctx.dir = dirOrFile;
  ctx.name = dirOrFile.filename().string();
  const fs::path yamlPath = dirOrFile / "problem.yaml";
  if (!fs::is_regular_file(yamlPath, ec))
    warn(ctx, "problem-missing", "no problem.yaml in " + dirOrFile.string());
  else
    readYaml(ctx, yamlPath);
  readReference(ctx, dirOrFile / "reference.py");
  ctx.policy = findPolicy(ctx.name, ctx.displayName);
  return ctx;
}

std::string ProblemContext::contractDtype() const {
  if (!precision.empty())
    if (std::string d = canonicalDtype(precision); !d.empty())
      return d;
  if (!reference.found)
    return {};
  std::string only;
  for (const DtypeUse &u : reference.inputDtypes) {
    if (u.dtype.rfind("fp", 0) != 0 && u.dtype != "bf16")
      continue; // index and mask inputs do not set the compute precision
    if (!only.empty() && only != u.dtype)
      return {};
    only = u.dtype;
  }
  return only.empty() ? "fp32" : only; // torch creates fp32 unless told otherwise
}

std::vector<std::string> ProblemContext::allForbidden() const {
  std::vector<std::string> all = forbidden;
  if (policy)
    all.insert(all.end(), policy->forbiddenOps.begin(), policy->forbiddenOps.end());
  return all;
}

namespace {

void readYaml(ProblemContext &ctx, const fs::path &yamlPath) {
  try {
    const YAML::Node root = YAML::LoadFile(yamlPath.string());
    if (!root.IsMap()) {
      warn(ctx, "problem-malformed", yamlPath.string() + " is not a mapping");
      return;
    }
    if (auto n = scalar(root, "name"); !n.empty())
      ctx.name = n;
    ctx.displayName = scalar(root, "display_name");
    ctx.precision = scalar(root, "precision");
    ctx.regime = scalar(root, "regime");
    if (const YAML::Node tol = root["tolerance"]; tol && tol.IsMap())
      for (const auto &kv : tol)
        if (kv.second.IsScalar())
          ctx.tolerance[kv.first.as<std::string>()] = kv.second.as<double>(0.0);
    if (const YAML::Node forb = root["forbidden"]; forb && forb.IsSequence())
      for (const auto &item : forb)
        if (item.IsScalar())
          ctx.forbidden.push_back(item.as<std::string>());
  } catch (const YAML::Exception &e) {
    warn(ctx, "problem-malformed", yamlPath.string() + ": " + e.what());
  }
}

} // namespace

std::optional<fs::path> findProblemDir(const fs::path &root, const std::string &problem,
                                       const std::string &bench, const std::string &gpu) {
  std::error_code ec;
  if (problem.empty() || !fs::is_directory(root, ec))
    return std::nullopt;
  if (fs::is_directory(root / problem, ec))
    return root / problem;
  if (!bench.empty() && !gpu.empty() && fs::is_directory(root / bench / gpu / problem, ec))
    return root / bench / gpu / problem;
  // Otherwise the first match in sorted order, so the choice is deterministic.
  std::vector<fs::path> hits;
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    if (it.depth() > 2) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(ec) && it->path().filename() == problem &&
        (bench.empty() || it->path().string().find("/" + bench + "/") != std::string::npos))
      hits.push_back(it->path());
  }
  if (hits.empty())
    return std::nullopt;
  std::sort(hits.begin(), hits.end());
  return hits.front();
}

} // namespace kbaudit::problems
