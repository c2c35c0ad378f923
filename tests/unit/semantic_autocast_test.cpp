// torch.autocast regions (kbaudit/semantic/autocast.h): their owner and dtype.

#include "kbaudit/semantic/autocast.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

TEST(SemanticAutocast, OwnersAndDtypes) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import torch

class Model(torch.nn.Module):
    @torch.autocast("cuda", dtype=torch.bfloat16)
    def forward(self, x):
        return x @ x

def cpu_path(x):
    with torch.autocast(device_type="cpu"):
        return x @ x

def default_path(x):
    with torch.cuda.amp.autocast():
        return x @ x

def unknown(x, dt):
    with torch.autocast("cuda", dtype=dt):
        return x @ x

def off(x):
    with torch.autocast("cuda", enabled=False):
        return x @ x
)PY"));
  const std::vector<semantic::AutocastSite> sites = semantic::autocastSites(f.python);
  ASSERT_EQ(sites.size(), 4u) << "the disabled region is not one";
  EXPECT_EQ(sites[0].owner, "Model.forward") << "a decorator's region is the decorated function";
  EXPECT_EQ(sites[0].dtype, "bf16");
  EXPECT_EQ(sites[1].owner, "cpu_path");
  EXPECT_EQ(sites[1].dtype, "bf16") << "the CPU default";
  EXPECT_EQ(sites[2].dtype, "fp16") << "the CUDA default";
  EXPECT_EQ(sites[3].dtype, "") << "a dtype given but not statically known";
  EXPECT_TRUE(semantic::isAutocast("torch.amp.autocast"));
  EXPECT_FALSE(semantic::isAutocast("torch.no_grad"));
}

} // namespace
} // namespace kbaudit
