#pragma once

// The collector's state and handlers, shared by the TUs that implement them
// (collector.cpp: names, context, functions, calls, launches, exports, recovery;
// collect_state.cpp: numeric types, PTX, statics, API references). Private to analyzers/cxx.

#include "collector.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/StmtCXX.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/SourceManager.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kbaudit::cxx::collect {

using namespace clang;
using namespace clang::ast_matchers;

inline constexpr size_t kMaxText = 160;

/// Where a fact sits: the call-graph node of the enclosing function and whether it runs on
/// the device.
struct Context {
  std::string function;
  bool inDevice = false;
};

/// Members that change the object they are called on (for containers, atomics, tensors).
inline bool isMutatingMethod(llvm::StringRef name) {
  static const llvm::StringRef kMutating[] = {
      "insert", "emplace", "emplace_back", "push_back", "erase", "clear", "try_emplace",
      "insert_or_assign", "reset", "store", "fetch_add", "fetch_sub", "assign", "resize", "swap",
      "pop_back", "push_front", "exchange", "copy_", "fill_", "zero_", "set_", "resize_", "record",
      "emplace_front", "compare_exchange_strong", "compare_exchange_weak"};
  return llvm::is_contained(kMutating, name);
}

/// The functions PYBIND11_MODULE / TORCH_LIBRARY expand to (see stubs/kbaudit/torch.h):
/// binding code, not functions of the solution. They are not listed as functions; facts
/// inside them name the macro ("PYBIND11_MODULE", "TORCH_LIBRARY(myops)").
inline bool isModuleInit(llvm::StringRef name) {
  return name.startswith("pybind11_init_") || name.startswith("TORCH_LIBRARY_init_") ||
         name.startswith("TORCH_LIBRARY_IMPL_init_") || name.startswith("TORCH_LIBRARY_FRAGMENT_init_");
}

inline std::string moduleInitName(llvm::StringRef name) {
  if (name.startswith("pybind11_init_"))
    return "PYBIND11_MODULE";
  for (llvm::StringRef macro : {"TORCH_LIBRARY_IMPL", "TORCH_LIBRARY_FRAGMENT", "TORCH_LIBRARY"})
    if (name.consume_front(macro) && name.consume_front("_init_"))
      return (macro + "(" + name + ")").str();
  return name.str();
}

/// "k<128, T>" -> "k": call-graph nodes are named without template arguments.
inline std::string withoutTemplateArgs(std::string name) {
  const size_t lt = name.find('<');
  if (lt != std::string::npos && lt > 0)
    name.erase(lt);
  while (!name.empty() && name.back() == ' ')
    name.pop_back();
  return name;
}

struct FunctionSpan {
  unsigned begin, end; ///< main-file offsets of the definition
  Context context;
};

inline FunctionKind kindOf(const FunctionDecl &fd) {
  if (fd.hasAttr<CUDAGlobalAttr>())
    return FunctionKind::Global;
  const auto explicitAttr = [](const Attr *a) { return a && !a->isImplicit(); };
  const bool device = explicitAttr(fd.getAttr<CUDADeviceAttr>());
  const bool host = explicitAttr(fd.getAttr<CUDAHostAttr>());
  if (device && host)
    return FunctionKind::HostDevice;
  return device ? FunctionKind::Device : FunctionKind::Host;
}

class Collector : public MatchFinder::MatchCallback {
public:
  Collector(ASTContext &ctx, const CollectInput &input, CxxFacts &out)
      : ctx_(ctx), sm_(ctx.getSourceManager()), input_(input), out_(out) {
    policy_.SuppressTagKeyword = true;
    policy_.Bool = true;
  }

  void collect();
  void run(const MatchFinder::MatchResult &result) override;

private:
  // --- handlers ---------------------------------------------------------------------
  void onFunction(const FunctionDecl &fd);
  void onLambda(const LambdaExpr &lambda);
  void onLaunch(const CUDAKernelCallExpr &call);
  void onCall(const CallExpr &call);
  void onInstantiatedCall(const CallExpr &call);
  void onResolvedCall(const CallExpr &call, const FunctionDecl &fd, const Context &where);
  void onUnresolvedCall(const CallExpr &call, const Expr &callee, const Context &where);
  void onRecovery(const RecoveryExpr &e);
  void onConstruct(const CXXConstructExpr &e);
  void onAsm(const GCCAsmStmt &s);
  void onVar(const VarDecl &var);
  void onField(const FieldDecl &field);
  void onAlias(const TypedefNameDecl &alias);
  void onCast(const ExplicitCastExpr &cast);
  void onDeclRef(const DeclRefExpr &ref);
  void onMember(const MemberExpr &member);
  void onUnresolvedLookup(const UnresolvedLookupExpr &lookup);
  void onExport(const CallExpr &call, ExportVia via);
  void launchThroughApi(const CallExpr &call, llvm::StringRef api, const Context &where);
  void staticAccess(const Expr &ref, size_t index);
  void recoverLexically();
  void countDeclarations(const DeclContext &dc);

  // --- helpers ----------------------------------------------------------------------
  Context contextOf(const DynTypedNode &node);
  bool underStateTest(const Stmt &s);
  template <class T> Context contextOf(const T &node) { return contextOf(DynTypedNode::create(node)); }
  std::string lambdaName(const LambdaExpr &lambda);
  std::string functionName(const FunctionDecl &fd);
  std::string qualifiedName(const NamedDecl &d);
  unsigned unitLine(SourceLocation loc) const;
  LineRange linesOf(SourceRange r) const;
  std::optional<unsigned> mainOffset(SourceLocation loc) const;
  bool fromStubMacro(SourceLocation loc) const;
  bool inMainFile(SourceLocation loc) const;
  /// Whether `s` lies inside an instantiated function or class template (any parent path).
  bool inTemplateInstantiation(const Stmt &s);
  /// A function the solution wrote: declared in the main file, not implicit (copy
  /// assignment of a struct), not a builtin.
  bool isUserFunction(const FunctionDecl &fd) const {
    return !fd.isImplicit() && !fd.isDefaulted() && fd.getBuiltinID() == 0 && inMainFile(fd.getLocation());
  }
  std::string textOf(SourceRange r, size_t max = kMaxText) const;
  std::vector<std::string> argumentsOf(const CallExpr &call) const;
  std::vector<std::string> argumentsOf(const CXXConstructExpr &call) const;
  StreamKind streamKindOf(const Expr *e, int depth = 0) const;
  void addEdge(const std::string &caller, const std::string &callee, SourceRange where);
  void addNumeric(NumericType t, NumericUseKind kind, std::string spelling, ConversionDirection dir,
                  const Context &where, SourceRange range);
  void numericTypeUses(QualType t, NumericUseKind direct, const Context &where, SourceRange range,
                       int depth = 0);
  std::optional<NumericType> numericTypeOf(QualType t);
  void templateUse(QualType t, const Context &where, SourceRange range);
  std::optional<std::string> numericTypeName(QualType t);

  ASTContext &ctx_;
  SourceManager &sm_;
  const CollectInput &input_;
  CxxFacts &out_;
  PrintingPolicy policy_{ctx_.getLangOpts()};
  llvm::DenseMap<const LambdaExpr *, std::string> lambdaNames_;
  llvm::DenseMap<const CXXRecordDecl *, std::string> lambdaClasses_;
  std::map<std::string, unsigned> lambdaCounts_;
  std::set<std::pair<std::string, std::string>> edges_;
  llvm::DenseMap<const VarDecl *, size_t> statics_;
  std::set<unsigned> astCallOffsets_;   ///< main-file offsets where the AST has a call or launch
  std::set<unsigned> declaredNames_;    ///< main-file offsets of function names being declared
  std::set<std::pair<unsigned, std::string>> instantiatedCalls_;
  std::vector<FunctionSpan> spans_;
  int asmStatements_ = 0;
};

} // namespace kbaudit::cxx::collect
