// CUDA's device intrinsics and math API on the CPU: integer and bit intrinsics (exact), type
// reinterpretation and rounding-mode conversions (exact), atomics (exact: a launch's threads
// run one at a time), cache-hinted loads and stores, and the math functions.
//
// Accuracy (docs/runtime.md has the table): the standard float functions (expf, logf, sinf,
// tanhf, erff, powf, ...) are glibc's, correctly rounded or within 1 ulp, which is within
// CUDA's documented bounds (1 to 4 ulp) but not bit-identical to the GPU. The fast intrinsics
// follow the GPU's own construction where it decides their error: __expf(x) is
// exp2(x * log2(e)) with the product rounded to float first (as ex2.approx of a rounded
// product: the error that grows with |x| is the GPU's), __logf is log2 times ln 2 rounded,
// __powf is exp2(y * log2 x) rounded the same way, __fdividef returns 0 for 2^126 < |y| < 2^128
// as the GPU does; the approximate hardware units themselves (ex2.approx, lg2.approx,
// sin.approx, rsqrt.approx) are taken exact, within their documented 2 ulp. Directed-rounding
// arithmetic (__fadd_rz, __fmul_ru, __fdiv_rd, ...) is exact.
#pragma once

#include "cudacpu/floats.h"
#include "cudacpu/fp16.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

// ---------------------------------------------------------------- reinterpretation
inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
inline double __longlong_as_double(long long i) { double d; std::memcpy(&d, &i, 8); return d; }
inline long long __double_as_longlong(double d) { long long i; std::memcpy(&i, &d, 8); return i; }
inline int __double2hiint(double d) { return static_cast<int>(static_cast<unsigned long long>(__double_as_longlong(d)) >> 32); }
inline int __double2loint(double d) { return static_cast<int>(static_cast<unsigned long long>(__double_as_longlong(d)) & 0xffffffffu); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) | static_cast<unsigned>(lo)));
}

// ---------------------------------------------------------------- directed rounding
namespace cudacpu::fp {
/// `exact` rounded to float as `mode` says, given the float nearest to it and the sign of
/// exact - nearest (the error-free transformation's remainder).
inline float directed(float nearest, double remainder, Round mode) {
  if (remainder == 0 || mode == Round::Nearest || std::isnan(nearest))
    return nearest;
  const bool up = mode == Round::Up || (mode == Round::Zero && nearest < 0);
  const bool down = mode == Round::Down || (mode == Round::Zero && nearest > 0);
  if (up && remainder > 0)
    return std::nextafter(nearest, INFINITY);
  if (down && remainder < 0)
    return std::nextafter(nearest, -INFINITY);
  return nearest;
}
/// a (op) b in double is exact for + - * of floats; the float rounding of it with a mode.
inline float roundDouble(double exact, Round mode) {
  const float n = static_cast<float>(exact);
  return directed(n, exact - static_cast<double>(n), mode);
}
inline float divide(float a, float b, Round mode) {
  const float q = a / b;
  if (mode == Round::Nearest || !std::isfinite(q) || q == 0)
    return mode == Round::Nearest ? q : roundDouble(static_cast<double>(a) / b, mode);
  // remainder of the division: a - q * b, exact with fma in double
  const double r = std::fma(-static_cast<double>(q), static_cast<double>(b), static_cast<double>(a));
  return directed(q, (b > 0) == (r > 0) ? (r == 0 ? 0.0 : 1.0) : -1.0, mode);
}
inline float sqrtMode(float a, Round mode) {
  const float s = std::sqrt(a);
  if (mode == Round::Nearest || !std::isfinite(s) || s == 0)
    return s;
  const double r = static_cast<double>(a) - static_cast<double>(s) * static_cast<double>(s); // exact
  return directed(s, r, mode);
}
} // namespace cudacpu::fp

#define CUDACPU_ROUNDED(SUFFIX, MODE)                                                                                  \
  inline float __fadd_##SUFFIX(float a, float b) { return cudacpu::fp::roundDouble(static_cast<double>(a) + b, MODE); } \
  inline float __fsub_##SUFFIX(float a, float b) { return cudacpu::fp::roundDouble(static_cast<double>(a) - b, MODE); } \
  inline float __fmul_##SUFFIX(float a, float b) { return cudacpu::fp::roundDouble(static_cast<double>(a) * b, MODE); } \
  inline float __fdiv_##SUFFIX(float a, float b) { return cudacpu::fp::divide(a, b, MODE); }                           \
  inline float __fsqrt_##SUFFIX(float a) { return cudacpu::fp::sqrtMode(a, MODE); }                                   \
  inline float __frcp_##SUFFIX(float a) { return cudacpu::fp::divide(1.0f, a, MODE); }                                \
  inline float __fmaf_##SUFFIX(float a, float b, float c) {                                                            \
    return cudacpu::fp::roundDouble(cudacpu::fp::fma_round_to_odd(a, b, c), MODE);                                    \
  }                                                                                                                    \
  inline double __dadd_##SUFFIX(double a, double b) { return a + b; }                                                  \
  inline double __dmul_##SUFFIX(double a, double b) { return a * b; }                                                  \
  inline float __int2float_##SUFFIX(int i) { return cudacpu::fp::roundDouble(static_cast<double>(i), MODE); }        \
  inline float __uint2float_##SUFFIX(unsigned i) { return cudacpu::fp::roundDouble(static_cast<double>(i), MODE); }  \
  inline float __double2float_##SUFFIX(double d) { return cudacpu::fp::roundDouble(d, MODE); }                       \
  inline int __float2int_##SUFFIX(float f) { return cudacpu::fp::to_int<int>(f, MODE); }                             \
  inline unsigned __float2uint_##SUFFIX(float f) { return cudacpu::fp::to_int<unsigned>(f, MODE); }                  \
  inline long long __float2ll_##SUFFIX(float f) { return cudacpu::fp::to_int<long long>(f, MODE); }                  \
  inline unsigned long long __float2ull_##SUFFIX(float f) { return cudacpu::fp::to_int<unsigned long long>(f, MODE); } \
  inline int __double2int_##SUFFIX(double f) { return cudacpu::fp::to_int<int>(f, MODE); }                           \
  inline unsigned __double2uint_##SUFFIX(double f) { return cudacpu::fp::to_int<unsigned>(f, MODE); }                \
  inline long long __double2ll_##SUFFIX(double f) { return cudacpu::fp::to_int<long long>(f, MODE); }                \
  inline unsigned long long __double2ull_##SUFFIX(double f) { return cudacpu::fp::to_int<unsigned long long>(f, MODE); }
CUDACPU_ROUNDED(rn, cudacpu::fp::Round::Nearest)
CUDACPU_ROUNDED(rz, cudacpu::fp::Round::Zero)
CUDACPU_ROUNDED(rd, cudacpu::fp::Round::Down)
CUDACPU_ROUNDED(ru, cudacpu::fp::Round::Up)
#undef CUDACPU_ROUNDED
inline float __fmaf_ieee_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __ll2float_rn(long long i) { return static_cast<float>(i); }
inline float __ull2float_rn(unsigned long long i) { return static_cast<float>(i); }
inline double __ll2double_rn(long long i) { return static_cast<double>(i); }
inline double __int2double_rn(int i) { return i; }
inline double __uint2double_rn(unsigned i) { return i; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

// ---------------------------------------------------------------- the fast intrinsics
inline float __saturatef(float x) { return cudacpu::fp::saturate01(x); }
inline float __expf(float x) { return std::exp2(x * 1.44269504088896340736f); }
inline float __exp10f(float x) { return std::exp2(x * 3.32192809488736234787f); }
inline float __logf(float x) { return std::log2(x) * 0.693147180559945309417f; }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log2(x) * 0.301029995663981195214f; }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline void __sincosf(float x, float *s, float *c) { *s = std::sin(x); *c = std::cos(x); }
inline float __fdividef(float x, float y) {
  const float ay = std::fabs(y);
  if (ay > 8.50705917e37f && ay < INFINITY) // 2^126 < |y| < 2^128: the GPU's reciprocal underflows
    return std::isinf(x) ? NAN : 0.0f * x;
  return x / y;
}
inline float fdividef(float x, float y) { return x / y; }
inline float __tanf(float x) { return __fdividef(__sinf(x), __cosf(x)); }
inline float __powf(float x, float y) { return std::exp2(y * std::log2(x)); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }

// ---------------------------------------------------------------- math CUDA has and the host lacks
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float exp10f(float x) { return static_cast<float>(std::pow(10.0, static_cast<double>(x))); }
inline float sinpif(float x) { return static_cast<float>(std::sin(M_PI * static_cast<double>(x))); }
inline float cospif(float x) { return static_cast<float>(std::cos(M_PI * static_cast<double>(x))); }
inline double sinpi(double x) { return std::sin(M_PI * x); }
inline double cospi(double x) { return std::cos(M_PI * x); }
inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
inline float normcdff(float x) { return static_cast<float>(0.5 * std::erfc(-static_cast<double>(x) / M_SQRT2)); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x / M_SQRT2); }
inline float erfcxf(float x) { return static_cast<float>(std::exp(static_cast<double>(x) * x) * std::erfc(static_cast<double>(x))); }
namespace cudacpu::detail {
inline double erfinv(double y) {
  if (y <= -1)
    return y == -1 ? -INFINITY : NAN;
  if (y >= 1)
    return y == 1 ? INFINITY : NAN;
  // Giles' approximation, then two Newton steps on erf in double.
  double w = -std::log((1.0 - y) * (1.0 + y)), x;
  if (w < 6.25) {
    w -= 3.125;
    x = -3.6444120640178196996e-21;
    for (double c : {-1.685059138182016589e-19, 1.2858480715256400167e-18, 1.115787767802518096e-17,
                     -1.333171662854620906e-16, 2.0972767875968561637e-17, 6.6376381343583238325e-15,
                     -4.0545662729752068639e-14, -8.1519341976054721522e-14, 2.6335093153082322977e-12,
                     -1.2975133253453532498e-11, -5.4154120542946279317e-11, 1.051212273321532285e-09,
                     -4.1126339803469836976e-09, -2.9070369957882005086e-08, 4.2347877827932403518e-07,
                     -1.3654692000834678645e-06, -1.3882523362786468719e-05, 0.0001867342080340571352,
                     -0.00074070253416626697512, -0.0060336708714301490533, 0.24015818242558961693,
                     1.6536545626831027356})
      x = c + x * w;
  } else {
    w = std::sqrt(w) - 3.25;
    x = 2.2137376921775787049e-09;
    for (double c : {9.0756561938885390979e-08, -2.7517406297064545428e-07, 1.8239629214389227755e-08,
                     1.5027403968909827627e-06, -4.013867526981545969e-06, 2.9234449089955446044e-06,
                     1.2475304481671778723e-05, -4.7318229009055733981e-05, 6.8284851459573175448e-05,
                     2.4031110387097893999e-05, -0.0003550375203628474796, 0.00095328937973738049703,
                     -0.0016882755560235047313, 0.0024914420961078508066, -0.0037512085075692412107,
                     0.005370914553590063617, 1.0052589676941592334, 3.0838856104922207635})
      x = c + x * w;
  }
  x *= y;
  for (int i = 0; i < 2; ++i)
    x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}
} // namespace cudacpu::detail
inline float erfinvf(float y) { return static_cast<float>(cudacpu::detail::erfinv(y)); }
inline double erfinv(double y) { return cudacpu::detail::erfinv(y); }
inline float erfcinvf(float y) { return static_cast<float>(cudacpu::detail::erfinv(1.0 - static_cast<double>(y))); }
inline double erfcinv(double y) { return cudacpu::detail::erfinv(1.0 - y); }
inline float normcdfinvf(float y) { return static_cast<float>(M_SQRT2 * cudacpu::detail::erfinv(2.0 * static_cast<double>(y) - 1.0)); }
inline double normcdfinv(double y) { return M_SQRT2 * cudacpu::detail::erfinv(2.0 * y - 1.0); }

// CUDA's min/max overloads for the arithmetic types (non-templates, so they win over
// std::min/max where both are visible, as with nvcc).
#define CUDACPU_MINMAX(T)                                                                                              \
  inline T min(T a, T b) { return a < b ? a : b; }                                                                     \
  inline T max(T a, T b) { return a > b ? a : b; }
CUDACPU_MINMAX(int)
CUDACPU_MINMAX(unsigned int)
CUDACPU_MINMAX(long)
CUDACPU_MINMAX(unsigned long)
CUDACPU_MINMAX(long long)
CUDACPU_MINMAX(unsigned long long)
CUDACPU_MINMAX(short)
CUDACPU_MINMAX(unsigned short)
CUDACPU_MINMAX(signed char)
CUDACPU_MINMAX(unsigned char)
#undef CUDACPU_MINMAX
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline unsigned min(int a, unsigned b) { return std::min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return std::min(a, static_cast<unsigned>(b)); }
inline unsigned max(int a, unsigned b) { return std::max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return std::max(a, static_cast<unsigned>(b)); }
inline long long min(long long a, int b) { return std::min(a, static_cast<long long>(b)); }
inline long long min(int a, long long b) { return std::min(static_cast<long long>(a), b); }
inline long long max(long long a, int b) { return std::max(a, static_cast<long long>(b)); }
inline long long max(int a, long long b) { return std::max(static_cast<long long>(a), b); }
inline long min(long a, int b) { return std::min(a, static_cast<long>(b)); }
inline long min(int a, long b) { return std::min(static_cast<long>(a), b); }
inline long max(long a, int b) { return std::max(a, static_cast<long>(b)); }
inline long max(int a, long b) { return std::max(static_cast<long>(a), b); }
inline float max(float a, int b) { return std::fmax(a, static_cast<float>(b)); }
inline float max(int a, float b) { return std::fmax(static_cast<float>(a), b); }
inline float min(float a, int b) { return std::fmin(a, static_cast<float>(b)); }
inline float min(int a, float b) { return std::fmin(static_cast<float>(a), b); }

// ---------------------------------------------------------------- integer intrinsics
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned sel = (s >> (4 * i)) & 7u;
    r |= static_cast<unsigned>((v >> (8 * sel)) & 0xffu) << (8 * i);
  }
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << std::min(shift, 32u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> std::min(shift, 32u));
}
inline int __mul24(int a, int b) { return static_cast<int>(static_cast<long long>((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned __uhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned __urhadd(unsigned a, unsigned b) { return static_cast<unsigned>((static_cast<unsigned long long>(a) + b + 1) >> 1); }
inline unsigned __sad(int a, int b, unsigned c) { return c + static_cast<unsigned>(a > b ? a - b : b - a); }
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
inline int __dp4a(int a, int b, int c) {
  int r = c;
  for (int i = 0; i < 4; ++i)
    r += static_cast<signed char>(a >> (8 * i)) * static_cast<signed char>(b >> (8 * i));
  return r;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  unsigned r = c;
  for (int i = 0; i < 4; ++i)
    r += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
  return r;
}
inline int __dp2a_lo(int a, int b, int c) {
  return c + static_cast<short>(a) * static_cast<signed char>(b) + static_cast<short>(a >> 16) * static_cast<signed char>(b >> 8);
}
inline int __dp2a_hi(int a, int b, int c) {
  return c + static_cast<short>(a) * static_cast<signed char>(b >> 16) + static_cast<short>(a >> 16) * static_cast<signed char>(b >> 24);
}

// ---------------------------------------------------------------- loads and stores with cache hints
template <class T> T __ldg(const T *p) { return *p; }
template <class T> T __ldcg(const T *p) { return *p; }
template <class T> T __ldca(const T *p) { return *p; }
template <class T> T __ldcs(const T *p) { return *p; }
template <class T> T __ldlu(const T *p) { return *p; }
template <class T> T __ldcv(const T *p) { return *p; }
template <class T> void __stwb(T *p, T v) { *p = v; }
template <class T> void __stcg(T *p, T v) { *p = v; }
template <class T> void __stcs(T *p, T v) { *p = v; }
template <class T> void __stwt(T *p, T v) { *p = v; }
inline void __prefetch_global_l1(const void *) {}
inline void __prefetch_global_l2(const void *) {}

// ---------------------------------------------------------------- atomics
// A launch's threads run one at a time and switch only at synchronisation points, so a plain
// read-modify-write is atomic with respect to every other thread of the grid.
template <class T> T atomicAdd(T *a, T v) { T old = *a; *a = static_cast<T>(old + v); return old; }
inline __half atomicAdd(__half *a, __half v) { __half old = *a; *a = __hadd(old, v); return old; }
inline __half2 atomicAdd(__half2 *a, __half2 v) { __half2 old = *a; *a = __hadd2(old, v); return old; }
inline __nv_bfloat16 atomicAdd(__nv_bfloat16 *a, __nv_bfloat16 v) { __nv_bfloat16 old = *a; *a = __hadd(old, v); return old; }
inline __nv_bfloat162 atomicAdd(__nv_bfloat162 *a, __nv_bfloat162 v) { __nv_bfloat162 old = *a; *a = __hadd2(old, v); return old; }
inline float2 atomicAdd(float2 *a, float2 v) { float2 old = *a; a->x += v.x; a->y += v.y; return old; }
inline float4 atomicAdd(float4 *a, float4 v) { float4 old = *a; a->x += v.x; a->y += v.y; a->z += v.z; a->w += v.w; return old; }
template <class T> T atomicSub(T *a, T v) { T old = *a; *a = static_cast<T>(old - v); return old; }
template <class T> T atomicExch(T *a, T v) { T old = *a; *a = v; return old; }
template <class T> T atomicMin(T *a, T v) { T old = *a; *a = v < old ? v : old; return old; }
template <class T> T atomicMax(T *a, T v) { T old = *a; *a = v > old ? v : old; return old; }
template <class T> T atomicAnd(T *a, T v) { T old = *a; *a = old & v; return old; }
template <class T> T atomicOr(T *a, T v) { T old = *a; *a = old | v; return old; }
template <class T> T atomicXor(T *a, T v) { T old = *a; *a = old ^ v; return old; }
template <class T> T atomicCAS(T *a, T compare, T v) { T old = *a; if (old == compare) *a = v; return old; }
inline unsigned atomicInc(unsigned *a, unsigned v) { unsigned old = *a; *a = old >= v ? 0u : old + 1u; return old; }
inline unsigned atomicDec(unsigned *a, unsigned v) { unsigned old = *a; *a = (old == 0u || old > v) ? v : old - 1u; return old; }
#define CUDACPU_ATOMIC_SCOPES(NAME)                                                                                    \
  template <class T, class... R> auto NAME##_block(T *a, R... r) { return NAME(a, r...); }                             \
  template <class T, class... R> auto NAME##_system(T *a, R... r) { return NAME(a, r...); }
CUDACPU_ATOMIC_SCOPES(atomicAdd)
CUDACPU_ATOMIC_SCOPES(atomicSub)
CUDACPU_ATOMIC_SCOPES(atomicExch)
CUDACPU_ATOMIC_SCOPES(atomicMin)
CUDACPU_ATOMIC_SCOPES(atomicMax)
CUDACPU_ATOMIC_SCOPES(atomicAnd)
CUDACPU_ATOMIC_SCOPES(atomicOr)
CUDACPU_ATOMIC_SCOPES(atomicXor)
CUDACPU_ATOMIC_SCOPES(atomicCAS)
CUDACPU_ATOMIC_SCOPES(atomicInc)
CUDACPU_ATOMIC_SCOPES(atomicDec)
#undef CUDACPU_ATOMIC_SCOPES
