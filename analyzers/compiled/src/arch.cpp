#include "kbaudit/compiled/arch.h"

#include <array>
#include <cctype>
#include <utility>

namespace kbaudit::compiled {

std::optional<std::string> archForGpu(std::string_view name) {
  std::string n; // lower case, no spaces, dashes or underscores: "RTX PRO 6000" -> "rtxpro6000"
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.')
      n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n.starts_with("nvidia"))
    n.erase(0, 6);
  if (n.starts_with("sm") || n.starts_with("compute")) {
    const std::string digits = n.substr(n.starts_with("sm") ? 2 : 7);
    for (const char *a : {"75", "80", "86", "87", "89", "90", "90a", "100", "100a", "103", "103a", "120", "120a"})
      if (digits == a)
        return "sm_" + digits;
    return std::nullopt;
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kCapability = {{
      {"7.5", "sm_75"}, {"8.0", "sm_80"}, {"8.6", "sm_86"}, {"8.7", "sm_87"}, {"8.9", "sm_89"},
      {"9.0", "sm_90a"}, {"9.0a", "sm_90a"}, {"10.0", "sm_100a"}, {"10.0a", "sm_100a"}, {"12.0", "sm_120a"},
      {"12.0a", "sm_120a"}, {"10.3", "sm_103a"}, {"10.3a", "sm_103a"},
  }};
  for (const auto &[cap, arch] : kCapability)
    if (n == cap)
      return std::string(arch);
  // Longest names first where one is a prefix of another (a10 / a100, l40 / l4).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 30> kGpus = {{
      {"gh200", "sm_90a"},   {"h100", "sm_90a"},      {"h200", "sm_90a"},    {"h800", "sm_90a"},
      {"h20", "sm_90a"},     {"gb200", "sm_100a"},    {"b200", "sm_100a"},   {"b100", "sm_100a"},
      {"rtxpro6000", "sm_120a"}, {"pro6000", "sm_120a"}, {"rtx5090", "sm_120a"}, {"rtx5080", "sm_120a"},
      {"5090", "sm_120a"},   {"a100", "sm_80"},       {"a800", "sm_80"},     {"a30", "sm_80"},
      {"a6000", "sm_86"},    {"rtxa6000", "sm_86"},   {"a5000", "sm_86"},    {"a40", "sm_86"},
      {"a10g", "sm_86"},     {"a10", "sm_86"},        {"rtx3090", "sm_86"},  {"3090", "sm_86"},
      {"l40s", "sm_89"},     {"l40", "sm_89"},        {"l4", "sm_89"},       {"rtx4090", "sm_89"},
      {"4090", "sm_89"},     {"t4", "sm_75"},
  }};
  for (const auto &[gpu, arch] : kGpus)
    if (n == gpu)
      return std::string(arch);
  return std::nullopt;
}

} // namespace kbaudit::compiled
