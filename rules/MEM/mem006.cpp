// MEM006 untouched-output: the graded entry is handed a preallocated output buffer (pygpubench
// `kernel(output, *inputs)`, or the buffer inside GPU MODE's `data` that `custom_kernel`
// returns) and never writes it, so the grader reads whatever the buffer held before the call.

#include "all_checks.h"
#include "semantic_names.h"

#include "kbaudit/semantic/graded_entry.h"
#include "kbaudit/semantic/output_writes.h"

namespace kbaudit::rules {
namespace {

class Mem006 final : public Check {
public:
  std::string_view id() const override { return "MEM006"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const std::optional<semantic::GradedEntry> entry = semantic::gradedEntry(ctx.facts);
    // Module-style entries return what they compute; only the output-buffer conventions apply.
    if (!entry || entry->convention == semantic::EntryConvention::Module)
      return;
    const py::Function &fn = *entry->function;
    // The `data` tuple the GPU MODE buffer came in: a write through it may reach the buffer.
    std::vector<std::string> weak;
    if (entry->convention == semantic::EntryConvention::CustomKernel && !fn.params.empty())
      weak.push_back(fn.params.front());
    for (const semantic::OutputBuffer &b : semantic::preallocatedOutputs(ctx.facts, *entry)) {
      const semantic::OutputWrites w = semantic::outputWrites(ctx.facts, fn, b.name, weak);
      if (w.fate == semantic::OutputFate::Written)
        continue;
      const bool returned = b.returned.begin != 0;
      const std::string buffer = returned
                                     ? "`" + b.shown + "`, which it takes from `" + fn.params.front() + "` and returns"
                                     : "its output buffer `" + b.shown + "`";
      const LineRange at = returned ? b.returned : b.handed;
      if (w.fate == semantic::OutputFate::Untouched) {
        sink.report(at,
                    {{"function", fn.qualname},
                     {"writes", "never writes"},
                     {"buffer", buffer},
                     {"outcome", "the grader reads whatever the buffer held before the call"}},
                    "no in-place op, item assignment, out=, kernel launch or extension call reaches `" + b.shown + "`");
        continue;
      }
      sink.report(at,
                  {{"function", fn.qualname},
                   {"writes", "is not shown to write"},
                   {"buffer", buffer},
                   {"outcome", "unless it is written where the facts cannot follow, the grader reads whatever the "
                               "buffer held before the call"}},
                  "no write is certain: on " + pytext::lineText(w.where) + " it is " + w.how, Confidence::Low);
    }
  }
};

} // namespace

std::unique_ptr<Check> makeMem006() { return std::make_unique<Mem006>(); }

} // namespace kbaudit::rules
