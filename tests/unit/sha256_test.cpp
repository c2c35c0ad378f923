// The one SHA-256 every digest goes through (content digests, run fingerprints, cache keys).
#include "kbaudit/source/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace kbaudit {
namespace {

// FIPS 180-2 test vectors.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShotWithNulBytes) {
  const std::string whole("head\0tail and more", 18);
  Sha256 h;
  h.update(whole.substr(0, 5)).update("").update(whole.substr(5));
  EXPECT_EQ(h.finalHex(), sha256Hex(whole));
  EXPECT_NE(sha256Hex(whole), sha256Hex("head"));
}

TEST(Sha256, HashersAreIndependentAndMovable) {
  Sha256 a;
  Sha256 b;
  a.update("ab");
  b.update("xy");
  Sha256 moved = std::move(a);
  moved.update("c");
  EXPECT_EQ(moved.finalHex(), sha256Hex("abc"));
  EXPECT_EQ(b.finalHex(), sha256Hex("xy"));
  EXPECT_EQ(Sha256().final().size(), 32u);
}

} // namespace
} // namespace kbaudit
