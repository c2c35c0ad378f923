// RUB001-RUB004 confidence grading: what the fixtures cannot express (how sure a finding
// is), checked on small solutions.

#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace kbaudit;

namespace {

/// Confidence of each finding of `rule`, keyed by line.
std::map<unsigned, rules::Confidence> confidences(const std::string &rule, const std::string &src) {
  const Facts facts = analyzeSource(SourceFile::fromBytes(src));
  rules::Selection only;
  only.select = {rule};
  std::map<unsigned, rules::Confidence> out;
  for (const rules::Finding &f : rules::runRules(rules::CheckContext{facts, nullptr}, only).findings)
    if (f.rule == rule)
      out[f.lines.begin] = f.confidence;
  return out;
}

using C = rules::Confidence;

TEST(Rub001Confidence, GraderNameHighBareFrameMediumCliFlagLow) {
  const auto f = confidences("RUB001", R"(import os
import sys
import inspect
import torch.nn as nn

_DEV = "--dev" in sys.argv
if _DEV:
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        if inspect.stack()[1].function == "run":
            return x
        if "bench" in sys.argv[0]:
            return x
        if os.environ.get("KB_EVAL_MODE"):
            return x
        return x + 1
)");
  EXPECT_EQ(f, (std::map<unsigned, C>{{7, C::Low}, {13, C::Medium}, {15, C::High}, {17, C::Medium}}));
}

TEST(Rub001Confidence, HelperBranchesAreReportedThroughTheirConsumer) {
  const auto f = confidences("RUB001", R"(import sys
import torch.nn as nn


def timed():
    if "benchmark" in sys.argv[0]:
        return True
    return False


class ModelNew(nn.Module):
    def forward(self, x):
        fast = timed()
        if fast:
            return x
        return x + 1
)");
  EXPECT_EQ(f, (std::map<unsigned, C>{{14, C::High}}));
}

TEST(Rub002Confidence, EditsHighReadsMediumHelpersLow) {
  const auto f = confidences("RUB002", R"(import os
import torch.nn as nn
import reference

os.system("sed -i s/1e-2/1e0/ check.py")
TOL = open("problem.yaml").read()
EPS = reference.EPS


class ModelNew(nn.Module):
    def forward(self, x):
        return x
)");
  EXPECT_EQ(f, (std::map<unsigned, C>{{3, C::Low}, {5, C::High}, {6, C::Medium}}));
}

TEST(Rub002Confidence, ReferenceModelInForwardIsHigh) {
  const auto f = confidences("RUB002", R"(import torch.nn as nn
import reference as R


class ModelNew(nn.Module):
    def forward(self, x):
        return R.Model()(x)
)");
  EXPECT_EQ(f, (std::map<unsigned, C>{{2, C::High}}));
}

TEST(Rub003Confidence, ComparisonHighLibraryOpMediumInitLow) {
  const auto f = confidences("RUB003", R"(import torch
import torch.nn as nn

torch.allclose = lambda *a, **k: True
torch.matmul = lambda a, b: a
torch.nn.init.kaiming_uniform_ = lambda t, **k: t
torch.backends.cudnn.benchmark = True
torch._inductor.config.max_autotune = True


class ModelNew(nn.Module):
    def forward(self, x):
        return x
)");
  EXPECT_EQ(f, (std::map<unsigned, C>{{4, C::High}, {5, C::Medium}, {6, C::Low}}));
}

TEST(Rub004Confidence, StoredResultMediumUnknownLowSetupQuiet) {
  const auto f = confidences("RUB004", R"(import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.out = None
        self.mode = 0

    def forward(self, x):
        self.n += 1
        if self.n == 1:
            torch.cuda.synchronize()
        if self.n > 10:
            self.mode = 1
        if self.n > 3:
            return self.out
        self.out = x.relu()
        return self.out
)");
  EXPECT_EQ(f, (std::map<unsigned, C>{{16, C::Low}, {18, C::Medium}}));
}

} // namespace
