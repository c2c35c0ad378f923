// kbaudit cuda-translate IN OUT: the CPU runner's source translation of one CUDA (or C++) unit.
// The runtime probes' worker runs it inside the sandbox for every unit a solution's extension
// builds (kbaudit_probe/cuda_cpu.py); its report is one JSON object on stdout.

#include "args.h"
#include "commands.h"

#include "kbaudit/annotations/terminal_text.h"
#include "kbaudit/cli/cli.h"
#include "kbaudit/cudacpu/translate.h"
#include "kbaudit/source/atomic_write.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <ostream>
#include <sstream>

namespace kbaudit::cli {

int cmdCudaTranslate(const std::vector<std::string> &argv, std::ostream &out, std::ostream &err) {
  const std::optional<Args> args = parseCommandLine(argv, "cuda-translate", err);
  if (!args)
    return kExitUsage;
  if (args->positionals().size() != 2)
    return usageError("cuda-translate", "expected IN and OUT", err);
  const std::string &in = args->positionals()[0], &outPath = args->positionals()[1];
  std::ifstream file(in, std::ios::binary);
  if (!file) {
    err << "kbaudit cuda-translate: cannot read " << annotations::terminalSafe(in) << "\n";
    return kExitUsage;
  }
  std::ostringstream text;
  text << file.rdbuf();
  cudacpu::TranslateOptions options;
  options.cuda = !args->has("cpp");
  options.fastMath = args->has("fast-math");
  options.fileName = args->value("file-name").value_or(in);
  const cudacpu::Translation t = cudacpu::translate(text.str(), options);
  std::string writeError;
  if (!source::writeFileAtomically(outPath, t.text, writeError)) {
    err << "kbaudit cuda-translate: " << annotations::terminalSafe(writeError) << "\n";
    return kExitUsage;
  }
  llvm::json::Array unavailable, notes;
  for (const cudacpu::Unavailable &u : t.unavailable)
    unavailable.push_back(llvm::json::Object{{"feature", llvm::json::fixUTF8(u.feature)}, {"line", u.line}});
  for (const std::string &n : t.notes)
    notes.push_back(llvm::json::fixUTF8(n));
  const llvm::json::Value report = llvm::json::Object{{"launches", t.launches},
                                                      {"shared", t.sharedDeclarations},
                                                      {"unavailable", std::move(unavailable)},
                                                      {"reason", llvm::json::fixUTF8(cudacpu::describe(t.unavailable))},
                                                      {"notes", std::move(notes)}};
  std::string json;
  llvm::raw_string_ostream os(json);
  os << report;
  os.flush();
  out << json << "\n";
  return kExitClean;
}

} // namespace kbaudit::cli
