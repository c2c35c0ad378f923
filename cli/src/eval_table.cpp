#include "eval_table.h"

#include "parquet_table.h"

#include "kbaudit/source/data_file.h"
#include "kbaudit/source/json_data.h"

#include <csv.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

// A table larger than this is not an evaluation table of solution files (the v3 dataset's is
// a few hundred KiB); reading it whole would only cost memory.
constexpr std::uintmax_t kMaxTableBytes = 256u << 20;
// Lines of a JSON Lines table that could not be read, named one by one before a count.
constexpr std::size_t kMaxNamedBadLines = 20;
// A well-formed JSON document that holds no rows: not a table, and not worth a word (meta.json).
constexpr std::string_view kNotRowsError = "neither an array of objects nor an object holding one";

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return std::string(s);
}

std::optional<std::string> readFile(const fs::path &p, std::string &error) {
  // Never blocks on a FIFO named like a table, never reads past the limit; drops a BOM.
  std::variant<std::string, std::string> read = data::readText(p, kMaxTableBytes);
  if (auto *why = std::get_if<1>(&read)) {
    error = *why;
    return std::nullopt;
  }
  return std::move(std::get<0>(read));
}

/// A JSON object's members as a record: column names trimmed and lower-cased, sorted (a JSON
/// object is unordered, and records must be deterministic).
Record recordOf(const data::Members &members) {
  Record r;
  for (const auto &[key, text] : members)
    r.emplace_back(lower(trim(key)), text);
  std::sort(r.begin(), r.end());
  return r;
}

/// One record per line; a line that is not a JSON object is named in `badLines` and the other
/// lines are still read, so one damaged line costs one row, not the table.
std::vector<Record> parseJsonLines(std::string_view text, std::vector<std::string> &badLines) {
  std::vector<Record> records;
  unsigned line = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line;
    if (trim(raw).empty())
      continue;
    std::variant<data::Json, std::string> v = data::Json::parse(raw);
    if (const std::string *why = std::get_if<std::string>(&v)) {
      badLines.push_back("line " + std::to_string(line) + ": " + *why);
      continue;
    }
    const data::Json &json = std::get<data::Json>(v);
    if (!json.isObject()) {
      badLines.push_back("line " + std::to_string(line) + " is not a JSON object");
      continue;
    }
    records.push_back(recordOf(json.members()));
  }
  return records;
}

/// A JSON array of objects, or an object whose first array-of-objects member holds the rows
/// (`{"results": [...]}`).
std::optional<std::vector<Record>> parseJson(std::string_view text, std::string &error) {
  std::variant<data::Json, std::string> v = data::Json::parse(text);
  if (const std::string *why = std::get_if<std::string>(&v)) {
    error = *why;
    return std::nullopt;
  }
  std::optional<std::vector<data::Members>> rows = std::get<data::Json>(v).rows();
  if (!rows) {
    error = kNotRowsError;
    return std::nullopt;
  }
  std::vector<Record> records;
  for (const data::Members &row : *rows)
    records.push_back(recordOf(row));
  return records;
}

std::optional<std::vector<Record>> parseDelimited(std::string_view text, char delimiter) {
  std::vector<std::vector<std::string>> rows = splitDelimited(text, delimiter);
  if (rows.empty())
    return std::vector<Record>{};
  std::vector<std::string> header;
  for (const std::string &h : rows.front())
    header.push_back(lower(trim(h)));
  std::vector<Record> records;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto &cells = rows[i];
    if (cells.size() == 1 && trim(cells[0]).empty())
      continue; // a blank line
    Record r;
    for (std::size_t c = 0; c < header.size(); ++c)
      r.emplace_back(header[c], c < cells.size() ? cells[c] : std::string());
    records.push_back(std::move(r));
  }
  return records;
}

const std::string *column(const Record &r, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    for (const auto &[k, v] : r)
      if (k == n && !trim(v).empty())
        return &v;
  return nullptr;
}

std::string text(const Record &r, std::initializer_list<std::string_view> names) {
  const std::string *v = column(r, names);
  return v ? trim(*v) : std::string();
}

std::optional<double> number(const Record &r, std::initializer_list<std::string_view> names) {
  const std::string s = text(r, names);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  return v;
}

std::optional<bool> flag(const Record &r, std::initializer_list<std::string_view> names) {
  const std::string s = lower(text(r, names));
  if (s == "true" || s == "1" || s == "yes" || s == "1.0")
    return true;
  if (s == "false" || s == "0" || s == "no" || s == "0.0")
    return false;
  return std::nullopt;
}

constexpr std::array<std::string_view, 2> kSolutionColumns = {"solution_path", "solution_file"};

bool hasSolutionColumn(const std::vector<Record> &records) {
  return !records.empty() && std::any_of(records.front().begin(), records.front().end(), [](const auto &kv) {
    return std::find(kSolutionColumns.begin(), kSolutionColumns.end(), kv.first) != kSolutionColumns.end();
  });
}

/// "1" / "level_1" / "Level1" -> "level1", the suite's folder name; other values as written.
std::string levelFolder(std::string level) {
  level = lower(level);
  std::string digits = level;
  for (std::string_view prefix : {"level_", "level", "l"})
    if (digits.rfind(prefix, 0) == 0) {
      digits = digits.substr(prefix.size());
      break;
    }
  if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); }))
    return "level" + digits;
  return level;
}

/// "level1/36_RMSNorm_.py" -> "36_RMSNorm_".
std::string problemName(const std::string &written) {
  std::string name = fs::path(written).filename().string();
  for (std::string_view suffix : {".py.txt", ".py"})
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      name.resize(name.size() - suffix.size());
      break;
    }
  return name;
}

/// Characters outside [A-Za-z0-9._-] (spaces in "Claude Opus 4.6", slashes) become '-'.
std::string idPart(const std::string &s) {
  std::string out;
  for (unsigned char c : s)
    out += std::isalnum(c) || c == '.' || c == '_' || c == '-' ? static_cast<char>(c) : '-';
  return out;
}

Evaluation evaluationOf(const Record &r) {
  Evaluation e;
  e.model = text(r, {"model", "model_name"});
  e.harness = text(r, {"harness", "agent"});
  e.gpu = text(r, {"gpu", "hardware"});
  e.effort = text(r, {"effort", "reasoning_effort"});
  e.level = levelFolder(text(r, {"level"}));
  e.problem = problemName(text(r, {"problem", "problem_name", "problem_id"}));
  e.precision = text(r, {"precision_used", "precision"});
  e.atol = number(r, {"tolerance_atol", "atol"});
  e.rtol = number(r, {"tolerance_rtol", "rtol"});
  e.correct = flag(r, {"correct"});
  e.speedup = number(r, {"speedup", "geomean_speedup"});
  e.suite = text(r, {"suite", "bench", "benchmark"});
  if (e.correct.value_or(true)) {
    if (auto p = number(r, {"peak_fraction"}))
      e.peakFraction = *p;
    else if (auto pct = number(r, {"pct_of_peak"}))
      e.peakFraction = *pct / 100.0;
  }
  e.solutionPath = text(r, {kSolutionColumns[0], kSolutionColumns[1]});
  return e;
}

/// The row's own id if it has one; else batch, model, gpu, level and problem joined.
std::string idOf(const Record &r, const Evaluation &e) {
  if (std::string own = text(r, {"run_id", "eval_id", "evaluation_id", "id"}); !own.empty())
    return idPart(own);
  std::string id;
  for (const std::string &part : {text(r, {"run", "batch", "run_name"}), e.model, e.gpu, e.level, e.problem})
    if (!part.empty())
      id += (id.empty() ? "" : "_") + idPart(part);
  return id;
}

fs::path resolveSolution(const fs::path &root, const fs::path &table, const std::string &written) {
  if (written.empty())
    return {};
  const fs::path p(written);
  if (p.is_absolute())
    return p;
  std::error_code ec;
  for (const fs::path &base : {table.parent_path(), root})
    if (fs::exists(base / p, ec))
      return base / p;
  return table.parent_path() / p;
}

} // namespace

namespace {

/// What libcsv's callbacks build: rows of cells.
struct CsvRows {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
};

void onCell(void *cell, std::size_t size, void *data) {
  static_cast<CsvRows *>(data)->row.emplace_back(static_cast<const char *>(cell), size);
}

void onRowEnd(int, void *data) {
  CsvRows &out = *static_cast<CsvRows *>(data);
  out.rows.push_back(std::move(out.row));
  out.row.clear();
}

} // namespace

std::vector<std::vector<std::string>> splitDelimited(std::string_view text, char delimiter) {
  // libcsv (Debian's libcsv-dev) in its default, lenient mode: RFC 4180 quoting ("" inside a
  // quoted cell, delimiters and newlines in quotes), CRLF or LF rows, blank lines skipped; a
  // stray quote inside an unquoted cell is kept as text rather than failing the whole table.
  csv_parser parser;
  if (csv_init(&parser, 0) != 0)
    return {};
  csv_set_delim(&parser, static_cast<unsigned char>(delimiter));
  CsvRows out;
  csv_parse(&parser, text.data(), text.size(), onCell, onRowEnd, &out);
  csv_fini(&parser, onCell, onRowEnd, &out);
  csv_free(&parser);
  return std::move(out.rows);
}

std::optional<std::vector<Record>> parseTable(const fs::path &file, std::string &error,
                                              std::vector<std::string> *badLines) {
  const std::string ext = lower(file.extension().string());
  if (ext == ".parquet") {
    const std::optional<std::string> rows = parquetRowsAsJson(file, error);
    return rows ? parseJson(*rows, error) : std::nullopt;
  }
  std::optional<std::string> text = readFile(file, error);
  if (!text)
    return std::nullopt;
  if (ext == ".csv")
    return parseDelimited(*text, ',');
  if (ext == ".tsv")
    return parseDelimited(*text, '\t');
  if (ext == ".jsonl" || ext == ".ndjson") {
    std::vector<std::string> bad;
    std::vector<Record> records = parseJsonLines(*text, bad);
    if (records.empty() && !bad.empty()) {
      error = bad.front() + (bad.size() > 1 ? " (and " + std::to_string(bad.size() - 1) + " more lines)" : "");
      return std::nullopt;
    }
    if (badLines)
      *badLines = std::move(bad);
    return records;
  }
  if (ext == ".json")
    return parseJson(*text, error);
  error = "not a table format kbaudit reads (CSV, TSV, JSON Lines, JSON)";
  return std::nullopt;
}

void gradedAs(problems::ProblemContext &problem, const Evaluation &e) {
  const std::string before = problem.contractDtype();
  if (!problems::canonicalDtype(e.precision).empty())
    problem.precision = e.precision;
  const std::string contract = problem.contractDtype();
  std::optional<double> tolerance;
  if (e.atol || e.rtol) {
    tolerance = std::max(e.atol.value_or(0.0), e.rtol.value_or(0.0));
    problem.toleranceStated = true;
  }
  else if (auto it = problem.tolerance.find(before); it != problem.tolerance.end())
    tolerance = it->second; // the suite's default (KernelBench's 1e-2) holds at any precision
  if (contract == before && !tolerance)
    return;
  problem.tolerance.erase(before);
  if (tolerance && !contract.empty())
    problem.tolerance[contract] = *tolerance;
}

EvaluationTables readEvaluationTables(const fs::path &root) {
  EvaluationTables out;
  std::error_code ec;
  std::vector<fs::path> candidates;
  for (fs::directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec)) {
    const std::string ext = lower(it->path().extension().string());
    std::error_code typeEc;
    if (!it->is_regular_file(typeEc))
      continue;
    if (ext == ".csv" || ext == ".tsv" || ext == ".jsonl" || ext == ".ndjson" || ext == ".json" || ext == ".parquet")
      candidates.push_back(it->path());
  }
  std::sort(candidates.begin(), candidates.end());
  std::map<std::string, unsigned> seen;
  for (const fs::path &table : candidates) {
    std::string error;
    std::vector<std::string> badLines;
    const std::optional<std::vector<Record>> records = parseTable(table, error, &badLines);
    if (!records || !hasSolutionColumn(*records)) {
      // A well-formed JSON or CSV file without a solution column is something else (meta.json,
      // a manifest); one that cannot be read at all may be a table, and is named.
      if (!records && error != kNotRowsError)
        out.problems.push_back(table.filename().string() + ": not read as an evaluation table: " + error);
      continue;
    }
    out.tables.push_back(table);
    // The table's good rows are audited; each line that could not be read is named (a flood of
    // them is summarised, not printed line by line).
    for (std::size_t i = 0; i < badLines.size() && i < kMaxNamedBadLines; ++i)
      out.problems.push_back(table.filename().string() + ": " + badLines[i] + "; the table's other rows are audited");
    if (badLines.size() > kMaxNamedBadLines)
      out.problems.push_back(table.filename().string() + ": " + std::to_string(badLines.size() - kMaxNamedBadLines) +
                             " more lines could not be read");
    unsigned row = 0;
    for (const Record &r : *records) {
      ++row;
      EvaluationRun run;
      run.evaluation = evaluationOf(r);
      run.evaluation.table = table;
      run.evaluation.row = row;
      run.id = idOf(r, run.evaluation);
      if (run.id.empty())
        run.id = idPart(table.stem().string()) + "_row" + std::to_string(row);
      if (run.evaluation.solutionPath.find('\0') != std::string::npos)
        run.evaluation.unusable = "its solution_path holds a NUL byte, so it names no file kbaudit can open as "
                                  "written (a system call would read only the bytes before the NUL)";
      else
        run.solution = resolveSolution(root, table, run.evaluation.solutionPath);
      out.runs.push_back(std::move(run));
    }
  }
  // One annotation file per row: ids the rows share get the row's position in the table.
  for (const EvaluationRun &r : out.runs)
    ++seen[r.id];
  std::map<std::string, unsigned> nth;
  for (EvaluationRun &r : out.runs)
    if (seen[r.id] > 1)
      r.id += "_" + std::to_string(++nth[r.id]);
  return out;
}

} // namespace kbaudit::cli
