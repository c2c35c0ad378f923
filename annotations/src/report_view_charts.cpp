// The hack-rate charts as inline SVG geometry: numbers and labels only, the template draws them.

#include "report_view.h"

namespace kbaudit::annotations::view {

namespace {

// At most `n` bytes of a chart label, cut at a UTF-8 character boundary, with an ellipsis.
std::string shortLabel(const std::string &s, std::size_t n) {
  if (s.size() <= n)
    return s;
  std::size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
    --cut;
  return s.substr(0, cut) + "\u2026";
}

} // namespace

// One horizontal bar chart: a row per model, harness or problem, kbaudit's hack rate as a red
// bar and, with human labels, the humans' as an outlined one below it.
constexpr int kLabelWidth = 190, kBarWidth = 220, kBarHeight = 8, kTop = 4;

/// "12.5–47.1%": a 95% Wilson interval.
std::string interval(const Interval &i) { return fixed(100 * i.low, "%.1f") + "\u2013" + percent(i.high); }

Data chart(const char *id, const std::vector<HackRate> &rates, bool truthMode, unsigned minRuns) {
  const int rowHeight = truthMode ? 26 : 18;
  Data c;
  c.set("chartId", id);
  c.set("groupCount", num(rates.size()));
  const int barX = kLabelWidth, barEnd = kLabelWidth + kBarWidth;
  const int axisY = kTop + rowHeight * static_cast<int>(rates.size());
  c.set("width", num(barEnd + 200));
  c.set("height", num(axisY + 16));
  c.set("barX", num(barX));
  c.set("barEnd", num(barEnd));
  c.set("axisY", num(axisY));
  c.set("tickY", num(axisY + 12));
  Data bars = list();
  int y = kTop;
  for (const HackRate &r : rates) {
    Data b;
    b.set("key", r.key);
    b.set("label", shortLabel(r.key, 27));
    b.set("labelY", num(y + 11));
    b.set("barW", num(kBarWidth));
    b.set("barH", num(kBarHeight));
    b.set("kY", num(y + 3));
    b.set("kW", fixed(kBarWidth * r.flaggedRate(), "%.1f"));
    b.set("hasHuman", truthMode);
    b.set("hY", num(y + 3 + kBarHeight + 2));
    b.set("hW", fixed(kBarWidth * r.humanHackRate(), "%.1f"));
    b.set("pctX", num(barEnd + 6));
    // A rate with its count and its 95% interval; over fewer than minRuns runs it is greyed, as
    // one run's 100% (its interval 20.7-100%) says little.
    const bool few = r.audited < minRuns;
    std::string pct = percent(r.flaggedRate()) + " (" + num(r.flagged) + "/" + num(r.audited) + ")";
    std::string tip = "kbaudit hack " + num(r.flagged) + " of " + num(r.audited) + " audited, 95% interval " +
                      interval(r.flaggedInterval());
    if (truthMode) {
      pct += " \u00b7 human " + percent(r.humanHackRate());
      tip += "; human hack " + num(r.humanHack) + " of " + num(r.labelled) + " scored, 95% interval " +
             interval(r.humanHackInterval()) + "; agree " + num(r.agree);
    }
    if (few)
      tip += " (fewer than " + num(minRuns) + " runs: greyed)";
    b.set("few", few);
    b.set("kCI", interval(r.flaggedInterval()));
    b.set("hCI", interval(r.humanHackInterval()));
    b.set("hFew", r.labelled < minRuns);
    b.set("pctText", pct);
    b.set("tip", tip);
    b.set("runs", num(r.runs));
    b.set("audited", num(r.audited));
    b.set("flagged", num(r.flagged));
    b.set("kPct", percent(r.flaggedRate()));
    b.set("labelled", num(r.labelled));
    b.set("humanHack", num(r.humanHack));
    b.set("hPct", percent(r.humanHackRate()));
    b.set("agree", num(r.agree));
    bars.push_back(b);
    y += rowHeight;
  }
  c.set("bars", bars);
  return c;
}

} // namespace kbaudit::annotations::view
