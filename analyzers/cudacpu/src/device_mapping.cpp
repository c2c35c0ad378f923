// The device the host code and the kernels see. Host code asks whether tensors are on the GPU
// and makes new ones there; on the CPU runner they are CPU tensors, so the questions and the
// device names are rewritten to name the CPU (only tokens: identifiers in code and in macro
// bodies, string literals that are exactly a device name). Kernels test __CUDA_ARCH__ and
// __CUDACC__ for the device they are compiled for: those are renamed to macros the runtime's
// prelude defines (an sm_90 device), so torch's own headers never see a CUDA compiler.

#include "passes.h"

#include <array>
#include <utility>

namespace kbaudit::cudacpu {

namespace {

bool memberAccess(const std::vector<Token> &tokens, std::size_t i) {
  return i > 0 && (tokens[i - 1].is(".") || tokens[i - 1].is("->"));
}

bool calledWithoutArguments(const std::vector<Token> &tokens, std::size_t i) {
  return i + 2 < tokens.size() && tokens[i + 1].is("(") && tokens[i + 2].is(")");
}

bool isDeviceString(std::string_view literal) {
  if (literal.size() < 2 || literal.front() != '"' || literal.back() != '"')
    return false;
  const std::string_view s = literal.substr(1, literal.size() - 2);
  if (s == "cuda")
    return true;
  if (s.substr(0, 5) != "cuda:" || s.size() == 5)
    return false;
  for (char c : s.substr(5))
    if (c < '0' || c > '9')
      return false;
  return true;
}

// --use_fast_math: the standard functions nvcc replaces with their intrinsics.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kFastMath{{
    {"expf", "__expf"}, {"exp10f", "__exp10f"}, {"logf", "__logf"}, {"log2f", "__log2f"},
    {"log10f", "__log10f"}, {"sinf", "__sinf"}, {"cosf", "__cosf"}, {"tanf", "__tanf"},
    {"powf", "__powf"}, {"sincosf", "__sincosf"}}};

} // namespace

void mapDevice(PassContext &ctx) {
  const std::vector<Token> &tokens = ctx.tokens;
  auto replace = [&](const Token &t, std::string text) { ctx.edits.push_back(Edit{t.offset, t.text.size(), std::move(text)}); };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token &t = tokens[i];
    if (t.kind == TokenKind::String) {
      if (isDeviceString(t.text))
        replace(t, "\"cpu\"");
      continue;
    }
    if (t.kind != TokenKind::Identifier)
      continue;
    if (ctx.options.cuda) {
      if (t.text == "__CUDA_ARCH__") {
        replace(t, "__CUDACPU_ARCH__");
        continue;
      }
      if (t.text == "__CUDACC__" || t.text == "__NVCC__") {
        replace(t, "__CUDACPU_CUDACC__");
        continue;
      }
    }
    // cudaLaunchKernel((void *)k, ...): the runtime launches k through its own type, which a
    // cast to void * would erase.
    if ((t.text == "cudaLaunchKernel" || t.text == "cudaLaunchCooperativeKernel") && i + 5 < tokens.size() &&
        tokens[i + 1].is("(") && tokens[i + 2].is("(")) {
      std::size_t k = i + 3;
      if (tokens[k].isIdentifier("const"))
        ++k;
      if (k + 2 < tokens.size() && tokens[k].isIdentifier("void") && tokens[k + 1].is("*") && tokens[k + 2].is(")"))
        ctx.edits.push_back(Edit{tokens[i + 2].offset, tokens[k + 2].end() - tokens[i + 2].offset, ""});
      continue;
    }
    if (t.text == "kCUDA") {
      replace(t, "kCPU");
    } else if (t.text == "CUDA" && i >= 2 && tokens[i - 1].is("::") && tokens[i - 2].isIdentifier("DeviceType")) {
      replace(t, "CPU");
    } else if (t.text == "is_cuda" && memberAccess(tokens, i) && calledWithoutArguments(tokens, i)) {
      replace(t, "is_cpu");
    } else if (t.text == "cuda" && memberAccess(tokens, i) && calledWithoutArguments(tokens, i)) {
      replace(t, "cpu");
    } else if (t.text == "assert" && i + 1 < tokens.size() && tokens[i + 1].is("(") &&
               !(i > 0 && (tokens[i - 1].is("::") || tokens[i - 1].is(".") || tokens[i - 1].is("->")))) {
      replace(t, "CUDACPU_ASSERT");
    } else if (ctx.options.fastMath && ctx.options.cuda && i + 1 < tokens.size() && tokens[i + 1].is("(") &&
               !(i > 0 && (tokens[i - 1].is("::") || tokens[i - 1].is(".") || tokens[i - 1].is("->")))) {
      for (const auto &[from, to] : kFastMath)
        if (t.text == from) {
          replace(t, std::string(to));
          break;
        }
    }
  }
}

} // namespace kbaudit::cudacpu
