// Rounding between float/double and the GPU's narrow floating-point formats, as the GPU
// rounds: fp16 (IEEE binary16), bf16, fp8 e4m3 (no infinity, NaN = S.1111.111) and e5m2.
// Every conversion is exact to the bit: round to nearest even (cvt.rn), or toward zero, down
// or up where the intrinsic names it, NaN made canonical (0x7fff for fp16/bf16, as cvt does),
// fp8 saturated to the largest finite value where the CUDA API saturates (satfinite).
// Arithmetic on narrow values is done in float and rounded once: for +, -, *, / and sqrt of
// two p-bit values float's 24 bits are enough (24 >= 2p + 2 for fp16's p = 11 and bf16's
// p = 8), so the result equals the correctly rounded operation the GPU's fp16/bf16 units do;
// fma is done in double with round-to-odd, which makes the second rounding correct too.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace cudacpu::fp {

enum class Round { Nearest, Zero, Down, Up };

inline std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double from_bits64(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

/// A binary format with `E` exponent bits and `M` stored mantissa bits.
struct Format {
  int exponentBits, mantissaBits;
  bool hasInfinity;        ///< IEEE-like (fp16, bf16, e5m2); e4m3 has none
  std::uint32_t nan;       ///< the canonical NaN's bits (without sign)
  double maxFinite;
};

inline constexpr Format kHalf{5, 10, true, 0x7fff, 65504.0};
inline constexpr Format kBf16{8, 7, true, 0x7fff, 3.3895313892515355e38};
inline constexpr Format kE4M3{4, 3, false, 0x7f, 448.0};
inline constexpr Format kE5M2{5, 2, true, 0x7f, 57344.0};

/// The bits of `x` in `f`, rounded as `mode` says. `saturate`: out-of-range values (and
/// infinities) become the largest finite value of their sign instead of inf (or NaN in e4m3).
/// NaN becomes the format's canonical NaN (sign kept as `nanSign` says).
inline std::uint32_t encode(double x, const Format &f, Round mode, bool saturate = false, bool nanSign = false) {
  const int total = 1 + f.exponentBits + f.mantissaBits;
  const std::uint32_t signBit = 1u << (total - 1);
  const bool negative = std::signbit(x);
  const std::uint32_t sign = negative ? signBit : 0u;
  if (std::isnan(x))
    return f.nan | (nanSign ? sign : 0u);
  const double a = std::fabs(x);
  const int bias = (1 << (f.exponentBits - 1)) - 1;
  const int emin = 1 - bias;
  auto overflow = [&]() -> std::uint32_t {
    // Directed rounding toward zero never leaves the finite range (IEEE 754 7.4).
    const bool towardZero = mode == Round::Zero || (mode == Round::Down && !negative) || (mode == Round::Up && negative);
    if (saturate || towardZero || !f.hasInfinity) {
      if (!saturate && !towardZero && !f.hasInfinity)
        return f.nan | sign; // e4m3 without saturation: NaN
      return encode(f.maxFinite, f, Round::Zero) | sign;
    }
    return (((1u << f.exponentBits) - 1) << f.mantissaBits) | sign; // infinity
  };
  if (std::isinf(a))
    return overflow();
  if (a == 0)
    return sign;
  int e = std::ilogb(a);
  const int q = (e < emin ? emin : e) - f.mantissaBits; // the quantum's exponent
  const double scaled = std::ldexp(a, -q);              // exact: a power-of-two scaling
  double r;
  switch (mode) {
  case Round::Nearest: {
    r = std::floor(scaled);
    const double rest = scaled - r;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(r, 2.0) != 0))
      r += 1;
    break;
  }
  case Round::Zero:
    r = std::floor(scaled);
    break;
  case Round::Down:
    r = negative ? std::ceil(scaled) : std::floor(scaled);
    break;
  case Round::Up:
    r = negative ? std::floor(scaled) : std::ceil(scaled);
    break;
  }
  const double value = std::ldexp(r, q);
  if (value > f.maxFinite)
    return overflow();
  if (r == 0)
    return sign;
  std::uint64_t m = static_cast<std::uint64_t>(r);
  if (m >= (std::uint64_t{2} << f.mantissaBits)) { // carried into the next binade
    m >>= 1;
    e += 1;
  }
  if (m < (std::uint64_t{1} << f.mantissaBits)) // subnormal
    return sign | static_cast<std::uint32_t>(m);
  const int exponent = (e < emin ? emin : e) + bias;
  return sign | (static_cast<std::uint32_t>(exponent) << f.mantissaBits) |
         static_cast<std::uint32_t>(m - (std::uint64_t{1} << f.mantissaBits));
}

/// The value of `b` in `f` (exact in float).
inline float decode(std::uint32_t b, const Format &f) {
  const int total = 1 + f.exponentBits + f.mantissaBits;
  const bool negative = (b >> (total - 1)) & 1u;
  const std::uint32_t expField = (b >> f.mantissaBits) & ((1u << f.exponentBits) - 1);
  const std::uint32_t man = b & ((1u << f.mantissaBits) - 1);
  const int bias = (1 << (f.exponentBits - 1)) - 1;
  float v;
  if (f.hasInfinity && expField == (1u << f.exponentBits) - 1)
    v = man ? NAN : INFINITY;
  else if (!f.hasInfinity && expField == (1u << f.exponentBits) - 1 && man == (1u << f.mantissaBits) - 1)
    v = NAN;
  else if (expField == 0)
    v = std::ldexp(static_cast<float>(man), 1 - bias - f.mantissaBits);
  else
    v = std::ldexp(static_cast<float>(man | (1u << f.mantissaBits)), static_cast<int>(expField) - bias - f.mantissaBits);
  return negative ? -v : v;
}

// ---- fast paths for the two 16-bit formats (round to nearest even), the hot conversions

inline std::uint16_t float_to_half_rn(float x) {
  const std::uint32_t u = bits(x);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t a = u & 0x7fffffffu;
  if (a >= 0x7f800000u)
    return static_cast<std::uint16_t>(a == 0x7f800000u ? (sign | 0x7c00u) : 0x7fffu);
  if (a > 0x477fefffu) // rounds to infinity
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  std::uint32_t result, remainder;
  if (a >= 0x38800000u) { // normal
    remainder = a << 19;
    result = (a - 0x38000000u) >> 13;
  } else if (a < 0x33000001u) { // rounds to zero
    return static_cast<std::uint16_t>(sign);
  } else { // subnormal
    const std::uint32_t exponent = a >> 23;
    const std::uint32_t shift = 0x7eu - exponent;
    const std::uint32_t mantissa = (a & 0x7fffffu) | 0x800000u;
    remainder = mantissa << (32u - shift);
    result = mantissa >> shift;
  }
  if (remainder > 0x80000000u || (remainder == 0x80000000u && (result & 1u)))
    ++result;
  return static_cast<std::uint16_t>(sign | result);
}

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t e = (h >> 10) & 0x1fu;
  std::uint32_t m = h & 0x3ffu;
  if (e == 0x1f)
    return from_bits(sign | 0x7f800000u | (m << 13));
  if (e == 0) {
    if (m == 0)
      return from_bits(sign);
    int shift = 0;
    while (!(m & 0x400u)) {
      m <<= 1;
      ++shift;
    }
    m &= 0x3ffu;
    return from_bits(sign | (static_cast<std::uint32_t>(113 - shift) << 23) | (m << 13));
  }
  return from_bits(sign | ((e + 112u) << 23) | (m << 13));
}

inline std::uint16_t float_to_bf16_rn(float x) {
  const std::uint32_t u = bits(x);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fffu;
  const std::uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>((u + rounding) >> 16);
}

inline float bf16_to_float(std::uint16_t b) { return from_bits(static_cast<std::uint32_t>(b) << 16); }

/// a * b + c rounded once to the nearest double with round-to-odd (the exact value's sticky
/// bits kept in the last place), so that a later rounding to a format of at most 51 bits is
/// the correct rounding of the exact a * b + c. a * b must be exact in double (two values of
/// at most 26 significant bits each: every narrow format, and float times a narrow value).
inline double fma_round_to_odd(double a, double b, double c) {
  const double p = a * b; // exact
  const double s = p + c;
  // TwoSum: the exact error of s = p + c.
  const double bb = s - p;
  const double err = (p - (s - bb)) + (c - bb);
  if (err == 0 || std::isinf(s) || std::isnan(s))
    return s;
  std::uint64_t u = bits(s);
  if ((u & 1u) == 0) { // even: move one ulp toward the exact value, which makes it odd
    const double t = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
    return t;
  }
  return s;
}

} // namespace cudacpu::fp
