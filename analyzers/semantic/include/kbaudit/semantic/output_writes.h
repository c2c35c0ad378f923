#pragma once

// Whether the graded entry writes the preallocated output it is handed. pygpubench's
// `kernel(output, *inputs)` and GPU MODE's `custom_kernel(data)` (returning the buffer that
// came inside `data`) are graded on what that buffer holds after the call: an entry that
// never writes it hands back whatever was there before (a previous call's result, the
// reference's result left in the same allocation).

#include "kbaudit/facts.h"
#include "kbaudit/semantic/graded_entry.h"

#include <string>
#include <vector>

namespace kbaudit::semantic {

/// A preallocated output buffer the graded entry is handed and graded on.
struct OutputBuffer {
  std::string name;   ///< the name holding it in the entry (`output`, `c`; `data` for `return data[2]`)
  std::string shown;  ///< as the entry writes it: `output`, `c`, `data[2]`
  LineRange handed;   ///< where the entry gets it: the def line, or the `c = data[2]` binding
  LineRange returned; ///< CustomKernel: the `return` handing it back; {0,0} for OutputKernel
};

/// OutputKernel: the output parameter. CustomKernel: each name a `return` of the entry hands
/// back (alone or as a tuple item) whose last binding before that return is an item of
/// `data` (`a, b, c = data`, `c = data[2]`, or a view of such a name); `return data[2]`
/// itself is reported under the name `data[2]`. Nothing for the Module convention.
std::vector<OutputBuffer> preallocatedOutputs(const Facts &facts, const GradedEntry &entry);

enum class OutputFate {
  Written,   ///< an in-place op, item assignment, out=, launch or extension call writes it
  Escapes,   ///< no write seen, but it reaches a call or state whose effect is unknown
  Untouched, ///< no write path at all
};

struct OutputWrites {
  OutputFate fate = OutputFate::Untouched;
  LineRange where; ///< the write (Written) or the escape (Escapes)
  std::string how; ///< plain words: "`out.copy_(...)`", "passed to `lib.gemm`"
};

/// What `function` (and the defs nested in it, and the file's helpers it passes the buffer
/// to) does to the buffer held by `name`: writes through any alias (`o = name.view(-1)`,
/// `o = name[0]`, a list holding it), in-place methods (`copy_`, `zero_`, any `*_`), item or
/// slice assignment, `out=`, augmented assignment, Triton/DSL launches, extension-module
/// calls and `torch.ops` calls count as writes. Passing it to torch functions, builtins or as
/// the source of another tensor's in-place op reads it. Passing it anywhere else (an unknown
/// library, an object's method), storing it in state, a write only after `name` was rebound
/// to another value, or a body that reads through exec/eval makes it escape.
/// `weakAliases` are names whose writes may reach the buffer without it being certain (the
/// `data` tuple the buffer came in): a write through them is an escape.
OutputWrites outputWrites(const Facts &facts, const py::Function &function, const std::string &name,
                          const std::vector<std::string> &weakAliases = {});

} // namespace kbaudit::semantic
