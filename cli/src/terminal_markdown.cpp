#include "terminal_markdown.h"

#include "kbaudit/annotations/terminal_text.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace kbaudit::cli {

namespace {

std::string paint(bool color, const char *sgr, const std::string &text) {
  return color && !text.empty() ? std::string("\x1b[") + sgr + "m" + text + "\x1b[0m" : text;
}

std::string trim(const std::string &s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos)
    return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

/// Inline markup: `code`, **bold**, [text](target) (a web link keeps its address; a link
/// within the docs keeps its text only, which a terminal cannot follow anyway).
std::string inlineText(const std::string &s, bool color) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '`') {
      const std::size_t end = s.find('`', i + 1);
      if (end != std::string::npos) {
        out += paint(color, "36", annotations::terminalSafe(s.substr(i + 1, end - i - 1)));
        i = end + 1;
        continue;
      }
    }
    if (s.compare(i, 2, "**") == 0) {
      const std::size_t end = s.find("**", i + 2);
      if (end != std::string::npos) {
        out += paint(color, "1", inlineText(s.substr(i + 2, end - i - 2), false));
        i = end + 2;
        continue;
      }
    }
    if (s[i] == '[') {
      const std::size_t close = s.find("](", i);
      const std::size_t end = close == std::string::npos ? close : s.find(')', close);
      if (end != std::string::npos && s.find('\n', i) > end) {
        const std::string text = s.substr(i + 1, close - i - 1), target = s.substr(close + 2, end - close - 2);
        out += inlineText(text, color);
        if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0)
          out += " <" + annotations::terminalSafe(target) + ">";
        i = end + 1;
        continue;
      }
    }
    const std::size_t next = s.find_first_of("`*[", i + 1);
    out += annotations::terminalSafe(s.substr(i, next == std::string::npos ? std::string::npos : next - i));
    i = next == std::string::npos ? s.size() : next;
  }
  return out;
}

/// Visible width of text that may hold colour codes (UTF-8 counted by characters).
std::size_t visibleWidth(const std::string &s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm')
        ++i;
      continue;
    }
    n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  }
  return n;
}

std::string wrap(const std::string &text, const std::string &indent, const std::string &firstIndent, std::size_t width) {
  std::string out = firstIndent, line;
  std::size_t used = visibleWidth(firstIndent);
  std::istringstream words(text);
  bool first = true;
  for (std::string w; words >> w;) {
    if (!first && used + 1 + visibleWidth(w) > width) {
      out += "\n" + indent;
      used = visibleWidth(indent);
      first = true;
    }
    out += (first ? "" : " ") + w;
    used += (first ? 0 : 1) + visibleWidth(w);
    first = false;
  }
  return out + "\n";
}

std::vector<std::string> cells(const std::string &row) {
  std::string r = trim(row);
  if (!r.empty() && r.front() == '|')
    r.erase(0, 1);
  if (!r.empty() && r.back() == '|')
    r.pop_back();
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= r.size(); ++i)
    if (i == r.size() || (r[i] == '|' && (i == 0 || r[i - 1] != '\\'))) {
      out.push_back(trim(r.substr(start, i - start)));
      start = i + 1;
    }
  return out;
}

bool isSeparator(const std::string &row) {
  const std::string r = trim(row);
  return !r.empty() && r.find_first_not_of("|-: ") == std::string::npos;
}

std::string table(const std::vector<std::string> &rows, bool color) {
  std::vector<std::vector<std::string>> grid;
  for (const std::string &row : rows) {
    if (isSeparator(row))
      continue;
    std::vector<std::string> c = cells(row);
    bool empty = true;
    for (std::string &cell : c) {
      cell = inlineText(cell, color);
      empty = empty && cell.empty();
    }
    if (!empty) // `| | |`: a table whose header is blank
      grid.push_back(std::move(c));
  }
  std::vector<std::size_t> widths;
  for (const auto &r : grid)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (widths.size() <= i)
        widths.push_back(0);
      widths[i] = std::max(widths[i], visibleWidth(r[i]));
    }
  std::string out;
  for (const auto &r : grid) {
    std::string line = "  ";
    for (std::size_t i = 0; i < r.size(); ++i)
      line += r[i] + (i + 1 < r.size() ? std::string(widths[i] - visibleWidth(r[i]) + 2, ' ') : "");
    out += line + "\n";
  }
  return out;
}

} // namespace

std::string markdownForTerminal(const std::string &markdown, bool color, std::size_t width) {
  // HTML comments go first: they may span lines.
  std::string text;
  for (std::size_t i = 0; i < markdown.size();) {
    const std::size_t open = markdown.find("<!--", i);
    if (open == std::string::npos) {
      text += markdown.substr(i);
      break;
    }
    text += markdown.substr(i, open - i);
    const std::size_t close = markdown.find("-->", open + 4);
    i = close == std::string::npos ? markdown.size() : close + 3;
    if (i < markdown.size() && markdown[i] == '\n')
      ++i;
  }
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);

  std::string out, paragraph;
  const auto flush = [&] {
    if (!paragraph.empty())
      out += wrap(inlineText(paragraph, color), "", "", width);
    paragraph.clear();
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string &line = lines[i];
    if (line.rfind("```", 0) == 0) { // a code block: indented, as written
      flush();
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i)
        out += paint(color, "2", "    " + annotations::terminalSafe(lines[i])) + "\n";
      continue;
    }
    if (line.rfind('#', 0) == 0) {
      flush();
      const std::size_t level = line.find_first_not_of('#');
      const std::string title = inlineText(trim(line.substr(level == std::string::npos ? line.size() : level)), false);
      if (!out.empty() && out.compare(out.size() - 2, 2, "\n\n") != 0)
        out += "\n";
      out += paint(color, "1", title) + "\n";
      if (level <= 2)
        out += std::string(visibleWidth(title), level == 1 ? '=' : '-') + "\n";
      continue;
    }
    if (trim(line).rfind('|', 0) == 0) {
      flush();
      std::vector<std::string> rows;
      for (; i < lines.size() && trim(lines[i]).rfind('|', 0) == 0; ++i)
        rows.push_back(lines[i]);
      --i;
      out += table(rows, color);
      continue;
    }
    const std::string t = trim(line);
    if (t.empty()) {
      flush();
      if (!out.empty() && out.compare(out.size() - 2, 2, "\n\n") != 0)
        out += "\n";
      continue;
    }
    if (t.rfind("- ", 0) == 0 || t.rfind("* ", 0) == 0) {
      flush();
      out += wrap(inlineText(t.substr(2), color), "    ", "  - ", width);
      continue;
    }
    paragraph += (paragraph.empty() ? "" : " ") + t;
  }
  flush();
  while (out.size() > 1 && out.compare(out.size() - 2, 2, "\n\n") == 0)
    out.pop_back();
  return out;
}

} // namespace kbaudit::cli
