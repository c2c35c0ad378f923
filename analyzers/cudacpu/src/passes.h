#pragma once

// The rewriting passes over the tokens. Each adds edits (applied together by translate.cpp
// through Clang's Rewriter) and reports what it cannot translate.

#include "kbaudit/cudacpu/translate.h"
#include "token.h"

#include <string_view>
#include <vector>

namespace kbaudit::cudacpu {

struct PassContext {
  std::string_view source;
  const std::vector<Token> &tokens;
  const TranslateOptions &options;
  std::vector<Edit> &edits;
  std::vector<Unavailable> &unavailable;
  std::vector<std::string> &notes;
};

/// `k<<<g, b, s, st>>>(args)` -> `::cudacpu::launch("k", ::cudacpu::LaunchConfig(g, b, s, st),
/// [&](auto... a) { k(a...); }, args)`. Returns how many it rewrote.
unsigned rewriteLaunches(PassContext &ctx);

/// `extern __shared__ T name[];` -> a pointer to the block's dynamic shared memory;
/// `__shared__` -> `static` (a block's threads are fibers of one OS thread, blocks run in turn).
unsigned rewriteShared(PassContext &ctx);

/// After each statement that assigns through a `volatile` variable, the warp's lanes meet
/// (warp-synchronous code written for lockstep execution). Returns how many it inserted.
unsigned insertLocksteps(PassContext &ctx);

/// Host code names the CPU where it names the GPU (is_cuda, kCUDA, "cuda", .cuda()), kernels
/// see an sm_90 device (__CUDA_ARCH__, __CUDACC__), device-side assert raises, fast math.
void mapDevice(PassContext &ctx);

/// What the CPU runner cannot run, by name and line; inline PTX it can emulate is rewritten.
void findUnavailable(PassContext &ctx);

} // namespace kbaudit::cudacpu
