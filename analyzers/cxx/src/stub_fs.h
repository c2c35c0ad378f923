#pragma once

// The file system Clang sees while parsing an embedded source: stub headers and the
// source in memory, Clang's builtin headers (and caller-given include dirs) from disk, and
// an empty file for every other header, so a missing `#include "my_helpers.cuh"` costs the
// names it would have declared instead of the whole translation unit.

#include "kbaudit/cxx/facts.h"

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <set>
#include <string>
#include <vector>

namespace kbaudit::cxx {

inline constexpr llvm::StringRef kVirtualRoot = "/kbaudit";
inline constexpr llvm::StringRef kStubDir = "/kbaudit/include";
inline constexpr llvm::StringRef kSourceDir = "/kbaudit/src";

class StubFileSystem : public llvm::vfs::FileSystem {
public:
  /// `resourceDir`: Clang's resource dir (its include/ is served from disk, except
  /// cuda_wrappers/, whose libstdc++ wrappers would pull in the real standard library).
  /// `realDirs`: caller-given include dirs, served from disk.
  StubFileSystem(std::string resourceDir, std::vector<std::string> realDirs);

  /// Serves a copy of `text` at `path`.
  void addFile(llvm::StringRef path, llvm::StringRef text);
  /// Serves `text` itself, without a copy: it must be null-terminated (Clang's lexer stops
  /// there) and outlive this file system and every parse that reads it (the embedded stubs,
  /// a unit's text, the precompiled prelude).
  void addFileView(llvm::StringRef path, llvm::StringRef text);
  /// Serves `text` itself at `path` outside the in-memory file system, which hashes a file's
  /// whole contents into its unique ID (the precompiled prelude is megabytes, per unit). Same
  /// contract as addFileView; another file must already be in the directory.
  void addBlob(llvm::StringRef path, llvm::StringRef text);
  IncludeResolution resolutionOf(llvm::StringRef path) const;

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override;
  llvm::vfs::directory_iterator dir_begin(const llvm::Twine &dir, std::error_code &ec) override;
  std::error_code setCurrentWorkingDirectory(const llvm::Twine &path) override;
  llvm::ErrorOr<std::string> getCurrentWorkingDirectory() const override;

private:
  enum class Route { Memory, Disk, NotFound };
  /// Decides where `path` is served from, creating stub or empty files on first use.
  Route route(const llvm::Twine &path);
  bool onDiskInclude(llvm::StringRef rel) const;

  llvm::ErrorOr<llvm::vfs::Status> blobStatus(llvm::StringRef normalizedPath) const;

  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory_;
  llvm::StringMap<std::pair<llvm::StringRef, unsigned>> blobs_; ///< text and unique file number
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> disk_;
  std::string resourceInclude_;
  std::vector<std::string> realDirs_;
  std::set<std::string, std::less<>> stubs_;
  std::set<std::string, std::less<>> missing_;
};

} // namespace kbaudit::cxx
