// PEP 263 coding declarations: the text every front end sees is the text Python decodes.
#include "kbaudit/source/source_encoding.h"
#include "kbaudit/source/source_file.h"

#include <gtest/gtest.h>

using kbaudit::decodePythonSource;
using kbaudit::pythonSourceCodec;
using kbaudit::SourceFile;

namespace {

bool hasDiagnostic(const SourceFile &f, const std::string &code) {
  for (const kbaudit::Diagnostic &d : f.diagnostics())
    if (d.code == code)
      return true;
  return false;
}

TEST(SourceEncoding, NoDeclarationIsUtf8) {
  const auto d = decodePythonSource("import torch\nx = 1\n");
  EXPECT_EQ(d.codec, "utf_8");
  EXPECT_FALSE(d.utf8);
  EXPECT_TRUE(d.error.empty());
}

TEST(SourceEncoding, CodecNamesNormaliseAsPythonDoes) {
  EXPECT_EQ(pythonSourceCodec("UTF-7"), "utf_7");
  EXPECT_EQ(pythonSourceCodec("utf7"), "utf_7");
  EXPECT_EQ(pythonSourceCodec("Latin-1"), "latin_1");
  EXPECT_EQ(pythonSourceCodec("iso-8859-1"), "latin_1");
  EXPECT_EQ(pythonSourceCodec("utf-8-unix"), "utf_8"); // get_normal_name folds utf-8-*
  EXPECT_EQ(pythonSourceCodec("unicode-escape"), "unicode_escape");
  EXPECT_EQ(pythonSourceCodec("cp1252"), "cp1252");
  EXPECT_EQ(pythonSourceCodec("ISO-8859-15"), "iso8859_15");
  // Python refuses these for source files: not ASCII-compatible, or not text codecs.
  EXPECT_FALSE(pythonSourceCodec("utf-16"));
  EXPECT_FALSE(pythonSourceCodec("rot13"));
  EXPECT_FALSE(pythonSourceCodec("base64"));
  EXPECT_FALSE(pythonSourceCodec("no-such-codec"));
}

TEST(SourceEncoding, DeclarationOnLineTwoOnlyAfterACommentOrBlankLine) {
  EXPECT_EQ(decodePythonSource("#!/usr/bin/env python\n# coding: latin-1\nx = 1\n").line, 2u);
  EXPECT_EQ(decodePythonSource("\n# vim: set fileencoding=utf-7 :\n").codec, "utf_7");
  // After a statement on line 1 the declaration is an ordinary comment.
  EXPECT_EQ(decodePythonSource("x = 1\n# coding: utf-7\n").codec, "utf_8");
  // Only line 1 or 2 counts.
  EXPECT_EQ(decodePythonSource("#\n#\n# coding: utf-7\n").codec, "utf_8");
}

TEST(SourceEncoding, Utf7DecodesToThePlainProgram) {
  // "torch.matmul(a, b)" with '.', '(' and ',' written as UTF-7 base64 runs.
  const auto d = decodePythonSource("# -*- coding: utf-7 -*-\ny = torch+AC4-matmul+ACg-a+ACw- b)\n");
  ASSERT_TRUE(d.error.empty()) << d.error;
  ASSERT_TRUE(d.utf8);
  EXPECT_EQ(*d.utf8, "# -*- coding: utf-7 -*-\ny = torch.matmul(a, b)\n");
}

TEST(SourceEncoding, UnicodeEscapeDecodesEscapesEverywhere) {
  const auto d = decodePythonSource("# coding: unicode_escape\n\\x74orch.mat\\u006dul(a, b)\\n# \\\\ kept\n");
  ASSERT_TRUE(d.error.empty()) << d.error;
  ASSERT_TRUE(d.utf8);
  EXPECT_EQ(*d.utf8, "# coding: unicode_escape\ntorch.matmul(a, b)\n# \\ kept\n");
}

TEST(SourceEncoding, RawUnicodeEscapeDecodesOnlyUnicodeEscapes) {
  const auto d = decodePythonSource("# coding: raw_unicode_escape\nx = '\\n' + \\u0074orch\n");
  ASSERT_TRUE(d.utf8);
  EXPECT_EQ(*d.utf8, "# coding: raw_unicode_escape\nx = '\\n' + torch\n");
}

TEST(SourceEncoding, Latin1BytesBecomeUtf8) {
  const auto d = decodePythonSource("# coding: latin-1\ns = '\xe9'\n");
  ASSERT_TRUE(d.utf8);
  EXPECT_EQ(*d.utf8, "# coding: latin-1\ns = '\xc3\xa9'\n");
}

TEST(SourceEncoding, UnknownOrRefusedCodecsRejectTheFileWithADiagnostic) {
  for (const char *text : {"# coding: utf-16\nx = 1\n", "# coding: rot13\nx = 1\n", "# coding: klingon\nx = 1\n"}) {
    const SourceFile f = SourceFile::fromBytes(text);
    EXPECT_FALSE(f.analyzable()) << text;
    EXPECT_TRUE(hasDiagnostic(f, "source-encoding")) << text;
  }
}

TEST(SourceEncoding, BytesInvalidInTheDeclaredCodecRejectTheFile) {
  const SourceFile f = SourceFile::fromBytes("# coding: ascii\nx = '\xff'\n");
  EXPECT_FALSE(f.analyzable());
  EXPECT_TRUE(hasDiagnostic(f, "source-encoding"));
  const SourceFile e = SourceFile::fromBytes("# coding: unicode_escape\nx = '\\x4'\n");
  EXPECT_FALSE(e.analyzable());
}

TEST(SourceEncoding, BomWithAnotherCodecIsRejectedAndAloneIsDropped) {
  EXPECT_FALSE(SourceFile::fromBytes("\xEF\xBB\xBF# coding: latin-1\nx = 1\n").analyzable());
  const SourceFile f = SourceFile::fromBytes("\xEF\xBB\xBFimport torch\n");
  ASSERT_TRUE(f.analyzable());
  EXPECT_EQ(f.text(), "import torch\n");
}

TEST(SourceEncoding, SourceFileAnalysesTheDecodedTextAndSaysSo) {
  const SourceFile f = SourceFile::fromBytes("# coding: utf-7\nimport torch+AC4-nn\n");
  ASSERT_TRUE(f.analyzable());
  EXPECT_EQ(f.line(2), "import torch.nn");
  EXPECT_TRUE(hasDiagnostic(f, "source-encoding"));
}

} // namespace
