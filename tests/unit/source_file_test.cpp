#include "kbaudit/source/source_file.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using kbaudit::Diagnostic;
using kbaudit::SourceFile;

namespace {

const Diagnostic *find(const SourceFile &f, const std::string &code) {
  for (const Diagnostic &d : f.diagnostics())
    if (d.code == code)
      return &d;
  return nullptr;
}

TEST(SourceFile, IndexesLinesAsPythonReadsThem) {
  // Universal newlines: CRLF and a lone CR end a line as LF does, and read as LF.
  const SourceFile f = SourceFile::fromBytes("a = 1\n  b = 2\r\n\rlast");
  EXPECT_TRUE(f.analyzable());
  ASSERT_EQ(f.lineCount(), 4u);
  EXPECT_EQ(f.line(1), "a = 1");
  EXPECT_EQ(f.line(2), "  b = 2");
  EXPECT_EQ(f.line(3), "");
  EXPECT_EQ(f.line(4), "last");
  EXPECT_EQ(f.line(5), "");
  EXPECT_EQ(f.lines(1, 2), "a = 1\n  b = 2\n");
  EXPECT_EQ(f.lineOfOffset(0), 1u);
  EXPECT_EQ(f.lineOfOffset(6), 2u);
  // The lone CR is worth a note (an editor or a reviewer may show the file as one line); the
  // hash stays the raw bytes'.
  ASSERT_EQ(f.diagnostics().size(), 1u);
  EXPECT_EQ(f.diagnostics()[0].code, "line-endings");
  EXPECT_EQ(f.diagnostics()[0].severity, Diagnostic::Severity::Note);
  EXPECT_NE(f.sha256(), SourceFile::fromBytes("a = 1\n  b = 2\n\nlast").sha256());
}

TEST(SourceFile, LoneCrFileHasAllItsLines) {
  const SourceFile f = SourceFile::fromBytes("import torch\rx = 1\rdef f():\r    return x\r");
  EXPECT_EQ(f.lineCount(), 4u);
  EXPECT_EQ(f.line(3), "def f():");
  EXPECT_TRUE(SourceFile::fromBytes("a\r\nb\r\n").diagnostics().empty()) << "CRLF alone is ordinary";
}

TEST(SourceFile, TrailingNewlineDoesNotOpenALine) {
  EXPECT_EQ(SourceFile::fromBytes("x\ny\n").lineCount(), 2u);
}

TEST(SourceFile, HashesRawBytes) {
  EXPECT_EQ(SourceFile::fromBytes("abc").sha256(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(SourceFile, EmptyAndWhitespaceOnlyAreErrors) {
  for (const char *bytes : {"", "  \n\t\n"}) {
    const SourceFile f = SourceFile::fromBytes(bytes);
    EXPECT_FALSE(f.analyzable());
    const Diagnostic *d = find(f, "empty-file");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->severity, Diagnostic::Severity::Error);
    EXPECT_EQ(d->file, "solution.py");
  }
}

TEST(SourceFile, NulByteMeansBinary) {
  const SourceFile f = SourceFile::fromBytes(std::string("PK\x03\x04\0\0data", 10));
  EXPECT_FALSE(f.analyzable());
  ASSERT_NE(find(f, "binary-file"), nullptr);
  EXPECT_NE(find(f, "binary-file")->message.find("offset 4"), std::string::npos);
}

TEST(SourceFile, InvalidUtf8IsRepairedAndReported) {
  const SourceFile f = SourceFile::fromBytes("ok = 1\nname = '\xff\xfe'\n# caf\xc3\xa9\n\xed\xa0\x80\n");
  EXPECT_TRUE(f.analyzable());
  const Diagnostic *d = find(f, "invalid-utf8");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->severity, Diagnostic::Severity::Warning);
  EXPECT_EQ(d->lines.begin, 2u);
  EXPECT_NE(d->message.find("5 byte(s)"), std::string::npos) << d->message; // 2 + 3 (a surrogate)
  EXPECT_EQ(f.line(2), "name = '\xEF\xBF\xBD\xEF\xBF\xBD'");
  EXPECT_EQ(f.line(3), "# caf\xc3\xa9"); // valid multi-byte text untouched
}

TEST(SourceFile, TruncatedMultibyteSequenceAtEndIsInvalid) {
  const SourceFile f = SourceFile::fromBytes("x = 1  # \xe2\x82");
  ASSERT_NE(find(f, "invalid-utf8"), nullptr);
}

TEST(SourceFile, LoadReportsMissingAndDirectories) {
  const SourceFile missing = SourceFile::load("/nonexistent/kbaudit/solution.py");
  EXPECT_FALSE(missing.analyzable());
  EXPECT_NE(find(missing, "unreadable"), nullptr);
  const SourceFile dir = SourceFile::load(std::filesystem::temp_directory_path());
  EXPECT_FALSE(dir.analyzable());
  EXPECT_NE(find(dir, "not-a-regular-file"), nullptr);
}

// A FIFO named solution.py used to block the audit forever, and a link to /dev/zero read
// gigabytes: only regular files are read.
TEST(SourceFile, LoadRefusesFifosAndDevicesWithoutBlocking) {
  const auto dir = std::filesystem::temp_directory_path() / ("kbaudit_fifo_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto fifo = dir / "solution.py";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const SourceFile f = SourceFile::load(fifo);
  EXPECT_FALSE(f.analyzable());
  const Diagnostic *d = find(f, "not-a-regular-file");
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("FIFO"), std::string::npos) << d->message;
  const auto zero = dir / "zero.py";
  std::filesystem::create_symlink("/dev/zero", zero);
  const SourceFile z = SourceFile::load(zero);
  EXPECT_FALSE(z.analyzable());
  ASSERT_NE(find(z, "not-a-regular-file"), nullptr);
  EXPECT_NE(find(z, "not-a-regular-file")->message.find("character device"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(SourceFile, LoadReadsFileBytes) {
  const auto path = std::filesystem::temp_directory_path() / "kbaudit_source_file_test.py";
  {
    std::ofstream out(path, std::ios::binary);
    out << "import torch\n";
  }
  const SourceFile f = SourceFile::load(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(f.analyzable());
  EXPECT_EQ(f.name(), "kbaudit_source_file_test.py");
  EXPECT_EQ(f.line(1), "import torch");
}

} // namespace
