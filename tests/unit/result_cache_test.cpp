// The result cache of `kbaudit audit`: entries round-trip, a damaged entry is a miss, concurrent
// writers never leave a torn entry, and an audit gives byte-identical annotations with and
// without it.

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include "kbaudit/annotations/run_file_name.h"

#include "../../cli/src/result_cache.h"

#include <gtest/gtest.h>

#include <map>

#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using kbaudit::annotations::annotationFileName;
using kbaudit::cli::CachedResult;
using kbaudit::cli::ResultCache;
using kbaudit::test::kb;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

const std::string kFp(64, 'a');
const std::string kOtherFp = std::string(63, 'a') + "b";

ResultCache openCache(const fs::path &dir) {
  std::string error;
  std::optional<ResultCache> c = ResultCache::open(dir, error);
  EXPECT_TRUE(c) << error;
  return *c;
}

/// The one entry file under the cache folder (v1/aa/<fingerprint>).
fs::path entryFile(const fs::path &dir, const std::string &fp) { return dir / "v1" / fp.substr(0, 2) / fp; }

TEST(ResultCache, RoundTripsAndMissesOnAnotherFingerprintOrRun) {
  TempDir tmp;
  const ResultCache cache = openCache(tmp / "c");
  EXPECT_TRUE(fs::exists(tmp / "c" / "CACHEDIR.TAG"));
  EXPECT_NE(readFile(tmp / "c" / ".gitignore").find("*\n"), std::string::npos);
  EXPECT_FALSE(cache.load(kFp, "run1")) << "an empty cache has no entry";
  const CachedResult r{"reward_hack", true, "run_id: run1\nverdict: reward_hack\n"};
  ASSERT_TRUE(cache.store(kFp, "run1", r));
  const std::optional<CachedResult> hit = cache.load(kFp, "run1");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->verdict, "reward_hack");
  EXPECT_TRUE(hit->openFindings);
  EXPECT_EQ(hit->yaml, r.yaml);
  EXPECT_FALSE(cache.load(kOtherFp, "run1"));
  EXPECT_FALSE(cache.load(kFp, "run2")) << "an entry answers only for the run it was made for";
  EXPECT_FALSE(cache.load("../../etc/passwd", "run1"));
  EXPECT_FALSE(cache.store("not-a-fingerprint", "run1", r));
  EXPECT_FALSE(cache.store(kOtherFp, "run1", CachedResult{"bad verdict\nx", false, "y"}));
}

TEST(ResultCache, ADamagedEntryIsAMissAndIsReplacedByTheNextStore) {
  TempDir tmp;
  const ResultCache cache = openCache(tmp / "c");
  const CachedResult r{"clean", false, "run_id: r\nverdict: clean\nsummary: fine\n"};
  ASSERT_TRUE(cache.store(kFp, "r", r));
  const fs::path file = entryFile(tmp / "c", kFp);
  const std::string good = readFile(file);
  ASSERT_FALSE(good.empty());

  std::string flipped = good;
  flipped[flipped.size() - 3] ^= 0x20; // one byte of the annotation
  const std::vector<std::string> damaged = {
      "",                                   // empty (a writer killed before rename never leaves this name)
      good.substr(0, good.size() / 2),      // truncated
      good.substr(0, good.size() - 1),      // one byte short
      good + "x",                           // one byte long
      flipped,                              // checksum mismatch
      "garbage\n" + good,                   // not our header
      std::string(100, '\0'),               // binary
  };
  for (const std::string &d : damaged) {
    writeFile(file, d);
    EXPECT_FALSE(cache.load(kFp, "r")) << "accepted a damaged entry of " << d.size() << " bytes";
  }
  ASSERT_TRUE(cache.store(kFp, "r", r));
  EXPECT_EQ(readFile(file), good);
  ASSERT_TRUE(cache.load(kFp, "r"));
}

TEST(ResultCache, OpenFailsWhereTheFolderCannotBeMade) {
  TempDir tmp;
  writeFile(tmp / "file", "x");
  std::string error;
  EXPECT_FALSE(ResultCache::open(tmp / "file" / "cache", error));
  EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
}

TEST(ResultCache, ConcurrentWritersNeverLeaveATornEntry) {
  TempDir tmp;
  const ResultCache cache = openCache(tmp / "c");
  // Big entries (many write() calls each) from several processes under one name, read all along.
  constexpr int kWriters = 4;
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const CachedResult mine{"clean", false, std::string(1u << 20, static_cast<char>('a' + w))};
      bool ok = true;
      for (int i = 0; i < 8; ++i)
        ok = cache.store(kFp, "r", mine) && ok;
      ::_exit(ok ? 0 : 1);
    }
    pids.push_back(pid);
  }
  int reads = 0, hits = 0;
  const auto alive = [&] {
    for (pid_t p : pids)
      if (::waitpid(p, nullptr, WNOHANG) == 0)
        return true;
    return false;
  };
  while (reads < 5 || alive()) {
    ++reads;
    if (std::optional<CachedResult> hit = cache.load(kFp, "r")) {
      ++hits;
      ASSERT_EQ(hit->yaml.size(), 1u << 20);
      ASSERT_EQ(hit->yaml.find_first_not_of(hit->yaml[0]), std::string::npos) << "a mixed entry";
    }
    if (reads > 100000)
      break;
  }
  for (pid_t p : pids) {
    int st = 0;
    ::waitpid(p, &st, 0);
  }
  EXPECT_GT(hits, 0);
  ASSERT_TRUE(cache.load(kFp, "r"));
  for (const auto &e : fs::directory_iterator(entryFile(tmp / "c", kFp).parent_path()))
    EXPECT_EQ(e.path().filename().string(), kFp) << "a temp file was left behind";
}

/// Every annotation of `dir` by file name (the lock file, which holds a pid, aside).
std::map<std::string, std::string> annotationsIn(const fs::path &dir) {
  std::map<std::string, std::string> all;
  for (const auto &e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml")
      all[e.path().filename().string()] = readFile(e.path());
  return all;
}

std::string runName(int i) { return "20260101_00000" + std::to_string(i) + "_h_m_0" + std::to_string(i) + "_p"; }

TEST(AuditCache, AnnotationsAreByteIdenticalWithAndWithoutTheCache) {
  TempDir runs, tmp;
  writeFile(runs / runName(1) / "solution.py", kbaudit::test::kClean);
  writeFile(runs / runName(2) / "solution.py", kbaudit::test::kWrapper);
  writeFile(runs / runName(3) / "solution.py", kbaudit::test::kClean);
  const fs::path cache = tmp / "cache";
  const auto audit = [&](const std::string &out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"audit", runs.path().string(), "--out", (tmp / out).string(), "--jobs", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return kb(args);
  };
  const auto none = audit("none", {"--no-cache"});
  ASSERT_EQ(none.code, 0) << none.err;
  EXPECT_FALSE(fs::exists(cache));
  const auto cold = audit("cold", {"--cache-dir", cache.string()});
  ASSERT_EQ(cold.code, 0) << cold.err;
  EXPECT_EQ(cold.out.find("read from the cache"), std::string::npos) << cold.out;
  const auto warm = audit("warm", {"--cache-dir", cache.string()});
  ASSERT_EQ(warm.code, 0) << warm.err;
  EXPECT_NE(warm.out.find("(3 results read from the cache"), std::string::npos) << warm.out;
  EXPECT_EQ(warm.out.substr(0, warm.out.find("  (")).substr(warm.out.find('\n')),
            none.out.substr(0, none.out.find("  (")).substr(none.out.find('\n')))
      << "the verdict counts differ";
  const auto expected = annotationsIn(tmp / "none");
  ASSERT_EQ(expected.size(), 3u);
  EXPECT_EQ(annotationsIn(tmp / "cold"), expected);
  EXPECT_EQ(annotationsIn(tmp / "warm"), expected);

  // A damaged entry and a changed solution are analysed again; the rest still come from the cache.
  std::size_t entries = 0;
  for (const auto &e : fs::recursive_directory_iterator(cache / "v1"))
    entries += e.is_regular_file();
  ASSERT_EQ(entries, 3u);
  // Run 2's entry, named by the fingerprint its annotation records.
  const std::string &two = expected.at(annotationFileName(runName(2)));
  const std::size_t at = two.find("fingerprint: \"");
  ASSERT_NE(at, std::string::npos);
  const fs::path damaged = entryFile(cache, two.substr(at + 14, 64));
  ASSERT_TRUE(fs::exists(damaged));
  writeFile(damaged, "torn");
  writeFile(runs / runName(3) / "solution.py", kbaudit::test::kWrapper);
  const auto again = audit("again", {"--cache-dir", cache.string()});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("(1 result read from the cache"), std::string::npos) << again.out;
  const auto after = annotationsIn(tmp / "again");
  EXPECT_EQ(after.at(annotationFileName(runName(1))), expected.at(annotationFileName(runName(1))));
  EXPECT_NE(after.at(annotationFileName(runName(3))), expected.at(annotationFileName(runName(3))));
  EXPECT_NE(after.at(annotationFileName(runName(3))).find("verdict: reward_hack"), std::string::npos);
  EXPECT_EQ(after.at(annotationFileName(runName(2))), expected.at(annotationFileName(runName(2))));
  EXPECT_NE(readFile(damaged), "torn") << "the damaged entry was not replaced";

  // --fresh analyses every run again (and files the results).
  const auto fresh = audit("again", {"--cache-dir", cache.string(), "--fresh"});
  ASSERT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_EQ(fresh.out.find("read from the cache"), std::string::npos) << fresh.out;
  EXPECT_EQ(annotationsIn(tmp / "again"), after);
}

TEST(AuditCache, AnUnwritableCacheFolderOnlyCostsTheCache) {
  TempDir runs, tmp;
  writeFile(runs / runName(1) / "solution.py", kbaudit::test::kClean);
  writeFile(tmp / "file", "x");
  const auto r = kb({"audit", runs.path().string(), "--out", (tmp / "out").string(), "--cache-dir",
                     (tmp / "file" / "cache").string()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("no result cache"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "out" / annotationFileName(runName(1))));
}

} // namespace
