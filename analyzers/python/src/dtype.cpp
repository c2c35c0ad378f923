// Canonical dtype names shared by torch, Triton and problem.yaml spellings.

#include "kbaudit/python/dtype.h"

#include <array>
#include <utility>

namespace kbaudit::dtype {

namespace {

// Longest spellings first where one is a prefix of another ("float8_e4m3fnuz" before
// "float8_e4m3fn"); matched against the last dotted component, lower-cased.
constexpr std::array<std::pair<std::string_view, std::string_view>, 44> kSpellings = {{
    {"float8_e4m3fnuz", "fp8e4m3fnuz"}, {"float8_e4m3fn", "fp8e4m3"}, {"float8e4nv", "fp8e4m3"},
    {"fp8_e4m3fn", "fp8e4m3"},          {"fp8_e4m3", "fp8e4m3"},      {"e4m3", "fp8e4m3"},
    {"float8_e5m2fnuz", "fp8e5m2fnuz"}, {"float8_e5m2", "fp8e5m2"},   {"float8e5", "fp8e5m2"},
    {"fp8_e5m2", "fp8e5m2"},            {"e5m2", "fp8e5m2"},          {"fp8", "fp8e4m3"},
    {"float16", "fp16"},                {"half", "fp16"},             {"fp16", "fp16"},
    {"bfloat16", "bf16"},               {"bf16", "bf16"},             {"float32", "fp32"},
    {"float", "fp32"},                  {"fp32", "fp32"},             {"tf32", "tf32"},
    {"float64", "fp64"},                {"double", "fp64"},           {"fp64", "fp64"},
    {"int4_bf16", "int4"},              {"int4_fp16", "int4"},        {"w4a16", "int4"},
    {"int4", "int4"},                   {"uint4", "int4"},            {"int8", "int8"},
    {"int16", "int16"},                 {"short", "int16"},           {"int32", "int32"},
    {"int", "int32"},                   {"int64", "int64"},           {"long", "int64"},
    {"uint8", "uint8"},                 {"uint16", "uint16"},         {"uint32", "uint32"},
    {"uint64", "uint64"},               {"bool", "int1"},             {"int1", "int1"},
    {"fp4", "fp4e2m1"},                 {"e2m1", "fp4e2m1"},
}};

} // namespace

std::string canonicalDtype(std::string_view spelling) {
  if (const auto dot = spelling.rfind('.'); dot != std::string_view::npos)
    spelling = spelling.substr(dot + 1);
  std::string lower(spelling);
  for (char &c : lower)
    c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const auto &[from, to] : kSpellings)
    if (lower == from)
      return std::string(to);
  return {};
}

unsigned dtypeBits(std::string_view canonical) {
  if (canonical == "fp64" || canonical == "int64" || canonical == "uint64")
    return 64;
  if (canonical == "fp32" || canonical == "int32" || canonical == "uint32")
    return 32;
  if (canonical == "tf32")
    return 19;
  if (canonical == "fp16" || canonical == "bf16" || canonical == "int16" || canonical == "uint16")
    return 16;
  if (canonical.starts_with("fp8") || canonical == "int8" || canonical == "uint8")
    return 8;
  if (canonical == "int4" || canonical == "fp4e2m1")
    return 4;
  if (canonical == "int1")
    return 1;
  return 0;
}

double unitRoundoff(std::string_view canonical) {
  if (canonical == "fp64")
    return 0x1p-53;
  if (canonical == "fp32")
    return 0x1p-24;
  if (canonical == "fp16" || canonical == "tf32")
    return 0x1p-11;
  if (canonical == "bf16")
    return 0x1p-8;
  if (canonical.starts_with("fp8e4m3"))
    return 0x1p-4;
  if (canonical.starts_with("fp8e5m2"))
    return 0x1p-3;
  return 1.0;
}

} // namespace kbaudit::dtype
