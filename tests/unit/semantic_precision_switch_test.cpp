// PyTorch's precision switches (kbaudit/semantic/precision_switch.h), the functions whose
// settings are in force when the entry point runs, and staticString (static_value.h):
// PREC002 judges a switch with all of them.

#include "kbaudit/semantic/precision_switch.h"
#include "kbaudit/semantic/static_value.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kbaudit {
namespace {

TEST(SemanticPrecisionSwitch, PythonFlagsAndStrings) {
  const semantic::PrecisionFlag *tf32 = semantic::precisionFlag("torch.backends.cuda.matmul.allow_tf32");
  ASSERT_NE(tf32, nullptr);
  EXPECT_FALSE(tf32->lowersByDefault) << "PyTorch turns matmul TF32 off by default";
  EXPECT_EQ(tf32->work, kernels::HeavyOpKind::Matmul);
  const semantic::PrecisionFlag *cudnn = semantic::precisionFlag("torch.backends.cudnn.allow_tf32");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_TRUE(cudnn->lowersByDefault) << "cuDNN TF32 is on by default";
  EXPECT_EQ(cudnn->work, kernels::HeavyOpKind::Conv);
  EXPECT_EQ(semantic::precisionFlag("torch.backends.cudnn.benchmark"), nullptr) << "speed, not precision";
  EXPECT_TRUE(semantic::isPrecisionString("torch.backends.cuda.matmul.fp32_precision"));
  EXPECT_FALSE(semantic::isPrecisionString("torch.backends.cuda.matmul.allow_tf32"));
  EXPECT_TRUE(semantic::isLowDtypeSpelling("torch.bfloat16"));
  EXPECT_TRUE(semantic::isLowDtypeSpelling("torch.cuda.HalfTensor"));
  EXPECT_FALSE(semantic::isLowDtypeSpelling("torch.float32"));
  EXPECT_FALSE(semantic::isLowDtypeSpelling("torch.float64"));
}

std::optional<std::string> lowering(const std::string &callee, std::vector<std::string> args) {
  cxx::CxxCall c;
  c.callee = callee;
  c.arguments = std::move(args);
  return semantic::cxxPrecisionLowering(c);
}

TEST(SemanticPrecisionSwitch, CxxSetters) {
  EXPECT_EQ(lowering("at::Context::setAllowTF32CuBLAS", {"true"}), "fp32 matmuls run on TF32 tensor cores");
  EXPECT_EQ(lowering("at::Context::setAllowTF32CuDNN", {"1"}), "fp32 convolutions run on TF32 tensor cores");
  EXPECT_EQ(lowering("at::Context::setAllowTF32CuBLAS", {"false"}), std::nullopt) << "the precise setting";
  EXPECT_EQ(lowering("at::Context::setAllowFP16ReductionCuBLAS", {"0"}), std::nullopt);
  EXPECT_EQ(lowering("at::Context::setFloat32MatmulPrecision", {"\"high\""}), "fp32 matmuls may run as TF32 or bf16");
  EXPECT_EQ(lowering("at::Context::setFloat32MatmulPrecision", {"\"highest\""}), std::nullopt);
  EXPECT_EQ(lowering("cublasSetMathMode", {"h", "CUBLAS_TF32_TENSOR_OP_MATH"}),
            "cuBLAS fp32 GEMMs run on TF32 tensor cores");
  EXPECT_EQ(lowering("cublasSetMathMode", {"h", "CUBLAS_PEDANTIC_MATH"}), std::nullopt);
  EXPECT_EQ(lowering("cublasSgemm", {}), std::nullopt);
}

TEST(SemanticPrecisionSwitch, FunctionsInForceAtEntry) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

def _configure():
    _deeper()

def _deeper():
    pass

def _on_forward():
    pass

def _never():
    pass

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        _configure()

    def forward(self, x):
        _on_forward()
        return x
)PY"));
  const std::set<std::string> in = semantic::functionsInForceAtEntry(f);
  EXPECT_TRUE(in.count("")) << "module level runs at import";
  EXPECT_TRUE(in.count("Model.__init__"));
  EXPECT_TRUE(in.count("_configure")) << "a helper the constructor calls";
  EXPECT_TRUE(in.count("_deeper")) << "and what it calls";
  EXPECT_TRUE(in.count("Model.forward"));
  EXPECT_TRUE(in.count("_on_forward"));
  EXPECT_FALSE(in.count("_never"));
}

TEST(SemanticStaticValue, StaticStringIsAStringValueOnly) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch
MODE = "tf32"
torch.backends.cuda.matmul.fp32_precision = MODE
torch.backends.cuda.matmul.fp32_precision = "ieee"
torch.backends.cuda.matmul.fp32_precision = torch.float16
)PY"));
  std::vector<const py::Assignment *> writes;
  for (const py::Assignment &a : f.python.assignments)
    if (a.lines.begin >= 3)
      writes.push_back(&a);
  ASSERT_EQ(writes.size(), 3u);
  EXPECT_EQ(semantic::staticString(f.python, writes[0]->value), "tf32") << "through the module binding";
  EXPECT_EQ(semantic::staticString(f.python, writes[1]->value), "ieee");
  EXPECT_EQ(semantic::staticString(f.python, writes[2]->value), std::nullopt) << "a name's spelling is not its value";
  EXPECT_EQ(semantic::staticText(f.python, writes[2]->value), "torch.float16") << "unlike staticText";
}

} // namespace
} // namespace kbaudit
