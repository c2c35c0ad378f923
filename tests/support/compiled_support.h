#pragma once

// Compiling CUDA text in tests: whether nvcc is here (tests that need it skip, saying why), and
// one plain CUDA source (no torch headers, so a compile takes about a second) as embedded facts.

#include "kbaudit/compiled/compile.h"

#include <string>

namespace kbaudit::test {

/// "" when nvcc can be run; otherwise why not (the skip message).
inline std::string noNvcc() {
  static const std::string why = [] {
    const std::string v = compiled::toolkitVersion();
    return v.empty() ? std::string("no usable nvcc (PATH, $KBAUDIT_NVCC, /usr/local/cuda/bin): compiled facts untested here")
                     : std::string();
  }();
  return why;
}

/// One CUDA source compiled by nvcc as cupy's would be (no torch prelude); line i maps to i.
inline embed::EmbedFacts plainCuda(const std::string &text) {
  embed::EmbedFacts f;
  embed::EmbeddedSource s;
  s.origin = embed::Origin::CupyRawKernel;
  s.language = embed::Language::Cuda;
  s.text = text;
  unsigned lines = 1;
  for (char c : text)
    lines += c == '\n';
  for (unsigned i = 1; i <= lines; ++i)
    s.lineMap.push_back(i);
  f.sources.push_back(std::move(s));
  return f;
}

} // namespace kbaudit::test
