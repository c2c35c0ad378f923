#include "extraction.h"
#include "string_values.h"

namespace kbaudit::embed::detail {

namespace {

bool isAny(const Extraction &x, const py::Call &call, std::initializer_list<const char *> names) {
  for (const char *n : names)
    if (x.index.callsName(call, n))
      return true;
  return false;
}

void rawKernel(Extraction &x, const py::Call &call) {
  ExtensionModule mod;
  mod.builder = ExtensionModule::Builder::Cupy;
  if (const py::Argument *name = argumentOf(call, "name", 1))
    mod.name = completeString(name->value).value_or("");
  if (!mod.name.empty())
    mod.functions.push_back(mod.name);
  if (const py::Assignment *a = x.index.assignmentOf(call))
    mod.boundTo = a->target;
  const int id = x.addModule(call, std::move(mod));
  if (const py::Argument *code = argumentOf(call, "code", 0))
    x.addStringSources(code->value, call, Origin::CupyRawKernel, Language::Cuda, id,
                       "RawKernel code");
}

void rawModule(Extraction &x, const py::Call &call) {
  ExtensionModule mod;
  mod.builder = ExtensionModule::Builder::Cupy;
  if (const py::Argument *names = call.keywordArg("name_expressions"))
    mod.functions = stringList(names->value);
  if (const py::Assignment *a = x.index.assignmentOf(call))
    mod.boundTo = a->target;
  const int id = x.addModule(call, std::move(mod));
  if (const py::Argument *code = argumentOf(call, "code", 0)) {
    x.addStringSources(code->value, call, Origin::CupyRawKernel, Language::Cuda, id,
                       "RawModule code");
  } else if (const py::Argument *path = call.keywordArg("path")) {
    if (auto p = staticPath(path->value, x.index, call.function))
      readSidecar(x, id, call, *p);
    else
      x.diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
                 "RawModule path `" + path->value.text + "` is not a static path", call.lines);
  }
}

} // namespace

bool extractRuntimeCompiled(Extraction &x, const py::Call &call) {
  if (isAny(x, call, {"cupy.RawKernel"})) {
    rawKernel(x, call);
    return true;
  }
  if (isAny(x, call, {"cupy.RawModule"})) {
    rawModule(x, call);
    return true;
  }
  if (isAny(x, call, {"torch.cuda.jiterator._create_jit_fn",
                      "torch.cuda.jiterator._create_multi_output_jit_fn"})) {
    // A jiterator function is a single elementwise kernel, not a module with exports.
    if (const py::Argument *code = argumentOf(call, "code_string", 0))
      x.addStringSources(code->value, call, Origin::Jiterator, Language::Cuda, -1,
                         "jiterator code");
    return true;
  }
  return false;
}

} // namespace kbaudit::embed::detail
