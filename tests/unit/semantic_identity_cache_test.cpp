// The identity-keyed cache questions MEM001 asks: which comparisons key a cache on an input,
// whether the key was stored from an input, whether a refilled value reads the input's data or
// only its metadata, who the inputs are, what a function returns and whether it is stored
// state, and which memoized functions are handed input tensors.

#include "kbaudit/facts.h"
#include "kbaudit/semantic/identity_cache.h"
#include "kbaudit/semantic/input_aliases.h"
#include "kbaudit/semantic/memoized_calls.h"
#include "kbaudit/semantic/returned_items.h"
#include "python_test_support.h"

namespace kbaudit::py::testing {
namespace {

const Branch &branchOn(const PythonFacts &f, unsigned line) {
  const Branch *b = branchAt(f, line);
  EXPECT_NE(b, nullptr) << line;
  static const Branch none;
  return b ? *b : none;
}

TEST(SemanticIdentityCache, KeysOnIdentityPointerAndVersionNotShape) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        v = x._version
        if x is self._x and v == self._v:
            return self._out
        if x.shape == self._shape:
            return self._out
        if x.data_ptr() != self._ptr:  # id(x) in a comment
            self._ptr = x.data_ptr()
        return x
)PY"));
  const Function &fn = *f.findFunction("M.forward");
  const std::set<std::string> inputs = semantic::inputAliases(f, fn);
  const auto both = semantic::cacheKeys(f, fn, branchOn(f, 4), inputs);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(semantic::describeKeys(both), "object identity and _version");
  EXPECT_EQ(semantic::stateAttribute(both[0].stateSide()), "self._x");
  EXPECT_FALSE(semantic::keyStoredFromInput(f, both[0])); // nothing assigns self._x here
  EXPECT_TRUE(semantic::cacheKeys(f, fn, branchOn(f, 6), inputs).empty()); // shape only
  const auto ptr = semantic::cacheKeys(f, fn, branchOn(f, 8), inputs);
  ASSERT_EQ(ptr.size(), 1u);
  EXPECT_EQ(semantic::describeKeys(ptr), "data_ptr()"); // the comment's id(x) is no key
  EXPECT_TRUE(ptr[0].cmp.negated);
  EXPECT_TRUE(semantic::keyStoredFromInput(f, ptr[0])); // self._ptr = x.data_ptr()
}

// The key locals a rule found once for a function key every branch as the ones cacheKeys finds
// itself; without them a key read through a local is not seen.
TEST(SemanticIdentityCache, GivenKeyLocalsAreTheOnesUsed) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        p = x.data_ptr()
        if p == self._p:
            return self._out
        if x is self._x:
            return self._out
        return x
)PY"));
  const Function &fn = *f.findFunction("M.forward");
  const std::set<std::string> inputs = semantic::inputAliases(f, fn);
  const std::vector<semantic::KeyLocal> locals = semantic::keyLocals(f, fn, inputs);
  for (unsigned line : {4u, 6u})
    EXPECT_EQ(semantic::describeKeys(semantic::cacheKeys(f, fn, branchOn(f, line), inputs, locals)),
              semantic::describeKeys(semantic::cacheKeys(f, fn, branchOn(f, line), inputs)))
        << line;
  EXPECT_EQ(semantic::describeKeys(semantic::cacheKeys(f, fn, branchOn(f, 4), inputs, locals)), "data_ptr()");
  EXPECT_TRUE(semantic::cacheKeys(f, fn, branchOn(f, 4), inputs, {}).empty());
  EXPECT_EQ(semantic::describeKeys(semantic::cacheKeys(f, fn, branchOn(f, 6), inputs, {})), "object identity");
}

TEST(SemanticIdentityCache, OnlyTestsOfStateCanKeyACache) {
  auto f = analyze(src(R"PY(
_seen = {}
LIMIT = 4

def forward(x, last):
    if x is last:
        return x
    if x.shape[0] > LIMIT:
        return x
    if x in _seen:
        return _seen[x]
    return x
)PY"));
  const Function &fn = *f.findFunction("forward");
  EXPECT_FALSE(semantic::testReadsState(f, branchOn(f, 5))); // two inputs, no state
  EXPECT_FALSE(semantic::testReadsState(f, branchOn(f, 7))); // a module constant
  EXPECT_TRUE(semantic::testReadsState(f, branchOn(f, 9)));
  EXPECT_TRUE(semantic::cacheKeys(f, fn, branchOn(f, 5), semantic::inputAliases(f, fn)).empty());
  EXPECT_EQ(semantic::cacheKeys(f, fn, branchOn(f, 9), semantic::inputAliases(f, fn)).size(), 1u);
}

TEST(SemanticIdentityCache, RefillOfDataDerivedFromTheInputNotOfAPlan) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        if x is not self._x:
            self._x = x
            self._grid = (x.shape[0],)
            self._packed = x.float().contiguous()
        return self._packed
    def plan(self, x):
        if x is not self._x:
            self._x = x
            self._grid = (x.shape[0],)
        return x
)PY"));
  const Function &fwd = *f.findFunction("M.forward");
  const auto keys = semantic::cacheKeys(f, fwd, branchOn(f, 3), semantic::inputAliases(f, fwd));
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(semantic::derivedRefill(f, fwd, {4, 6}, keys), "self._packed");
  const Function &plan = *f.findFunction("M.plan");
  const auto planKeys = semantic::cacheKeys(f, plan, branchOn(f, 9), semantic::inputAliases(f, plan));
  ASSERT_EQ(planKeys.size(), 1u);
  EXPECT_EQ(semantic::derivedRefill(f, plan, {10, 11}, planKeys), ""); // a launch plan sized by x
}

TEST(SemanticIdentityCache, StateReadThroughGetattrAndStoredFromId) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        if id(x) == getattr(self, "_last", None):
            return self._y
        self._last = id(x)
        return x
)PY"));
  const Function &fn = *f.findFunction("M.forward");
  const auto keys = semantic::cacheKeys(f, fn, branchOn(f, 3), semantic::inputAliases(f, fn));
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(semantic::stateAttribute(keys[0].stateSide()), "self._last");
  EXPECT_TRUE(semantic::keyStoredFromInput(f, keys[0]));
}

TEST(SemanticIdentityCache, LaunchPlanReadsOnlyMetadata) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x):
        grid = (x.shape[0],)
        packed = x.float().contiguous()
        self._plan = (grid, x.dtype)
        self._data = packed
        self._hit = self._plans[x]
        return x
)PY"));
  const Function &fn = *f.findFunction("M.forward");
  const std::set<std::string> inputs = {"x"};
  EXPECT_TRUE(semantic::readsOnlyInputMetadata(f, fn, assignmentTo(f, "self._plan")->value, inputs));
  EXPECT_FALSE(semantic::readsOnlyInputMetadata(f, fn, assignmentTo(f, "self._data")->value, inputs));
  EXPECT_TRUE(semantic::readsOnlyInputMetadata(f, fn, assignmentTo(f, "self._hit")->value, inputs)); // a stored lookup
}

TEST(SemanticIdentityCache, InputAliasesFollowPartsAndViewsNotComputations) {
  auto f = analyze(src(R"PY(
class M:
    def forward(self, x, state):
        st = state[3]
        ckv = st["c_kv"]
        x2 = x.view(-1)
        w = x2.T
        n = x.shape[0]
        y = x.float()
        a, b = x, n
        return y
)PY"));
  const Function &fn = *f.findFunction("M.forward");
  EXPECT_EQ(semantic::inputParams(fn), (std::vector<std::string>{"x", "state"}));
  const std::set<std::string> in = semantic::inputAliases(f, fn);
  for (const char *n : {"x", "state", "st", "ckv", "x2", "w"})
    EXPECT_TRUE(in.count(n)) << n;
  for (const char *n : {"n", "y", "self"})
    EXPECT_FALSE(in.count(n)) << n;
  EXPECT_TRUE(semantic::reboundBefore(f, fn, "st", 5));
  EXPECT_FALSE(semantic::reboundBefore(f, fn, "w", 5));
}

TEST(SemanticIdentityCache, ReturnedItemsAndStoredState) {
  auto f = analyze(src(R"PY(
_table = {}

class M:
    def forward(self, x):
        if x is self._x:
            out = self._out
            return out, _table[1]
        if x is None:
            return
        return (x.view(-1), self._out)
)PY"));
  const Function &fn = *f.findFunction("M.forward");
  const std::vector<semantic::ReturnStatement> rets = semantic::returnsOf(f, fn);
  ASSERT_EQ(rets.size(), 3u);
  EXPECT_EQ(semantic::returnedItems(*rets[0].value).size(), 2u);
  EXPECT_TRUE(semantic::returnsStoredState(f, fn, *rets[0].value));
  EXPECT_TRUE(semantic::returnedItems(*rets[1].value).empty()); // a bare return
  EXPECT_FALSE(semantic::returnsStoredState(f, fn, *rets[1].value));
  EXPECT_FALSE(semantic::returnsStoredState(f, fn, *rets[2].value)); // x.view(-1) is no state
}

TEST(SemanticIdentityCache, MemoizedLaunchersHandedInputs) {
  Facts facts;
  facts.python = analyze(src(R"PY(
import functools
import triton

@triton.jit
def _k(x_ptr):
    pass

@functools.lru_cache(maxsize=8)
def _run(x):
    _k[(1,)](x)
    return x

@functools.lru_cache(maxsize=None)
def _table(n):
    return [i for i in range(n)]

class M:
    def forward(self, x):
        t = _table(x.shape[0])  # an integer key: not a tensor
        return _run(x)
)PY"));
  const std::vector<semantic::MemoizedCall> calls = semantic::memoizedCallsOnInputs(facts, {"M.forward"});
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].memoized->name, "_run");
  EXPECT_EQ(calls[0].how, "functools.lru_cache");
  EXPECT_EQ(calls[0].call->lines.begin, 20u);
  EXPECT_TRUE(semantic::memoizedCallsOnInputs(facts, {"other"}).empty());
}

} // namespace
} // namespace kbaudit::py::testing
