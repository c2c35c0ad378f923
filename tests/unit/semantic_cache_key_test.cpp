// What a cache key reads of an input comes from the names the key expression reads: an identity
// function, a data pointer or a version counter spelled in a comment or a string literal is not
// read, and one reached through getattr with a constant name is.

#include "kbaudit/semantic/cache_key.h"
#include "kbaudit/semantic/condition_parts.h"
#include "kbaudit/semantic/input_view.h"
#include "kbaudit/semantic/sampled_key.h"
#include "python_test_support.h"

#include <algorithm>

namespace kbaudit::py::testing {
namespace {

using semantic::KeyKind;

bool hasKind(const std::vector<KeyKind> &kinds, KeyKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); }

std::vector<KeyKind> kindsOfLocal(const PythonFacts &f, std::string_view fn, std::string_view local) {
  const Function *def = f.findFunction(fn);
  EXPECT_NE(def, nullptr);
  if (!def)
    return {};
  for (const semantic::KeyLocal &l : semantic::keyLocals(f, *def, {"x"}))
    if (l.name == local)
      return l.kinds;
  return {};
}

TEST(SemanticCacheKey, LocalsKeyedOnIdentityPointerVersionAndShape) {
  auto f = analyze(src(R"PY(
import weakref as wr
_ident = id

def forward(x):
    a = _ident(x)
    b = x.untyped_storage().data_ptr()
    c = getattr(x, "_version", None)
    d = (x.shape, x.dtype)
    e = hash(x)
    e2 = (hash(x), x.shape)
    g = wr.ref(x)
    h = (a, d)
    return x
)PY"));
  EXPECT_TRUE(hasKind(kindsOfLocal(f, "forward", "a"), KeyKind::Identity));
  EXPECT_TRUE(hasKind(kindsOfLocal(f, "forward", "b"), KeyKind::Pointer));
  EXPECT_TRUE(hasKind(kindsOfLocal(f, "forward", "c"), KeyKind::Version));
  EXPECT_EQ(kindsOfLocal(f, "forward", "d"), std::vector<KeyKind>{KeyKind::Shape});
  EXPECT_TRUE(hasKind(kindsOfLocal(f, "forward", "e"), KeyKind::Identity));
  EXPECT_TRUE(hasKind(kindsOfLocal(f, "forward", "e2"), KeyKind::Identity));
  EXPECT_TRUE(hasKind(kindsOfLocal(f, "forward", "g"), KeyKind::Identity));
  const std::vector<KeyKind> h = kindsOfLocal(f, "forward", "h"); // through the locals it reads
  EXPECT_TRUE(hasKind(h, KeyKind::Identity));
  EXPECT_TRUE(hasKind(h, KeyKind::Shape));
}

TEST(SemanticCacheKey, CommentsLiteralsAndAttributeNamesAreNotKeys) {
  auto f = analyze(src(R"PY(
def forward(x):
    a = x.shape  # not id(x), not x.data_ptr(): a new tensor of this shape reuses the buffer
    b = (x.shape[0], "data_ptr _version")
    c = hash(x.shape)
    d = x.size(0) + self_id_count
    return x
)PY"));
  for (const char *local : {"a", "b", "c", "d"})
    EXPECT_EQ(kindsOfLocal(f, "forward", local), std::vector<KeyKind>{KeyKind::Shape}) << local;
}

TEST(SemanticCacheKey, ConditionSidesAgainstStoredState) {
  auto f = analyze(src(R"PY(
_cache = {}
LIMIT = 4

class M:
    def forward(self, x, w):
        if (x, w) in _cache and x is self._last and n < LIMIT and k == LIMIT:
            pass
        return x
)PY"));
  ASSERT_NE(branchAt(f, 6), nullptr);
  const std::vector<semantic::ConditionComparison> cs =
      semantic::conditionComparisons(*branchAt(f, 6));
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_TRUE(semantic::isBareInputKey(cs[0].left.value, {"x"}));
  EXPECT_TRUE(semantic::isStoredState(cs[0].right.value, f)); // a module-level dict
  EXPECT_TRUE(hasKind(semantic::keyKindsOf(cs[1].left.value, true, {"x"}, {}, {"id"}), KeyKind::Identity));
  EXPECT_TRUE(semantic::isStoredState(cs[1].right.value, f));
  EXPECT_FALSE(semantic::isStoredState(cs[2].right.value, f)); // a module constant is no cache
  EXPECT_FALSE(semantic::isBareInputKey(exprOf("x.shape"), {"x"}));
}

TEST(SemanticCacheKey, MetadataOnlyReads) {
  EXPECT_TRUE(semantic::readsOnlyMetadata(exprOf("(x.shape[0], x.dtype, x.size(1))"), "x"));
  EXPECT_TRUE(semantic::readsOnlyMetadata(exprOf("triton.next_power_of_2(n)"), "x"));
  EXPECT_FALSE(semantic::readsOnlyMetadata(exprOf("x.float().mean()"), "x"));
  EXPECT_FALSE(semantic::readsOnlyMetadata(exprOf("pack(x)"), "x"));
}

TEST(SemanticCacheKey, ViewsOfAParameter) {
  EXPECT_TRUE(semantic::isViewOfParam(exprOf("x"), "x"));
  EXPECT_TRUE(semantic::isViewOfParam(exprOf("x.view(-1)[..., :n].t()"), "x"));
  EXPECT_FALSE(semantic::isViewOfParam(exprOf("x.clone()"), "x"));
  EXPECT_FALSE(semantic::isViewOfParam(exprOf("xs"), "x"));
  EXPECT_FALSE(semantic::isViewOfParam(exprOf("y.view(-1)  # x"), "x"));
}

TEST(SemanticCacheKey, SamplesAndReductionsOfReadInputsOnly) {
  EXPECT_EQ(semantic::constantSampleOf(exprOf("torch.equal(x[0, :16], self._probe)"), {"x"}),
            "x[0, :16]");
  EXPECT_EQ(semantic::wholeReductionOf(exprOf("x.abs().sum() == self._sum"), {"x"}), "x.abs().sum(...)");
  // Spelled only inside a literal: not a read of the input.
  EXPECT_EQ(semantic::constantSampleOf(exprOf("self._tag == 'x[0, :16]'"), {"x"}), "");
}

} // namespace
} // namespace kbaudit::py::testing
