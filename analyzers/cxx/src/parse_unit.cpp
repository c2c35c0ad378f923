#include "parse_unit.h"

#include "collector.h"
#include "instantiation_filter.h"
#include "prelude_cache.h"
#include "prelude_writer.h"
#include "stub_fs.h"
#include "stub_headers.h"

#include "kbaudit/source/install_layout.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/SemaConsumer.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/InMemoryModuleCache.h>
#include <clang/Tooling/Tooling.h>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

namespace kbaudit::cxx {

namespace {

/// Clang's resource directory (stddef.h, stdint.h, the CUDA builtins): an installed kbaudit's
/// own copy, so the installed binary parses what the built one does on a machine without
/// libclang-common-14-dev; else the build machine's. Without it every `size_t` is an unknown
/// type and the unit's errors hide its code (annotations' hidesCode makes the run incomplete).
const std::string &resourceDir() {
  static const std::string dir = [] {
    const std::filesystem::path installed = installedClangResources();
    return installed.empty() ? std::string(KBAUDIT_CLANG_RESOURCE_DIR) : installed.string();
  }();
  return dir;
}

} // namespace

namespace {

constexpr size_t kFirstErrors = 8;

/// The unit line of `loc`, counting locations inside headers at their #include.
unsigned mainFileLine(const clang::SourceManager &sm, clang::SourceLocation loc) {
  if (loc.isInvalid())
    return 0;
  loc = sm.getFileLoc(loc);
  // (FileIDs, not isInMainFile(): that also holds for the predefines buffer.)
  while (loc.isValid() && sm.getFileID(loc) != sm.getMainFileID())
    loc = sm.getIncludeLoc(sm.getFileID(loc));
  return loc.isValid() ? sm.getSpellingLineNumber(loc) : 0;
}

class DiagnosticCollector : public clang::DiagnosticConsumer {
public:
  DiagnosticCollector(ParseReport &report, std::vector<unsigned> &errorLines)
      : report_(report), errorLines_(errorLines) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    if (level < clang::DiagnosticsEngine::Warning)
      return;
    const bool inStub = info.hasSourceManager() && info.getLocation().isValid() &&
                        info.getSourceManager().getFileID(info.getSourceManager().getFileLoc(
                            info.getLocation())) != info.getSourceManager().getMainFileID();
    // A stub declares templates without bodies; instantiating one with a lambda is only
    // an error because the body is missing.
    if (inStub && info.getID() == clang::diag::err_undefined_internal_type)
      return;
    if (level == clang::DiagnosticsEngine::Warning) {
      ++report_.warnings;
      return;
    }
    const unsigned line =
        info.hasSourceManager() ? mainFileLine(info.getSourceManager(), info.getLocation()) : 0;
    ++report_.errors;
    report_.fatal = report_.fatal || level == clang::DiagnosticsEngine::Fatal;
    errorLines_.push_back(line);
    if (report_.firstErrors.size() < kFirstErrors) {
      llvm::SmallString<128> message;
      info.FormatDiagnostic(message);
      ParseDiagnostic d;
      d.message = message.str().str();
      d.embeddedLine = line;
      d.lines = LineRange{line, line};
      report_.firstErrors.push_back(std::move(d));
    }
  }

private:
  ParseReport &report_;
  std::vector<unsigned> &errorLines_;
};

class PreprocessorRecorder : public clang::PPCallbacks {
public:
  PreprocessorRecorder(const clang::SourceManager &sm, const StubFileSystem &fs, CxxFacts &facts,
                       CollectInput &input, std::vector<LineRange> &skippedLines)
      : sm_(sm), fs_(fs), facts_(facts), input_(input), skippedLines_(skippedLines) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token &, llvm::StringRef name,
                          bool angled, clang::CharSourceRange, const clang::FileEntry *file,
                          llvm::StringRef, llvm::StringRef, const clang::Module *,
                          clang::SrcMgr::CharacteristicKind) override {
    if (sm_.getFileID(hash) != sm_.getMainFileID())
      return; // the force-included preludes come from the predefines buffer
    Include inc;
    inc.spelled = name.str();
    inc.angled = angled;
    inc.resolution = file ? fs_.resolutionOf(file->getName()) : IncludeResolution::Missing;
    const unsigned line = sm_.getSpellingLineNumber(hash);
    inc.lines = LineRange{line, line};
    facts_.includes.push_back(std::move(inc));
  }

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    if (sm_.getFileID(range.getBegin()) != sm_.getMainFileID())
      return;
    input_.skipped.emplace_back(sm_.getFileOffset(range.getBegin()),
                                sm_.getFileOffset(range.getEnd()));
    skippedLines_.push_back(
        LineRange{sm_.getSpellingLineNumber(range.getBegin()), sm_.getSpellingLineNumber(range.getEnd())});
  }

private:
  const clang::SourceManager &sm_;
  const StubFileSystem &fs_;
  CxxFacts &facts_;
  CollectInput &input_;
  std::vector<LineRange> &skippedLines_;
};

class CollectConsumer : public clang::SemaConsumer {
public:
  CollectConsumer(CxxFacts &facts, const CollectInput &input) : facts_(facts), input_(input) {}
  void InitializeSema(clang::Sema &sema) override {
    sema_ = &sema;
    instantiations_.install(sema);
  }
  void ForgetSema() override { sema_ = nullptr; }
  // Before the end of the unit instantiates what the declarations queued.
  bool HandleTopLevelDecl(clang::DeclGroupRef) override {
    if (sema_)
      instantiations_.dropRepeated(*sema_);
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    if (!facts_.parses.empty())
      facts_.parses.back().repeatedInstantiations = instantiations_.dropped();
    collectFacts(ctx, input_, facts_);
  }

private:
  CxxFacts &facts_;
  const CollectInput &input_;
  clang::Sema *sema_ = nullptr;
  InstantiationFilter instantiations_;
};

class CollectAction : public clang::ASTFrontendAction {
public:
  CollectAction(const StubFileSystem &fs, CxxFacts &facts, std::vector<LineRange> &skippedLines)
      : fs_(fs), facts_(facts), skippedLines_(skippedLines) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci,
                                                        llvm::StringRef) override {
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorRecorder>(ci.getSourceManager(), fs_, facts_, input_, skippedLines_));
    return std::make_unique<CollectConsumer>(facts_, input_);
  }

private:
  const StubFileSystem &fs_;
  CxxFacts &facts_;
  std::vector<LineRange> &skippedLines_;
  CollectInput input_;
};

/// Runs CollectAction on an invocation, as ToolInvocation's own factory does, and keeps a copy
/// of the invocation the driver made for the command line (see invocationFor) when the driver
/// reported nothing, so that a later unit with the same command line can skip the driver.
class CollectActionFactory : public clang::tooling::FrontendActionFactory {
public:
  CollectActionFactory(const StubFileSystem &fs, CxxFacts &facts, std::vector<LineRange> &skippedLines,
                       const ParseReport &report, std::string key)
      : fs_(fs), facts_(facts), skippedLines_(skippedLines), report_(report), key_(std::move(key)) {}

  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<CollectAction>(fs_, facts_, skippedLines_);
  }

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pch,
                     clang::DiagnosticConsumer *diagnostics) override;

private:
  const StubFileSystem &fs_;
  CxxFacts &facts_;
  std::vector<LineRange> &skippedLines_;
  const ParseReport &report_;
  std::string key_; ///< the command line; empty once the invocation is kept (or not to keep)
};

/// The compiler invocations Clang's driver made of the command lines seen so far. Every unit
/// of a kind has the same command line (its text is an in-memory file at a fixed path), and
/// the driver plus parsing its -cc1 arguments cost about 1.8 M instructions a unit.
std::mutex invocationsMutex;
std::map<std::string, std::shared_ptr<const clang::CompilerInvocation>> invocations;

std::string invocationKey(const std::vector<std::string> &args) {
  std::string key;
  for (const std::string &a : args)
    (key += a) += '\0';
  return key;
}

/// A copy of the invocation kept for `key` (Clang changes the one it runs), or null.
std::shared_ptr<clang::CompilerInvocation> invocationFor(const std::string &key) {
  std::lock_guard<std::mutex> lock(invocationsMutex);
  const auto it = invocations.find(key);
  return it == invocations.end() ? nullptr : std::make_shared<clang::CompilerInvocation>(*it->second);
}

bool CollectActionFactory::runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                                         clang::FileManager *files,
                                         std::shared_ptr<clang::PCHContainerOperations> pch,
                                         clang::DiagnosticConsumer *diagnostics) {
  // Only what the driver made without a word: a warning or error it reported went into this
  // unit's report, and a unit that skipped the driver would miss it.
  if (!key_.empty() && report_.errors == 0 && report_.warnings == 0) {
    auto kept = std::make_shared<const clang::CompilerInvocation>(*invocation);
    std::lock_guard<std::mutex> lock(invocationsMutex);
    invocations.emplace(std::move(key_), std::move(kept));
  }
  return FrontendActionFactory::runInvocation(std::move(invocation), files, std::move(pch), diagnostics);
}

constexpr llvm::StringRef kPchPath = "/kbaudit/pch/prelude.pch";
constexpr llvm::StringRef kPchSource = "/kbaudit/pch/prelude.cu";

/// The headers every unit of a kind starts with: what nvcc makes implicit for CUDA and
/// what load_inline prepends (`<torch/extension.h>` to C++, `<torch/types.h>` to CUDA).
std::vector<std::string> preludeHeaders(const Unit &unit) {
  std::vector<std::string> headers;
  if (unit.cuda)
    headers.push_back(stubs::kCudaPrelude.str());
  if (unit.torchPrelude)
    headers.push_back(unit.cuda ? "torch/types.h" : "torch/extension.h");
  return headers;
}

/// `prelude`: how the prelude headers come in; either force-included ({"-include", h}...)
/// or as a precompiled header ({"-include-pch", path}).
std::vector<std::string> commandLine(const Unit &unit, const FrontendOptions &options,
                                     const std::string &mainPath,
                                     const std::vector<std::string> &prelude) {
  std::vector<std::string> args = {"kbaudit-clang", "-fsyntax-only", "-x", unit.cuda ? "cuda" : "c++"};
  if (unit.cuda)
    args.insert(args.end(), {"--cuda-host-only", "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version"});
  // nvcc accepts narrowing in braced initialisers with a warning; so does the audit.
  args.insert(args.end(), {"-std=c++17", "-ferror-limit=0", "-fno-spell-checking", "-Wno-c++11-narrowing",
                           "-resource-dir", resourceDir(), "-nostdlibinc", "-nostdinc++"});
  // `#pragma clang __debug overflow_stack` (or crash, llvm_fatal_error, ...) in a submission
  // would make Clang recurse through the worker's 512 MiB stack or abort on purpose; nvcc
  // ignores these pragmas, so the audit does too.
  args.insert(args.end(), {"-Xclang", "-disable-pragma-debug-crash"});
  for (const std::string &dir : options.includeDirs)
    args.insert(args.end(), {"-isystem", dir});
  args.insert(args.end(), {"-isystem", kStubDir.str()});
  if (unit.cuda && options.cudaArch != 0)
    args.push_back("-D__CUDA_ARCH__=" + std::to_string(options.cudaArch));
  args.insert(args.end(), options.extraArgs.begin(), options.extraArgs.end());
  args.insert(args.end(), prelude.begin(), prelude.end());
  args.push_back(mainPath);
  return args;
}

std::vector<std::string> forceIncludes(const Unit &unit) {
  std::vector<std::string> args;
  for (const std::string &h : preludeHeaders(unit))
    args.insert(args.end(), {"-include", h});
  return args;
}

/// Serialises the prelude's AST in memory (no file is written).
class PrecompileAction : public clang::ASTFrontendAction {
public:
  explicit PrecompileAction(std::shared_ptr<clang::PCHBuffer> buffer) : buffer_(std::move(buffer)) {}

protected:
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }
  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    ci.getLangOpts().CompilingPCH = true;
    return true;
  }
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci,
                                                        llvm::StringRef) override {
    return std::make_unique<PreludeWriter>(ci.getPreprocessor(), ci.getModuleCache(),
                                                 kPchPath, /*isysroot=*/"", buffer_,
                                                 llvm::ArrayRef<std::shared_ptr<clang::ModuleFileExtension>>(),
                                                 /*AllowASTWithErrors=*/false,
                                                 /*IncludeTimestamps=*/false);
  }

private:
  std::shared_ptr<clang::PCHBuffer> buffer_;
};

std::string preludeSource(const Unit &unit) {
  std::string source;
  for (const std::string &h : preludeHeaders(unit))
    source += "#include <" + h + ">\n";
  return source;
}

/// The prelude of a kind of unit, precompiled once per process: it is most of what a
/// unit parses (the torch, CUDA and standard-library stubs). Empty when precompiling
/// failed; units then include the headers instead.
std::shared_ptr<const std::string> precompiledPrelude(const Unit &unit, const FrontendOptions &options) {
  std::string key = unit.cuda ? "cuda" : "c++";
  for (const std::string &a : options.extraArgs)
    key += " " + a;
  key += unit.torchPrelude ? "+torch" : "";
  key += "|" + std::to_string(options.cudaArch);
  for (const std::string &d : options.includeDirs)
    key += "|" + d;
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const std::string>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(key); it != cache.end())
    return it->second;

  llvm::IntrusiveRefCntPtr<StubFileSystem> fs(
      new StubFileSystem(resourceDir(), options.includeDirs));
  fs->addFile(kPchSource, preludeSource(unit));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), fs));
  const std::vector<std::string> args = commandLine(unit, options, kPchSource.str(), {});
  // Kept on disk between processes too, unless the prelude may read real headers.
  const std::filesystem::path diskDir =
      !options.includeDirs.empty() ? std::filesystem::path()
      : options.preludeCacheDir   ? std::filesystem::path(*options.preludeCacheDir)
                                  : prelude_cache::defaultDir();
  const std::string diskKey = diskDir.empty() ? std::string() : prelude_cache::key(args, preludeSource(unit));
  if (!diskDir.empty()) {
    if (std::optional<std::string> kept = prelude_cache::load(diskDir, diskKey)) {
      auto pch = std::make_shared<const std::string>(std::move(*kept));
      cache.emplace(key, pch);
      return pch;
    }
  }
  ParseReport report;
  std::vector<unsigned> errorLines;
  DiagnosticCollector diagnostics(report, errorLines);
  auto buffer = std::make_shared<clang::PCHBuffer>();
  clang::tooling::ToolInvocation invocation(args, std::make_unique<PrecompileAction>(buffer), files.get());
  invocation.setDiagnosticConsumer(&diagnostics);
  std::shared_ptr<const std::string> pch = std::make_shared<const std::string>();
  if (invocation.run() && report.errors == 0 && buffer->IsComplete) {
    pch = std::make_shared<const std::string>(buffer->Data.begin(), buffer->Data.end());
    if (!diskDir.empty())
      prelude_cache::store(diskDir, diskKey, *pch);
  }
  cache.emplace(key, pch);
  return pch;
}

} // namespace

UnitResult parseUnit(const Unit &unit, const FrontendOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  UnitResult result;
  result.facts.parses.emplace_back();
  ParseReport &report = result.facts.parses.back();
  report.cuda = unit.cuda;
  static const bool resourcesMissing = [] {
    std::error_code ec;
    return !std::filesystem::exists(std::filesystem::path(resourceDir()) / "include" / "stddef.h", ec);
  }();
  report.resourcesMissing = resourcesMissing;

  const std::string mainPath = (kSourceDir + (unit.cuda ? "/unit.cu" : "/unit.cpp")).str();
  llvm::IntrusiveRefCntPtr<StubFileSystem> fs(
      new StubFileSystem(resourceDir(), options.includeDirs));
  // Served in place, not copied (a precompiled prelude is megabytes): both outlive the parse.
  fs->addFileView(mainPath, unit.text);
  std::vector<std::string> prelude = forceIncludes(unit);
  std::shared_ptr<const std::string> pch;
  if (options.precompilePrelude) {
    if (pch = precompiledPrelude(unit, options); !pch->empty()) {
      fs->addFile(kPchSource, preludeSource(unit)); // the PCH names it as its origin
      fs->addBlob(kPchPath, *pch);
      // The stubs are the same in-memory files the PCH was built from; skip re-validating.
      prelude = {"-include-pch", kPchPath.str(), "-Xclang", "-fno-validate-pch"};
    }
  }
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), fs));
  DiagnosticCollector diagnostics(report, result.errorLines);
  const std::vector<std::string> args = commandLine(unit, options, mainPath, prelude);
  std::string key = invocationKey(args);
  std::shared_ptr<clang::CompilerInvocation> kept = invocationFor(key);
  CollectActionFactory factory(*fs, result.facts, result.skippedLines, report, kept ? std::string() : key);
  clang::tooling::ToolInvocation invocation(args, &factory, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&diagnostics);
  // The driver's part of ToolInvocation::run() done already: what is left of it.
  const auto run = [&] {
    return kept ? factory.runInvocation(std::move(kept), files.get(),
                                        std::make_shared<clang::PCHContainerOperations>(), &diagnostics)
                : invocation.run();
  };

  bool ran = false;
  if (options.recoverCrashes) {
    static std::once_flag enabled;
    std::call_once(enabled, [] { llvm::CrashRecoveryContext::Enable(); });
    llvm::CrashRecoveryContext crc;
    report.crashed = !crc.RunSafely([&] { ran = run(); });
  } else {
    ran = run();
  }
  // run() is false whenever the source has errors; "parsed" means the AST was mined
  // (collectFacts sets it) and Clang did not crash on the way.
  (void)ran;
  report.parsed = report.parsed && !report.crashed;
  report.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace kbaudit::cxx
