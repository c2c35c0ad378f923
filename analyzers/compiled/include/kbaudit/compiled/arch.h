#pragma once

// Which GPU architecture a run's sources are compiled for. What the GPU executes depends on
// it: kernels guard tensor-core paths with `#if __CUDA_ARCH__ >= 900`, wgmma exists only on
// sm_90a, tcgen05 only on sm_100a. The arch-specific variants (sm_90a, sm_100a, sm_120a) are
// used so paths guarded by the feature macros compile as a solution tuned for that GPU would.

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::compiled {

/// Used when neither the problem nor the run names a GPU kbaudit knows: H100, the GPU most
/// benchmark runs are graded on.
inline constexpr const char *kDefaultArch = "sm_90a";

/// The architecture of a GPU name as problems and runs spell it ("H100", "h100", "B200",
/// "rtxpro6000", "RTX PRO 6000", "A100", "RTX 3090", "L4"), or of an architecture itself
/// ("sm_90a", "sm90", "9.0a"); nullopt when unknown or unsupported by nvcc 13 (before sm_75).
std::optional<std::string> archForGpu(std::string_view name);

} // namespace kbaudit::compiled
