// The one file that includes llvm/Support/JSON.h for data files (see json_data.h); it must
// compile as C++17, so it includes nothing of C++20.

#include "kbaudit/source/json_data.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace kbaudit::data {

struct Json::Impl {
  llvm::json::Value value;
};

namespace {

std::string scalarText(const llvm::json::Value &v) {
  if (auto s = v.getAsString())
    return s->str();
  if (v.getAsNull())
    return {};
  if (auto b = v.getAsBoolean())
    return *b ? "true" : "false";
  std::string out;
  llvm::raw_string_ostream os(out);
  os << v;
  return os.str();
}

Members membersOf(const llvm::json::Object &o) {
  Members out;
  for (const auto &kv : o)
    out.emplace_back(kv.first.str(), scalarText(kv.second));
  return out;
}

const llvm::json::Value *at(const llvm::json::Value &root, std::initializer_list<std::string_view> path) {
  const llvm::json::Value *v = &root;
  for (std::string_view key : path) {
    const llvm::json::Object *o = v->getAsObject();
    if (!o)
      return nullptr;
    v = o->get(llvm::StringRef(key.data(), key.size()));
    if (!v)
      return nullptr;
  }
  return v;
}

} // namespace

Json::Json(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Json::Json(Json &&) noexcept = default;
Json &Json::operator=(Json &&) noexcept = default;
Json::~Json() = default;

std::variant<Json, std::string> Json::parse(std::string_view text, unsigned maxDepth) {
  if (std::optional<std::string> why = jsonTooDeep(text, maxDepth))
    return *why;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(llvm::StringRef(text.data(), text.size()));
  if (!v)
    return llvm::toString(v.takeError());
  return Json(std::make_unique<Impl>(Impl{std::move(*v)}));
}

bool Json::isObject() const { return impl_->value.getAsObject() != nullptr; }

Members Json::members() const {
  const llvm::json::Object *o = impl_->value.getAsObject();
  return o ? membersOf(*o) : Members{};
}

std::optional<std::vector<Members>> Json::rows() const {
  const llvm::json::Array *rows = impl_->value.getAsArray();
  if (!rows)
    if (const llvm::json::Object *o = impl_->value.getAsObject()) {
      std::vector<std::string> keys;
      for (const auto &kv : *o)
        keys.push_back(kv.first.str());
      std::sort(keys.begin(), keys.end()); // llvm::json::Object is unordered
      for (const std::string &k : keys)
        if (const llvm::json::Array *a = o->getArray(k); a && !a->empty() && (*a)[0].getAsObject()) {
          rows = a;
          break;
        }
    }
  if (!rows)
    return std::nullopt;
  std::vector<Members> out;
  for (const llvm::json::Value &row : *rows)
    if (const llvm::json::Object *o = row.getAsObject())
      out.push_back(membersOf(*o));
  return out;
}

std::optional<std::string> Json::string(std::initializer_list<std::string_view> path) const {
  const llvm::json::Value *v = at(impl_->value, path);
  if (auto s = v ? v->getAsString() : llvm::None)
    return s->str();
  return std::nullopt;
}

std::optional<double> Json::number(std::initializer_list<std::string_view> path) const {
  const llvm::json::Value *v = at(impl_->value, path);
  if (auto d = v ? v->getAsNumber() : llvm::None)
    return *d;
  return std::nullopt;
}

std::optional<bool> Json::boolean(std::initializer_list<std::string_view> path) const {
  const llvm::json::Value *v = at(impl_->value, path);
  if (auto b = v ? v->getAsBoolean() : llvm::None)
    return *b;
  return std::nullopt;
}

std::optional<std::vector<double>> Json::numbersIn(std::initializer_list<std::string_view> path,
                                                   std::string_view key) const {
  const llvm::json::Value *v = at(impl_->value, path);
  const llvm::json::Array *a = v ? v->getAsArray() : nullptr;
  if (!a || a->empty())
    return std::nullopt;
  std::vector<double> out;
  for (const llvm::json::Value &item : *a) {
    const llvm::json::Object *o = item.getAsObject();
    auto d = o ? o->getNumber(llvm::StringRef(key.data(), key.size())) : llvm::None;
    if (!d)
      return std::nullopt;
    out.push_back(*d);
  }
  return out;
}

} // namespace kbaudit::data
