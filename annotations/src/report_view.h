#pragma once

// What the report writer's parts share (report_html.cpp and report_view_*.cpp): the mustache data
// type and small conversions of model values into the plain text the template escapes.

#include "kbaudit/annotations/report_model.h"
#include "kbaudit/source/line_range.h"

#include <kainjow/mustache.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace kbaudit::annotations::view {

using Data = kainjow::mustache::data;

Data list();
/// `false` for an empty text: an empty string is true in mustache.
Data optional(const std::string &text);
std::string num(std::size_t n);
std::string fixed(double v, const char *fmt);
std::string percent(double v); ///< "12.5%"
/// "v-reward_hack" for the five schema verdicts, "v-other" for other words, "v-none" for none.
std::string verdictClass(const std::string *verdict);
std::string lines(const LineRange &r); ///< "7", "7–9", or "—" without lines
/// Pieces that end at '_' or '/', where the template lets long problem and model names wrap.
Data parts(const std::string &s);

/// A hack-rate bar chart of one grouping ("model", "harness", "problem").
/// Rates over fewer than `minRuns` runs are marked `few` (greyed) and every rate carries its
/// 95% Wilson interval.
Data chart(const char *id, const std::vector<HackRate> &rates, bool truthMode, unsigned minRuns);
/// The grid's column heads, and its rows of cells of run chips.
Data gridColumns(const ReportModel &m);
Data gridRows(const ReportModel &m);
/// The side panel: per cell, each run's verdicts, findings, quotes and human annotation.
Data cellDetails(const ReportModel &m);

} // namespace kbaudit::annotations::view
