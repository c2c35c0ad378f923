// The semantic layer's reading of license headers in solution.py
// (kbaudit/semantic/license_header.h): which lines state a copyright naming some authors,
// and the quote WRAP006 shows.

#include "kbaudit/semantic/license_header.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace kbaudit;
using namespace kbaudit::semantic;

constexpr std::array<std::string_view, 2> kMarks = {"Tri Dao", "flash-attention"};

Facts solution(const std::string &text) {
  Facts f;
  f.source = SourceFile::fromBytes(text);
  return f;
}

TEST(SemanticLicense, LicenseLines) {
  for (const char *line : {"# Copyright 2023 Tri Dao", "// SPDX-License-Identifier: BSD-3", "(c) someone",
                           "\"\"\"(C) 2024\"\"\""})
    EXPECT_TRUE(isLicenseLine(line)) << line;
  for (const char *line : {"# copyright tri dao", "# Written by Tri Dao", "", "SPDX", "(c"})
    EXPECT_FALSE(isLicenseLine(line)) << line;
  EXPECT_TRUE(isLicenseLine("f(c)")); // a substring test: a call on `c` reads as "(c)"
}

TEST(SemanticLicense, LinesNamingTheAuthors) {
  const Facts f = solution("# Copyright (c) 2023, Tri Dao.\n"     // 1
                           "import torch\n"                        // 2
                           "# Written by Tri Dao\n"                // 3: no copyright statement
                           "# Copyright 2024 Someone Else\n"       // 4: other authors
                           "  /* SPDX-License-Identifier: flash-attention Tri Dao */\n"); // 5: counted once
  const LicenseHeader h = licenseHeader(f, kMarks);
  EXPECT_EQ(h.lines, (std::vector<unsigned>{1, 5}));
  EXPECT_EQ(h.firstText, "Copyright (c) 2023, Tri Dao.");
}

TEST(SemanticLicense, QuoteStartsAfterCommentMarksAndIsCut) {
  const std::string tail(200, 'x');
  const LicenseHeader h = licenseHeader(solution("  \"# /* Copyright Tri Dao " + tail + "\n"), kMarks);
  ASSERT_EQ(h.lines, std::vector<unsigned>{1});
  EXPECT_EQ(h.firstText.size(), 120u);
  EXPECT_EQ(h.firstText.rfind("Copyright Tri Dao ", 0), 0u);
}

TEST(SemanticLicense, NothingWithoutMarksOrMatches) {
  const Facts f = solution("# Copyright 2023 Tri Dao\n");
  const LicenseHeader none = licenseHeader(f, std::span<const std::string_view>{});
  EXPECT_TRUE(none.lines.empty());
  EXPECT_TRUE(none.firstText.empty());
  constexpr std::array<std::string_view, 1> other = {"NVIDIA"};
  EXPECT_TRUE(licenseHeader(f, other).lines.empty());
  EXPECT_TRUE(licenseHeader(Facts{}, kMarks).lines.empty());
}

} // namespace
