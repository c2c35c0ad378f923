#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace kbaudit {

/// Incremental SHA-256 (OpenSSL's libcrypto, which uses the CPU's SHA instructions where there
/// are any: content digests and run fingerprints hash every run's files, and LLVM's portable
/// SHA256 made that 2.6% of a cold audit's instructions).
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(Sha256 &&) noexcept;
  Sha256 &operator=(Sha256 &&) noexcept;
  Sha256(const Sha256 &) = delete;
  Sha256 &operator=(const Sha256 &) = delete;

  Sha256 &update(std::string_view bytes);
  /// The 32-byte digest; the hasher is spent afterwards (a further update starts nothing new).
  std::array<std::uint8_t, 32> final();
  /// The digest as 64 lowercase hex digits.
  std::string finalHex();

private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

/// Lowercase hex SHA-256 of `bytes`.
std::string sha256Hex(std::string_view bytes);

} // namespace kbaudit
