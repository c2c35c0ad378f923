// What the CPU runner cannot run, found in the tokens: inline PTX (by instruction), tensor-core
// fragments, CUTLASS/CuTe, CUB, Thrust, the CUDA libraries, TMA descriptors, clusters,
// textures, CUDA graphs, fp4/fp6. Each is reported with its line, once
// per feature and line; the Python side refuses to run a unit that has any, naming them.

#include "passes.h"
#include "ptx.h"

#include <array>
#include <set>
#include <utility>

namespace kbaudit::cudacpu {

namespace {

struct Prefix {
  std::string_view prefix, feature;
};
// Identifiers whose prefix names a library the runner does not have.
constexpr std::array<Prefix, 9> kLibraries{{{"cublas", "cuBLAS"},
                                            {"cudnn", "cuDNN"},
                                            {"cusparse", "cuSPARSE"},
                                            {"cufft", "cuFFT"},
                                            {"cusolver", "cuSOLVER"},
                                            {"curand", "cuRAND"},
                                            {"nccl", "NCCL"},
                                            {"__nv_fp4", "fp4 types"},
                                            {"__nv_fp6", "fp6 types"}}};

struct Named {
  std::string_view name, feature;
};
constexpr std::array<Named, 21> kNames{{
    {"getCurrentCUDABlasHandle", "cuBLAS"},
    {"getCurrentCUDABlasLtHandle", "cuBLAS"},
    {"cuTensorMapEncodeTiled", "TMA descriptors"},
    {"cuTensorMapEncodeIm2col", "TMA descriptors"},
    {"CUtensorMap", "TMA descriptors"},
    {"__cluster_dims__", "thread block clusters"},
    {"this_cluster", "thread block clusters"},
    {"cluster_group", "thread block clusters"},
    {"cudaLaunchKernelEx", "thread block clusters"},
    {"tex1Dfetch", "texture/surface objects"},
    {"tex1D", "texture/surface objects"},
    {"tex2D", "texture/surface objects"},
    {"tex3D", "texture/surface objects"},
    {"cudaTextureObject_t", "texture/surface objects"},
    {"cudaSurfaceObject_t", "texture/surface objects"},
    {"surf2Dwrite", "texture/surface objects"},
    {"cudaGraphLaunch", "CUDA graphs"},
    {"cudaGraphInstantiate", "CUDA graphs"},
    {"cudaStreamBeginCapture", "CUDA graphs"},
    {"cudaGraph_t", "CUDA graphs"},
    {"__pipeline_arrive_on", "cuda_pipeline arrive-on barriers"},
}};

// Namespaces the runner has no implementation of: `ns::` anywhere, or an #include of `ns/...`.
constexpr std::array<Named, 5> kNamespaces{{{"wmma", "wmma (tensor-core fragments)"},
                                            {"cute", "CUTLASS/CuTe templates"},
                                            {"cutlass", "CUTLASS/CuTe templates"},
                                            {"cub", "CUB"},
                                            {"thrust", "Thrust"}}};

/// The string an asm statement's template spells (adjacent literals joined, escapes read).
std::string asmTemplate(const std::vector<Token> &tokens, std::size_t i, std::size_t end) {
  std::string out;
  for (; i < end && tokens[i].kind == TokenKind::String; ++i) {
    std::string_view s = tokens[i].text;
    const std::size_t q = s.find('"');
    if (q == std::string_view::npos || s.size() < q + 2)
      continue;
    s = s.substr(q + 1, s.size() - q - 2);
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (s[k] == '\\' && k + 1 < s.size()) {
        const char e = s[++k];
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      } else {
        out += s[k];
      }
    }
  }
  return out;
}

} // namespace

void findUnavailable(PassContext &ctx) {
  const std::vector<Token> &tokens = ctx.tokens;
  std::set<std::pair<unsigned, std::string>> seen;
  auto report = [&](unsigned line, const std::string &feature) {
    if (seen.insert({line, feature}).second)
      ctx.unavailable.push_back(Unavailable{feature, line});
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token &t = tokens[i];
    if (t.kind != TokenKind::Identifier)
      continue;
    // Inline assembly: PTX the runner emulates is rewritten (ptx.cpp), the rest is named.
    if (t.text == "asm" || t.text == "__asm__" || t.text == "__asm") {
      std::size_t k = i + 1;
      while (k < tokens.size() && (tokens[k].isIdentifier("volatile") || tokens[k].isIdentifier("__volatile__") ||
                                   tokens[k].isIdentifier("goto") || tokens[k].isIdentifier("inline")))
        ++k;
      if (k >= tokens.size() || !tokens[k].is("("))
        continue;
      const std::size_t close = matching(tokens, k);
      if (close >= tokens.size())
        continue;
      const std::string text = asmTemplate(tokens, k + 1, close);
      const AsmTranslation ptx = translateAsm(ctx, i, k, close, text);
      if (ptx.translated)
        ctx.edits.push_back(Edit{t.offset, tokens[close].end() - t.offset, ptx.code});
      for (const std::string &family : ptx.unsupported)
        report(t.line, "inline PTX " + family);
      i = close;
      continue;
    }
    // #include "cutlass/..." (the name is a string literal to the raw lexer)
    if (t.text == "include" && i > 0 && tokens[i - 1].is("#") && i + 1 < tokens.size() &&
        tokens[i + 1].kind == TokenKind::String) {
      for (const Named &n : kNamespaces)
        if (tokens[i + 1].text.substr(0, n.name.size() + 2) == "\"" + std::string(n.name) + "/")
          report(t.line, std::string(n.feature));
      continue;
    }
    const bool qualifies = i + 1 < tokens.size() && tokens[i + 1].is("::");
    const bool qualified = i > 0 && tokens[i - 1].is("::");
    for (const Named &n : kNamespaces)
      if (t.text == n.name && (qualifies || (i + 1 < tokens.size() && tokens[i + 1].is("/")))) {
        std::string what(n.feature);
        if ((n.name == "cub" || n.name == "thrust") && qualifies && i + 2 < tokens.size() &&
            tokens[i + 2].kind == TokenKind::Identifier)
          what += " (" + std::string(n.name) + "::" + std::string(tokens[i + 2].text) + ")";
        report(t.line, what);
      }
    if (t.text == "cuda" && qualifies && !qualified && i + 2 < tokens.size() &&
        (tokens[i + 2].isIdentifier("pipeline") || tokens[i + 2].isIdentifier("barrier") ||
         tokens[i + 2].isIdentifier("memcpy_async") || tokens[i + 2].isIdentifier("ptx") ||
         tokens[i + 2].isIdentifier("make_pipeline") || tokens[i + 2].isIdentifier("aligned_size_t")))
      report(t.line, "libcu++ cuda::" + std::string(tokens[i + 2].text));
    for (const Prefix &p : kLibraries)
      if (t.text.substr(0, p.prefix.size()) == p.prefix)
        report(t.line, std::string(p.feature) + " (" + std::string(t.text) + ")");
    for (const Named &n : kNames)
      if (t.text == n.name && !n.feature.empty())
        report(t.line, std::string(n.feature) + " (" + std::string(t.text) + ")");
  }
}

std::string describe(const std::vector<Unavailable> &unavailable) {
  std::string out;
  for (const Unavailable &u : unavailable)
    out += (out.empty() ? "unavailable: " : "; ") + u.feature + ", line " + std::to_string(u.line);
  return out;
}

} // namespace kbaudit::cudacpu
