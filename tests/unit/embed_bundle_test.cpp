// Sidecars appended to solution.py after a banner, the way the audit corpus stores them.

#include "kbaudit/embed/bundle.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/python/frontend.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

const std::string kBundled = R"(import os
from torch.utils.cpp_extension import load
_DIR = os.path.dirname(os.path.abspath(__file__))
_ext = load(name="b", sources=[os.path.join(_DIR, "k.cu"), "h.cpp"])


# ==================================================================
# ===== sidecar: k.cu (44 bytes, loaded by solution.py) =====
# ==================================================================

#include <cuda.h>
__global__ void k() {}

# ==================================================================
# ===== sidecar: h.cpp (11 bytes, loaded by solution.py) =====
# ==================================================================

int h();
)";

TEST(EmbedBundle, SplitsPythonFromAppendedFiles) {
  const embed::Bundle b = embed::splitBundle(kBundled);
  EXPECT_EQ(std::string_view(kBundled).substr(0, b.pythonBytes),
            "import os\nfrom torch.utils.cpp_extension import load\n"
            "_DIR = os.path.dirname(os.path.abspath(__file__))\n"
            "_ext = load(name=\"b\", sources=[os.path.join(_DIR, \"k.cu\"), \"h.cpp\"])\n\n\n");
  ASSERT_EQ(b.files.size(), 2u);
  EXPECT_EQ(b.files[0].name, "k.cu");
  EXPECT_EQ(b.files[0].text, "#include <cuda.h>\n__global__ void k() {}\n");
  EXPECT_EQ(b.files[0].firstLine, 11u);
  EXPECT_EQ(b.files[1].name, "h.cpp");
  EXPECT_EQ(b.files[1].text, "int h();\n");
  EXPECT_EQ(b.files[1].firstLine, 18u);
}

TEST(EmbedBundle, PlainSolutionIsAllPython) {
  const std::string text = "# ===== not a banner =====\nx = 1\n";
  const embed::Bundle b = embed::splitBundle(text);
  EXPECT_EQ(b.pythonBytes, text.size());
  EXPECT_TRUE(b.files.empty());
}

TEST(EmbedBundle, LoadFindsBundledSidecarsMappedToSolutionLines) {
  const embed::Bundle b = embed::splitBundle(kBundled);
  const auto facts = py::analyze(std::string_view(kBundled).substr(0, b.pythonBytes));
  const auto out = embed::extract(facts, {}, b.files);
  ASSERT_EQ(out.sources.size(), 2u);
  EXPECT_EQ(out.sources[0].origin, embed::Origin::LoadSidecar);
  EXPECT_EQ(out.sources[0].language, embed::Language::Cuda);
  EXPECT_EQ(out.sources[0].file, "solution.py");
  EXPECT_EQ(out.sources[0].path, "k.cu");
  EXPECT_EQ(out.sources[0].lineMap, (std::vector<unsigned>{11, 12}));
  EXPECT_EQ(out.sources[1].language, embed::Language::Cpp);
  EXPECT_EQ(out.sources[1].lineMap, std::vector<unsigned>{18});
  EXPECT_EQ(out.sources[0].module, 0);
  EXPECT_TRUE(out.diagnostics.empty());
}

TEST(EmbedBundle, AppendedFileNothingLoadsIsStillASource) {
  const std::string text = "import ctypes\nlib = ctypes.CDLL('k.so')\n\n"
                           "# ==================================================================\n"
                           "# ===== sidecar: k.cu (23 bytes, loaded by solution.py) =====\n"
                           "# ==================================================================\n"
                           "\n__global__ void k() {}\n";
  const embed::Bundle b = embed::splitBundle(text);
  const auto out = embed::extract(py::analyze(std::string_view(text).substr(0, b.pythonBytes)), {}, b.files);
  ASSERT_EQ(out.sources.size(), 1u);
  EXPECT_EQ(out.sources[0].module, -1);
  EXPECT_EQ(out.sources[0].lineMap, std::vector<unsigned>{8});
  EXPECT_EQ(out.sources[0].path, "k.cu");
}

} // namespace
} // namespace kbaudit
