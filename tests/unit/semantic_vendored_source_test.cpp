// The solution's definitions (kbaudit/semantic/definitions.h) and the traces a library's
// source leaves in it (kbaudit/semantic/vendored_source.h), which WRAP006 weighs.

#include "kbaudit/semantic/definitions.h"
#include "kbaudit/semantic/vendored_source.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <array>
#include <string_view>

namespace kbaudit {
namespace {

const char *kSource = R"PY(# Copyright (c) 2024, Ada Lovelace, Charles Babbage
import torch
import triton


@triton.jit
def chunk_fwd_kernel(x):
    """Computes the chunked forward pass of gated attention."""
    pass


class Model(torch.nn.Module):
    def forward(self, x):
        # chunk_local_cumsum is only named in this comment
        return prepare_lens(x)


def prepare_lens(x):
    return x


def prepare_lens(x):
    return x
)PY";

TEST(SemanticDefinitions, DefLinesBelowDecoratorsInLineOrder) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  const std::vector<semantic::Definition> defs = semantic::definitions(f);
  ASSERT_EQ(defs.size(), 5u);
  EXPECT_EQ(defs[0].name, "chunk_fwd_kernel");
  EXPECT_EQ(defs[0].lines.begin, 7u) << "the def line, not the decorator's";
  EXPECT_EQ(defs[1].name, "Model");
  EXPECT_EQ(defs[1].lines, (LineRange{12, 15}));
  EXPECT_EQ(defs[2].name, "forward") << "nested defs count";
  EXPECT_EQ(defs[3].name, "prepare_lens");
  EXPECT_EQ(defs[4].name, "prepare_lens");
}

TEST(SemanticVendoredSource, TracesOfOneSignature) {
  const Facts f = analyzeSource(SourceFile::fromBytes(kSource));
  static constexpr std::array<std::string_view, 1> marks = {"Ada Lovelace"};
  static constexpr std::array<std::string_view, 2> phrases = {"chunked forward pass", "not in the file"};
  static constexpr std::array<std::string_view, 2> strong = {"chunk_fwd_kernel", "chunk_local_cumsum"};
  static constexpr std::array<std::string_view, 1> common = {"prepare_lens"};
  const semantic::VendoredTraces t =
      semantic::vendoredTraces(f, semantic::licenseLines(f), semantic::definitions(f), {marks, phrases, strong, common});
  ASSERT_EQ(t.licenseLines.size(), 1u);
  EXPECT_EQ(t.licenseLines[0], (LineRange{1, 1}));
  EXPECT_NE(t.licenseText.find("Copyright"), std::string::npos);
  ASSERT_EQ(t.phrases.size(), 1u);
  EXPECT_EQ(t.phrases[0], "chunked forward pass");
  EXPECT_EQ(t.phraseLines.begin, 8u);
  ASSERT_EQ(t.strong.size(), 1u) << "a name in a comment is not a definition";
  EXPECT_EQ(t.strong[0].name, "chunk_fwd_kernel");
  EXPECT_EQ(t.common.size(), 1u) << "a name defined twice counts once";
  EXPECT_EQ(t.independentSignals(), 3u) << "license, one phrase, one characteristic name; common names are no signal";

  static constexpr std::array<std::string_view, 1> others = {"Grace Hopper"};
  const semantic::VendoredTraces none = semantic::vendoredTraces(f, semantic::licenseLines(f), semantic::definitions(f), {others, {}, {}, {}});
  EXPECT_TRUE(none.licenseLines.empty());
  EXPECT_EQ(none.independentSignals(), 0u);
}

} // namespace
} // namespace kbaudit
