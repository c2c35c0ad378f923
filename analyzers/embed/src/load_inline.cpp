#include "extraction.h"
#include "string_values.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <cctype>

namespace kbaudit::embed::detail {

namespace {

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

/// `functions=`; positionally it is the fourth parameter in torch releases before
/// sycl_sources took that slot, so a positional list counts only when it names functions.
std::vector<std::string> exportedFunctions(const py::Call &call) {
  if (const py::Argument *kw = call.keywordArg("functions"))
    return stringList(kw->value);
  if (const py::Argument *pos = call.positionalArg(3)) {
    std::vector<std::string> names = stringList(pos->value);
    if (!names.empty() && std::all_of(names.begin(), names.end(), [](const std::string &n) {
          return isIdentifier(n);
        }))
      return names;
  }
  return {};
}

} // namespace

void extractLoadInline(Extraction &x, const py::Call &written) {
  const py::Call call = expandKeywordUnpacking(x.index, written);
  ExtensionModule module;
  if (const py::Argument *name = argumentOf(call, "name", 0))
    module.name = completeString(name->value).value_or("");
  module.builder = ExtensionModule::Builder::LoadInline;
  module.functions = exportedFunctions(call);
  module.functionsGiven = call.keywordArg("functions") || !module.functions.empty();
  if (const py::Assignment *a = x.index.assignmentOf(written))
    module.boundTo = a->target;
  const int id = x.addModule(written, std::move(module));

  const py::Argument *cpp = argumentOf(call, "cpp_sources", 1);
  const py::Argument *cuda = argumentOf(call, "cuda_sources", 2);
  bool complete = true;
  if (cpp)
    complete &= x.addStringSources(cpp->value, call, Origin::LoadInlineCpp, Language::Cpp, id, "cpp_sources");
  if (cuda)
    complete &= x.addStringSources(cuda->value, call, Origin::LoadInlineCuda, Language::Cuda, id,
                                   "cuda_sources");
  if (const py::Argument *fns = call.keywordArg("functions"); fns && fns->value.kind != py::ExprKind::List &&
                                                              fns->value.kind != py::ExprKind::Tuple &&
                                                              fns->value.kind != py::ExprKind::String &&
                                                              fns->value.elements.empty())
    complete = false; // functions= names a value kbaudit does not fold
  if ((!cpp || !cuda) && unpacksArguments(call))
    complete = false;
  x.out.modules[static_cast<size_t>(id)].sourcesComplete = complete;
  if ((!cpp || !cuda) && unpacksArguments(call))
    x.diagnose(Diagnostic::Severity::Warning, "embed-unresolved",
               "load_inline sources are passed through argument unpacking", call.lines);
}

} // namespace kbaudit::embed::detail
