#include "dtypes.h"

#include <array>
#include <utility>

namespace kbaudit::triton::detail {

namespace {
using Pair = std::pair<std::string_view, std::string_view>;

// triton.language names (triton/language/core.py) and their torch counterparts.
constexpr std::array kTriton = {
    Pair{"float16", "fp16"},       Pair{"bfloat16", "bf16"},       Pair{"float32", "fp32"},
    Pair{"float64", "fp64"},       Pair{"float8e4nv", "fp8e4m3"},  Pair{"float8e4b8", "fp8e4m3fnuz"},
    Pair{"float8e5", "fp8e5m2"},   Pair{"float8e5b16", "fp8e5m2fnuz"}, Pair{"float8e4b15", "fp8e4b15"},
    Pair{"int1", "int1"},          Pair{"int8", "int8"},           Pair{"int16", "int16"},
    Pair{"int32", "int32"},        Pair{"int64", "int64"},         Pair{"uint8", "uint8"},
    Pair{"uint16", "uint16"},      Pair{"uint32", "uint32"},       Pair{"uint64", "uint64"},
};

constexpr std::array kTorch = {
    Pair{"float16", "fp16"},          Pair{"half", "fp16"},             Pair{"bfloat16", "bf16"},
    Pair{"float32", "fp32"},          Pair{"float", "fp32"},            Pair{"float64", "fp64"},
    Pair{"double", "fp64"},           Pair{"float8_e4m3fn", "fp8e4m3"}, Pair{"float8_e4m3fnuz", "fp8e4m3fnuz"},
    Pair{"float8_e5m2", "fp8e5m2"},   Pair{"float8_e5m2fnuz", "fp8e5m2fnuz"}, Pair{"bool", "int1"},
    Pair{"int8", "int8"},             Pair{"int16", "int16"},           Pair{"short", "int16"},
    Pair{"int32", "int32"},           Pair{"int", "int32"},             Pair{"int64", "int64"},
    Pair{"long", "int64"},            Pair{"uint8", "uint8"},           Pair{"uint16", "uint16"},
    Pair{"uint32", "uint32"},         Pair{"uint64", "uint64"},
};

constexpr std::array kHostMethods = {
    Pair{"half", "fp16"}, Pair{"bfloat16", "bf16"}, Pair{"float", "fp32"}, Pair{"double", "fp64"},
    Pair{"int", "int32"}, Pair{"long", "int64"},    Pair{"short", "int16"}, Pair{"char", "int8"},
    Pair{"byte", "uint8"}, Pair{"bool", "int1"},
};

constexpr std::array kFormats = {
    Pair{"e4m3", "fp8e4m3"}, Pair{"e5m2", "fp8e5m2"}, Pair{"e2m1", "fp4e2m1"}, Pair{"e2m3", "fp6e2m3"},
    Pair{"e3m2", "fp6e3m2"}, Pair{"bf16", "bf16"},    Pair{"fp16", "fp16"},
};

template <size_t N> std::string lookup(const std::array<Pair, N> &table, std::string_view key) {
  for (const auto &[k, v] : table)
    if (k == key)
      return std::string(v);
  return {};
}

bool strip(std::string_view &s, std::string_view prefix) {
  if (!s.starts_with(prefix))
    return false;
  s.remove_prefix(prefix.size());
  return true;
}
} // namespace

std::string canonicalDtype(std::string_view resolved) {
  std::string_view s = resolved;
  // Modules that re-export the dtypes: triton.language, its `core`, and `tl` left
  // unresolved when the import was not seen (a star import, a helper module).
  if (strip(s, "triton.language.core.") || strip(s, "triton.language.") || strip(s, "tl."))
    return s.find('.') == std::string_view::npos ? lookup(kTriton, s) : std::string();
  if (strip(s, "torch."))
    return s.find('.') == std::string_view::npos ? lookup(kTorch, s) : std::string();
  return {};
}

std::string hostCastMethodDtype(std::string_view method) { return lookup(kHostMethods, method); }

std::string scaledFormatDtype(std::string_view format) { return lookup(kFormats, format); }

} // namespace kbaudit::triton::detail
