#include "kbaudit/problems/problem_context.h"

#include "problem_yaml.h"

#include "kbaudit/source/source_file.h"

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

std::optional<std::string> readText(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A diagnostic about the reference file, as `reference-<code>` (reference-syntax-error,
/// reference-invalid-utf8, ...) so it is never mistaken for one about the solution.
void referenceDiagnostic(ProblemContext &ctx, const std::string &file, Diagnostic::Severity severity,
                         const std::string &code, std::string message, LineRange lines = {}) {
  ctx.diagnostics.push_back(Diagnostic{severity, "reference-" + code, std::move(message), file, lines});
}

/// The reference's own parse problems, once each: rules compare solutions against what the
/// reference computes, and a reference that does not parse yields a partial summary.
void noteParseProblems(ProblemContext &ctx, const std::string &file) {
  unsigned syntaxErrors = 0;
  LineRange first;
  for (const Diagnostic &d : ctx.reference.facts.diagnostics) {
    if (d.code == "syntax-error") {
      if (syntaxErrors++ == 0)
        first = d.lines;
    } else if (d.severity != Diagnostic::Severity::Note) {
      referenceDiagnostic(ctx, file, Diagnostic::Severity::Warning, d.code, file + ": " + d.message, d.lines);
    }
  }
  if (syntaxErrors)
    referenceDiagnostic(ctx, file, Diagnostic::Severity::Warning, "syntax-error",
                        file + " does not parse (" + std::to_string(syntaxErrors) + " syntax error region" +
                            (syntaxErrors == 1 ? "" : "s") + ", the first at line " + std::to_string(first.begin) +
                            "); its entry point, operations and dtypes are read from what parsed",
                        first);
  if (ctx.reference.entry.empty())
    referenceDiagnostic(ctx, file, Diagnostic::Severity::Note, "no-entry",
                        file + " defines no Model (nor nn.Module) with forward, step or __call__, nor a "
                               "GPU MODE ref_kernel; rules that compare against the reference's operations see none");
}

void readReference(ProblemContext &ctx, const fs::path &path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    warn(ctx, "problem-no-reference", "no reference.py in " + ctx.dir.string());
    return;
  }
  auto text = readText(path);
  if (!text) {
    warn(ctx, "problem-no-reference", "cannot read " + path.string());
    return;
  }
  // Checked as solutions are (UTF-8, NUL bytes, emptiness, universal newlines) so the front end
  // gets the text Python would read; an empty or binary file is no reference at all.
  const std::string file = path.filename().string();
  const SourceFile checked = SourceFile::fromBytes(std::move(*text), file);
  for (const Diagnostic &d : checked.diagnostics())
    if (d.severity != Diagnostic::Severity::Note)
      referenceDiagnostic(ctx, file, Diagnostic::Severity::Warning, d.code, d.message, d.lines);
  if (!checked.analyzable())
    return;
  ctx.reference = summarizeReference(checked.text(), path);
  noteParseProblems(ctx, file);
}

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
    ctx.layout = ProblemLayout::Module;
    // A module states neither tolerance nor weight sharing: until a suite profile says, the
    // KernelBench default (atol = rtol = 1e-2) and v3's load_state_dict(strict=False) hold.
    if (const std::string contract = ctx.contractDtype(); !contract.empty())
      ctx.tolerance.emplace(contract, kKernelBenchTolerance);
    ctx.weights = WeightSharing::LenientLoad;
    return ctx;
  }
  ctx.dir = dirOrFile;
  ctx.name = dirOrFile.filename().string();
  const fs::path yamlPath = dirOrFile / "problem.yaml";
  const bool hasYaml = fs::is_regular_file(yamlPath, ec);
  if (hasYaml)
    readProblemYaml(ctx, yamlPath);
  readReference(ctx, dirOrFile / "reference.py");
  // A GPU MODE problem states its contract in reference.py itself (ref_kernel, generate_input,
  // check_implementation; task.yml only lists files): no problem.yaml is expected there.
  if (!hasYaml && !ctx.reference.functionStyle())
    ctx.diagnostics.insert(ctx.diagnostics.begin(),
                           Diagnostic{Diagnostic::Severity::Warning, "problem-missing",
                                      "no problem.yaml in " + dirOrFile.string(), "problem.yaml", {}});
  ctx.toleranceStated = !ctx.tolerance.empty();
  if (ctx.tolerance.empty() && ctx.reference.statedTolerance)
    if (const std::string contract = ctx.contractDtype(); !contract.empty()) {
      ctx.tolerance.emplace(contract, *ctx.reference.statedTolerance);
      ctx.toleranceStated = true;
    }
  ctx.policy = findPolicy(ctx.name, ctx.displayName);
  ctx.layout = hasYaml                         ? ProblemLayout::ProblemYaml
               : ctx.reference.functionStyle() ? ProblemLayout::GpuModeReference
               : ctx.reference.found           ? ProblemLayout::ReferenceOnly
                                               : ProblemLayout::None;
  ctx.weights = ctx.layout == ProblemLayout::GpuModeReference ? WeightSharing::Inputs : WeightSharing::StrictLoad;
  return ctx;
}

void applyProfile(ProblemContext &ctx, const SuiteProfile &profile) {
  ctx.suite = profile.id;
  ctx.suiteVersion = profile.version;
  ctx.weights = profile.weights;
  ctx.harness = profile.harness;
  ctx.precisionDeclared = profile.precisionDeclared;
  if (ctx.toleranceStated)
    return;
  const std::string contract = ctx.contractDtype();
  if (auto it = profile.tolerance.find(contract); it != profile.tolerance.end()) {
    ctx.tolerance.clear();
    ctx.tolerance.emplace(contract, it->second);
  }
}

std::string ProblemContext::contractDtype() const {
  if (!precision.empty())
    if (std::string d = canonicalDtype(precision); !d.empty())
      return d;
  if (!reference.found)
    return {};
  // Mixed floating inputs (an fp16 operand with an fp32 scale) promise no more than the
  // narrowest of them.
  std::string narrowest;
  for (const DtypeUse &u : reference.inputDtypes) {
    if (u.dtype.rfind("fp", 0) != 0 && u.dtype != "bf16")
      continue; // index and mask inputs do not set the compute precision
    if (narrowest.empty() || dtypeBits(u.dtype) < dtypeBits(narrowest))
      narrowest = u.dtype;
  }
  return narrowest.empty() ? "fp32" : narrowest; // torch creates fp32 unless told otherwise
}

std::vector<std::string> ProblemContext::allForbidden() const {
  std::vector<std::string> all = forbidden;
  if (policy)
    all.insert(all.end(), policy->forbiddenOps.begin(), policy->forbiddenOps.end());
  return all;
}

namespace {

// A problem directory: KernelBench-Hard (problem.yaml + reference.py) or GPU MODE (reference.py
// beside task.yml).
bool isProblemDir(const fs::path &dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "problem.yaml", ec) || fs::is_regular_file(dir / "reference.py", ec);
}

// A KernelBench-style module: one .py defining the model and its inputs. Only the head of the
// file is read (problem modules are small; a large .py here is not one).
bool isProblemModule(const fs::path &file) {
  std::error_code ec;
  if (file.extension() != ".py" || !fs::is_regular_file(file, ec) || isProblemDir(file.parent_path()))
    return false;
  std::ifstream in(file, std::ios::binary);
  std::string head(256 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("class Model") != std::string::npos && head.find("def get_inputs") != std::string::npos;
}

} // namespace

std::vector<std::string> listProblemNames(const fs::path &root) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return names;
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    if (it.depth() > 2)
      it.disable_recursion_pending();
    if (it->is_directory(ec) ? isProblemDir(it->path()) : isProblemModule(it->path()))
      names.push_back(it->is_directory(ec) ? it->path().filename().string() : it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

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
    const bool dir = it->is_directory(ec) && it->path().filename() == problem;
    const bool module = !dir && it->path().stem() == problem && isProblemModule(it->path());
    if ((dir || module) && (bench.empty() || it->path().string().find("/" + bench + "/") != std::string::npos))
      hits.push_back(it->path());
  }
  if (hits.empty())
    return std::nullopt;
  std::sort(hits.begin(), hits.end());
  return hits.front();
}

} // namespace kbaudit::problems
