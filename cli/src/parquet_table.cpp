#include "parquet_table.h"

#include "kbaudit/compiled/subprocess.h"
#include "kbaudit/runtime/probe.h"
#include "kbaudit/source/data_file.h"

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

// An evaluation table is a few thousand rows; these bound a hostile or mistaken file.
constexpr unsigned long long kMaxRows = 200000;
constexpr std::size_t kMaxJsonBytes = 256u << 20;

// Exit codes of the reader script, so the diagnostic can say which failure it was.
constexpr int kNoPyarrow = 3;
constexpr int kTooManyRows = 4;
constexpr int kNotParquet = 5;

// -I: isolated mode (no user site, no PYTHON* variables, no script directory on sys.path).
constexpr const char *kScript = R"(import json, sys
try:
    import pyarrow.parquet as pq
except Exception:
    sys.exit(3)
try:
    f = pq.ParquetFile(sys.argv[1])
except Exception as e:
    sys.stderr.write(str(e)[:300])
    sys.exit(5)
if f.metadata.num_rows > int(sys.argv[3]):
    sys.exit(4)
rows = f.read().to_pylist()
with open(sys.argv[2], "w") as out:
    json.dump(rows, out, default=str)
)";

} // namespace

std::optional<std::string> parquetRowsAsJson(const fs::path &file, std::string &error) {
  const fs::path python = runtime::defaultPython();
  compiled::WorkDir work;
  if (work.path().empty()) {
    error = "no temporary directory to read it in";
    return std::nullopt;
  }
  const fs::path out = work.path() / "rows.json";
  compiled::ProcessLimits limits;
  limits.seconds = 60;
  limits.addressSpace = 16ull << 30; // pyarrow reserves large virtual ranges up front
  limits.fileSize = kMaxJsonBytes;
  const compiled::ProcessResult r = compiled::runProcess(
      {python.string(), "-I", "-c", kScript, fs::absolute(file).string(), out.string(), std::to_string(kMaxRows)},
      work.path(), {"PATH=/usr/bin:/bin", "HOME=" + work.path().string(), "LANG=C.UTF-8"}, limits);
  if (!r.started) {
    error = "not read: " + python.string() + " could not be started (" + r.error + ")";
    return std::nullopt;
  }
  if (r.timedOut) {
    error = "not read: pyarrow took longer than 60 s";
    return std::nullopt;
  }
  if (r.exitCode == kNoPyarrow) {
    error = "not read: the Python kbaudit uses (" + python.string() +
            ") has no pyarrow; ./setup.sh installs it in .venv, or set KBAUDIT_PYTHON to one that has it, or "
            "export the table as CSV or JSON Lines";
    return std::nullopt;
  }
  if (r.exitCode == kTooManyRows) {
    error = "not read: more than " + std::to_string(kMaxRows) + " rows";
    return std::nullopt;
  }
  if (r.exitCode == kNotParquet) {
    error = "not read: not a Parquet file pyarrow can open (" + r.output.substr(0, 300) + ")";
    return std::nullopt;
  }
  if (r.exitCode != 0) {
    error = "not read: pyarrow failed (" +
            (r.signal ? "signal " + std::to_string(r.signal) : "exit " + std::to_string(r.exitCode)) + ")";
    return std::nullopt;
  }
  std::variant<std::string, std::string> text = data::readText(out, kMaxJsonBytes);
  if (text.index() != 0) {
    error = "not read: " + std::get<1>(text);
    return std::nullopt;
  }
  return std::get<0>(std::move(text));
}

} // namespace kbaudit::cli
