// The option parser every command uses (CLI11 behind cli/src/args.h): what it accepts and the
// errors it gives, which docs/cli.md promises.

#include "../../cli/src/args.h"
#include "../../cli/src/command_spec.h"

#include <gtest/gtest.h>

using kbaudit::cli::Args;

namespace {

// A command of its own, declared as the real ones are (command_specs.cpp).
const kbaudit::cli::CommandSpec &spec() {
  static const kbaudit::cli::CommandSpec s{"test", "a test command", "FILE", "files", -1, 0,
                                           {{"--select", "IDS", "rules"},
                                            {"--out", "DIR", "where"},
                                            {"--jobs", "N", "how many"},
                                            {"-q,--quiet", "", "quiet"},
                                            {"--runtime", "", "probes"},
                                            {"--color", "WHEN", "colour", {{"auto", "never"}}},
                                            {"--output-format,--format", "F", "format"}},
                                           ""};
  return s;
}

std::optional<Args> parse(std::vector<std::string> argv, std::string &error) { return Args::parse(argv, spec(), error); }

} // namespace

TEST(Args, ValuedOptionsTakeOneValueEachAndRepeat) {
  std::string error;
  const auto a = parse({"a.py", "--select", "WRAP", "b.py", "--select=PREC,MEM", "--out", "o1", "--out=o2"}, error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->positionals(), (std::vector<std::string>{"a.py", "b.py"})) << "b.py is not a second --select value";
  EXPECT_EQ(a->list("select"), (std::vector<std::string>{"WRAP", "PREC", "MEM"}));
  EXPECT_EQ(a->value("out"), "o2") << "the last one given wins";
  EXPECT_FALSE(a->has("jobs"));
  EXPECT_FALSE(a->value("jobs"));
  // A value that looks like a number or an option is still the value asked for.
  const auto b = parse({"--jobs", "-1", "--select", "--quiet"}, error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->value("jobs"), "-1");
  EXPECT_EQ(b->value("select"), "--quiet");
  EXPECT_FALSE(b->has("quiet"));
}

TEST(Args, FlagsAndTheEndOfOptions) {
  std::string error;
  const auto a = parse({"--quiet", "-", "--", "--runtime", "-x"}, error);
  ASSERT_TRUE(a) << error;
  EXPECT_TRUE(a->has("quiet"));
  EXPECT_FALSE(a->has("runtime")) << "after --, --runtime is a file name";
  EXPECT_EQ(a->positionals(), (std::vector<std::string>{"-", "--runtime", "-x"}));
}

TEST(Args, MistakesAreNamed) {
  std::string error;
  EXPECT_FALSE(parse({"x", "--bogus"}, error));
  EXPECT_EQ(error, "unknown option --bogus");
  EXPECT_FALSE(parse({"--out"}, error));
  EXPECT_EQ(error, "option --out needs a value");
  EXPECT_FALSE(parse({"--quiet=yes"}, error));
  EXPECT_EQ(error, "option --quiet takes no value");
  EXPECT_FALSE(parse({"-x"}, error));
  EXPECT_EQ(error, "unknown option -x");
  EXPECT_FALSE(parse({"--qiuet"}, error));
  EXPECT_EQ(error, "unknown option --qiuet (did you mean '--quiet'?)");
  EXPECT_FALSE(parse({"--color", "sometimes"}, error));
  EXPECT_NE(error.find("--color"), std::string::npos) << error;
}

TEST(Args, ShortNamesAndAliasesAreOneOption) {
  std::string error;
  const auto a = parse({"-q", "--format", "json", "--output-format=json", "x"}, error);
  ASSERT_TRUE(a) << error;
  EXPECT_TRUE(a->has("quiet"));
  EXPECT_EQ(a->values("output-format"), (std::vector<std::string>{"json", "json"}));
  EXPECT_EQ(a->positionals(), std::vector<std::string>{"x"});
}
