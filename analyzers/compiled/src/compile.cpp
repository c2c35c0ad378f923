#include "kbaudit/compiled/compile.h"

#include "cache.h"
#include "compile_unit.h"
#include "toolchain.h"

#include "kbaudit/embed/units.h"

#include <cstdlib>

namespace kbaudit::compiled {

namespace fs = std::filesystem;

namespace {

/// Why a unit holds no device code to compile, "" when it does.
std::string notDevice(const embed::Unit &unit, const std::vector<embed::EmbeddedSource> &sources) {
  const embed::EmbeddedSource &first = sources[static_cast<size_t>(unit.sources.front())];
  if (first.origin == embed::Origin::Jiterator)
    return "a jiterator functor: torch wraps it in its own kernel at run time";
  if (!unit.cuda)
    return "C++ host source (cpp_sources, .cpp): no device code";
  return {};
}

/// Built by torch's cpp_extension (with its headers and flags), as opposed to cupy/NVRTC.
bool torchBuilt(const embed::EmbeddedSource &s) {
  return s.origin == embed::Origin::LoadInlineCuda || s.origin == embed::Origin::LoadSidecar ||
         s.origin == embed::Origin::WrittenFile;
}

} // namespace

fs::path defaultCacheDir() {
  if (const char *c = std::getenv("KBAUDIT_COMPILE_CACHE"); c && *c)
    return c;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return fs::path(x) / "kbaudit" / "compiled";
  if (const char *h = std::getenv("HOME"); h && *h)
    return fs::path(h) / ".cache" / "kbaudit" / "compiled";
  return {};
}

std::string toolkitVersion(const CompileOptions &options) { return toolchainFor(options).version; }

CompiledFacts compileEmbedded(const embed::EmbedFacts &embedded, const CompileOptions &options) {
  CompiledFacts facts;
  facts.attempted = true;
  facts.arch = options.arch;
  facts.archReason = options.archReason;
  const std::vector<embed::Unit> units = embed::planUnits(embedded.sources);
  if (units.empty())
    return facts;
  const Toolchain &t = toolchainFor(options);
  facts.toolkit = t.version;
  const CompileCache cache(options.cacheDir);
  for (const embed::Unit &unit : units) {
    if (unit.sources.empty())
      continue;
    CompiledUnit u;
    u.sources = unit.sources;
    u.arch = options.arch;
    if (std::string why = notDevice(unit, embedded.sources); !why.empty()) {
      u.status = UnitStatus::NotDevice;
      u.why = std::move(why);
    } else if (t.nvcc.empty()) {
      u.status = UnitStatus::NoCompiler;
      u.why = t.error;
    } else if (unit.text.size() > options.maxUnitBytes) {
      u.status = UnitStatus::TooLarge;
      u.why = std::to_string(unit.text.size()) + " bytes, over the " + std::to_string(options.maxUnitBytes >> 10) +
              " KiB limit";
    } else {
      u = compileUnit(unit, torchBuilt(embedded.sources[static_cast<size_t>(unit.sources.front())]), embedded.sources,
                      t, options, cache);
    }
    facts.units.push_back(std::move(u));
  }
  return facts;
}

} // namespace kbaudit::compiled
