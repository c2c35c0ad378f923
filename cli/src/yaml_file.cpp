#include "yaml_file.h"

#include "kbaudit/source/data_file.h"

#include <variant>
#include <vector>

namespace kbaudit::cli {

std::optional<YAML::Node> loadYamlFile(const std::filesystem::path &file, std::string &error) {
  std::variant<std::string, std::string> read = data::readText(file, kMaxConfigBytes);
  if (const std::string *why = std::get_if<1>(&read)) {
    error = *why;
    return std::nullopt;
  }
  const std::string &text = std::get<0>(read);
  if (std::optional<std::string> why = data::yamlTooDeep(text)) {
    error = file.string() + ": " + *why;
    return std::nullopt;
  }
  try {
    std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() > 1) {
      // Whatever the second document says would be ignored without a word.
      error = file.string() + ": holds " + std::to_string(documents.size()) + " YAML documents; kbaudit reads one";
      return std::nullopt;
    }
    return documents.empty() ? YAML::Node() : documents.front();
  } catch (const YAML::Exception &e) {
    error = file.string() + ": " + e.what();
    return std::nullopt;
  }
}

} // namespace kbaudit::cli
