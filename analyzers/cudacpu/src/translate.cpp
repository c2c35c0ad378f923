// The translation of one unit: lex, run the passes, apply their edits with Clang's Rewriter
// (edits that overlap an earlier one are dropped and noted), and put the runtime's prelude and
// a #line directive in front, so compiler messages about the result quote the source's lines.

#include "kbaudit/cudacpu/translate.h"

#include "passes.h"
#include "token.h"

#include <clang/Basic/FileManager.h>
#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace kbaudit::cudacpu {

namespace {

std::string applyEdits(std::string_view source, std::vector<Edit> edits, std::vector<std::string> &notes) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) { return a.offset < b.offset; });
  const std::string text(source);
  clang::SourceManagerForFile files("unit.cu", text);
  clang::SourceManager &sm = files.get();
  clang::Rewriter rewriter(sm, clang::LangOptions());
  const clang::FileID fid = sm.getMainFileID();
  const clang::SourceLocation start = sm.getLocForStartOfFile(fid);
  std::size_t covered = 0; // end of the last edit applied
  for (const Edit &e : edits) {
    if (e.offset < covered) {
      notes.push_back("an edit at offset " + std::to_string(e.offset) + " overlapped another and was dropped");
      continue;
    }
    rewriter.ReplaceText(start.getLocWithOffset(static_cast<int>(e.offset)), static_cast<unsigned>(e.length), e.text);
    covered = e.offset + e.length;
  }
  const clang::RewriteBuffer *buffer = rewriter.getRewriteBufferFor(fid);
  if (!buffer)
    return text;
  std::string out;
  llvm::raw_string_ostream os(out);
  buffer->write(os);
  os.flush();
  return out;
}

std::string lineDirective(const std::string &file) {
  std::string quoted;
  for (char c : file)
    quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return "#line 1 \"" + quoted + "\"\n";
}

} // namespace

Translation translate(std::string_view source, const TranslateOptions &options) {
  Translation out;
  std::size_t stopped = 0;
  const std::vector<Token> tokens = lex(source, stopped);
  if (stopped < source.size())
    out.notes.push_back("the source could not be lexed past offset " + std::to_string(stopped) +
                        " (an unterminated literal); the rest is left as it is");
  std::vector<Edit> edits;
  PassContext ctx{source, tokens, options, edits, out.unavailable, out.notes};
  findUnavailable(ctx);
  if (options.cuda) {
    out.launches = rewriteLaunches(ctx);
    out.sharedDeclarations = rewriteShared(ctx);
    out.locksteps = insertLocksteps(ctx);
  }
  mapDevice(ctx);
  std::stable_sort(out.unavailable.begin(), out.unavailable.end(),
                   [](const Unavailable &a, const Unavailable &b) { return a.line < b.line; });
  out.text = "#include <cudacpu/prelude.h>\n" + lineDirective(options.fileName) + applyEdits(source, edits, out.notes);
  return out;
}

} // namespace kbaudit::cudacpu
