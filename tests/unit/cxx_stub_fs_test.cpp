// The file system Clang parses in (analyzers/cxx/src/stub_fs.h): a blob (the precompiled
// prelude) is served in place, under its own unique ID, and changes nothing else served.

#include "../../analyzers/cxx/src/stub_fs.h"

#include <llvm/Support/MemoryBuffer.h>

#include <gtest/gtest.h>

using namespace kbaudit::cxx;

namespace {

llvm::IntrusiveRefCntPtr<StubFileSystem> makeFs() {
  return llvm::IntrusiveRefCntPtr<StubFileSystem>(new StubFileSystem("/nonexistent/kbaudit-test-resource-dir", {}));
}

TEST(CxxStubFs, ABlobIsServedInPlaceUnderItsOwnId) {
  const std::string pch = std::string("CPCH") + std::string(4096, '\x01');
  const std::string other = "second";
  auto fs = makeFs();
  fs->addFile("/kbaudit/pch/prelude.cu", "#include <torch/types.h>\n");
  fs->addBlob("/kbaudit/pch/prelude.pch", pch);
  fs->addBlob("/kbaudit/pch/other.pch", other);

  auto st = fs->status("/kbaudit/pch/prelude.pch");
  ASSERT_TRUE(st) << st.getError().message();
  EXPECT_TRUE(st->isRegularFile());
  EXPECT_EQ(st->getSize(), pch.size());
  auto again = fs->status("/kbaudit/pch/../pch/prelude.pch");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->getUniqueID(), st->getUniqueID()) << "one file, however it is named";
  auto second = fs->status("/kbaudit/pch/other.pch");
  ASSERT_TRUE(second);
  EXPECT_NE(second->getUniqueID(), st->getUniqueID());
  EXPECT_NE(fs->status("/kbaudit/pch/prelude.cu")->getUniqueID(), st->getUniqueID());

  auto file = fs->openFileForRead("/kbaudit/pch/prelude.pch");
  ASSERT_TRUE(file);
  auto buffer = (*file)->getBuffer("/kbaudit/pch/prelude.pch");
  ASSERT_TRUE(buffer);
  EXPECT_EQ((*buffer)->getBuffer(), pch);
  EXPECT_EQ((*buffer)->getBufferStart(), pch.data()) << "not a copy";
  EXPECT_EQ((*file)->status()->getUniqueID(), st->getUniqueID());
}

TEST(CxxStubFs, OtherPathsAreServedAsBefore) {
  auto fs = makeFs();
  fs->addFile("/kbaudit/pch/prelude.cu", "x");
  fs->addBlob("/kbaudit/pch/prelude.pch", "blob");
  // A stub header still comes from the stub table, a missing header is an empty file, and the
  // directory holding the blob is still a directory.
  auto stub = fs->openFileForRead("/kbaudit/include/cuda_fp16.h");
  ASSERT_TRUE(stub);
  EXPECT_FALSE((*stub)->getBuffer("cuda_fp16.h").get()->getBuffer().empty());
  auto missing = fs->status("/kbaudit/src/my_helpers.cuh");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->getSize(), 0u);
  EXPECT_EQ(fs->resolutionOf("/kbaudit/src/my_helpers.cuh"), IncludeResolution::Missing);
  auto dir = fs->status("/kbaudit/pch");
  ASSERT_TRUE(dir);
  EXPECT_TRUE(dir->isDirectory());
}

} // namespace
