#include "kbaudit/semantic/input_samples.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <optional>

namespace kbaudit::semantic {

using namespace pytext;

namespace {

/// Statistics that describe the values' magnitude or health are strong; a bare max/min,
/// mean or any/all may be routing metadata and is weak.
SampleStrength statistic(std::string_view method) {
  static const std::set<std::string_view> strong = {
      "abs",   "absolute", "amax",     "amin",   "aminmax", "norm",        "std",      "var",
      "isnan", "isinf",    "isfinite", "nanmax", "nanmin",  "vector_norm", "std_mean", "var_mean"};
  static const std::set<std::string_view> weak = {"max", "min", "mean", "sum", "any", "all"};
  if (strong.count(method))
    return SampleStrength::Strong;
  if (weak.count(method))
    return SampleStrength::Weak;
  return SampleStrength::None;
}

/// A name that holds the input values: a parameter of the function (not self), or a
/// local bound to a view of one (`flat = x.reshape(-1)`).
bool isInputName(const Facts &facts, std::string_view name, const std::string &function) {
  if (name.empty() || name == "self")
    return false;
  if (const py::Function *fn = facts.python.findFunction(function))
    if (std::find(fn->params.begin(), fn->params.end(), name) != fn->params.end())
      return true;
  for (const py::Assignment &a : facts.python.assignments)
    if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == name) {
      // A chain rooted in a parameter that is not itself a subscript (a sample is no view).
      const std::string_view root = rootName(a.value);
      if (root != name && root != "self" && a.value.kind != py::ExprKind::Subscript)
        if (const py::Function *fn = facts.python.findFunction(function))
          if (std::find(fn->params.begin(), fn->params.end(), root) != fn->params.end())
            return true;
    }
  return false;
}

/// `x[:256].abs().max()`, `torch.amax(x.flatten()[:8192])`.
void pythonSamples(const Facts &facts, const std::set<std::string> &functions, std::vector<InputSample> &out) {
  for (const py::Call &c : facts.python.calls) {
    if (!functions.count(c.function))
      continue;
    const SampleStrength s = statistic(c.method);
    if (s == SampleStrength::None)
      continue;
    std::vector<std::string> roots{constantWindowRoot(c.callee)};
    for (const py::Argument &a : c.args)
      if (a.keyword.empty())
        roots.push_back(constantWindowRoot(a.value));
    if (std::any_of(roots.begin(), roots.end(),
                    [&](const std::string &r) { return isInputName(facts, r, c.function); }))
      out.push_back({s, c.callee + "()", c.function, c.lines});
  }
}

/// A Triton kernel with no program id and no loop reads one fixed window from its
/// pointers; when it also reduces (|x|, max, NaN tests) it is a detector over a sample.
std::optional<SampleStrength> sampleKernel(const Facts &facts, unsigned k) {
  const triton::Kernel &kernel = facts.triton.kernels[k];
  if (kernel.work.matmul || !kernel.work.loads || kernel.work.loopReduction)
    return std::nullopt;
  bool magnitude = false, reduces = false;
  for (const triton::Op &op : facts.triton.ops) {
    if (op.kernel != k)
      continue;
    if (op.name == "program_id" || op.name == "num_programs" || op.kind == triton::OpKind::Loop)
      return std::nullopt;
    if (op.name == "abs" || op.name == "fabs" || op.name == "isnan" || op.name == "isinf" || op.name == "isfinited")
      magnitude = true;
    if (op.kind == triton::OpKind::Reduction)
      reduces = true;
  }
  for (const py::Branch &b : facts.python.branches)
    if (b.kind == "while" && kernel.lines.contains(b.lines.begin))
      return std::nullopt;
  if (!reduces)
    return std::nullopt;
  return magnitude ? SampleStrength::Strong : SampleStrength::Weak;
}

void kernelSamples(const Facts &facts, const std::set<std::string> &functions, std::vector<InputSample> &out) {
  for (const triton::Launch &l : facts.triton.launches) {
    if (!l.kernel || !functions.count(l.function))
      continue;
    const std::optional<SampleStrength> s = sampleKernel(facts, *l.kernel);
    if (!s)
      continue;
    const triton::Kernel &k = facts.triton.kernels[*l.kernel];
    bool readsInput = false;
    std::vector<std::string_view> buffers;
    for (const py::Argument &a : l.args) {
      const std::string_view name = dottedName(a.value);
      if (name.empty())
        continue;
      if (isInputName(facts, name, l.function))
        readsInput = true;
      else
        buffers.push_back(name);
    }
    if (!readsInput)
      continue;
    // The buffer is read back on the host: that read is the sample entering Python.
    for (const py::Call &c : facts.python.calls) {
      if (c.function != l.function || c.lines.begin < l.lines.begin)
        continue;
      static const std::set<std::string_view> reads = {"item", "tolist", "cpu", "numpy", "any", "all"};
      if (!reads.count(c.method) || std::find(buffers.begin(), buffers.end(), c.receiver) == buffers.end())
        continue;
      out.push_back({*s,
                     "Triton kernel " + k.name + " reducing a fixed window of the input (" + lineText(l.lines) +
                         "), read back with ." + c.method + "()",
                     c.function, c.lines});
    }
  }
}

} // namespace

std::vector<InputSample> inputSamples(const Facts &facts, const std::set<std::string> &functions) {
  std::vector<InputSample> out;
  pythonSamples(facts, functions, out);
  kernelSamples(facts, functions, out);
  return out;
}

} // namespace kbaudit::semantic
