// Whether a method's receiver is a tensor (kbaudit/semantic/tensor_values.h): WRAP005 reads
// `x.topk(k)` as the forbidden torch.topk only on a tensor, never on a list or a generator.

#include "kbaudit/semantic/tensor_values.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

using semantic::TensorKind;

Facts factsOf(const std::string &code, std::vector<std::string> reachable) {
  Facts f;
  f.python = analyze(code);
  f.kernels.entryPoints = {"Model.forward"};
  f.kernels.reachableFunctions = std::move(reachable);
  return f;
}

TEST(SemanticTensorValues, ParametersBindingsAndContainers) {
  const Facts f = factsOf(src(R"PY(
import torch
class Model:
    def __init__(self):
        self.w = torch.randn(4)
        self.names = ["a", "b"]
    def forward(self, x):
        a = x.view(-1)
        b = [v for v in range(3)]
        c = (v for v in range(3))
        d = sorted(x.tolist())
        e = torch.cuda.Stream()
        return x
)PY"),
                          {"Model.forward"});
  const semantic::TensorValues t(f);
  EXPECT_EQ(t.ofReceiver("x", "Model.forward"), TensorKind::Tensor);       // a parameter of forward
  EXPECT_EQ(t.ofReceiver("x[:, :2]", "Model.forward"), TensorKind::Tensor); // its head decides
  EXPECT_EQ(t.ofReceiver("a", "Model.forward"), TensorKind::Tensor);       // a view of it
  EXPECT_EQ(t.ofReceiver("b", "Model.forward"), TensorKind::NotTensor);    // a list comprehension
  EXPECT_EQ(t.ofReceiver("c", "Model.forward"), TensorKind::NotTensor);    // a generator
  EXPECT_EQ(t.ofReceiver("d", "Model.forward"), TensorKind::NotTensor);    // sorted() builds a list
  EXPECT_EQ(t.ofReceiver("e", "Model.forward"), TensorKind::NotTensor);    // a stream
  EXPECT_EQ(t.ofReceiver("self.w", "Model.forward"), TensorKind::Tensor);
  EXPECT_EQ(t.ofReceiver("self.names", "Model.forward"), TensorKind::NotTensor);
  EXPECT_EQ(t.ofReceiver("torch", "Model.forward"), TensorKind::Unknown);  // an import
  EXPECT_EQ(t.ofReceiver("q", "Model.forward"), TensorKind::Unknown);      // nothing known
}

TEST(SemanticTensorValues, AParameterOfAnUnreachedFunctionIsUnknown) {
  const Facts f = factsOf(src(R"PY(
def tune(xs):
    return xs
)PY"),
                          {});
  EXPECT_EQ(semantic::TensorValues(f).ofReceiver("xs", "tune"), TensorKind::Unknown);
}

} // namespace
} // namespace kbaudit::py::testing
