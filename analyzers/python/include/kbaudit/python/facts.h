#pragma once

// The Python facts: what the tree-sitter front end extracts from a solution.py.
// Plain structs, no parser types: rules and the embed analyzer read these and never
// re-parse text. Every fact carries its 1-indexed line range in solution.py.
//
// Naming: `function` fields hold the enclosing def's qualified name ("ModelNew.forward",
// "_build", "" at module level). `resolved` fields hold the dotted name after alias
// resolution through imports ("F.linear" -> "torch.nn.functional.linear"); a name that
// is not imported stays as written ("x.half" -> "x.half").

#include "kbaudit/source/diagnostic.h"
#include "kbaudit/source/line_range.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::py {

/// A string value after constant folding (literal concatenation, implicit concatenation,
/// names bound to string literals, `%`/`.format`/f-strings where every part is static,
/// `"".join([...])` of static parts, `.replace` with static arguments).
struct StringValue {
  std::string value;
  /// lineOrigins[i] is the solution.py line where line i (0-indexed) of `value` starts.
  /// Exact for triple-quoted literals; a "\n" escape inside a one-line literal maps the
  /// following value line to the same source line. Same length as the number of lines
  /// in `value` (a trailing newline does not open a new line).
  std::vector<unsigned> lineOrigins;
  /// False when some part could not be folded (a runtime value interpolated, an unknown
  /// call); the unknown parts are left out of `value`.
  bool complete = true;
  /// Some left-out part was left out by a limit of kbaudit's own (the evaluator's depth, item
  /// or size budget, an expression form it does not fold), not because it is a run-time value:
  /// a reader must treat it as unseen.
  bool limited = false;
};

enum class ExprKind {
  String, Number, Bool, None, Name, Attribute, Call, List, Tuple, Set, Dict, Subscript,
  BinaryOp, UnaryOp, Comparison, BoolOp, Conditional, Lambda, Other
};

/// One link of the attribute/call/subscript chain an expression is, from its root outwards:
/// `x.view(-1)[0, :16].t()` is x, then .view, (), [0, :16], .t, (). Parentheses around a link's
/// object are looked through.
struct ChainLink {
  enum class Kind { Attribute, Call, Subscript };
  Kind kind = Kind::Attribute;
  std::string name; ///< the attribute's name; empty for calls and subscripts
};

/// A summary of one expression, enough for rules to ask "what is this argument".
struct Expr {
  ExprKind kind = ExprKind::Other;
  std::string text;       ///< source text as written (truncated to 512 bytes)
  std::string resolved;   ///< dotted name for Name/Attribute; callee for Call
  std::optional<StringValue> string; ///< when it folds to a string
  std::optional<double> number;      ///< when it folds to a number
  /// Items of a List/Tuple/Set literal, or of the list/tuple a Name is bound to.
  std::vector<Expr> elements;
  /// No value was folded because a limit of kbaudit's evaluator was hit (see StringValue::limited).
  bool limited = false;
  /// The free names and dotted chains rooted in one that the expression reads, from its syntax
  /// tree (never from string literals, comments, keyword names, attribute names or a lambda's or
  /// comprehension's own variables): `self.cache.get(k)` reads "self", "self.cache",
  /// "self.cache.get", "k". Ask semantic::reads() rather than searching `text`.
  std::vector<std::string> names;
  /// `names` stopped at the walk's budget (nesting or count): a prefix, not the whole list.
  bool namesTruncated = false;
  /// The leftmost name of an attribute, subscript or call chain (`x` of `x[0].view(-1)`).
  std::string root;
  /// The links after `root`, in order, when the expression is a chain that starts at a plain
  /// name (`root` non-empty); empty for a bare name and for anything else.
  std::vector<ChainLink> chain;
  LineRange lines;
};

struct Import {
  std::string boundName; ///< the local name: "F", "torch", "load_inline"
  std::string target;    ///< what it names: "torch.nn.functional", "torch.utils.cpp_extension.load_inline"
  bool fromImport = false;
  std::string function;  ///< "" for module-level imports
  LineRange lines;
};

struct Argument {
  std::string keyword; ///< empty for positional arguments; "*" / "**" for unpacking
  Expr value;
};

struct Call {
  std::string callee;   ///< as written: "F.linear", "self.ext.gemm", "x.half", "kernel[grid]"
  std::string resolved; ///< alias-resolved: "torch.nn.functional.linear"
  std::string method;   ///< last attribute segment ("linear", "half"), or the bare name
  std::string receiver; ///< text before the last '.', if any ("x", "self.ext")
  /// For Triton-style launches `kernel[grid](...)`: the subscripted callee ("kernel").
  std::string launchedKernel;
  std::vector<Argument> args;
  std::string function;
  LineRange lines;
  /// The statement that evaluates it (index into PythonFacts::statements; -1 when none).
  int stmt = -1;
  /// A method called on the result of another call (`torch.cuda.current_stream().wait_stream(s)`):
  /// that call (index into PythonFacts::calls); -1 otherwise.
  int receiverCall = -1;

  const Argument *keywordArg(std::string_view kw) const {
    for (const auto &a : args)
      if (a.keyword == kw)
        return &a;
    return nullptr;
  }
  const Argument *positionalArg(unsigned index) const {
    unsigned i = 0;
    for (const auto &a : args)
      if (a.keyword.empty() && i++ == index)
        return &a;
    return nullptr;
  }
};

/// An assignment or augmented assignment, one entry per target (tuple targets unpacked),
/// plus `setattr(obj, "name", value)` and `global`-rebinding in functions.
struct Assignment {
  enum class TargetKind {
    Name,            ///< x = ...
    ModuleAttribute, ///< torch.backends.cudnn.allow_tf32 = ... (receiver resolves to an import)
    SelfAttribute,   ///< self.cache = ...
    Attribute,       ///< other.attr = ...
    Subscript,       ///< d[k] = ...
    Other
  };
  TargetKind kind = TargetKind::Other;
  std::string target;   ///< as written
  std::string resolved; ///< alias-resolved dotted target
  std::string op;       ///< "=", "+=", ..., "setattr"
  Expr value;
  std::string function;
  LineRange lines;
  /// The library attribute written when the receiver is computed rather than named, spelled
  /// as a dotted chain in which a call stays `callee()` and `type(v)` is `v.__class__`:
  /// `type(torch.cuda.Event(...)).elapsed_time` -> "torch.cuda.Event().__class__.elapsed_time",
  /// `getattr(torch, "cuda").synchronize` -> "torch.cuda.synchronize",
  /// `importlib.import_module("time").perf_counter` -> "time.perf_counter",
  /// `sys.modules["torch"].allclose` / `vars(torch)["allclose"]` / `torch.__dict__["allclose"]`
  /// -> "torch.allclose", `setattr(getattr(torch, "cuda"), n, f)` -> "torch.cuda.<dynamic>";
  /// names bound to such receivers are followed. Empty when the receiver is a plain name
  /// chain (then `resolved` names it) or is not rooted in an import.
  std::string computedTarget;
  /// For a write whose attribute name is computed (`setattr(m, name, f)`, `vars(m)[name] = f`):
  /// the string values the name statically takes, from the loops that bind it (`for name in
  /// ("a", "b")`, over a list or tuple bound to a name, a dict's keys, `zip` and `enumerate`
  /// columns); "<dynamic>" stands for items that do not fold. Empty when nothing is known.
  std::vector<std::string> nameCandidates;
  /// The statement that makes it (index into PythonFacts::statements; -1 when none).
  int stmt = -1;
};

struct Decorator {
  std::string text;     ///< as written, without '@'
  std::string resolved; ///< resolved callee/name: "triton.jit", "triton.autotune"
  LineRange lines;
};

struct Function {
  std::string name;
  std::string qualname;  ///< "ModelNew.forward", "outer.inner"
  std::string className; ///< enclosing class, "" for free functions
  std::vector<std::string> params;
  /// The parameters declared with a default value (`device=None`): optional inputs.
  std::vector<std::string> defaultedParams;
  std::vector<Decorator> decorators;
  LineRange lines;       ///< whole def including decorators
  /// Every identifier the body mentions as a value (sorted, unique), nested defs and lambdas
  /// included; attribute names and keyword-argument names are not values. A parameter missing
  /// here is never read: the function's result cannot depend on it.
  std::vector<std::string> reads;
  /// The body calls locals(), vars(), eval or exec (or nests too deep): what it reads is not
  /// visible in `reads`.
  bool opaqueReads = false;
  /// Identifiers of `reads` whose every mention is a bare `del` target (`del x`): the name is
  /// unbound, its value never read (sorted, unique).
  std::vector<std::string> onlyDeleted;
  /// Its `def` statement (PythonFacts::statements): blocks[0] is the body it runs; -1 for
  /// functions no def statement spells (a lambda bound to a name).
  int stmt = -1;
};

struct Class {
  std::string name;
  std::vector<std::string> bases; ///< resolved ("torch.nn.Module")
  std::vector<Decorator> decorators;
  std::vector<std::string> methods;
  LineRange lines;
};

/// `self.<attribute>` read or written inside a method.
struct SelfAccess {
  std::string attribute;
  bool write = false;
  std::string function;
  LineRange lines;
};

/// What a condition tests, for rules that care about data-dependent dispatch.
enum class ConditionTag {
  Shape,         ///< .shape / .size() / .numel() / len() / .dim()
  Magnitude,     ///< .abs() / .max() / .amax() / .norm() / .mean() / isnan / isinf / .item()
  Identity,      ///< `is` / `is not` between objects, id()
  Pointer,       ///< .data_ptr()
  Version,       ///< ._version
  CallCounter,   ///< a self attribute or global that the function also increments
  CallerFrame,   ///< inspect / sys._getframe / traceback / __main__ / sys.argv
  Environment,   ///< os.environ / os.getenv
  Device,        ///< .is_cuda / .device / torch.cuda.is_available / get_device_capability
  Dtype,         ///< .dtype
  Attribute,     ///< reads a self attribute (cached state)
};

/// One arm of an if/elif/else chain.
struct BranchArm {
  std::string kind; ///< "if", "elif", "else"
  LineRange test;   ///< the arm's test; {0,0} for else
  LineRange body;   ///< the arm's block, first to last statement (for a one-line `if c: stmt`, the test's own line)
  LineRange lines;  ///< the whole arm, from its keyword to the end of its block
};

/// One side of a comparison: its summary, and the calls made inside it as the front end
/// extracts them everywhere else (same callee resolution, arguments summarised, string
/// arguments folded: `getattr(self, "_x")`), in source order.
struct Operand {
  Expr value;
  std::vector<Call> calls;
};

/// One comparison of a test, found through `and`, `or`, `not`, parentheses and a walrus's value
/// (`(m := a is b)`); a chained `a < b < c` gives `a < b` and `b < c`. Comparisons nested in
/// anything else (a call's argument, an operand of `+`) are not the test's own.
struct Comparison {
  Operand left, right;
  std::string op;        ///< "<", "<=", "==", "!=", ">", ">=", "<>", "in", "not in", "is", "is not"
  bool underNot = false; ///< under an odd number of `not` operators
  LineRange lines;       ///< the comparison expression the pair belongs to
};

/// A node of a branch test read as a boolean formula (Branch::cond): `not`, `and` and `or`
/// over atoms. An atom is an expression summary; a comparison of two operands also has them.
struct CondNode {
  enum class Op { Atom, Not, And, Or };
  Op op = Op::Atom;
  std::vector<int> kids;  ///< Not: one; And/Or: two (indices into the same Branch::cond)
  Expr atom;              ///< Atom: the expression
  std::string compareOp;  ///< Atom that is a two-operand comparison: "is", "is not", "==", "<", ...
  Expr left, right;       ///< its operands
};

struct Branch {
  std::string kind;      ///< "if", "elif", "while", "conditional", "assert", "match"
  std::string condition; ///< source text of the test, for messages (truncated to 512 bytes)
  Expr test;             ///< the test as an expression summary (the subject of a `match`)
  /// The test's comparisons, in source order (see Comparison).
  std::vector<Comparison> comparisons;
  /// The walk for `comparisons` stopped at its budget (nesting or count): a prefix, not the
  /// whole list; a reader must treat the rest as unseen.
  bool comparisonsTruncated = false;
  std::vector<ConditionTag> tags;
  std::vector<std::string> calls; ///< resolved callees inside the test
  std::vector<std::string> names; ///< dotted names read in the test
  std::string function;
  LineRange lines;       ///< the test itself
  LineRange body;        ///< the whole statement including branches
  /// For "if": every arm of the chain (if, each elif, else). For "elif": the arms from this
  /// elif on (itself, later elifs, else). Empty for the other kinds.
  std::vector<BranchArm> arms;
  /// The test as a boolean formula; cond[0] is its root (see CondNode).
  std::vector<CondNode> cond;
  /// The statement whose test it is (index into PythonFacts::statements; -1 when none).
  int stmt = -1;
};

/// A `return` statement, attributed to its enclosing def.
struct Return {
  Expr value; ///< ExprKind::None with empty text for a bare `return`
  std::string function;
  LineRange lines;
  int stmt = -1; ///< its statement (index into PythonFacts::statements)
};

/// A `raise` statement (bare or not), attributed to its enclosing def.
struct Raise {
  std::string function;
  LineRange lines;
};

/// Identity and pointer comparisons anywhere (`is`, `id(x) ==`, `.data_ptr() ==`, `._version`).
struct IdentityCheck {
  std::string kind; ///< "is", "id", "data_ptr", "version"
  std::string text;
  std::string function;
  LineRange lines;
};

struct TryHandler {
  std::vector<std::string> exceptionTypes; ///< resolved; empty for a bare `except:`
  std::vector<std::string> handlerCalls;   ///< resolved callees inside the handler body
  bool reraises = false;
  bool returns = false;
  std::string function;
  LineRange tryLines;
  LineRange handlerLines;
};

/// A use of a name that resolves through an import ("os.environ", "sys.argv",
/// "inspect.stack", "torch.backends.cuda.matmul"), read or called.
struct NameRef {
  std::string text;
  std::string resolved;
  std::string function;
  LineRange lines;
};

/// A use of the matrix-multiplication operator `a @ b` (a heavy operation that is not a call).
struct OperatorUse {
  std::string op;   ///< "@"
  std::string text; ///< the whole binary expression as written (truncated to 512 bytes)
  std::string function;
  LineRange lines;
};

/// Every string constant expression (after folding) with where it appears.
struct StringConstant {
  StringValue value;
  bool docstring = false;
  std::string function;
  LineRange lines;
};

/// An attribute of an interpreter frame, traceback or generator (`f_back`, `f_locals`,
/// `f_globals`, `tb_frame`, ...) used on any object. NameRefs only record chains rooted at an
/// import; frame chains usually start at a call or a local (`sys._getframe(1).f_locals`,
/// `frame.f_back`), and whether a caller's namespace is read or written is the question.
struct FrameAttribute {
  std::string attribute; ///< "f_back", "f_locals", "f_globals", "tb_frame", ...
  std::string object;    ///< what it is taken from, as written ("frame", "inspect.currentframe()")
  std::string resolved;  ///< the chain through this attribute, alias-resolved ("inspect.currentframe().f_back")
  /// Stored into: the attribute itself or an item of it (at any depth) is assigned
  /// (`f.f_locals["x"] = v`, `f.f_locals["t"].data = v`, `+=`), or a mutating method is called
  /// on it (`f.f_globals.update(d)`, `.pop`, `.__setitem__`).
  bool written = false;
  std::string function;
  LineRange lines;
};

/// A `for` statement or a comprehension's `for ... in ...` clause: the names it binds to each
/// item of an iterable. Rules follow a collection into its items with it (`for f in futures:
/// f.result()` waits for every future the list holds).
struct LoopBinding {
  std::vector<std::string> targets; ///< the names bound per item ("f"; "k", "v" for `k, v`)
  Expr iterable;                    ///< what is iterated, as any other expression summary
  bool comprehension = false;       ///< a comprehension or generator clause, not a statement
  std::string function;
  LineRange lines;                  ///< the whole statement, or the whole comprehension
};

/// The kind of a statement of the program model (PythonFacts::statements).
enum class StmtKind {
  Expression, ///< a bare expression or an assignment (`x = f(y)`, `x += 1`)
  Return, Raise, Pass, Break, Continue, Delete, Assert, Import, Global,
  If, While, For, With, Try, Match,
  Def,        ///< a def (decorated or not): its body is the function's own, run when it is called
  Class,
  Other
};

/// One block of a compound statement, in source order: an if's arm, a loop's body or else, a
/// try's body, handler, else or finally, a def's or class's body.
struct StmtBlock {
  enum class Role {
    Body,    ///< the body of a def, class, with, for, while, try or match case
    Then,    ///< an if's first arm
    Elif,
    Else,    ///< an if's, loop's or try's else
    Except,
    Finally,
    Case,
    /// A def that only delegates to a module-level helper also reads the helper's body as its
    /// own (see Function::lines); those statements are kept apart from what the def runs.
    Inlined,
  };
  Role role = Role::Body;
  /// Then/Elif/Else of an if: the arm's index in the chain (Branch::arms of the `if` branch).
  int arm = -1;
  /// Except: index into PythonFacts::tryHandlers.
  int handler = -1;
  std::vector<int> statements; ///< indices into PythonFacts::statements, in order
};

/// One item of a `with` statement.
struct WithItem {
  Expr value;    ///< the context manager's expression
  int call = -1; ///< when it is a call, the call (index into PythonFacts::calls)
  std::string target; ///< `as` target as written, "" when none
};

/// A statement: the program model rules follow in execution order (which stream is current,
/// what a branch guards, whether a return leaves a block early). Its own expressions' facts
/// point back at it (Call::stmt, Assignment::stmt, Return::stmt, Branch::stmt).
struct Stmt {
  StmtKind kind = StmtKind::Other;
  int parent = -1;      ///< the compound statement whose block holds it; -1 at the top of the module
  std::string function; ///< the def it runs in (qualname); "" at module level and in class bodies outside defs
  LineRange lines;
  /// Calls the statement evaluates itself (its expression, value, test, iterable or `with`
  /// items), in evaluation order (arguments before the call they are passed to); calls in its
  /// blocks belong to their own statements.
  std::vector<int> calls;
  std::vector<int> assignments; ///< assignments it makes (indices into PythonFacts::assignments)
  int ret = -1;                 ///< Return: index into PythonFacts::returns
  /// If/While: index into PythonFacts::branches of the `if`/`while` test (an if's elif tests
  /// follow it in order).
  int branch = -1;
  std::string def;              ///< Def: the function's qualname; Class: the class's name
  std::vector<WithItem> items;  ///< With
  std::vector<StmtBlock> blocks;
};

/// A statement whose keyword alone is what some harness's gate tests (KernelBench's static
/// checker rejects any `try:` and any `pass`); RUB017 answers those checks by statement, not by
/// the word in a comment or a string.
struct KeywordStatement {
  std::string keyword; ///< "try", "pass"
  std::string function;
  LineRange lines;
};

struct PythonFacts {
  std::vector<Import> imports;
  std::vector<Call> calls;
  std::vector<Assignment> assignments;
  std::vector<Function> functions;
  std::vector<Class> classes;
  std::vector<SelfAccess> selfAccesses;
  std::vector<Branch> branches;
  std::vector<Return> returns;
  std::vector<Raise> raises;
  std::vector<IdentityCheck> identityChecks;
  std::vector<TryHandler> tryHandlers;
  std::vector<NameRef> nameRefs;
  std::vector<StringConstant> strings;
  std::vector<OperatorUse> operators;
  std::vector<Diagnostic> diagnostics;
  std::vector<LoopBinding> loops;
  std::vector<FrameAttribute> frameAttributes;
  /// The program model: every statement, and the module's top-level statements in order.
  std::vector<Stmt> statements;
  std::vector<int> module;
  std::vector<KeywordStatement> keywordStatements;

  /// Resolves a dotted name as written at module scope through the imports
  /// ("F.linear" -> "torch.nn.functional.linear"); unknown heads are returned unchanged.
  std::string resolve(std::string_view dotted) const;
  const Function *findFunction(std::string_view qualname) const;
  const Class *findClass(std::string_view name) const;
};

} // namespace kbaudit::py
