// `audit --shard K/N`: the partition is a pure function of the run id (FNV-1a 64 mod N), so
// N machines cover every run exactly once and adding runs never moves the others; the CLI
// writes, over k = 1..N, exactly the files one full audit writes.

#include "kbaudit/cli/cli.h"
#include "kbaudit/cli/shard.h"

#include "sample_solutions.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace kbaudit;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

/// Run ids shaped like real ones: <date>_<time>_<harness>_<model>_<NN>_<problem>.
std::vector<std::string> generatedIds(unsigned count, unsigned salt = 0) {
  static const char *harnesses[] = {"kb", "agent", "h"};
  static const char *problems[] = {"scaled_gemm", "relu", "softmax", "layernorm", "topk_bitonic"};
  std::vector<std::string> ids;
  for (unsigned i = 0; i < count; ++i) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "2026%02u%02u_%02u%02u%02u_%s_model-%u_%02u_%s", 1 + (i + salt) % 12,
                  1 + (i * 7 + salt) % 28, (i / 3600) % 24, (i / 60) % 60, i % 60, harnesses[i % 3],
                  (i + salt) % 17, 1 + i % 40, problems[i % 5]);
    ids.emplace_back(buf);
  }
  return ids;
}

/// Asserts every id lands in exactly one of the N shards (inShard agrees with shardOf).
void expectCompleteAndDisjoint(const std::vector<std::string> &ids, unsigned n) {
  std::vector<unsigned> sizes(n, 0);
  for (const std::string &id : ids) {
    unsigned owners = 0;
    for (unsigned k = 1; k <= n; ++k)
      if (cli::inShard(id, cli::Shard{k, n})) {
        ++owners;
        ++sizes[k - 1];
      }
    ASSERT_EQ(owners, 1u) << id << " with N=" << n;
  }
  unsigned total = 0;
  for (unsigned s : sizes)
    total += s;
  EXPECT_EQ(total, ids.size());
}

TEST(Shard, HashIsFnv1a64) {
  // Published FNV-1a 64 test vectors, and one run id's shard: changing the function would split
  // a sweep differently between kbaudit versions.
  EXPECT_EQ(cli::fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(cli::fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(cli::fnv1a64("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(cli::fnv1a64("20260101_090000_demo_honest-triton-1_01_scaled_gemm"), 0x7d27c460504431e2ULL);
  EXPECT_TRUE(cli::inShard("20260101_090000_demo_honest-triton-1_01_scaled_gemm", cli::Shard{3, 8}));
  EXPECT_EQ(cli::shardOf("anything", 1), 0u);
}

TEST(Shard, ParsesKOverN) {
  std::string error;
  for (const auto &[text, k, n] : std::vector<std::tuple<std::string, unsigned, unsigned>>{
           {"1/1", 1, 1}, {"2/8", 2, 8}, {"8/8", 8, 8}, {"007/10", 7, 10}, {"1/4294967295", 1, 4294967295u}}) {
    const auto s = cli::parseShard(text, error);
    ASSERT_TRUE(s) << text << ": " << error;
    EXPECT_EQ(s->index, k) << text;
    EXPECT_EQ(s->count, n) << text;
    EXPECT_EQ(cli::toString(*s), std::to_string(k) + "/" + std::to_string(n));
  }
  for (const std::string bad : {"", "0/4", "5/4", "0/0", "1/0", "3", "/3", "3/", "a/b", "1/2/3", "-1/2", "+1/2",
                                " 1/2", "1/2 ", "1 /2", "1.0/2", "1/4294967296", "99999999999/1", "1,2"}) {
    error.clear();
    EXPECT_FALSE(cli::parseShard(bad, error)) << "'" << bad << "' accepted";
    EXPECT_NE(error.find("--shard"), std::string::npos) << error;
  }
}

TEST(Shard, GeneratedIdsAreSplitCompletelyAndDisjointly) {
  const std::vector<std::string> ids = generatedIds(5000);
  ASSERT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  for (unsigned n : {1u, 2u, 3u, 7u, 8u, 16u, 64u, 500u})
    expectCompleteAndDisjoint(ids, n);
}

TEST(Shard, ShardsAreRoughlyBalanced) {
  const std::vector<std::string> ids = generatedIds(8000);
  for (unsigned n : {2u, 3u, 8u, 16u}) {
    std::vector<unsigned> sizes(n, 0);
    for (const std::string &id : ids)
      ++sizes[cli::shardOf(id, n)];
    const double mean = static_cast<double>(ids.size()) / n;
    for (unsigned k = 0; k < n; ++k)
      EXPECT_NEAR(sizes[k], mean, mean * 0.15) << "shard " << k + 1 << "/" << n;
  }
}

TEST(Shard, AddingRunsDoesNotMoveTheOthers) {
  const std::vector<std::string> before = generatedIds(500);
  std::vector<std::string> after = generatedIds(700, 3);
  after.insert(after.end(), before.begin(), before.end());
  for (unsigned n : {2u, 5u, 8u}) {
    std::map<std::string, unsigned> first;
    for (const std::string &id : before)
      first[id] = cli::shardOf(id, n);
    for (const std::string &id : after)
      if (auto it = first.find(id); it != first.end()) {
        EXPECT_EQ(cli::shardOf(id, n), it->second) << id;
      }
  }
}

TEST(Shard, CorpusRunsAreSplitCompletelyAndDisjointly) {
  const char *env = std::getenv("KBAUDIT_CORPUS");
  const fs::path runs = env ? fs::path(env) / "runs" : fs::path();
  std::error_code ec;
  if (runs.empty() || !fs::is_directory(runs, ec))
    GTEST_SKIP() << "corpus not present (KBAUDIT_CORPUS)";
  std::vector<std::string> ids;
  for (const auto &entry : fs::directory_iterator(runs))
    if (entry.is_directory())
      ids.push_back(entry.path().filename().string());
  ASSERT_FALSE(ids.empty());
  for (unsigned n : {1u, 2u, 3u, 4u, 8u, 16u, 300u})
    expectCompleteAndDisjoint(ids, n);
}

// --- the CLI ---------------------------------------------------------------------------------

using kbaudit::test::kClean;
using kbaudit::test::kWrapper;

int audit(std::vector<std::string> args, std::string *out = nullptr) {
  std::ostringstream sout, serr;
  args.insert(args.begin(), "audit");
  const int code = cli::run(args, sout, serr);
  if (out)
    *out = sout.str();
  EXPECT_EQ(serr.str(), "") << "audit wrote to stderr (a progress line?)";
  return code;
}

std::map<std::string, std::string> filesIn(const fs::path &dir) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename() != ".kbaudit.lock") // holds the pid of the audit that wrote here
      files[entry.path().filename().string()] = readFile(entry.path());
  return files;
}

TEST(Shard, CliShardsTogetherWriteExactlyWhatAFullAuditWrites) {
  TempDir runs, out;
  const std::vector<std::string> ids = generatedIds(36);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i % 9 == 4)
      writeFile(runs / (ids[i] + ".solution.py"), kWrapper); // a file-style run
    else if (i % 9 == 7)
      writeFile(runs / (ids[i] + "/notes.txt"), "solution went missing"); // reported as a bug
    else
      writeFile(runs / (ids[i] + "/solution.py"), i % 2 ? kClean : kWrapper);
  }
  writeFile(runs / "unrelated/readme.txt", "not a run");

  ASSERT_EQ(audit({runs.path().string(), "--out", (out / "full").string(), "--quiet"}), cli::kExitClean);
  const std::map<std::string, std::string> full = filesIn(out / "full");
  ASSERT_EQ(full.size(), ids.size());

  for (unsigned n : {1u, 2u, 3u, 5u, 16u, 50u}) {
    std::map<std::string, std::string> merged;
    for (unsigned k = 1; k <= n; ++k) {
      const fs::path dir = out / ("n" + std::to_string(n)) / ("shard-" + std::to_string(k));
      std::string summary;
      ASSERT_EQ(audit({runs.path().string(), "--out", dir.string(), "--shard",
                       std::to_string(k) + "/" + std::to_string(n), "--jobs", "2"},
                      &summary),
                cli::kExitClean);
      const std::map<std::string, std::string> part = filesIn(dir);
      EXPECT_NE(summary.find("audited " + std::to_string(part.size()) + " run"), std::string::npos) << summary;
      EXPECT_NE(summary.find("(shard " + std::to_string(k) + "/" + std::to_string(n) + " of 36 runs)"),
                std::string::npos)
          << summary;
      for (const auto &[name, bytes] : part)
        EXPECT_TRUE(merged.emplace(name, bytes).second) << name << " written by two shards of " << n;
    }
    EXPECT_EQ(merged, full) << "shards of " << n << " differ from the full audit";
  }
}

TEST(Shard, CliRejectsBadShardsWithUsageError) {
  TempDir runs, out;
  writeFile(runs / "20260101_000000_h_model-a_01_x/solution.py", kClean);
  for (const std::string bad : {"0/4", "5/4", "0/0", "x", "1/", "two/three", "-1/3"}) {
    std::ostringstream sout, serr;
    EXPECT_EQ(cli::run({"audit", runs.path().string(), "--out", (out / "o").string(), "--shard", bad}, sout, serr),
              cli::kExitUsage)
        << bad;
    EXPECT_NE(serr.str().find("--shard"), std::string::npos) << serr.str();
  }
  EXPECT_FALSE(fs::exists(out / "o")) << "a rejected --shard must not create the output directory";
}

} // namespace
