#include "kbaudit/source/sha256.h"

#include <openssl/evp.h>

#include <new>

namespace kbaudit {

namespace {

/// SHA-256 fetched from the default provider once: OpenSSL 3 otherwise looks the algorithm up
/// again at every EVP_DigestInit_ex.
const EVP_MD *sha256Method() {
  static EVP_MD *const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

} // namespace

struct Sha256::Context {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256() : ctx_(std::make_unique<Context>()) {
  // Allocation or initialisation fails only when libcrypto cannot allocate: as operator new does.
  if (!ctx_->md || !sha256Method() || EVP_DigestInit_ex(ctx_->md, sha256Method(), nullptr) != 1)
    throw std::bad_alloc();
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256 &&) noexcept = default;
Sha256 &Sha256::operator=(Sha256 &&) noexcept = default;

Sha256 &Sha256::update(std::string_view bytes) {
  EVP_DigestUpdate(ctx_->md, bytes.data(), bytes.size());
  return *this;
}

std::array<std::uint8_t, 32> Sha256::final() {
  std::array<std::uint8_t, 32> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(ctx_->md, digest.data(), &size);
  return digest;
}

std::string Sha256::finalHex() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(64);
  for (std::uint8_t b : final()) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

std::string sha256Hex(std::string_view bytes) { return Sha256().update(bytes).finalHex(); }

} // namespace kbaudit
