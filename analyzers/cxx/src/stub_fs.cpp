#include "stub_fs.h"

#include "stub_headers.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Chrono.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace kbaudit::cxx {

namespace {

using llvm::StringRef;

bool isUnder(StringRef path, StringRef dir) {
  return path == dir || (path.startswith(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

llvm::SmallString<256> normalize(const llvm::Twine &p) {
  llvm::SmallString<256> path;
  p.toVector(path);
  if (!llvm::sys::path::is_absolute(path, llvm::sys::path::Style::posix)) {
    llvm::SmallString<256> abs(kSourceDir);
    llvm::sys::path::append(abs, llvm::sys::path::Style::posix, path);
    path = abs;
  }
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  return path;
}

bool looksLikeHeader(StringRef path) {
  const StringRef ext = llvm::sys::path::extension(path, llvm::sys::path::Style::posix);
  static const StringRef kExtensions[] = {".h",   ".hh",  ".hpp", ".hxx", ".cuh", ".inc", ".inl",
                                         ".cu",  ".ipp", ".tcc", ".cpp", ".cc",  ".cxx"};
  return llvm::is_contained(kExtensions, ext);
}

} // namespace

StubFileSystem::StubFileSystem(std::string resourceDir, std::vector<std::string> realDirs)
    : memory_(new llvm::vfs::InMemoryFileSystem()), disk_(llvm::vfs::getRealFileSystem()),
      resourceInclude_(std::move(resourceDir) + "/include"), realDirs_(std::move(realDirs)) {
  memory_->setCurrentWorkingDirectory(kSourceDir);
  // The stub directory must exist before Clang builds its search path, or it is dropped.
  if (auto prelude = stubs::lookup(stubs::kCudaPrelude)) {
    const std::string path = (kStubDir + "/" + stubs::kCudaPrelude).str();
    addFileView(path, *prelude);
    stubs_.insert(path);
  }
}

void StubFileSystem::addFile(StringRef path, StringRef text) {
  memory_->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
}

void StubFileSystem::addFileView(StringRef path, StringRef text) {
  memory_->addFile(path, 0, llvm::MemoryBuffer::getMemBuffer(text, path, /*RequiresNullTerminator=*/true));
}

namespace {

/// A blob's file: its buffer refers to the text, not a copy.
class BlobFile : public llvm::vfs::File {
public:
  BlobFile(llvm::vfs::Status status, StringRef text) : status_(std::move(status)), text_(text) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return status_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &name, int64_t, bool nullTerminated,
                                                               bool) override {
    return llvm::MemoryBuffer::getMemBuffer(text_, name.str(), nullTerminated);
  }
  std::error_code close() override { return {}; }

private:
  llvm::vfs::Status status_;
  StringRef text_;
};

} // namespace

void StubFileSystem::addBlob(StringRef path, StringRef text) {
  const unsigned number = static_cast<unsigned>(blobs_.size()) + 1;
  blobs_[normalize(path).str()] = {text, number};
}

llvm::ErrorOr<llvm::vfs::Status> StubFileSystem::blobStatus(StringRef path) const {
  const auto it = blobs_.find(path);
  if (it == blobs_.end())
    return std::make_error_code(std::errc::no_such_file_or_directory);
  // Device "kb" (no in-memory file's: theirs is a hash of the parent's ID), modified at 0 and
  // readable by all, as InMemoryFileSystem makes its files.
  return llvm::vfs::Status(it->first(), llvm::sys::fs::UniqueID(0x6b62, it->second.second),
                           llvm::sys::toTimePoint(0), 0, 0, it->second.first.size(),
                           llvm::sys::fs::file_type::regular_file, llvm::sys::fs::all_all);
}

bool StubFileSystem::onDiskInclude(StringRef rel) const {
  llvm::SmallString<256> p(resourceInclude_);
  llvm::sys::path::append(p, llvm::sys::path::Style::posix, rel);
  if (!isUnder(p, resourceInclude_ + "/cuda_wrappers") && disk_->exists(p))
    return true;
  for (const std::string &dir : realDirs_) {
    llvm::SmallString<256> r(dir);
    llvm::sys::path::append(r, llvm::sys::path::Style::posix, rel);
    if (disk_->exists(r))
      return true;
  }
  return false;
}

StubFileSystem::Route StubFileSystem::route(const llvm::Twine &p) {
  const llvm::SmallString<256> path = normalize(p);
  const StringRef s = path;
  if (memory_->exists(s))
    return Route::Memory;
  const StringRef resourceDir = llvm::sys::path::parent_path(resourceInclude_, llvm::sys::path::Style::posix);
  if (isUnder(s, resourceDir))
    return isUnder(s, resourceInclude_ + "/cuda_wrappers") ? Route::NotFound : Route::Disk;
  for (const std::string &dir : realDirs_)
    if (isUnder(s, dir))
      return Route::Disk;

  const auto synthesize = [&](bool asFile) {
    if (asFile) {
      addFile(s, "");
      missing_.insert(s.str());
    } else {
      // An unknown extension-less name under the virtual root is a directory on the way
      // to a header: Clang stats the directory before the file.
      addFile((s + "/.kbaudit").str(), "");
    }
    return Route::Memory;
  };
  const bool header = looksLikeHeader(s);
  if (isUnder(s, kStubDir)) {
    const StringRef rel = s.drop_front(kStubDir.size() + 1);
    if (auto text = stubs::lookup(rel)) {
      addFileView(s, *text);
      stubs_.insert(s.str());
      return Route::Memory;
    }
    if (onDiskInclude(rel))
      return Route::NotFound; // let the search reach Clang's builtin header
    return synthesize(header);
  }
  if (isUnder(s, kSourceDir) && s != kSourceDir) {
    const StringRef rel = s.drop_front(kSourceDir.size() + 1);
    // A quoted include of a stubbed or builtin header must fall through to the search path.
    if (stubs::lookup(rel) || onDiskInclude(rel))
      return Route::NotFound;
    return synthesize(header);
  }
  if (isUnder(s, kVirtualRoot))
    return synthesize(header);
  // Absolute includes of headers elsewhere (`#include "/usr/local/cuda/include/x.h"`).
  if (header)
    return synthesize(true);
  return Route::NotFound;
}

llvm::ErrorOr<llvm::vfs::Status> StubFileSystem::status(const llvm::Twine &path) {
  if (!blobs_.empty())
    if (auto blob = blobStatus(normalize(path)))
      return blob;
  switch (route(path)) {
  case Route::Memory:
    return memory_->status(normalize(path));
  case Route::Disk:
    return disk_->status(path);
  case Route::NotFound:
    break;
  }
  return std::make_error_code(std::errc::no_such_file_or_directory);
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
StubFileSystem::openFileForRead(const llvm::Twine &path) {
  if (!blobs_.empty()) {
    const llvm::SmallString<256> normalized = normalize(path);
    if (auto blob = blobStatus(normalized))
      return std::make_unique<BlobFile>(std::move(*blob), blobs_.find(normalized)->second.first);
  }
  switch (route(path)) {
  case Route::Memory:
    return memory_->openFileForRead(normalize(path));
  case Route::Disk:
    return disk_->openFileForRead(path);
  case Route::NotFound:
    break;
  }
  return std::make_error_code(std::errc::no_such_file_or_directory);
}

llvm::vfs::directory_iterator StubFileSystem::dir_begin(const llvm::Twine &dir,
                                                        std::error_code &ec) {
  switch (route(dir)) {
  case Route::Memory:
    return memory_->dir_begin(normalize(dir), ec);
  case Route::Disk:
    return disk_->dir_begin(dir, ec);
  case Route::NotFound:
    break;
  }
  ec = std::make_error_code(std::errc::no_such_file_or_directory);
  return {};
}

std::error_code StubFileSystem::setCurrentWorkingDirectory(const llvm::Twine &path) {
  return memory_->setCurrentWorkingDirectory(path);
}

llvm::ErrorOr<std::string> StubFileSystem::getCurrentWorkingDirectory() const {
  return memory_->getCurrentWorkingDirectory();
}

IncludeResolution StubFileSystem::resolutionOf(StringRef p) const {
  const llvm::SmallString<256> path = normalize(p);
  if (missing_.count(path.str()))
    return IncludeResolution::Missing;
  if (stubs_.count(path.str()))
    return IncludeResolution::Stub;
  if (isUnder(path, llvm::sys::path::parent_path(resourceInclude_, llvm::sys::path::Style::posix)))
    return IncludeResolution::Builtin;
  for (const std::string &dir : realDirs_)
    if (isUnder(path, dir))
      return IncludeResolution::Real;
  return IncludeResolution::Stub;
}

} // namespace kbaudit::cxx
