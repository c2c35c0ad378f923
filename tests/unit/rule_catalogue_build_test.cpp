// The rule catalogue kbaudit carries is parsed from the rule YAML at build time
// (rules/src/catalogue_gen.cpp): it must equal what parsing the embedded YAML now gives, field
// by field (RuleMeta's defaulted ==, so a field the generator forgets fails here).

#include "kbaudit/rules/embedded_files.h"
#include "kbaudit/rules/rule_meta.h"

#include <gtest/gtest.h>

namespace {

using namespace kbaudit::rules;

TEST(RuleCatalogue, BuildTimeParseEqualsTheEmbeddedYamlParsedNow) {
  std::size_t files = 0;
  for (const EmbeddedFile &f : embeddedRuleYaml()) {
    if (f.path.empty())
      continue;
    ++files;
    RuleMeta parsed = parseRuleMeta(f.content);
    const RuleMeta *carried = findRule(parsed.id);
    ASSERT_NE(carried, nullptr) << f.path;
    parsed.examples = carried->examples; // the fixtures are attached at run time
    EXPECT_TRUE(parsed == *carried) << f.path << " differs from the compiled catalogue";
    EXPECT_EQ(parsed.rationale, carried->rationale) << f.path;
    EXPECT_EQ(parsed.message, carried->message) << f.path;
  }
  EXPECT_EQ(catalogue().size(), files);
  EXPECT_GT(files, 20u);
}

} // namespace
