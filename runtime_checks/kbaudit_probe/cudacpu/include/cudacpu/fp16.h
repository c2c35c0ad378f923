// __half, __half2, __nv_bfloat16, __nv_bfloat162 and the CUDA fp16/bf16 API on the CPU, with
// the GPU's rounding (floats.h). The class interfaces follow cuda_fp16.h and cuda_bf16.h,
// including what torch's extension flags switch off: __CUDA_NO_HALF_CONVERSIONS__,
// __CUDA_NO_HALF_OPERATORS__, __CUDA_NO_HALF2_OPERATORS__, __CUDA_NO_BFLOAT16_CONVERSIONS__ and
// __CUDA_NO_BFLOAT16_OPERATORS__ remove the same implicit conversions and operators here, so
// code that compiles with nvcc under torch's flags compiles here and means the same.
#pragma once

#include "cudacpu/floats.h"
#include "cudacpu/vector_types.h"

#include <cstdint>
#include <limits>

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __nv_bfloat16;

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  constexpr __half(const __half_raw &r) : __x(r.x) {}
  __half &operator=(const __half_raw &r) {
    __x = r.x;
    return *this;
  }
  operator __half_raw() const { return __half_raw{__x}; }
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
  __half(float f) : __x(cudacpu::fp::float_to_half_rn(f)) {}
  __half(double d) : __x(static_cast<unsigned short>(cudacpu::fp::encode(d, cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  explicit __half(const __nv_bfloat16 &b);
  operator float() const { return cudacpu::fp::half_to_float(__x); }
  __half &operator=(float f) { return *this = __half(f); }
  __half &operator=(double d) { return *this = __half(d); }
  __half(short v) : __half(static_cast<float>(v)) {}
  __half(unsigned short v) : __half(static_cast<float>(v)) {}
  __half(int v) : __x(static_cast<unsigned short>(cudacpu::fp::encode(v, cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  __half(unsigned v) : __x(static_cast<unsigned short>(cudacpu::fp::encode(v, cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  __half(long v) : __x(static_cast<unsigned short>(cudacpu::fp::encode(static_cast<double>(v), cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  __half(unsigned long v) : __x(static_cast<unsigned short>(cudacpu::fp::encode(static_cast<double>(v), cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  __half(long long v) : __x(static_cast<unsigned short>(cudacpu::fp::encode(static_cast<double>(v), cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  __half(unsigned long long v) : __x(static_cast<unsigned short>(cudacpu::fp::encode(static_cast<double>(v), cudacpu::fp::kHalf, cudacpu::fp::Round::Nearest))) {}
  operator signed char() const { return static_cast<signed char>(truncated()); }
  operator unsigned char() const { return static_cast<unsigned char>(truncated()); }
  operator char() const { return static_cast<char>(truncated()); }
  operator short() const { return static_cast<short>(truncated()); }
  operator unsigned short() const { return static_cast<unsigned short>(truncated()); }
  operator int() const { return static_cast<int>(truncated()); }
  operator unsigned int() const { return static_cast<unsigned int>(truncated()); }
  operator long() const { return static_cast<long>(truncated()); }
  operator unsigned long() const { return static_cast<unsigned long>(truncated()); }
  operator long long() const { return static_cast<long long>(truncated()); }
  operator unsigned long long() const { return static_cast<unsigned long long>(truncated()); }
  __half &operator=(short v) { return *this = __half(v); }
  __half &operator=(unsigned short v) { return *this = __half(v); }
  __half &operator=(int v) { return *this = __half(v); }
  __half &operator=(unsigned int v) { return *this = __half(v); }
  __half &operator=(long long v) { return *this = __half(v); }
  __half &operator=(unsigned long long v) { return *this = __half(v); }
  operator bool() const { return (__x & 0x7fffu) != 0; }

private:
  // The GPU's half-to-integer conversions (cvt.rzi) saturate and send NaN to 0.
  double truncated() const {
    const float f = cudacpu::fp::half_to_float(__x);
    return std::isnan(f) ? 0.0 : std::trunc(static_cast<double>(f));
  }
#endif
};

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
  __nv_bfloat16(float f) : __x(cudacpu::fp::float_to_bf16_rn(f)) {}
  __nv_bfloat16(double d) : __x(static_cast<unsigned short>(cudacpu::fp::encode(d, cudacpu::fp::kBf16, cudacpu::fp::Round::Nearest))) {}
  explicit __nv_bfloat16(const __half &h) : __x(cudacpu::fp::float_to_bf16_rn(cudacpu::fp::half_to_float(h.__x))) {}
  operator float() const { return cudacpu::fp::bf16_to_float(__x); }
  __nv_bfloat16 &operator=(float f) { return *this = __nv_bfloat16(f); }
  __nv_bfloat16 &operator=(double d) { return *this = __nv_bfloat16(d); }
  __nv_bfloat16(short v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned short v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  operator signed char() const { return static_cast<signed char>(truncated()); }
  operator unsigned char() const { return static_cast<unsigned char>(truncated()); }
  operator char() const { return static_cast<char>(truncated()); }
  operator short() const { return static_cast<short>(truncated()); }
  operator unsigned short() const { return static_cast<unsigned short>(truncated()); }
  operator int() const { return static_cast<int>(truncated()); }
  operator unsigned int() const { return static_cast<unsigned int>(truncated()); }
  operator long() const { return static_cast<long>(truncated()); }
  operator unsigned long() const { return static_cast<unsigned long>(truncated()); }
  operator long long() const { return static_cast<long long>(truncated()); }
  operator unsigned long long() const { return static_cast<unsigned long long>(truncated()); }
  __nv_bfloat16 &operator=(short v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(unsigned short v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(int v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(unsigned int v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(long long v) { return *this = __nv_bfloat16(v); }
  __nv_bfloat16 &operator=(unsigned long long v) { return *this = __nv_bfloat16(v); }
  operator bool() const { return (__x & 0x7fffu) != 0; }

private:
  double truncated() const {
    const float f = cudacpu::fp::bf16_to_float(__x);
    return std::isnan(f) ? 0.0 : std::trunc(static_cast<double>(f));
  }
#endif
};

#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
inline __half::__half(const __nv_bfloat16 &b) : __x(cudacpu::fp::float_to_half_rn(cudacpu::fp::bf16_to_float(b.__x))) {}
#endif

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __half2(const __half2_raw &r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __half2 &operator=(const __half2_raw &r) {
    x = __half_raw{r.x};
    y = __half_raw{r.y};
    return *this;
  }
  operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
  __nv_bfloat162(const __nv_bfloat162_raw &r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) {
    x = __nv_bfloat16_raw{r.x};
    y = __nv_bfloat16_raw{r.y};
    return *this;
  }
  operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
};

CUDACPU_PLAIN_VALUE(__half)
CUDACPU_PLAIN_VALUE(__half2)
CUDACPU_PLAIN_VALUE(__nv_bfloat16)
CUDACPU_PLAIN_VALUE(__nv_bfloat162)

typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

namespace cudacpu::fp {
inline float to_float(__half h) { return half_to_float(h.__x); }
inline float to_float(__nv_bfloat16 b) { return bf16_to_float(b.__x); }
inline __half make_half_bits(unsigned short b) { return __half(__half_raw{b}); }
inline __nv_bfloat16 make_bf16_bits(unsigned short b) { return __nv_bfloat16(__nv_bfloat16_raw{b}); }
template <class T> T round_to(float f);
template <> inline __half round_to<__half>(float f) { return make_half_bits(float_to_half_rn(f)); }
template <> inline __nv_bfloat16 round_to<__nv_bfloat16>(float f) { return make_bf16_bits(float_to_bf16_rn(f)); }
template <class T> T round_to_double(double d);
template <> inline __half round_to_double<__half>(double d) {
  return make_half_bits(static_cast<unsigned short>(encode(d, kHalf, Round::Nearest)));
}
template <> inline __nv_bfloat16 round_to_double<__nv_bfloat16>(double d) {
  return make_bf16_bits(static_cast<unsigned short>(encode(d, kBf16, Round::Nearest)));
}
template <class T> T round_mode(double d, Round r);
template <> inline __half round_mode<__half>(double d, Round r) {
  return make_half_bits(static_cast<unsigned short>(encode(d, kHalf, r)));
}
template <> inline __nv_bfloat16 round_mode<__nv_bfloat16>(double d, Round r) {
  return make_bf16_bits(static_cast<unsigned short>(encode(d, kBf16, r)));
}
inline float saturate01(float f) { return std::isnan(f) ? 0.0f : (f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f)); }
} // namespace cudacpu::fp

// ---------------------------------------------------------------- conversions
inline __half __float2half(float f) { return cudacpu::fp::round_to<__half>(f); }
inline __half __float2half_rn(float f) { return cudacpu::fp::round_to<__half>(f); }
inline __half __float2half_rz(float f) { return cudacpu::fp::round_mode<__half>(f, cudacpu::fp::Round::Zero); }
inline __half __float2half_rd(float f) { return cudacpu::fp::round_mode<__half>(f, cudacpu::fp::Round::Down); }
inline __half __float2half_ru(float f) { return cudacpu::fp::round_mode<__half>(f, cudacpu::fp::Round::Up); }
inline __half __double2half(double d) { return cudacpu::fp::round_to_double<__half>(d); }
inline float __half2float(__half h) { return cudacpu::fp::to_float(h); }
inline __half2 __float2half2_rn(float f) { return __half2(__float2half(f), __float2half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half(a), __float2half(b)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__float2half(f.x), __float2half(f.y)); }
inline float2 __half22float2(__half2 h) { return float2{__half2float(h.x), __half2float(h.y)}; }
inline float __low2float(__half2 h) { return __half2float(h.x); }
inline float __high2float(__half2 h) { return __half2float(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __half2half2(__half h) { return __half2(h, h); }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __short_as_half(short s) { return cudacpu::fp::make_half_bits(static_cast<unsigned short>(s)); }
inline __half __ushort_as_half(unsigned short s) { return cudacpu::fp::make_half_bits(s); }

inline __nv_bfloat16 __float2bfloat16(float f) { return cudacpu::fp::round_to<__nv_bfloat16>(f); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return cudacpu::fp::round_to<__nv_bfloat16>(f); }
inline __nv_bfloat16 __float2bfloat16_rz(float f) { return cudacpu::fp::round_mode<__nv_bfloat16>(f, cudacpu::fp::Round::Zero); }
inline __nv_bfloat16 __float2bfloat16_rd(float f) { return cudacpu::fp::round_mode<__nv_bfloat16>(f, cudacpu::fp::Round::Down); }
inline __nv_bfloat16 __float2bfloat16_ru(float f) { return cudacpu::fp::round_mode<__nv_bfloat16>(f, cudacpu::fp::Round::Up); }
inline __nv_bfloat16 __double2bfloat16(double d) { return cudacpu::fp::round_to_double<__nv_bfloat16>(d); }
inline float __bfloat162float(__nv_bfloat16 b) { return cudacpu::fp::to_float(b); }
inline __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f)); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b)); }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __nv_bfloat162(__float2bfloat16(f.x), __float2bfloat16(f.y)); }
inline float2 __bfloat1622float2(__nv_bfloat162 h) { return float2{__bfloat162float(h.x), __bfloat162float(h.y)}; }
inline float __low2float(__nv_bfloat162 h) { return __bfloat162float(h.x); }
inline float __high2float(__nv_bfloat162 h) { return __bfloat162float(h.y); }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 h) { return __nv_bfloat162(h, h); }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.x, h.x); }
inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) { return __nv_bfloat162(h.y, h.y); }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
inline __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 h) { return __nv_bfloat162(h.y, h.x); }
inline __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
inline short __bfloat16_as_short(__nv_bfloat16 h) { return static_cast<short>(h.__x); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat16 __short_as_bfloat16(short s) { return cudacpu::fp::make_bf16_bits(static_cast<unsigned short>(s)); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) { return cudacpu::fp::make_bf16_bits(s); }
inline __half __bfloat162half(__nv_bfloat16 b) { return __float2half(__bfloat162float(b)); }

// Integer conversions: _rn, _rz, _rd, _ru as cvt.rni/rzi/rmi/rpi; out of range saturates, NaN -> 0.
namespace cudacpu::fp {
template <class I> I to_int(double v, Round r) {
  if (std::isnan(v))
    return 0;
  double t = r == Round::Nearest ? std::nearbyint(v) : r == Round::Zero ? std::trunc(v) : r == Round::Down ? std::floor(v) : std::ceil(v);
  if (t <= static_cast<double>(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  if (t >= static_cast<double>(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}
} // namespace cudacpu::fp

#define CUDACPU_NARROW_TO_INT(H, HN, I, IN)                                                                            \
  inline I __##HN##2##IN##_rn(H h) { return cudacpu::fp::to_int<I>(cudacpu::fp::to_float(h), cudacpu::fp::Round::Nearest); } \
  inline I __##HN##2##IN##_rz(H h) { return cudacpu::fp::to_int<I>(cudacpu::fp::to_float(h), cudacpu::fp::Round::Zero); } \
  inline I __##HN##2##IN##_rd(H h) { return cudacpu::fp::to_int<I>(cudacpu::fp::to_float(h), cudacpu::fp::Round::Down); } \
  inline I __##HN##2##IN##_ru(H h) { return cudacpu::fp::to_int<I>(cudacpu::fp::to_float(h), cudacpu::fp::Round::Up); } \
  inline H __##IN##2##HN##_rn(I i) { return cudacpu::fp::round_mode<H>(static_cast<double>(i), cudacpu::fp::Round::Nearest); } \
  inline H __##IN##2##HN##_rz(I i) { return cudacpu::fp::round_mode<H>(static_cast<double>(i), cudacpu::fp::Round::Zero); } \
  inline H __##IN##2##HN##_rd(I i) { return cudacpu::fp::round_mode<H>(static_cast<double>(i), cudacpu::fp::Round::Down); } \
  inline H __##IN##2##HN##_ru(I i) { return cudacpu::fp::round_mode<H>(static_cast<double>(i), cudacpu::fp::Round::Up); }
CUDACPU_NARROW_TO_INT(__half, half, int, int)
CUDACPU_NARROW_TO_INT(__half, half, unsigned int, uint)
CUDACPU_NARROW_TO_INT(__half, half, short, short)
CUDACPU_NARROW_TO_INT(__half, half, unsigned short, ushort)
CUDACPU_NARROW_TO_INT(__half, half, long long, ll)
CUDACPU_NARROW_TO_INT(__half, half, unsigned long long, ull)
CUDACPU_NARROW_TO_INT(__nv_bfloat16, bfloat16, int, int)
CUDACPU_NARROW_TO_INT(__nv_bfloat16, bfloat16, unsigned int, uint)
CUDACPU_NARROW_TO_INT(__nv_bfloat16, bfloat16, short, short)
CUDACPU_NARROW_TO_INT(__nv_bfloat16, bfloat16, unsigned short, ushort)
CUDACPU_NARROW_TO_INT(__nv_bfloat16, bfloat16, long long, ll)
CUDACPU_NARROW_TO_INT(__nv_bfloat16, bfloat16, unsigned long long, ull)
#undef CUDACPU_NARROW_TO_INT
inline signed char __half2char_rz(__half h) { return cudacpu::fp::to_int<signed char>(__half2float(h), cudacpu::fp::Round::Zero); }
inline unsigned char __half2uchar_rz(__half h) { return cudacpu::fp::to_int<unsigned char>(__half2float(h), cudacpu::fp::Round::Zero); }
inline signed char __bfloat162char_rz(__nv_bfloat16 h) { return cudacpu::fp::to_int<signed char>(__bfloat162float(h), cudacpu::fp::Round::Zero); }
inline unsigned char __bfloat162uchar_rz(__nv_bfloat16 h) { return cudacpu::fp::to_int<unsigned char>(__bfloat162float(h), cudacpu::fp::Round::Zero); }

// ---------------------------------------------------------------- arithmetic (both types)
// Each operation computes in float (exact for these operands, see floats.h) and rounds once.
#define CUDACPU_NARROW_ARITH(H, H2)                                                                                    \
  inline H __hadd(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::to_float(a) + cudacpu::fp::to_float(b)); } \
  inline H __hsub(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::to_float(a) - cudacpu::fp::to_float(b)); } \
  inline H __hmul(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::to_float(a) * cudacpu::fp::to_float(b)); } \
  inline H __hdiv(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::to_float(a) / cudacpu::fp::to_float(b)); } \
  inline H __hadd_rn(H a, H b) { return __hadd(a, b); }                                                               \
  inline H __hsub_rn(H a, H b) { return __hsub(a, b); }                                                               \
  inline H __hmul_rn(H a, H b) { return __hmul(a, b); }                                                               \
  inline H __hadd_sat(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::saturate01(cudacpu::fp::to_float(__hadd(a, b)))); } \
  inline H __hsub_sat(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::saturate01(cudacpu::fp::to_float(__hsub(a, b)))); } \
  inline H __hmul_sat(H a, H b) { return cudacpu::fp::round_to<H>(cudacpu::fp::saturate01(cudacpu::fp::to_float(__hmul(a, b)))); } \
  inline H __hfma(H a, H b, H c) {                                                                                     \
    return cudacpu::fp::round_to_double<H>(cudacpu::fp::fma_round_to_odd(cudacpu::fp::to_float(a), cudacpu::fp::to_float(b), cudacpu::fp::to_float(c))); \
  }                                                                                                                    \
  inline H __hfma_sat(H a, H b, H c) { return cudacpu::fp::round_to<H>(cudacpu::fp::saturate01(cudacpu::fp::to_float(__hfma(a, b, c)))); } \
  inline H __hfma_relu(H a, H b, H c) {                                                                                \
    const float r = cudacpu::fp::to_float(__hfma(a, b, c));                                                            \
    return cudacpu::fp::round_to<H>(std::isnan(r) ? r : (r < 0 ? 0.0f : r));                                           \
  }                                                                                                                    \
  inline H __hneg(H a) { H r = a; r.__x ^= 0x8000u; return r; }                                                         \
  inline H __habs(H a) { H r = a; r.__x &= 0x7fffu; return r; }                                                         \
  inline bool __hisnan(H a) { return std::isnan(cudacpu::fp::to_float(a)); }                                          \
  inline int __hisinf(H a) { const float f = cudacpu::fp::to_float(a); return std::isinf(f) ? (f < 0 ? -1 : 1) : 0; } \
  inline bool __heq(H a, H b) { return cudacpu::fp::to_float(a) == cudacpu::fp::to_float(b); }                        \
  inline bool __hne(H a, H b) { const float x = cudacpu::fp::to_float(a), y = cudacpu::fp::to_float(b); return x < y || x > y; } \
  inline bool __hlt(H a, H b) { return cudacpu::fp::to_float(a) < cudacpu::fp::to_float(b); }                         \
  inline bool __hle(H a, H b) { return cudacpu::fp::to_float(a) <= cudacpu::fp::to_float(b); }                        \
  inline bool __hgt(H a, H b) { return cudacpu::fp::to_float(a) > cudacpu::fp::to_float(b); }                         \
  inline bool __hge(H a, H b) { return cudacpu::fp::to_float(a) >= cudacpu::fp::to_float(b); }                        \
  inline bool __hequ(H a, H b) { return __heq(a, b) || __hisnan(a) || __hisnan(b); }                                   \
  inline bool __hneu(H a, H b) { return !__heq(a, b); }                                                                \
  inline bool __hltu(H a, H b) { return !__hge(a, b); }                                                                \
  inline bool __hleu(H a, H b) { return !__hgt(a, b); }                                                                \
  inline bool __hgtu(H a, H b) { return !__hle(a, b); }                                                                \
  inline bool __hgeu(H a, H b) { return !__hlt(a, b); }                                                                \
  /* max/min: a NaN operand gives the other one (both NaN: canonical NaN), as max.f16 does */                          \
  inline H __hmax(H a, H b) {                                                                                          \
    if (__hisnan(a) && __hisnan(b)) return cudacpu::fp::round_to<H>(NAN);                                              \
    if (__hisnan(a)) return b;                                                                                         \
    if (__hisnan(b)) return a;                                                                                         \
    const float x = cudacpu::fp::to_float(a), y = cudacpu::fp::to_float(b);                                           \
    return x > y || (x == y && !(a.__x & 0x8000u)) ? a : b;                                                            \
  }                                                                                                                    \
  inline H __hmin(H a, H b) {                                                                                          \
    if (__hisnan(a) && __hisnan(b)) return cudacpu::fp::round_to<H>(NAN);                                              \
    if (__hisnan(a)) return b;                                                                                         \
    if (__hisnan(b)) return a;                                                                                         \
    const float x = cudacpu::fp::to_float(a), y = cudacpu::fp::to_float(b);                                           \
    return x < y || (x == y && (a.__x & 0x8000u)) ? a : b;                                                             \
  }                                                                                                                    \
  inline H __hmax_nan(H a, H b) { return __hisnan(a) || __hisnan(b) ? cudacpu::fp::round_to<H>(NAN) : __hmax(a, b); } \
  inline H __hmin_nan(H a, H b) { return __hisnan(a) || __hisnan(b) ? cudacpu::fp::round_to<H>(NAN) : __hmin(a, b); } \
  /* Math: computed in float (within the documented 1-2 ulp of the fp16/bf16 result), rounded once */                  \
  inline H hsqrt(H a) { return cudacpu::fp::round_to<H>(std::sqrt(cudacpu::fp::to_float(a))); }                       \
  inline H hrsqrt(H a) { return cudacpu::fp::round_to<H>(1.0f / std::sqrt(cudacpu::fp::to_float(a))); }                \
  inline H hrcp(H a) { return cudacpu::fp::round_to<H>(1.0f / cudacpu::fp::to_float(a)); }                            \
  inline H hexp(H a) { return cudacpu::fp::round_to<H>(std::exp(cudacpu::fp::to_float(a))); }                          \
  inline H hexp2(H a) { return cudacpu::fp::round_to<H>(std::exp2(cudacpu::fp::to_float(a))); }                        \
  inline H hexp10(H a) { return cudacpu::fp::round_to<H>(static_cast<float>(std::pow(10.0, static_cast<double>(cudacpu::fp::to_float(a))))); } \
  inline H hlog(H a) { return cudacpu::fp::round_to<H>(std::log(cudacpu::fp::to_float(a))); }                          \
  inline H hlog2(H a) { return cudacpu::fp::round_to<H>(std::log2(cudacpu::fp::to_float(a))); }                        \
  inline H hlog10(H a) { return cudacpu::fp::round_to<H>(std::log10(cudacpu::fp::to_float(a))); }                      \
  inline H hsin(H a) { return cudacpu::fp::round_to<H>(std::sin(cudacpu::fp::to_float(a))); }                          \
  inline H hcos(H a) { return cudacpu::fp::round_to<H>(std::cos(cudacpu::fp::to_float(a))); }                          \
  inline H htanh(H a) { return cudacpu::fp::round_to<H>(std::tanh(cudacpu::fp::to_float(a))); }                        \
  inline H htanh_approx(H a) { return htanh(a); }                                                                      \
  inline H hceil(H a) { return cudacpu::fp::round_to<H>(std::ceil(cudacpu::fp::to_float(a))); }                        \
  inline H hfloor(H a) { return cudacpu::fp::round_to<H>(std::floor(cudacpu::fp::to_float(a))); }                      \
  inline H htrunc(H a) { return cudacpu::fp::round_to<H>(std::trunc(cudacpu::fp::to_float(a))); }                      \
  inline H hrint(H a) { return cudacpu::fp::round_to<H>(std::nearbyint(cudacpu::fp::to_float(a))); }                   \
  /* pairs */                                                                                                          \
  inline H2 __hadd2(H2 a, H2 b) { return H2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }                                     \
  inline H2 __hsub2(H2 a, H2 b) { return H2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }                                     \
  inline H2 __hmul2(H2 a, H2 b) { return H2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }                                     \
  inline H2 __h2div(H2 a, H2 b) { return H2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }                                     \
  inline H2 __hadd2_rn(H2 a, H2 b) { return __hadd2(a, b); }                                                           \
  inline H2 __hsub2_rn(H2 a, H2 b) { return __hsub2(a, b); }                                                           \
  inline H2 __hmul2_rn(H2 a, H2 b) { return __hmul2(a, b); }                                                           \
  inline H2 __hadd2_sat(H2 a, H2 b) { return H2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)); }                         \
  inline H2 __hsub2_sat(H2 a, H2 b) { return H2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y)); }                         \
  inline H2 __hmul2_sat(H2 a, H2 b) { return H2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)); }                         \
  inline H2 __hfma2(H2 a, H2 b, H2 c) { return H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }                     \
  inline H2 __hfma2_sat(H2 a, H2 b, H2 c) { return H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)); }         \
  inline H2 __hfma2_relu(H2 a, H2 b, H2 c) { return H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)); }      \
  inline H2 __hneg2(H2 a) { return H2(__hneg(a.x), __hneg(a.y)); }                                                     \
  inline H2 __habs2(H2 a) { return H2(__habs(a.x), __habs(a.y)); }                                                     \
  inline H2 __hmax2(H2 a, H2 b) { return H2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }                                     \
  inline H2 __hmin2(H2 a, H2 b) { return H2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }                                     \
  inline H2 __hmax2_nan(H2 a, H2 b) { return H2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y)); }                         \
  inline H2 __hmin2_nan(H2 a, H2 b) { return H2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y)); }                         \
  inline H2 __hcmadd(H2 a, H2 b, H2 c) {                                                                               \
    return H2(__hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x)), __hfma(a.x, b.y, __hfma(a.y, b.x, c.y)));               \
  }                                                                                                                    \
  inline H2 __hisnan2(H2 a) { return H2(cudacpu::fp::round_to<H>(__hisnan(a.x) ? 1.0f : 0.0f), cudacpu::fp::round_to<H>(__hisnan(a.y) ? 1.0f : 0.0f)); } \
  inline bool __hbeq2(H2 a, H2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }                                      \
  inline bool __hbne2(H2 a, H2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }                                      \
  inline bool __hblt2(H2 a, H2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }                                      \
  inline bool __hble2(H2 a, H2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }                                      \
  inline bool __hbgt2(H2 a, H2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }                                      \
  inline bool __hbge2(H2 a, H2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }                                      \
  inline H2 __heq2(H2 a, H2 b) { return H2(cudacpu::fp::round_to<H>(__heq(a.x, b.x)), cudacpu::fp::round_to<H>(__heq(a.y, b.y))); } \
  inline H2 __hne2(H2 a, H2 b) { return H2(cudacpu::fp::round_to<H>(__hne(a.x, b.x)), cudacpu::fp::round_to<H>(__hne(a.y, b.y))); } \
  inline H2 __hlt2(H2 a, H2 b) { return H2(cudacpu::fp::round_to<H>(__hlt(a.x, b.x)), cudacpu::fp::round_to<H>(__hlt(a.y, b.y))); } \
  inline H2 __hle2(H2 a, H2 b) { return H2(cudacpu::fp::round_to<H>(__hle(a.x, b.x)), cudacpu::fp::round_to<H>(__hle(a.y, b.y))); } \
  inline H2 __hgt2(H2 a, H2 b) { return H2(cudacpu::fp::round_to<H>(__hgt(a.x, b.x)), cudacpu::fp::round_to<H>(__hgt(a.y, b.y))); } \
  inline H2 __hge2(H2 a, H2 b) { return H2(cudacpu::fp::round_to<H>(__hge(a.x, b.x)), cudacpu::fp::round_to<H>(__hge(a.y, b.y))); } \
  inline H2 h2sqrt(H2 a) { return H2(hsqrt(a.x), hsqrt(a.y)); }                                                        \
  inline H2 h2rsqrt(H2 a) { return H2(hrsqrt(a.x), hrsqrt(a.y)); }                                                     \
  inline H2 h2rcp(H2 a) { return H2(hrcp(a.x), hrcp(a.y)); }                                                           \
  inline H2 h2exp(H2 a) { return H2(hexp(a.x), hexp(a.y)); }                                                           \
  inline H2 h2exp2(H2 a) { return H2(hexp2(a.x), hexp2(a.y)); }                                                        \
  inline H2 h2exp10(H2 a) { return H2(hexp10(a.x), hexp10(a.y)); }                                                     \
  inline H2 h2log(H2 a) { return H2(hlog(a.x), hlog(a.y)); }                                                           \
  inline H2 h2log2(H2 a) { return H2(hlog2(a.x), hlog2(a.y)); }                                                        \
  inline H2 h2log10(H2 a) { return H2(hlog10(a.x), hlog10(a.y)); }                                                     \
  inline H2 h2sin(H2 a) { return H2(hsin(a.x), hsin(a.y)); }                                                           \
  inline H2 h2cos(H2 a) { return H2(hcos(a.x), hcos(a.y)); }                                                           \
  inline H2 h2tanh(H2 a) { return H2(htanh(a.x), htanh(a.y)); }                                                        \
  inline H2 h2ceil(H2 a) { return H2(hceil(a.x), hceil(a.y)); }                                                        \
  inline H2 h2floor(H2 a) { return H2(hfloor(a.x), hfloor(a.y)); }                                                     \
  inline H2 h2trunc(H2 a) { return H2(htrunc(a.x), htrunc(a.y)); }                                                     \
  inline H2 h2rint(H2 a) { return H2(hrint(a.x), hrint(a.y)); }

CUDACPU_NARROW_ARITH(__half, __half2)
CUDACPU_NARROW_ARITH(__nv_bfloat16, __nv_bfloat162)
#undef CUDACPU_NARROW_ARITH

#define CUDACPU_NARROW_OPERATORS(H)                                                                                    \
  inline H operator+(const H &a, const H &b) { return __hadd(a, b); }                                                  \
  inline H operator-(const H &a, const H &b) { return __hsub(a, b); }                                                  \
  inline H operator*(const H &a, const H &b) { return __hmul(a, b); }                                                  \
  inline H operator/(const H &a, const H &b) { return __hdiv(a, b); }                                                  \
  inline H &operator+=(H &a, const H &b) { return a = __hadd(a, b); }                                                  \
  inline H &operator-=(H &a, const H &b) { return a = __hsub(a, b); }                                                  \
  inline H &operator*=(H &a, const H &b) { return a = __hmul(a, b); }                                                  \
  inline H &operator/=(H &a, const H &b) { return a = __hdiv(a, b); }                                                  \
  inline H operator+(const H &a) { return a; }                                                                         \
  inline H operator-(const H &a) { return __hneg(a); }                                                                 \
  inline H &operator++(H &a) { return a = __hadd(a, cudacpu::fp::round_to<H>(1.0f)); }                                 \
  inline H &operator--(H &a) { return a = __hsub(a, cudacpu::fp::round_to<H>(1.0f)); }                                 \
  inline H operator++(H &a, int) { H r = a; ++a; return r; }                                                           \
  inline H operator--(H &a, int) { H r = a; --a; return r; }                                                           \
  inline bool operator==(const H &a, const H &b) { return __heq(a, b); }                                               \
  inline bool operator!=(const H &a, const H &b) { return __hneu(a, b); }                                              \
  inline bool operator<(const H &a, const H &b) { return __hlt(a, b); }                                                \
  inline bool operator<=(const H &a, const H &b) { return __hle(a, b); }                                               \
  inline bool operator>(const H &a, const H &b) { return __hgt(a, b); }                                                \
  inline bool operator>=(const H &a, const H &b) { return __hge(a, b); }
#define CUDACPU_NARROW2_OPERATORS(H2)                                                                                  \
  inline H2 operator+(const H2 &a, const H2 &b) { return __hadd2(a, b); }                                              \
  inline H2 operator-(const H2 &a, const H2 &b) { return __hsub2(a, b); }                                              \
  inline H2 operator*(const H2 &a, const H2 &b) { return __hmul2(a, b); }                                              \
  inline H2 operator/(const H2 &a, const H2 &b) { return __h2div(a, b); }                                              \
  inline H2 &operator+=(H2 &a, const H2 &b) { return a = __hadd2(a, b); }                                              \
  inline H2 &operator-=(H2 &a, const H2 &b) { return a = __hsub2(a, b); }                                              \
  inline H2 &operator*=(H2 &a, const H2 &b) { return a = __hmul2(a, b); }                                              \
  inline H2 &operator/=(H2 &a, const H2 &b) { return a = __h2div(a, b); }                                              \
  inline H2 operator+(const H2 &a) { return a; }                                                                       \
  inline H2 operator-(const H2 &a) { return __hneg2(a); }                                                              \
  inline bool operator==(const H2 &a, const H2 &b) { return __hbeq2(a, b); }                                           \
  inline bool operator!=(const H2 &a, const H2 &b) { return !__hbeq2(a, b); }

#if !defined(__CUDA_NO_HALF_OPERATORS__)
CUDACPU_NARROW_OPERATORS(__half)
#endif
#if !defined(__CUDA_NO_HALF2_OPERATORS__)
CUDACPU_NARROW2_OPERATORS(__half2)
#endif
#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
CUDACPU_NARROW_OPERATORS(__nv_bfloat16)
CUDACPU_NARROW2_OPERATORS(__nv_bfloat162)
#endif
#undef CUDACPU_NARROW_OPERATORS
#undef CUDACPU_NARROW2_OPERATORS

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
