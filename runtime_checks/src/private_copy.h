#pragma once

// The private folders a probe's processes run in: the package, a copy of the run (the worker's
// only), a copy of the problem and a scratch folder, created by kbaudit and removed after.

#include "kbaudit/problems/problem_context.h"

#include <filesystem>
#include <map>
#include <string>

namespace kbaudit::runtime::detail {

/// Regular files of `from` (not following links, to depth 2, each below 16 MiB) into `to`.
void copyTree(const std::filesystem::path &from, const std::filesystem::path &to, unsigned depth = 0);

/// The problem as the probe reads it: a KernelBench / v3 module's file alone as reference.py,
/// else the problem folder.
void copyProblem(const problems::ProblemContext &problem, const std::filesystem::path &to);

/// The kbaudit_probe package, as compiled in, under `root`.
void writePackage(const std::filesystem::path &root);

/// SHA-256 of each regular file at the top of `dir`, by name.
std::map<std::string, std::string> hashFiles(const std::filesystem::path &dir);

/// `path` and everything below it handed to `uid` (the scratch folder the child writes in).
void chownTree(const std::filesystem::path &path, unsigned uid);

/// Removes a private folder, even where the solution left folders without write or search
/// permission for their owner (which stops a non-root kbaudit's remove_all).
void removeTree(const std::filesystem::path &root);

} // namespace kbaudit::runtime::detail
