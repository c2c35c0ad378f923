#include <gtest/gtest.h>
#include "kbaudit/rules/rule_meta.h"
TEST(Smoke, CatalogueLoads) { EXPECT_EQ(kbaudit::rules::catalogue().size(), 2u); }
