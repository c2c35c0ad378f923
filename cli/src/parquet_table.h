#pragma once

// Parquet evaluation tables, read through pyarrow in the project's Python (setup.sh installs it
// in .venv). Parquet is a compressed columnar binary format; a hand-written reader would be a
// second, worse pyarrow. The table is hostile data, so pyarrow runs in a limited subprocess
// (its own process group, scrubbed environment, memory, output and wall-clock limits) and hands
// the rows back as JSON, which the JSON table reader then reads like any other table.

#include <filesystem>
#include <optional>
#include <string>

namespace kbaudit::cli {

/// The table as a JSON array of row objects, or nullopt with `error` saying why: pyarrow absent
/// from the interpreter (with the fix), the file not Parquet, too many rows, too slow.
std::optional<std::string> parquetRowsAsJson(const std::filesystem::path &file, std::string &error);

} // namespace kbaudit::cli
