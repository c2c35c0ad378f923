// Configuration from kbaudit.toml and pyproject.toml's [tool.kbaudit], beside kbaudit.yaml:
// which file wins in a folder, kebab-case keys, and errors that name the file and the place.

#include "kbaudit/cli/cli.h"

#include "cli_run.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace kbaudit;
using kbaudit::test::kb;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;
using Result = kbaudit::test::CliResult;

namespace {

// A PyTorch wrapper (WRAP001) that also switches TF32 on (PREC002).
const char *kHack = R"(import torch
torch.backends.cuda.matmul.allow_tf32 = True


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        return a @ b
)";

struct Repo {
  TempDir dir;
  Repo() {
    fs::create_directories(dir.path() / ".git");
    writeFile(dir / "run/solution.py", kHack);
  }
  Result check(std::vector<std::string> extra = {}) const {
    const fs::path saved = fs::current_path();
    fs::current_path(dir.path());
    std::vector<std::string> args = {"check", "run", "--output-format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    Result r = kb(args);
    fs::current_path(saved);
    return r;
  }
  std::set<std::string> rules() const {
    const Result r = check();
    std::set<std::string> out;
    for (const YAML::Node &f : YAML::Load(r.out)["kbaudit"]["findings"])
      out.insert(f["rule"].as<std::string>());
    return out;
  }
  std::string configFile() const {
    return YAML::Load(check().out)["kbaudit"]["selection"]["config"].as<std::string>();
  }
};

} // namespace

TEST(ConfigFiles, PyprojectToolKbauditTableIsRead) {
  Repo repo;
  writeFile(repo.dir / "pyproject.toml", "[project]\nname = \"x\"\n\n[tool.ruff]\nline-length = 100\n\n"
                                         "[tool.kbaudit]\nignore = [\"PREC\"]\nfail-on = \"rubric_leak\"\n");
  EXPECT_EQ(repo.rules(), std::set<std::string>{"WRAP001"});
  EXPECT_EQ(repo.check().code, cli::kExitClean) << "fail-on (kebab-case) = rubric_leak: a reward hack passes";
  EXPECT_EQ(repo.configFile(), (repo.dir / "pyproject.toml").string());
  // The command line wins over the file.
  EXPECT_EQ(repo.check({"--fail-on", "reward_hack"}).code, cli::kExitFlagged);
}

TEST(ConfigFiles, PyprojectWithoutTheTableIsNotAConfig) {
  Repo repo;
  writeFile(repo.dir / "pyproject.toml", "[project]\nname = \"x\"\n");
  EXPECT_EQ(repo.rules(), (std::set<std::string>{"PREC002", "WRAP001"}));
  EXPECT_EQ(repo.configFile(), "");
}

TEST(ConfigFiles, KbauditYamlThenKbauditTomlThenPyproject) {
  Repo repo;
  writeFile(repo.dir / "pyproject.toml", "[tool.kbaudit]\nselect = [\"PREC\"]\n");
  writeFile(repo.dir / "kbaudit.toml", "select = [\"WRAP001\"]\n");
  EXPECT_EQ(repo.rules(), std::set<std::string>{"WRAP001"});
  writeFile(repo.dir / "kbaudit.yaml", "select: [PREC002]\n");
  EXPECT_EQ(repo.rules(), std::set<std::string>{"PREC002"});
  EXPECT_EQ(repo.configFile(), (repo.dir / "kbaudit.yaml").string());
}

TEST(ConfigFiles, MistakesAreUsageErrorsThatSayWhere) {
  Repo repo;
  writeFile(repo.dir / "kbaudit.toml", "selct = [\"WRAP\"]\n");
  Result r = repo.check();
  EXPECT_EQ(r.code, cli::kExitUsage);
  EXPECT_NE(r.err.find("kbaudit.toml: unknown key 'selct'"), std::string::npos) << r.err;
  writeFile(repo.dir / "kbaudit.toml", "select = 3\n");
  r = repo.check();
  EXPECT_EQ(r.code, cli::kExitUsage);
  EXPECT_NE(r.err.find("'select' must be a string or an array of strings"), std::string::npos) << r.err;
  writeFile(repo.dir / "kbaudit.toml", "select = [\"WRAP\"\n");
  r = repo.check();
  EXPECT_EQ(r.code, cli::kExitUsage);
  EXPECT_NE(r.err.find("kbaudit.toml:"), std::string::npos) << r.err;
  fs::remove(repo.dir / "kbaudit.toml");
  // A pyproject.toml that does not parse is reported, not skipped: its table may be the config.
  writeFile(repo.dir / "pyproject.toml", "[tool.kbaudit\n");
  r = repo.check();
  EXPECT_EQ(r.code, cli::kExitUsage);
  EXPECT_NE(r.err.find("pyproject.toml:1:"), std::string::npos) << r.err;
  // --config names a pyproject.toml without the table: an error, not an empty config.
  writeFile(repo.dir / "pyproject.toml", "[project]\n");
  r = repo.check({"--config", (repo.dir / "pyproject.toml").string()});
  EXPECT_EQ(r.code, cli::kExitUsage);
  EXPECT_NE(r.err.find("no [tool.kbaudit] table"), std::string::npos) << r.err;
}

TEST(ConfigFiles, TomlPathsAreRelativeToTheFile) {
  Repo repo;
  writeFile(repo.dir / "conf/kbaudit.toml", "baseline = \"accepted.yaml\"\n");
  const Result r = repo.check({"--config", (repo.dir / "conf/kbaudit.toml").string()});
  // The baseline does not exist: the error names it below the config's folder.
  EXPECT_EQ(r.code, cli::kExitUsage);
  EXPECT_NE(r.err.find((repo.dir / "conf/accepted.yaml").string()), std::string::npos) << r.err;
}
