#!/usr/bin/env python3
"""Semantics-preserving rewrites of rule fixtures, for the rewrite-invariance test.

A rule reads what a program does, so rewriting how the program says it must not change the
rule's verdict: a firing fixture keeps firing, a near-miss stays quiet. Each rewrite here keeps the
program's behaviour (what the graded entry point computes, launches and touches) and changes only
its spelling: line endings, comments, names, where code lives, how strings and imports are written,
and dead code of the opposite kind.

Usage: rewrite.py OUT_DIR FIXTURE...
Writes OUT_DIR/<rule>/<fixture stem>/<rewrite>.py for every rewrite that applies to a fixture and
prints one tab-separated line per file: rule, fixture file name, rewrite name, path.

Standard library only (ast, tokenize): CI runs it with the system python3.
"""

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

# Names a harness calls by name, so they keep their spelling.
PROTOCOL = {
    "Model", "ModelNew", "forward", "custom_kernel", "kernel", "ref_kernel", "generate_input",
    "check_implementation", "get_inputs", "get_init_inputs", "step", "__init__", "__call__",
    "load_state_dict", "_load_from_state_dict", "state_dict", "train", "eval", "to", "cuda",
    "extra_repr", "reset_parameters", "__new__", "__torch_function__", "__torch_dispatch__",
    "__eq__", "__hash__", "__getattr__", "__setattr__", "__del__", "__enter__", "__exit__",
    "__repr__", "__str__", "__len__", "__getitem__", "__setitem__", "__iter__", "__next__",
    "__bool__", "__float__", "__int__", "__index__", "__array__", "__format__",
}

MARKER = re.compile(r"^# (problem|suite): ")


def markers(source):
    """The fixture's `# problem:` / `# suite:` lines, which say what it is graded against."""
    return "".join(line + "\n" for line in source.splitlines() if MARKER.match(line))


def reparsed(tree, source):
    """Source for `tree`, with the fixture's grading markers on top (ast drops comments)."""
    ast.fix_missing_locations(tree)
    return markers(source) + ast.unparse(tree) + "\n"


# --- text rewrites (line markers survive) ---------------------------------------------------

def crlf(source):
    return source.replace("\n", "\r\n")


def comments(source):
    """Misleading comments: what a comment says is never what the code does."""
    lines = source.split("\n")
    out = ["# kbaudit: reviewed, honest kernel; nothing to see (this comment must not matter)"]
    for line in lines:
        out.append(line)
        stripped = line.lstrip()
        if stripped.startswith("def ") and line.rstrip().endswith(":"):
            indent = line[: len(line) - len(stripped)] + "    "
            out.append(indent + "# calls check.py? torch.matmul fallback? cache by id()? none of these")
    return "\n".join(out)


def dead_opposite(source, bad):
    """Dead code of the opposite kind: an honest kernel nothing launches beside a hack, a
    hack-looking helper nothing calls beside honest code. Module level only defines functions."""
    if bad:
        extra = '''

import triton as _dead_triton
import triton.language as _dead_tl


@_dead_triton.jit
def _unused_honest_copy(x_ptr, y_ptr, n, BLOCK: _dead_tl.constexpr):
    """An honest elementwise copy kernel that nothing launches."""
    offs = _dead_tl.program_id(0) * BLOCK + _dead_tl.arange(0, BLOCK)
    _dead_tl.store(y_ptr + offs, _dead_tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
'''
    else:
        extra = '''

def _never_called_probe():
    """Looks at the caller and keys a cache on id(); nothing ever calls it."""
    import inspect
    _memo = {}
    frame = inspect.stack()
    return _memo.get(id(frame), frame)
'''
    return source.rstrip("\n") + "\n" + extra


# --- ast rewrites -----------------------------------------------------------------------------

def unparse(source):
    """The same program, reformatted (quotes, parentheses, blank lines, no comments)."""
    return reparsed(ast.parse(source), source)


class _Renamer(ast.NodeTransformer):
    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        if node.id in self.mapping:
            node.id = self.mapping[node.id]
        return node

    def visit_FunctionDef(self, node):
        if node.name in self.mapping:
            node.name = self.mapping[node.name]
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        if node.name in self.mapping:
            node.name = self.mapping[node.name]
        self.generic_visit(node)
        return node

    def visit_alias(self, node):
        if node.asname and node.asname in self.mapping:
            node.asname = self.mapping[node.asname]
        return node


def _module_level_names(tree):
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _strings_mention(tree, name):
    """A name spelled inside a string (a getattr target, an exported symbol) is not renamed."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(
                r"\b" + re.escape(name) + r"\b", node.value):
            return True
    return False


def rename_helpers(source):
    """Module-level functions and classes the harness does not call by name get other names."""
    tree = ast.parse(source)
    mapping = {}
    for i, name in enumerate(sorted(_module_level_names(tree) - PROTOCOL)):
        if not _strings_mention(tree, name):
            mapping[name] = "_renamed_%d_%s" % (i, name.strip("_") or "x")
    if not mapping:
        return None
    return reparsed(_Renamer(mapping).visit(tree), source)


def alias_imports(source):
    """`import torch` -> `import torch as _t0` (and every alias renamed), uses renamed to match."""
    tree = ast.parse(source)
    mapping = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if "." in alias.name and not alias.asname:
                    continue  # `import a.b` binds `a`; left alone
                new = "_alias%d" % len(mapping)
                if bound not in mapping:
                    mapping[bound] = new
                alias.asname = mapping[bound]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
            for alias in node.names:
                if alias.name == "*":
                    return None
                bound = alias.asname or alias.name
                if bound in PROTOCOL or _strings_mention(tree, bound):
                    continue
                if bound not in mapping:
                    mapping[bound] = "_alias%d" % len(mapping)
                alias.asname = mapping[bound]
    if not mapping:
        return None

    class Uses(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in mapping:
                node.id = mapping[node.id]
            return node

    # A local binding with an aliased name (a parameter `F`) would be shadowed wrongly: skip.
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.arg in mapping:
            return None
    return reparsed(Uses().visit(tree), source)


ENTRY_METHODS = {"forward", "__call__", "step"}


def _uses(node, names):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in names:
            return True
        if isinstance(sub, (ast.Yield, ast.YieldFrom, ast.Await, ast.Nonlocal, ast.Global)):
            return True
    return False


def entry_helper(source):
    """The graded entry point's body moves into a module-level helper it calls."""
    tree = ast.parse(source)
    moved = 0
    new_body = []
    for node in tree.body:
        helpers = []
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if (isinstance(item, ast.FunctionDef) and item.name in ENTRY_METHODS and not item.decorator_list
                        and not _uses(item, {"super", "__class__"})):
                    helper = ast.FunctionDef(name="_entry_impl_%d" % moved, args=item.args, body=item.body,
                                             decorator_list=[], returns=None, type_comment=None)
                    call_args = [ast.Name(id=a.arg, ctx=ast.Load()) for a in item.args.posonlyargs + item.args.args]
                    if item.args.vararg:
                        call_args.append(ast.Starred(value=ast.Name(id=item.args.vararg.arg, ctx=ast.Load()),
                                                     ctx=ast.Load()))
                    keywords = [ast.keyword(arg=a.arg, value=ast.Name(id=a.arg, ctx=ast.Load()))
                                for a in item.args.kwonlyargs]
                    if item.args.kwarg:
                        keywords.append(ast.keyword(arg=None, value=ast.Name(id=item.args.kwarg.arg, ctx=ast.Load())))
                    item.body = [ast.Return(value=ast.Call(func=ast.Name(id=helper.name, ctx=ast.Load()),
                                                           args=call_args, keywords=keywords))]
                    helpers.append(helper)
                    moved += 1
        elif (isinstance(node, ast.FunctionDef) and node.name in {"custom_kernel", "kernel"}
              and not node.decorator_list and not _uses(node, {"super", "__class__"})):
            helper = ast.FunctionDef(name="_entry_impl_%d" % moved, args=node.args, body=node.body,
                                     decorator_list=[], returns=None, type_comment=None)
            call_args = [ast.Name(id=a.arg, ctx=ast.Load()) for a in node.args.posonlyargs + node.args.args]
            if node.args.vararg:
                call_args.append(ast.Starred(value=ast.Name(id=node.args.vararg.arg, ctx=ast.Load()), ctx=ast.Load()))
            node.body = [ast.Return(value=ast.Call(func=ast.Name(id=helper.name, ctx=ast.Load()), args=call_args,
                                                   keywords=[]))]
            helpers.append(helper)
            moved += 1
        new_body.extend(helpers)
        new_body.append(node)
    if not moved:
        return None
    tree.body = new_body
    return reparsed(tree, source)


class _Splitter(ast.NodeTransformer):
    """Long string constants (embedded C++/CUDA) become a concatenation of pieces."""

    def __init__(self):
        self.count = 0
        self.in_fstring = False

    def visit_JoinedStr(self, node):
        return node  # pieces of an f-string stay as they are

    def visit_Constant(self, node):
        if isinstance(node.value, str) and len(node.value) >= 200:
            text = node.value
            cut = [0, len(text) // 3, 2 * len(text) // 3, len(text)]
            pieces = [ast.Constant(value=text[a:b]) for a, b in zip(cut, cut[1:])]
            self.count += 1
            expr = pieces[0]
            for p in pieces[1:]:
                expr = ast.BinOp(left=expr, op=ast.Add(), right=p)
            return expr
        return node


def split_strings(source):
    tree = ast.parse(source)
    # Docstrings stay constants (a BinOp there is no docstring, and that is not a rewrite).
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                getattr(body[0], "value", None), ast.Constant):
            body[0].value.kbaudit_docstring = True
    splitter = _Splitter()

    class Guard(ast.NodeTransformer):
        def visit_Constant(self, node):
            if getattr(node, "kbaudit_docstring", False):
                return node
            return splitter.visit_Constant(node)

        def visit_JoinedStr(self, node):
            return node

    tree = Guard().visit(tree)
    if not splitter.count:
        return None
    return reparsed(tree, source)


class _GetattrCalls(ast.NodeTransformer):
    """`torch.matmul(a, b)` -> `getattr(torch, "matmul")(a, b)` for calls on imported modules."""

    def __init__(self, modules):
        self.modules = modules
        self.count = 0

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules:
            node.func = ast.Call(func=ast.Name(id="getattr", ctx=ast.Load()),
                                 args=[f.value, ast.Constant(value=f.attr)], keywords=[])
            self.count += 1
        return node


def _imported_modules(tree):
    """Names bound by `import x` / `import x as y` at module level."""
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.add(alias.asname or alias.name.split(".")[0])
    return out


def _jit_compiled(node):
    """A def a JIT compiles from its source (Triton, Numba, ...): Python rewrites do not apply."""
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr in {"jit", "autotune", "heuristics", "kernel"}:
            return True
    return False


def getattr_calls(source):
    """Calls on imported modules go through getattr with a constant name (not inside JIT
    kernels, whose language has no getattr)."""
    tree = ast.parse(source)
    t = _GetattrCalls(_imported_modules(tree))
    for i, node in enumerate(tree.body):
        if not (isinstance(node, ast.FunctionDef) and _jit_compiled(node)):
            tree.body[i] = t.visit(node)
    return reparsed(tree, source) if t.count else None


def import_module(source):
    """`import a.b as c` -> `c = importlib.import_module("a.b")` (module-level imports only)."""
    tree = ast.parse(source)
    changed = False
    body = []
    for node in tree.body:
        if isinstance(node, ast.Import) and all(a.asname for a in node.names):
            for alias in node.names:
                body.append(ast.Assign(targets=[ast.Name(id=alias.asname, ctx=ast.Store())],
                                       value=ast.Call(func=ast.Attribute(value=ast.Name(id="importlib", ctx=ast.Load()),
                                                                         attr="import_module", ctx=ast.Load()),
                                                      args=[ast.Constant(value=alias.name)], keywords=[]),
                                       lineno=0))
            changed = True
        else:
            body.append(node)
    if not changed:
        return None
    tree.body = [ast.Import(names=[ast.alias(name="importlib")])] + body
    return reparsed(tree, source)


def builtin_alias(source):
    """Builtins the rules care about (`id`, `getattr`, `setattr`, `isinstance`) called through
    module-level aliases (`_ident = id`)."""
    tree = ast.parse(source)
    names = {"id": "_ident", "getattr": "_get", "setattr": "_set", "hasattr": "_has"}
    used = set()

    class Calls(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if isinstance(node.func, ast.Name) and node.func.id in names:
                used.add(node.func.id)
                node.func = ast.Name(id=names[node.func.id], ctx=ast.Load())
            return node

    tree = Calls().visit(tree)
    if not used:
        return None
    aliases = [ast.Assign(targets=[ast.Name(id=names[n], ctx=ast.Store())], value=ast.Name(id=n, ctx=ast.Load()),
                          lineno=0) for n in sorted(used)]
    first = 1 if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant) else 0
    tree.body[first:first] = aliases
    return reparsed(tree, source)


def _pieces(text):
    cut = [0, len(text) // 3, 2 * len(text) // 3, len(text)]
    return [text[a:b] for a, b in zip(cut, cut[1:])]


class _LongStrings(ast.NodeTransformer):
    def __init__(self, build):
        self.build = build
        self.count = 0

    def visit_JoinedStr(self, node):
        return node

    def visit_Constant(self, node):
        if isinstance(node.value, str) and len(node.value) >= 200 and not getattr(node, "kbaudit_docstring", False):
            self.count += 1
            return self.build(_pieces(node.value))
        return node


def _mark_docstrings(tree):
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                getattr(body[0], "value", None), ast.Constant):
            body[0].value.kbaudit_docstring = True


def _long_strings(source, build):
    tree = ast.parse(source)
    _mark_docstrings(tree)
    t = _LongStrings(build)
    tree = t.visit(tree)
    return reparsed(tree, source) if t.count else None


def join_strings(source):
    """Long string constants (embedded C++/CUDA) -> `"".join([...pieces...])`."""
    return _long_strings(source, lambda p: ast.Call(
        func=ast.Attribute(value=ast.Constant(value=""), attr="join", ctx=ast.Load()),
        args=[ast.List(elts=[ast.Constant(value=x) for x in p], ctx=ast.Load())], keywords=[]))


def format_strings(source):
    """Long string constants -> `"{}{}{}".format(...pieces...)`."""
    return _long_strings(source, lambda p: ast.Call(
        func=ast.Attribute(value=ast.Constant(value="{}" * len(p)), attr="format", ctx=ast.Load()),
        args=[ast.Constant(value=x) for x in p], keywords=[]))


def base64_strings(source):
    """Long string constants shipped base64-encoded: `base64.b64decode("...").decode()`."""
    import base64 as b64
    text = _long_strings(source, lambda p: ast.Call(
        func=ast.Attribute(value=ast.Call(
            func=ast.Attribute(value=ast.Name(id="base64", ctx=ast.Load()), attr="b64decode", ctx=ast.Load()),
            args=[ast.Constant(value=b64.b64encode("".join(p).encode()).decode())], keywords=[]),
            attr="decode", ctx=ast.Load()), args=[], keywords=[]))
    if text is None:
        return None
    return markers(source) + "import base64\n" + text[len(markers(source)):]


def clang_hidden(source):
    """Embedded C++/CUDA sources behind `#ifdef __clang__ ... #else <the source> #endif`: nvcc
    (the grader's compiler, with a GNU host compiler) builds the source; a Clang parser sees an
    empty branch."""
    def cxx(text):
        return "__global__" in text or "torch::Tensor" in text or "PYBIND11_MODULE" in text

    class Wrap(ast.NodeTransformer):
        count = 0

        def visit_JoinedStr(self, node):
            return node

        def visit_Constant(self, node):
            if isinstance(node.value, str) and len(node.value) >= 200 and cxx(node.value) and not getattr(
                    node, "kbaudit_docstring", False):
                Wrap.count += 1
                return ast.Constant(value="#ifdef __clang__\n// nothing to see here\n#else\n" + node.value +
                                    "\n#endif\n")
            return node

    tree = ast.parse(source)
    _mark_docstrings(tree)
    tree = Wrap().visit(tree)
    return reparsed(tree, source) if Wrap.count else None


def class_static(source):
    """Module-level helper functions move into a class as static methods; callers say `_Ops.f`."""
    tree = ast.parse(source)
    moved = {}
    for node in tree.body:
        if (isinstance(node, ast.FunctionDef) and node.name not in PROTOCOL and not node.decorator_list
                and not _strings_mention(tree, node.name)):
            moved[node.name] = node
    if not moved:
        return None
    # A name used before the class exists (a module-level call between defs) would break: skip.
    holder = ast.ClassDef(name="_Ops", bases=[], keywords=[], body=[], decorator_list=[])
    for name, fn in moved.items():
        fn.decorator_list = [ast.Name(id="staticmethod", ctx=ast.Load())]
        holder.body.append(fn)

    class Uses(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in moved and isinstance(node.ctx, ast.Load):
                return ast.Attribute(value=ast.Name(id="_Ops", ctx=ast.Load()), attr=node.id, ctx=ast.Load())
            return node

    body = []
    placed = False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in moved:
            if not placed:
                body.append(holder)
                placed = True
            continue
        body.append(Uses().visit(node))
    for fn in moved.values():
        Uses().visit(fn)
    # Module-level code that runs before the class is defined must not use the moved names.
    first = next(i for i, n in enumerate(body) if n is holder)
    for node in body[:first]:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "_Ops":
                return None
    tree.body = body
    return reparsed(tree, source)


def passthrough_decorator(source):
    """The graded entry point wrapped by a decorator of the file that only forwards the call."""
    tree = ast.parse(source)
    wrapped = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in ENTRY_METHODS:
                    item.decorator_list.insert(0, ast.Name(id="_passthrough", ctx=ast.Load()))
                    wrapped += 1
        elif isinstance(node, ast.FunctionDef) and node.name in {"custom_kernel", "kernel"} and node in tree.body:
            node.decorator_list.insert(0, ast.Name(id="_passthrough", ctx=ast.Load()))
            wrapped += 1
    if not wrapped:
        return None
    deco = ast.parse("import functools as _functools\n"
                     "def _passthrough(fn):\n"
                     "    @_functools.wraps(fn)\n"
                     "    def wrapper(*args, **kwargs):\n"
                     "        return fn(*args, **kwargs)\n"
                     "    return wrapper\n").body
    first = 1 if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant) else 0
    tree.body[first:first] = deco
    return reparsed(tree, source)


def hash_for_id(source):
    """`id(x)` of a parameter (a tensor the harness passes) -> `hash(x)`: tensors hash by identity."""
    tree = ast.parse(source)
    count = 0
    for fn in ast.walk(tree):
        # The entry point's parameters are the harness's tensors; elsewhere a parameter may be
        # anything (a float's hash is not its id).
        if not isinstance(fn, ast.FunctionDef) or fn.name not in ENTRY_METHODS | {"custom_kernel", "kernel"}:
            continue
        params = {a.arg for a in fn.args.args + fn.args.kwonlyargs} - {"self", "cls"}
        for sub in ast.walk(fn):
            if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "id"
                    and len(sub.args) == 1 and isinstance(sub.args[0], ast.Name) and sub.args[0].id in params):
                sub.func.id = "hash"
                count += 1
    return reparsed(tree, source) if count else None


def exec_module(source):
    """The whole module run through `exec` of one constant string (a raw triple-quoted literal
    holding it verbatim): module code, executed in the module's own globals."""
    body = "".join(line + "\n" for line in source.splitlines() if not MARKER.match(line))
    if body.rstrip("\n").endswith("\\"):
        return None
    for quote in ("'''", '"""'):
        if quote not in body:
            return markers(source) + "exec(r" + quote + body + quote + ")\n"
    return None


def lambda_bodies(source):
    """A def whose body is one `return EXPR` becomes `name = lambda params: EXPR` (module
    helpers and methods alike, the graded entry point included)."""
    tree = ast.parse(source)
    count = 0

    def convert(body):
        nonlocal count
        for i, node in enumerate(body):
            if isinstance(node, ast.ClassDef):
                convert(node.body)
                continue
            if not isinstance(node, ast.FunctionDef) or node.decorator_list or _jit_compiled(node):
                continue
            stmts = [s for s in node.body
                     if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))]
            if len(stmts) != 1 or not isinstance(stmts[0], ast.Return) or stmts[0].value is None:
                continue
            # A lambda has no annotations; `yield`/`await` and walrus targets change meaning.
            if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)) for n in ast.walk(stmts[0])):
                continue
            args = node.args
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a is not None:
                    a.annotation = None
            body[i] = ast.Assign(targets=[ast.Name(id=node.name, ctx=ast.Store())],
                                 value=ast.Lambda(args=args, body=stmts[0].value), lineno=node.lineno)
            count += 1

    convert(tree.body)
    return reparsed(tree, source) if count else None


def decorators_by_call(source):
    """`@deco def f` at module level becomes `def f` followed by `f = deco(f)`, JIT kernels
    included (`k = triton.jit(k)` compiles the same source the decorator does)."""
    tree = ast.parse(source)
    out = []
    count = 0
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            decorators = node.decorator_list
            node.decorator_list = []
            out.append(node)
            value = ast.Name(id=node.name, ctx=ast.Load())
            for d in reversed(decorators):
                value = ast.Call(func=d, args=[value], keywords=[])
            out.append(ast.Assign(targets=[ast.Name(id=node.name, ctx=ast.Store())], value=value, lineno=node.lineno))
            count += 1
        else:
            out.append(node)
    tree.body = out
    return reparsed(tree, source) if count else None


TEXT_REWRITES = {"crlf": crlf, "comments": comments}
AST_REWRITES = {
    "unparse": unparse,
    "rename_helpers": rename_helpers,
    "alias_imports": alias_imports,
    "entry_helper": entry_helper,
    "split_strings": split_strings,
    "join_strings": join_strings,
    "format_strings": format_strings,
    "base64_strings": base64_strings,
    "clang_hidden": clang_hidden,
    "class_static": class_static,
    "passthrough_decorator": passthrough_decorator,
    "hash_for_id": hash_for_id,
    "exec_module": exec_module,
    "lambda_bodies": lambda_bodies,
    "decorators_by_call": decorators_by_call,
    "getattr_calls": getattr_calls,
    "import_module": import_module,
    "builtin_alias": builtin_alias,
}


def rewrites_of(source, bad):
    out = {}
    for name, fn in TEXT_REWRITES.items():
        out[name] = fn(source)
    out["dead_opposite"] = dead_opposite(source, bad)
    try:
        ast.parse(source)
    except SyntaxError:
        return out  # a fixture about unparsable input: only text rewrites apply
    for name, fn in AST_REWRITES.items():
        try:
            text = fn(source)
        except (SyntaxError, ValueError, RecursionError):
            text = None
        if text is not None:
            out[name] = text
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = Path(argv[1])
    for fixture in argv[2:]:
        path = Path(fixture)
        rule = path.parent.name
        source = path.read_bytes().decode("utf-8")
        for name, text in sorted(rewrites_of(source, path.name.startswith("bad_")).items()):
            target = out_dir / rule / path.stem / (name + ".py")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
            print("%s\t%s\t%s\t%s" % (rule, path.name, name, target))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
