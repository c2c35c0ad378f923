// Partial computations of the graded entry (kbaudit/semantic/partial_compute.h): a slice of
// the input feeding the work, and a replication or rescale filling the rest. RUB015 reads these.

#include "kbaudit/semantic/graded_entry.h"
#include "kbaudit/semantic/partial_compute.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

Facts factsOf(const std::string &text) { return analyzeSource(SourceFile::fromBytes(text)); }

TEST(SemanticPartialCompute, PartialSlices) {
  const std::set<std::string> in = {"x"};
  EXPECT_EQ(semantic::partialSlice("y = x[: x.shape[0] // 2]", in), "x[: x.shape[0] // 2]");
  EXPECT_EQ(semantic::partialSlice("x[:1]", in), "x[:1]");
  EXPECT_EQ(semantic::partialSlice("x[:, :64]", in), "x[:, :64]");
  EXPECT_EQ(semantic::partialSlice("x.view(-1)[::4]", in), "x.view(-1)[::4]");
  EXPECT_EQ(semantic::partialSlice("x[n // 2:]", in), "x[n // 2:]");
  EXPECT_EQ(semantic::partialSlice("x[: int(n * 0.25)]", in), "x[: int(n * 0.25)]");
  EXPECT_EQ(semantic::partialSlice("x[i : i + chunk]", in), "") << "a tile of a loop";
  EXPECT_EQ(semantic::partialSlice("x[:n]", in), "");
  EXPECT_EQ(semantic::partialSlice("x[: n // 64 * 64]", in), "") << "rounding to a multiple";
  EXPECT_EQ(semantic::partialSlice("x[0]", in), "");
  EXPECT_EQ(semantic::partialSlice("self.x[:1]", in), "") << "an attribute is not the input";
}

TEST(SemanticPartialCompute, ReplicationAndRescale) {
  const auto isY = [](std::string_view t) { return t == "y"; };
  std::string op;
  EXPECT_EQ(semantic::replicationIn("torch.cat([y, y], dim=0)", isY, &op), "torch.cat(");
  EXPECT_EQ(op, "y");
  EXPECT_EQ(semantic::replicationIn("torch.cat([y] * 4)", isY), "torch.cat(");
  EXPECT_EQ(semantic::replicationIn("y.repeat(1, 8)", isY), ".repeat(");
  EXPECT_EQ(semantic::replicationIn("y.expand(b, -1)", isY), ".expand(");
  EXPECT_EQ(semantic::replicationIn("torch.tile(y, (2,))", isY), "torch.tile(");
  EXPECT_EQ(semantic::replicationIn("torch.cat([y, z])", isY), "") << "different items";
  EXPECT_EQ(semantic::replicationIn("z.expand(b, -1)", isY), "");
  const auto isS = [](std::string_view t) { return t == "s"; };
  EXPECT_EQ(semantic::rescaleIn("s * 4", isS), "s");
  EXPECT_EQ(semantic::rescaleIn("s * (n / m)", isS), "s");
  EXPECT_EQ(semantic::rescaleIn("s * w", isS), "") << "a weight is not a ratio";
  EXPECT_EQ(semantic::rescaleIn("s ** 2", isS), "");
}

TEST(SemanticPartialCompute, FlowFromSliceToResult) {
  const Facts f = factsOf("import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
                          "        h = x[: x.shape[0] // 2]\n        y = torch.relu(h)\n"
                          "        z = torch.cat([y, y])\n        return z\n");
  const auto e = semantic::gradedEntry(f);
  ASSERT_TRUE(e);
  const auto pcs = semantic::partialComputations(f, *e);
  ASSERT_EQ(pcs.size(), 1u);
  EXPECT_EQ(pcs[0].sliceText, "x[: x.shape[0] // 2]");
  EXPECT_EQ(pcs[0].fill.begin, 6u);
  EXPECT_TRUE(pcs[0].computed);
  EXPECT_TRUE(pcs[0].reachesResult);

  const Facts raw = factsOf("class ModelNew:\n    def forward(self, x):\n        return x[:1].expand(4, -1)\n");
  const auto pr = semantic::partialComputations(raw, *semantic::gradedEntry(raw));
  ASSERT_EQ(pr.size(), 1u);
  EXPECT_FALSE(pr[0].computed) << "only a view of the slice is replicated";
}

TEST(SemanticPartialCompute, OutputBufferFilledFromItsOwnPart) {
  for (const char *fill : {"    output[h:] = output[:h]\n", "    output[:h] = y\n    output[h:] = y\n"}) {
    const Facts f = factsOf(std::string("def kernel(output, x):\n    h = x.shape[0] // 2\n    y = torch.empty_like(x)\n"
                                        "    k[(1,)](x[: x.shape[0] // 2], y, output)\n") +
                            fill);
    const auto e = semantic::gradedEntry(f);
    ASSERT_TRUE(e);
    const auto pcs = semantic::partialComputations(f, *e);
    ASSERT_FALSE(pcs.empty()) << fill;
    EXPECT_TRUE(pcs.back().computed) << fill;
    EXPECT_TRUE(pcs.back().reachesResult) << fill;
  }
}

} // namespace
} // namespace kbaudit
