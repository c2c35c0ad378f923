#include "collector_impl.h"

#include "device_work.h"
#include "lexical.h"
#include "names.h"
#include "ptx.h"

#include <clang/Lex/Lexer.h>

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include <deque>

namespace kbaudit::cxx::collect {

namespace {
// Clang 14 has matchers for neither RecoveryExpr nor GCCAsmStmt; asmStmt() is cast in run().
const internal::VariadicDynCastAllOfMatcher<Stmt, RecoveryExpr> recoveryExpr;
} // namespace


// ---------------------------------------------------------------------------------------
// Locations and text

// SourceManager::isInMainFile() also holds for the predefines buffer and the scratch
// space of pasted tokens (neither is included from anywhere); compare FileIDs instead.
bool Collector::inMainFile(SourceLocation loc) const {
  return loc.isValid() && sm_.getFileID(sm_.getFileLoc(loc)) == sm_.getMainFileID();
}

std::optional<unsigned> Collector::mainOffset(SourceLocation loc) const {
  if (!inMainFile(loc))
    return std::nullopt;
  return sm_.getFileOffset(sm_.getFileLoc(loc));
}

unsigned Collector::unitLine(SourceLocation loc) const {
  if (loc.isInvalid())
    return 0;
  loc = sm_.getFileLoc(loc);
  // A location in a header counts at the #include that brought it in.
  while (loc.isValid() && sm_.getFileID(loc) != sm_.getMainFileID())
    loc = sm_.getIncludeLoc(sm_.getFileID(loc));
  return loc.isValid() ? sm_.getSpellingLineNumber(loc) : 0;
}

LineRange Collector::linesOf(SourceRange r) const {
  const unsigned b = unitLine(r.getBegin());
  unsigned e = unitLine(r.getEnd());
  if (e < b)
    e = b;
  return LineRange{b, e};
}

/// Declarations a stub macro wrote (AT_DISPATCH's `using scalar_t = float;`) are not the
/// solution's. Tokens pasted by a macro of the solution are spelled in the scratch space,
/// which has no file entry, and stay the solution's.
bool Collector::fromStubMacro(SourceLocation loc) const {
  if (!loc.isMacroID())
    return false;
  const FileID spelled = sm_.getFileID(sm_.getSpellingLoc(loc));
  return spelled != sm_.getMainFileID() && sm_.getFileEntryForID(spelled) != nullptr;
}

std::string Collector::textOf(SourceRange r, size_t max) const {
  const CharSourceRange range =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
  if (range.isInvalid())
    return {};
  const llvm::StringRef raw = Lexer::getSourceText(range, sm_, ctx_.getLangOpts());
  std::string text;
  bool space = false;
  for (char c : raw) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !text.empty();
      continue;
    }
    if (space)
      text += ' ';
    space = false;
    text += c;
    if (text.size() >= max)
      break;
  }
  return text;
}

std::vector<std::string> Collector::argumentsOf(const CallExpr &call) const {
  std::vector<std::string> args;
  for (const Expr *a : call.arguments())
    if (!isa<CXXDefaultArgExpr>(a))
      args.push_back(textOf(a->getSourceRange()));
  return args;
}

std::vector<std::string> Collector::argumentsOf(const CXXConstructExpr &call) const {
  std::vector<std::string> args;
  for (const Expr *a : call.arguments())
    if (!isa<CXXDefaultArgExpr>(a))
      args.push_back(textOf(a->getSourceRange()));
  return args;
}

// ---------------------------------------------------------------------------------------
// Names and context

std::string Collector::qualifiedName(const NamedDecl &d) {
  llvm::SmallVector<std::string, 6> parts;
  parts.push_back(d.getNameAsString());
  for (const DeclContext *dc = d.getDeclContext(); dc; dc = dc->getParent()) {
    if (const auto *ns = dyn_cast<NamespaceDecl>(dc)) {
      if (!ns->isInline())
        parts.push_back(ns->isAnonymousNamespace() ? "(anonymous namespace)" : ns->getNameAsString());
    } else if (const auto *rd = dyn_cast<CXXRecordDecl>(dc)) {
      if (rd->isLambda()) {
        const auto it = lambdaClasses_.find(rd);
        parts.push_back(it != lambdaClasses_.end() ? it->second : "lambda");
        break;
      }
      parts.push_back(rd->getName().empty() ? "(anonymous)" : rd->getNameAsString());
    } else if (const auto *en = dyn_cast<EnumDecl>(dc)) {
      if (en->isScoped())
        parts.push_back(en->getNameAsString()); // c10::ScalarType::Half
    } else if (const auto *rec = dyn_cast<RecordDecl>(dc)) {
      parts.push_back(rec->getName().empty() ? "(anonymous)" : rec->getNameAsString());
    } else if (const auto *fd = dyn_cast<FunctionDecl>(dc)) {
      parts.push_back(functionName(*fd));
      break;
    }
  }
  std::string name;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!name.empty())
      name += "::";
    name += *it;
  }
  return name;
}

std::string Collector::functionName(const FunctionDecl &fd) {
  if (const auto *md = dyn_cast<CXXMethodDecl>(&fd); md && md->getParent()->isLambda()) {
    // Lambdas are named when their expression is visited; one not seen (an instantiated
    // copy of a template's lambda) has no node of its own.
    const auto it = lambdaClasses_.find(md->getParent());
    return it != lambdaClasses_.end() ? it->second : std::string();
  }
  if (fd.getIdentifier() && isModuleInit(fd.getName()))
    return moduleInitName(fd.getName());
  return qualifiedName(fd);
}

std::string Collector::lambdaName(const LambdaExpr &lambda) {
  if (const auto it = lambdaNames_.find(&lambda); it != lambdaNames_.end())
    return it->second;
  const Context outer = contextOf(lambda);
  const unsigned n = ++lambdaCounts_[outer.function];
  std::string name = outer.function.empty() ? "" : outer.function + "::";
  name += "lambda#" + std::to_string(n);
  lambdaNames_[&lambda] = name;
  lambdaClasses_[lambda.getLambdaClass()] = name;
  return name;
}

Context Collector::contextOf(const DynTypedNode &node) {
  llvm::SmallVector<DynTypedNode, 8> stack;
  for (const DynTypedNode &p : ctx_.getParents(node))
    stack.push_back(p);
  // Nodes of templates can have several parents; bound the walk rather than track visits.
  for (int steps = 0; !stack.empty() && steps < 512; ++steps) {
    const DynTypedNode cur = stack.pop_back_val();
    if (const auto *lambda = cur.get<LambdaExpr>()) {
      const std::string name = lambdaName(*lambda);
      // A lambda runs where its enclosing function runs.
      const Context outer = contextOf(*lambda);
      return Context{name, outer.inDevice};
    }
    if (const auto *fd = cur.get<FunctionDecl>()) {
      const std::string name = functionName(*fd);
      if (!name.empty())
        return Context{name, kindOf(*fd) != FunctionKind::Host};
    }
    for (const DynTypedNode &p : ctx_.getParents(cur))
      stack.push_back(p);
  }
  return {};
}

namespace {
/// Whether an expression reads a variable with static storage that is not const.
bool readsMutableStatic(const Stmt *s) {
  if (!s)
    return false;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (var->hasGlobalStorage() && !var->getType().isConstQualified())
        return true;
  for (const Stmt *child : s->children())
    if (readsMutableStatic(child))
      return true;
  return false;
}
} // namespace

// Up the chain of single parents to the function: an `if` arm (not its test) whose test reads
// static state marks a call that runs on some calls only (the first, typically).
bool Collector::underStateTest(const Stmt &s) {
  DynTypedNode child = DynTypedNode::create(s);
  for (int steps = 0; steps < 256; ++steps) {
    const DynTypedNodeList parents = ctx_.getParents(child);
    if (parents.empty())
      return false;
    const DynTypedNode parent = parents[0];
    if (parent.get<FunctionDecl>() || parent.get<LambdaExpr>())
      return false;
    if (const auto *ifs = parent.get<IfStmt>()) {
      const Stmt *c = child.get<Stmt>();
      if (c && (c == ifs->getThen() || c == ifs->getElse()) && readsMutableStatic(ifs->getCond()))
        return true;
    }
    child = parent;
  }
  return false;
}

namespace {
bool isInstantiation(TemplateSpecializationKind kind) {
  return kind == TSK_ImplicitInstantiation || kind == TSK_ExplicitInstantiationDefinition;
}
} // namespace

// The same walk as hasAncestor(decl(anyOf(cxxRecordDecl(isTemplateInstantiation()),
// functionDecl(isTemplateInstantiation())))) in Clang 14's MatchASTVisitor: up the chain of
// single parents, then breadth first, each node (by its memoization pointer) enqueued once.
bool Collector::inTemplateInstantiation(const Stmt &s) {
  const auto instantiation = [](const DynTypedNode &n) {
    if (const auto *fd = n.get<FunctionDecl>())
      return isInstantiation(fd->getTemplateSpecializationKind());
    if (const auto *rd = n.get<CXXRecordDecl>())
      return isInstantiation(rd->getTemplateSpecializationKind());
    return false;
  };
  DynTypedNodeList parents = ctx_.getParents(s);
  while (parents.size() == 1) {
    const DynTypedNode parent = parents[0];
    if (instantiation(parent))
      return true;
    parents = ctx_.getParents(parent);
  }
  std::deque<DynTypedNode> queue(parents.begin(), parents.end());
  llvm::DenseSet<const void *> visited;
  while (!queue.empty()) {
    if (instantiation(queue.front()))
      return true;
    for (const DynTypedNode &p : ctx_.getParents(queue.front()))
      if (visited.insert(p.getMemoizationData()).second)
        queue.push_back(p);
    queue.pop_front();
  }
  return false;
}

void Collector::addEdge(const std::string &caller, const std::string &callee, SourceRange where) {
  if (caller.empty() || callee.empty() || caller == callee || !edges_.emplace(caller, callee).second)
    return;
  out_.callGraph.push_back(CallEdge{caller, callee, -1, linesOf(where)});
}

StreamKind Collector::streamKindOf(const Expr *e, int depth) const {
  if (!e || isa<CXXDefaultArgExpr>(e))
    return StreamKind::Default;
  e = e->IgnoreParenImpCasts();
  if (isa<CXXNullPtrLiteralExpr>(e) || isa<GNUNullExpr>(e))
    return StreamKind::Default;
  if (const auto *lit = dyn_cast<IntegerLiteral>(e); lit && lit->getValue() == 0)
    return StreamKind::Default;
  if (auto kind = names::streamKindOfText(textOf(e->getSourceRange(), 400)))
    return *kind;
  // Follow a local variable to its initialiser: `cudaStream_t s = at::cuda::getCurrentCUDAStream();`
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
        var && var->hasLocalStorage() && !isa<ParmVarDecl>(var) && var->getInit() && depth < 3)
      return streamKindOf(var->getInit(), depth + 1);
  if (const auto *call = dyn_cast<CXXMemberCallExpr>(e); call && depth < 3)
    return streamKindOf(call->getImplicitObjectArgument(), depth + 1);
  if (const auto *construct = dyn_cast<CXXConstructExpr>(e); construct && construct->getNumArgs() == 1)
    return streamKindOf(construct->getArg(0), depth + 1);
  return StreamKind::Other;
}

// ---------------------------------------------------------------------------------------
// Numeric types

// ---------------------------------------------------------------------------------------
// Handlers

void Collector::onFunction(const FunctionDecl &fd) {
  if (fd.isImplicit() || fromStubMacro(fd.getLocation()) ||
      (fd.getIdentifier() && isModuleInit(fd.getName())))
    return;
  if (const auto *md = dyn_cast<CXXMethodDecl>(&fd); md && md->getParent()->isLambda())
    return;
  CxxFunction f;
  f.name = fd.getNameAsString();
  f.qualifiedName = functionName(fd);
  f.kind = kindOf(fd);
  f.definition = fd.doesThisDeclarationHaveABody();
  f.templated = fd.isTemplated();
  if (const FunctionTemplateDecl *tmpl = fd.getDescribedFunctionTemplate()) {
    for (const NamedDecl *p : *tmpl->getTemplateParameters()) {
      if (!f.templateParams.empty())
        f.templateParams += ", ";
      f.templateParams += textOf(p->getSourceRange());
    }
  }
  f.externC = fd.isExternC();
  for (const ParmVarDecl *p : fd.parameters())
    f.parameterTypes.push_back(p->getType().getAsString(policy_));
  // A template's range starts at `template <...>`, the function's at its declarator.
  const FunctionTemplateDecl *described = fd.getDescribedFunctionTemplate();
  f.lines = linesOf(described ? described->getSourceRange() : fd.getSourceRange());
  if (auto off = mainOffset(fd.getLocation()))
    declaredNames_.insert(*off);
  const Context self{f.qualifiedName, f.onDevice()};
  if (f.definition) {
    auto b = mainOffset(fd.getBody()->getBeginLoc()), e = mainOffset(fd.getBody()->getEndLoc());
    if (b && e)
      spans_.push_back(FunctionSpan{*b, *e, self});
    ++out_.parses.back().functionDefinitions;
    if (f.onDevice())
      f.work = summarizeDeviceBody(fd, ctx_);
  }
  if (const TypeSourceInfo *tsi = fd.getTypeSourceInfo())
    if (auto ftl = tsi->getTypeLoc().getAsAdjusted<FunctionTypeLoc>())
      numericTypeUses(fd.getReturnType(), NumericUseKind::Declaration, self,
                      ftl.getReturnLoc().getSourceRange());
  out_.functions.push_back(std::move(f));
}

void Collector::onLambda(const LambdaExpr &lambda) {
  const Context outer = contextOf(lambda);
  CxxFunction f;
  f.qualifiedName = lambdaName(lambda);
  f.name = f.qualifiedName.substr(f.qualifiedName.rfind("::") == std::string::npos
                                      ? 0
                                      : f.qualifiedName.rfind("::") + 2);
  f.kind = outer.inDevice ? FunctionKind::Device : FunctionKind::Host;
  f.definition = true;
  f.lambda = true;
  if (const CXXMethodDecl *op = lambda.getCallOperator())
    for (const ParmVarDecl *p : op->parameters())
      f.parameterTypes.push_back(p->getType().getAsString(policy_));
  f.lines = linesOf(lambda.getSourceRange());
  auto b = mainOffset(lambda.getBody()->getBeginLoc()), e = mainOffset(lambda.getBody()->getEndLoc());
  if (b && e)
    spans_.push_back(FunctionSpan{*b, *e, Context{f.qualifiedName, outer.inDevice}});
  // Defining a lambda in a function almost always means calling it there (AT_DISPATCH,
  // immediately invoked helpers); the call graph assumes it does.
  addEdge(outer.function, f.qualifiedName, lambda.getSourceRange());
  out_.functions.push_back(std::move(f));
}

void Collector::onLaunch(const CUDAKernelCallExpr &call) {
  if (auto off = mainOffset(call.getBeginLoc()))
    astCallOffsets_.insert(*off);
  const Context where = contextOf(call);
  KernelLaunch l;
  l.api = LaunchApi::TripleChevron;
  l.spelled = textOf(call.getCallee()->getSourceRange());
  if (const FunctionDecl *fd = call.getDirectCallee()) {
    l.kernel = functionName(*fd);
  } else if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(call.getCallee()->IgnoreParenImpCasts())) {
    l.kernel = ule->decls_begin() != ule->decls_end()
                   ? qualifiedName(**ule->decls_begin())
                   : ule->getName().getAsString();
    l.resolved = ule->decls_begin() != ule->decls_end();
  } else if (const auto *ref = dyn_cast<DeclRefExpr>(call.getCallee()->IgnoreParenImpCasts())) {
    l.kernel = qualifiedName(*ref->getDecl());
  } else {
    l.kernel = l.spelled;
    l.resolved = false;
  }
  if (const CallExpr *config = call.getConfig()) {
    const auto arg = [&](unsigned i) -> std::string {
      if (i >= config->getNumArgs() || isa<CXXDefaultArgExpr>(config->getArg(i)))
        return {};
      return textOf(config->getArg(i)->getSourceRange());
    };
    l.grid = arg(0);
    l.block = arg(1);
    l.sharedMem = arg(2);
    l.stream = arg(3);
    l.streamKind = config->getNumArgs() > 3 ? streamKindOf(config->getArg(3)) : StreamKind::Default;
  }
  l.function = where.function;
  l.lines = linesOf(call.getSourceRange());
  l.offset = mainOffset(call.getBeginLoc()).value_or(0);
  addEdge(where.function, l.kernel, call.getSourceRange());
  out_.launches.push_back(std::move(l));
}

void Collector::launchThroughApi(const CallExpr &call, llvm::StringRef api, const Context &where) {
  KernelLaunch l;
  const auto argText = [&](unsigned i) -> std::string {
    return i < call.getNumArgs() && !isa<CXXDefaultArgExpr>(call.getArg(i))
               ? textOf(call.getArg(i)->getSourceRange())
               : std::string();
  };
  unsigned kernelArg = 0;
  if (api == "cudaLaunchKernel" || api == "cudaLaunchCooperativeKernel") {
    l.api = api == "cudaLaunchKernel" ? LaunchApi::CudaLaunchKernel : LaunchApi::CudaLaunchCooperative;
    l.grid = argText(1);
    l.block = argText(2);
    l.sharedMem = argText(4);
    l.stream = argText(5);
    l.streamKind = call.getNumArgs() > 5 ? streamKindOf(call.getArg(5)) : StreamKind::Default;
  } else if (api == "cudaLaunchKernelEx" || api == "cudaLaunchKernelExC") {
    l.api = LaunchApi::CudaLaunchKernelEx;
    kernelArg = 1;
    l.grid = argText(0); // the config struct carries grid, block, smem and stream
    l.streamKind = StreamKind::Other;
  } else if (api == "cuLaunchKernel" || api == "cuLaunchCooperativeKernel") {
    l.api = LaunchApi::CuLaunchKernel;
    l.grid = argText(1) + ", " + argText(2) + ", " + argText(3);
    l.block = argText(4) + ", " + argText(5) + ", " + argText(6);
    l.sharedMem = argText(7);
    l.stream = argText(8);
    l.streamKind = call.getNumArgs() > 8 ? streamKindOf(call.getArg(8)) : StreamKind::Default;
    kernelArg = ~0u; // a CUfunction handle: the kernel is whatever the module lookup returned
  } else {
    return;
  }
  if (kernelArg < call.getNumArgs()) {
    const Expr *k = call.getArg(kernelArg);
    l.spelled = textOf(k->getSourceRange());
    // The kernel is the function referenced in the (usually cast) argument.
    llvm::SmallVector<const Stmt *, 8> todo{k};
    while (!todo.empty() && l.kernel.empty()) {
      const Stmt *s = todo.pop_back_val();
      if (!s)
        continue;
      if (const auto *ref = dyn_cast<DeclRefExpr>(s))
        if (const auto *fd = dyn_cast<FunctionDecl>(ref->getDecl()))
          l.kernel = functionName(*fd);
      for (const Stmt *c : s->children())
        todo.push_back(c);
    }
    l.resolved = !l.kernel.empty();
    if (l.kernel.empty())
      l.kernel = l.spelled;
  } else {
    l.resolved = false;
  }
  l.function = where.function;
  l.lines = linesOf(call.getSourceRange());
  l.offset = mainOffset(call.getBeginLoc()).value_or(0);
  addEdge(where.function, l.kernel, call.getSourceRange());
  out_.launches.push_back(std::move(l));
}

void Collector::onCall(const CallExpr &call) {
  if (isa<CUDAKernelCallExpr>(call))
    return;
  // The launch configuration Clang builds for <<<...>>> is part of the launch.
  if (const FunctionDecl *fd = call.getDirectCallee(); fd && fd->getIdentifier() &&
      (fd->getName() == "__cudaPushCallConfiguration" || fd->getName() == "cudaConfigureCall"))
    return;
  if (auto off = mainOffset(call.getBeginLoc()))
    astCallOffsets_.insert(*off);
  // `[&] { ... }()`: name the lambda before its call operator is looked up by name.
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(&call); op && op->getNumArgs() > 0)
    if (const auto *lambda =
            dyn_cast<LambdaExpr>(op->getArg(0)->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit()))
      lambdaName(*lambda);
  const Context where = contextOf(call);
  const FunctionDecl *fd = call.getDirectCallee();
  const Expr *callee = call.getCallee() ? call.getCallee()->IgnoreParenImpCasts() : nullptr;
  if (!fd && callee) {
    if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(callee)) {
      for (const NamedDecl *d : ule->decls()) {
        if ((fd = d->getAsFunction()))
          break;
      }
    } else if (const auto *ume = dyn_cast<UnresolvedMemberExpr>(callee)) {
      for (const NamedDecl *d : ume->decls())
        if ((fd = d->getAsFunction()))
          break;
    }
  }
  if (fd)
    onResolvedCall(call, *fd, where);
  else if (callee)
    onUnresolvedCall(call, *callee, where);
}

/// Library calls a template makes through its parameters (`Gemm gemm; gemm.run(stream);`
/// with Gemm a template parameter) resolve only in its instantiations; record each such
/// call site once.
void Collector::onInstantiatedCall(const CallExpr &call) {
  const FunctionDecl *fd = call.getDirectCallee();
  const auto off = mainOffset(call.getBeginLoc());
  if (!fd || !off || isa<CUDAKernelCallExpr>(call))
    return;
  const std::string qualified = functionName(*fd);
  // The arguments change which category a call has, never whether it has one.
  if (!names::classifyCall(qualified) || !inTemplateInstantiation(call))
    return;
  const std::vector<std::string> args = argumentsOf(call);
  const auto category = names::classifyCall(qualified, args);
  if (!category || !instantiatedCalls_.emplace(*off, qualified).second)
    return;
  std::string display = names::displayName(qualified);
  const LineRange lines = linesOf(call.getSourceRange());
  const bool seen = llvm::any_of(out_.calls, [&](const CxxCall &c) {
    return c.callee == display && c.lines == lines;
  });
  if (seen)
    return;
  const Context where = contextOf(call);
  CxxCall c;
  c.callee = std::move(display);
  c.spelled = textOf(call.getCallee()->getSourceRange());
  c.category = *category;
  c.function = where.function;
  c.inDevice = where.inDevice;
  c.member = isa<CXXMemberCallExpr>(call) || (isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(fd));
  c.arguments = args;
  c.lines = lines;
  c.underStateTest = underStateTest(call);
  c.offset = mainOffset(call.getBeginLoc()).value_or(0);
  out_.calls.push_back(std::move(c));
}

void Collector::onResolvedCall(const CallExpr &call, const FunctionDecl &fd, const Context &where) {
  const std::string qualified = functionName(fd);
  const std::vector<std::string> args = argumentsOf(call);
  if (auto via = names::exportBinding(qualified)) {
    onExport(call, *via);
    return;
  }
  if (const auto category = names::classifyCall(qualified, args)) {
    if (*category == CallCategory::Launch)
      launchThroughApi(call, qualified, where);
    CxxCall c;
    c.callee = names::displayName(qualified);
    c.spelled = textOf(call.getCallee()->getSourceRange());
    if (c.spelled.empty())
      c.spelled = c.callee; // the callee came out of a macro (AT_DISPATCH_*)
    c.category = *category;
    c.function = where.function;
    c.inDevice = where.inDevice;
    c.member = isa<CXXMemberCallExpr>(call) || (isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(fd));
    c.arguments = args;
    c.lines = linesOf(call.getSourceRange());
    c.underStateTest = underStateTest(call);
    c.offset = mainOffset(call.getBeginLoc()).value_or(0);
    if (*category == CallCategory::Dispatch) {
      // The dispatch's name says which reduced types the kernel is instantiated for.
      const llvm::StringRef n = c.callee;
      if (n.contains("HALF") || n.contains("REDUCED"))
        addNumeric(NumericType::Half, NumericUseKind::LibraryConstant, c.callee,
                   ConversionDirection::None, where, call.getSourceRange());
      if (n.contains("BFLOAT16") || n.contains("REDUCED"))
        addNumeric(NumericType::BFloat16, NumericUseKind::LibraryConstant, c.callee,
                   ConversionDirection::None, where, call.getSourceRange());
    }
    out_.calls.push_back(std::move(c));
  } else if (isUserFunction(fd)) {
    addEdge(where.function, qualified, call.getSourceRange());
  }

  // Explicit template arguments: x.data_ptr<at::Half>(), __ldg<half2>(p).
  const Expr *callee = call.getCallee()->IgnoreParenImpCasts();
  llvm::ArrayRef<TemplateArgumentLoc> targs;
  if (const auto *ref = dyn_cast<DeclRefExpr>(callee))
    targs = ref->template_arguments();
  else if (const auto *mem = dyn_cast<MemberExpr>(callee))
    targs = mem->template_arguments();
  else if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(callee))
    targs = ule->template_arguments();
  for (const TemplateArgumentLoc &a : targs)
    if (a.getArgument().getKind() == TemplateArgument::Type)
      numericTypeUses(a.getArgument().getAsType(), NumericUseKind::TemplateArgument, where,
                      a.getSourceRange());

  // Conversion and arithmetic intrinsics, judged by their signatures (__float2half returns
  // a half from a float, __hmul computes in half) or, where the signature hides the type
  // (__float_to_tf32, fp8 cvt), by name.
  if (isa<CXXMethodDecl>(fd) || fd.isOverloadedOperator() ||
      inMainFile(fd.getLocation()))
    return;
  const std::string name = fd.getNameAsString();
  if (auto named = names::namedConversion(qualified, args)) {
    addNumeric(named->type, NumericUseKind::Conversion, name, named->direction, where,
               call.getSourceRange());
    return;
  }
  if (names::isDataMovementIntrinsic(name))
    return;
  const std::optional<NumericType> ret = numericTypeOf(fd.getReturnType());
  std::optional<NumericType> param;
  bool floatParam = false;
  for (const ParmVarDecl *p : fd.parameters()) {
    if (auto t = numericTypeOf(p->getType()); t && !param)
      param = t;
    floatParam |= p->getType()->isRealFloatingType();
  }
  const QualType rt = fd.getReturnType();
  if (ret && !param)
    addNumeric(*ret, NumericUseKind::Conversion, name,
               floatParam ? ConversionDirection::Narrowing : ConversionDirection::None, where,
               call.getSourceRange());
  else if (param && (ret || rt->isBooleanType() || rt->isVoidType()))
    addNumeric(ret ? *ret : *param, NumericUseKind::Arithmetic, name, ConversionDirection::None,
               where, call.getSourceRange());
  else if (param)
    addNumeric(*param, NumericUseKind::Conversion, name,
               rt->isRealFloatingType() ? ConversionDirection::Widening : ConversionDirection::None,
               where, call.getSourceRange());
}

void Collector::onUnresolvedCall(const CallExpr &call, const Expr &callee, const Context &where) {
  // A dependent member call in a template (`x.foo()` with x dependent) is not an error and
  // names nothing kbaudit can classify.
  if (isa<CXXDependentScopeMemberExpr>(callee) || isa<DependentScopeDeclRefExpr>(callee) ||
      isa<CXXUnresolvedConstructExpr>(callee))
    return; // `Gemm::run(...)` with Gemm a template parameter: known at instantiation only
  // A call through a variable: a local lambda (`auto load = [&](int k) {...}; load(k);`)
  // in a template, a function pointer, a functor.
  if (const auto *ref = dyn_cast<DeclRefExpr>(&callee)) {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && var->getInit())
      if (const auto *lambda = dyn_cast<LambdaExpr>(var->getInit()->IgnoreImplicit()->IgnoreParens()))
        addEdge(where.function, lambdaName(*lambda), call.getSourceRange());
    return;
  }
  const std::string spelled = withoutTemplateArgs(textOf(callee.getSourceRange()));
  if (spelled.empty())
    return;
  const bool isName = llvm::all_of(spelled, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == ':';
  });
  if (isName)
    addEdge(where.function, spelled, call.getSourceRange());
  const auto category = names::classifyCall(spelled, argumentsOf(call));
  if (!category && !call.containsErrors())
    return; // an ADL call in a template, resolved at instantiation
  CxxCall c;
  c.callee = spelled;
  c.spelled = spelled;
  c.category = category.value_or(CallCategory::Unresolved);
  c.function = where.function;
  c.inDevice = where.inDevice;
  c.member = !isName;
  c.arguments = argumentsOf(call);
  c.resolved = !call.containsErrors();
  c.lines = linesOf(call.getSourceRange());
  c.offset = mainOffset(call.getBeginLoc()).value_or(0);
  out_.calls.push_back(std::move(c));
}

void Collector::onRecovery(const RecoveryExpr &e) {
  // `undeclared(x)` becomes RecoveryExpr(UnresolvedLookupExpr, args...).
  const auto subs = const_cast<RecoveryExpr &>(e).subExpressions();
  if (subs.empty() || !isa<UnresolvedLookupExpr>(subs.front()))
    return;
  // A launch whose arguments do not fit the kernel: the token scan records it as a launch.
  for (const NamedDecl *d : cast<UnresolvedLookupExpr>(subs.front())->decls())
    if (const FunctionDecl *fd = d->getAsFunction(); fd && fd->hasAttr<CUDAGlobalAttr>())
      return;
  if (auto off = mainOffset(e.getBeginLoc()))
    astCallOffsets_.insert(*off);
  const Context where = contextOf(e);
  const std::string name = withoutTemplateArgs(textOf(subs.front()->getSourceRange()));
  if (name.empty())
    return;
  addEdge(where.function, name, e.getSourceRange());
  CxxCall c;
  c.callee = name;
  c.spelled = name;
  c.category = names::classifyCall(name).value_or(CallCategory::Unresolved);
  c.function = where.function;
  c.inDevice = where.inDevice;
  for (const Expr *a : subs.drop_front())
    c.arguments.push_back(textOf(a->getSourceRange()));
  c.resolved = false;
  c.lines = linesOf(e.getSourceRange());
  c.offset = mainOffset(e.getBeginLoc()).value_or(0);
  out_.calls.push_back(std::move(c));
}

void Collector::onConstruct(const CXXConstructExpr &e) {
  if (auto off = mainOffset(e.getBeginLoc()))
    astCallOffsets_.insert(*off);
  const CXXRecordDecl *record = e.getConstructor() ? e.getConstructor()->getParent() : nullptr;
  if (!record)
    return;
  // `__nv_fp8_e4m3 q(v)` and `__half(v)` convert like casts. (The functional cast around
  // the latter is not spelled in source as far as the matchers go; named and C-style
  // casts are, and onCast records them, so skip the construction inside those.)
  if (e.getNumArgs() == 1 && e.getArg(0)->IgnoreImpCasts()->getType()->isRealFloatingType()) {
    const auto parents = ctx_.getParents(e);
    const bool inCast = !parents.empty() &&
                        (parents[0].get<CXXNamedCastExpr>() || parents[0].get<CStyleCastExpr>());
    if (auto name = numericTypeName(QualType(record->getTypeForDecl(), 0)); name && !inCast)
      addNumeric(*names::numericTypeOfName(*name), NumericUseKind::Cast, *name,
                 ConversionDirection::Narrowing, contextOf(e), e.getSourceRange());
  }
  const std::string qualified = qualifiedName(*record);
  const auto category = names::classifyCall(qualified, argumentsOf(e));
  static const CallCategory kConstructed[] = {CallCategory::Thread, CallCategory::Stream,
                                              CallCategory::Event, CallCategory::Graph};
  if (!category || !llvm::is_contained(kConstructed, *category))
    return;
  const Context where = contextOf(e);
  CxxCall c;
  c.callee = qualified;
  c.spelled = qualified;
  c.category = *category;
  c.function = where.function;
  c.inDevice = where.inDevice;
  c.construction = true;
  c.arguments = argumentsOf(e);
  c.lines = linesOf(e.getSourceRange());
  c.offset = mainOffset(e.getBeginLoc()).value_or(0);
  out_.calls.push_back(std::move(c));
}

void Collector::onUnresolvedLookup(const UnresolvedLookupExpr &lookup) {
  for (const NamedDecl *d : lookup.decls())
    if (const FunctionDecl *fd = d->getAsFunction(); fd && isUserFunction(*fd)) {
      addEdge(contextOf(lookup).function, functionName(*fd), lookup.getSourceRange());
      return;
    }
}

void Collector::onExport(const CallExpr &call, ExportVia via) {
  llvm::ArrayRef<const Expr *> args(call.getArgs(), call.getNumArgs());
  if (args.empty())
    return;
  std::string name;
  llvm::SmallVector<const Stmt *, 8> todo{args[0]};
  while (!todo.empty() && name.empty()) {
    const Stmt *s = todo.pop_back_val();
    if (const auto *lit = dyn_cast_or_null<StringLiteral>(s))
      name = lit->getString().str();
    else if (s)
      for (const Stmt *c : s->children())
        todo.push_back(c);
  }
  if (name.empty())
    name = textOf(args[0]->getSourceRange());
  // TORCH_LIBRARY schemas: "ns::gemm(Tensor a) -> Tensor" exports "gemm".
  name = name.substr(0, name.find('('));
  if (const size_t colons = name.rfind("::"); colons != std::string::npos)
    name = name.substr(colons + 2);
  if (args.size() < 2 || isa<CXXDefaultArgExpr>(args[1]))
    return; // m.def(schema) declares; the impl binds

  std::string target;
  std::string fallback;
  todo.assign({args[1]});
  while (!todo.empty() && target.empty()) {
    const Stmt *s = todo.pop_back_val();
    if (!s)
      continue;
    if (const auto *lambda = dyn_cast<LambdaExpr>(s)) {
      target = lambdaName(*lambda);
      break;
    }
    const FunctionDecl *fd = nullptr;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      fd = dyn_cast<FunctionDecl>(ref->getDecl());
    else if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(s))
      for (const NamedDecl *d : ule->decls())
        if ((fd = d->getAsFunction()))
          break;
    if (fd) {
      if (inMainFile(fd->getLocation()))
        target = functionName(*fd);
      else if (fallback.empty())
        fallback = functionName(*fd);
    }
    for (const Stmt *c : s->children())
      todo.push_back(c);
  }
  if (target.empty())
    target = fallback;
  if (target.empty()) {
    // The function was not declared (a missing header): keep the name as written.
    std::string text = textOf(args[1]->getSourceRange());
    llvm::erase_if(text, [](char c) { return c == '&' || c == ' ' || c == '(' || c == ')'; });
    target = llvm::StringRef(text).startswith("TORCH_FN") ? text.substr(8) : text;
  }
  const Context where = contextOf(call);
  addEdge(where.function, target, call.getSourceRange());
  ExportedFunction e;
  e.name = name;
  e.target = target;
  e.via = via;
  e.lines = linesOf(call.getSourceRange());
  out_.exports.push_back(std::move(e));
}

void Collector::countDeclarations(const DeclContext &dc) {
  ParseReport &report = out_.parses.back();
  // noload_decls(): only what this unit parsed. decls() would first deserialize every
  // declaration of the precompiled prelude (none of which is in the main file), which was a
  // twelfth of a cold audit's instructions.
  for (const Decl *d : dc.noload_decls()) {
    if (d->isImplicit() || sm_.getFileID(sm_.getExpansionLoc(d->getLocation())) != sm_.getMainFileID())
      continue;
    if (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d)) {
      countDeclarations(*cast<DeclContext>(d));
      continue;
    }
    ++report.declarations;
    report.invalidDeclarations += d->isInvalidDecl();
  }
}

void Collector::recoverLexically() {
  ParseReport &report = out_.parses.back();
  const auto enclosing = [&](unsigned offset) {
    const FunctionSpan *best = nullptr;
    for (const FunctionSpan &s : spans_)
      if (offset >= s.begin && offset <= s.end && (!best || s.end - s.begin < best->end - best->begin))
        best = &s;
    return best ? best->context : Context{};
  };
  const auto lineAt = [&](unsigned offset) {
    return sm_.getLineNumber(sm_.getMainFileID(), offset);
  };
  for (const lexical::Occurrence &occ : lexical::scan(sm_, ctx_.getLangOpts(), input_.skipped)) {
    if (astCallOffsets_.count(occ.offset) || declaredNames_.count(occ.offset))
      continue;
    const Context where = enclosing(occ.offset);
    const LineRange lines{lineAt(occ.offset), lineAt(occ.endOffset > occ.offset ? occ.endOffset - 1 : occ.offset)};
    if (occ.launch) {
      KernelLaunch l;
      l.kernel = occ.name;
      l.spelled = occ.name + occ.templateArgs;
      l.api = LaunchApi::TripleChevron;
      const auto config = [&](size_t i) { return i < occ.config.size() ? occ.config[i] : std::string(); };
      l.grid = config(0);
      l.block = config(1);
      l.sharedMem = config(2);
      l.stream = config(3);
      l.streamKind = names::streamKindOfText(l.stream).value_or(StreamKind::Other);
      l.function = where.function;
      // Declared here but the launch did not type-check: still the solution's kernel.
      l.resolved = llvm::any_of(out_.functions, [&](const CxxFunction &fn) {
        return fn.isKernel() && (fn.qualifiedName == occ.name || fn.name == occ.name);
      });
      l.lines = lines;
      l.offset = occ.offset;
      addEdge(where.function, l.kernel, {});
      out_.launches.push_back(std::move(l));
      ++report.lexicallyRecovered;
      continue;
    }
    const auto category = names::classifyCall(occ.name, occ.args);
    if (!category || *category == CallCategory::Runtime)
      continue; // only APIs whose absence from the AST would change a verdict
    CxxCall c;
    c.callee = occ.name;
    c.spelled = occ.name;
    c.category = *category;
    c.function = where.function;
    c.inDevice = where.inDevice;
    c.arguments = occ.args;
    c.resolved = false;
    c.lines = lines;
    c.offset = occ.offset;
    out_.calls.push_back(std::move(c));
    ++report.lexicallyRecovered;
  }
  // Edges were added with empty ranges; give them the recovered facts' lines instead.
  for (CallEdge &e : out_.callGraph)
    if (!e.lines.valid())
      for (const KernelLaunch &l : out_.launches)
        if (l.function == e.caller && l.kernel == e.callee)
          e.lines = l.lines;
}

// ---------------------------------------------------------------------------------------

void Collector::run(const MatchFinder::MatchResult &result) {
  // Every matcher binds one node: read it once and dispatch on its id (a StringRef compares
  // lengths first), rather than asking the bound-node map for each id in turn.
  const BoundNodes::IDToNodeMap &bound = result.Nodes.getMap();
  if (bound.size() != 1)
    return;
  const llvm::StringRef id = bound.begin()->first;
  const DynTypedNode &node = bound.begin()->second;
  if (id == "fn") {
    if (const auto *fn = node.get<FunctionDecl>())
      onFunction(*fn);
  } else if (id == "lambda") {
    if (const auto *lambda = node.get<LambdaExpr>())
      onLambda(*lambda);
  } else if (id == "launch") {
    if (const auto *launch = node.get<CUDAKernelCallExpr>())
      onLaunch(*launch);
  } else if (id == "call") {
    if (const auto *call = node.get<CallExpr>())
      onCall(*call);
  } else if (id == "icall") {
    if (const auto *icall = node.get<CallExpr>())
      onInstantiatedCall(*icall);
  } else if (id == "construct") {
    if (const auto *construct = node.get<CXXConstructExpr>())
      onConstruct(*construct);
  } else if (id == "asm") {
    if (const auto *gcc = dyn_cast_or_null<GCCAsmStmt>(node.get<AsmStmt>()))
      onAsm(*gcc);
  } else if (id == "var") {
    if (const auto *var = node.get<VarDecl>())
      onVar(*var);
  } else if (id == "field") {
    if (const auto *field = node.get<FieldDecl>())
      onField(*field);
  } else if (id == "alias") {
    if (const auto *alias = node.get<TypedefNameDecl>())
      onAlias(*alias);
  } else if (id == "cast") {
    if (const auto *cast = node.get<ExplicitCastExpr>())
      onCast(*cast);
  } else if (id == "ref") {
    if (const auto *ref = node.get<DeclRefExpr>())
      onDeclRef(*ref);
  } else if (id == "member") {
    if (const auto *member = node.get<MemberExpr>())
      onMember(*member);
  } else if (id == "lookup") {
    if (const auto *lookup = node.get<UnresolvedLookupExpr>())
      onUnresolvedLookup(*lookup);
  } else if (id == "recovery") {
    if (const auto *recovery = node.get<RecoveryExpr>())
      onRecovery(*recovery);
  }
}

void Collector::collect() {
  MatchFinder finder;
  // Templates are mined as written (not per instantiation), and implicit nodes are skipped.
  const auto add = [&](const auto &matcher) {
    finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, matcher), this);
  };
  add(functionDecl(isExpansionInMainFile()).bind("fn"));
  add(lambdaExpr(isExpansionInMainFile()).bind("lambda"));
  add(cudaKernelCallExpr(isExpansionInMainFile()).bind("launch"));
  add(callExpr(isExpansionInMainFile()).bind("call"));
  // Every call as Clang built it (instantiations included); onInstantiatedCall keeps those
  // inside an instantiation. That test is isInTemplateInstantiation()'s, made only for the
  // few calls to a tracked API: as a matcher it ran for every call and was a quarter of the
  // collector's instructions.
  finder.addMatcher(callExpr(isExpansionInMainFile()).bind("icall"), this);
  add(cxxConstructExpr(isExpansionInMainFile()).bind("construct"));
  // Not isExpansionInMainFile(): on an AsmStmt it calls AsmStmt::getBeginLoc(), which is
  // an empty stub in Clang 14 (only GCCAsmStmt knows its location). onAsm checks instead.
  add(asmStmt().bind("asm"));
  add(varDecl(isExpansionInMainFile()).bind("var"));
  add(fieldDecl(isExpansionInMainFile()).bind("field"));
  add(typedefNameDecl(isExpansionInMainFile()).bind("alias"));
  add(explicitCastExpr(isExpansionInMainFile()).bind("cast"));
  add(declRefExpr(isExpansionInMainFile()).bind("ref"));
  add(memberExpr(isExpansionInMainFile()).bind("member"));
  add(unresolvedLookupExpr(isExpansionInMainFile()).bind("lookup"));
  add(recoveryExpr(isExpansionInMainFile()).bind("recovery"));
  // Only the solution's own top-level declarations are traversed: walking the prelude's
  // declarations (deserialized from the precompiled header) cost more than the source.
  // noload_decls() yields the declarations parsed from this TU, not those in the PCH.
  std::vector<Decl *> scope;
  for (Decl *d : ctx_.getTranslationUnitDecl()->noload_decls())
    if (sm_.isWrittenInMainFile(sm_.getExpansionLoc(d->getBeginLoc())))
      scope.push_back(d);
  ctx_.setTraversalScope(scope);
  finder.matchAST(ctx_);
  ctx_.setTraversalScope({ctx_.getTranslationUnitDecl()});
  countDeclarations(*ctx_.getTranslationUnitDecl());
  // The raw scan recovers what a parse error lost; a unit without errors lost nothing, and
  // what the scan alone sees there is not code (a macro's discarded argument). Over the corpus
  // it recovered nothing in any of the 145 units that parsed cleanly, and cost them 1.5% of a
  // cold audit's instructions.
  if (out_.parses.back().errors > 0)
    recoverLexically();
}

} // namespace kbaudit::cxx::collect

namespace kbaudit::cxx {

void collectFacts(clang::ASTContext &ctx, const CollectInput &input, CxxFacts &out) {
  if (out.parses.empty())
    out.parses.emplace_back();
  out.parses.back().parsed = true;
  collect::Collector collector(ctx, input, out);
  collector.collect();
}

} // namespace kbaudit::cxx
