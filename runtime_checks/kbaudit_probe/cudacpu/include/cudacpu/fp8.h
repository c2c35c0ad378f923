// The fp8 types of cuda_fp8.h (e4m3 and e5m2) on the CPU. Conversions round to nearest even;
// the class constructors saturate to the largest finite value (__NV_SATFINITE), as CUDA's do;
// __nv_cvt_* take the saturation mode. NaN becomes 0x7f (e4m3) or a quiet NaN (e5m2), as in
// CUDA's conversion routine.
#pragma once

#include "cudacpu/floats.h"
#include "cudacpu/fp16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };

namespace cudacpu::fp {
inline __nv_fp8_storage_t to_fp8(double x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  const Format &f = kind == __NV_E4M3 ? kE4M3 : kE5M2;
  if (std::isnan(x)) // CUDA makes a float NaN canonical first: 0x7f in both formats
    return 0x7f;
  return static_cast<__nv_fp8_storage_t>(encode(x, f, Round::Nearest, sat == __NV_SATFINITE));
}
inline float from_fp8(__nv_fp8_storage_t b, __nv_fp8_interpretation_t kind) {
  return decode(b, kind == __NV_E4M3 ? kE4M3 : kE5M2);
}
} // namespace cudacpu::fp

inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return cudacpu::fp::to_fp8(x, sat, kind);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return cudacpu::fp::to_fp8(x, sat, kind);
}
inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return static_cast<__nv_fp8x2_storage_t>(cudacpu::fp::to_fp8(x.x, sat, kind) | (cudacpu::fp::to_fp8(x.y, sat, kind) << 8));
}
inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2 x, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return static_cast<__nv_fp8x2_storage_t>(cudacpu::fp::to_fp8(x.x, sat, kind) | (cudacpu::fp::to_fp8(x.y, sat, kind) << 8));
}
inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw h, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return cudacpu::fp::to_fp8(cudacpu::fp::half_to_float(h.x), sat, kind);
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw h, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return cudacpu::fp::to_fp8(cudacpu::fp::bf16_to_float(h.x), sat, kind);
}
inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(__half2_raw h, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_halfraw_to_fp8(__half_raw{h.x}, sat, kind) |
                                           (__nv_cvt_halfraw_to_fp8(__half_raw{h.y}, sat, kind) << 8));
}
inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw h, __nv_saturation_t sat, __nv_fp8_interpretation_t kind) {
  return static_cast<__nv_fp8x2_storage_t>(__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{h.x}, sat, kind) |
                                           (__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{h.y}, sat, kind) << 8));
}
inline __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t b, __nv_fp8_interpretation_t kind) {
  return __half_raw{cudacpu::fp::float_to_half_rn(cudacpu::fp::from_fp8(b, kind))};
}
inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t b, __nv_fp8_interpretation_t kind) {
  return __half2_raw{__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(b & 0xff), kind).x,
                     __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(b >> 8), kind).x};
}

#define CUDACPU_FP8_TYPE(NAME, KIND)                                                                                  \
  struct __align__(1) NAME {                                                                                           \
    __nv_fp8_storage_t __x;                                                                                            \
    NAME() = default;                                                                                                  \
    explicit NAME(float f) : __x(cudacpu::fp::to_fp8(f, __NV_SATFINITE, KIND)) {}                                       \
    explicit NAME(double f) : __x(cudacpu::fp::to_fp8(f, __NV_SATFINITE, KIND)) {}                                      \
    explicit NAME(__half h) : __x(cudacpu::fp::to_fp8(cudacpu::fp::half_to_float(h.__x), __NV_SATFINITE, KIND)) {}      \
    explicit NAME(__nv_bfloat16 h) : __x(cudacpu::fp::to_fp8(cudacpu::fp::bf16_to_float(h.__x), __NV_SATFINITE, KIND)) {} \
    explicit NAME(int v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}                   \
    explicit NAME(unsigned int v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}          \
    explicit NAME(long long v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}             \
    explicit NAME(unsigned long long v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}    \
    explicit NAME(short v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}                 \
    explicit NAME(unsigned short v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}        \
    explicit NAME(long v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}                  \
    explicit NAME(unsigned long v) : __x(cudacpu::fp::to_fp8(static_cast<double>(v), __NV_SATFINITE, KIND)) {}         \
    explicit operator float() const { return cudacpu::fp::from_fp8(__x, KIND); }                                       \
    explicit operator double() const { return cudacpu::fp::from_fp8(__x, KIND); }                                      \
    explicit operator __half() const { return __half(__nv_cvt_fp8_to_halfraw(__x, KIND)); }                            \
    explicit operator __nv_bfloat16() const { return __float2bfloat16(cudacpu::fp::from_fp8(__x, KIND)); }             \
    explicit operator bool() const { return (__x & 0x7f) != 0; }                                                       \
    explicit operator int() const { return cudacpu::fp::to_int<int>(cudacpu::fp::from_fp8(__x, KIND), cudacpu::fp::Round::Zero); } \
    explicit operator unsigned int() const { return cudacpu::fp::to_int<unsigned>(cudacpu::fp::from_fp8(__x, KIND), cudacpu::fp::Round::Zero); } \
    explicit operator long long() const { return cudacpu::fp::to_int<long long>(cudacpu::fp::from_fp8(__x, KIND), cudacpu::fp::Round::Zero); } \
    explicit operator unsigned char() const { return cudacpu::fp::to_int<unsigned char>(cudacpu::fp::from_fp8(__x, KIND), cudacpu::fp::Round::Zero); } \
    explicit operator signed char() const { return cudacpu::fp::to_int<signed char>(cudacpu::fp::from_fp8(__x, KIND), cudacpu::fp::Round::Zero); } \
    explicit operator short() const { return cudacpu::fp::to_int<short>(cudacpu::fp::from_fp8(__x, KIND), cudacpu::fp::Round::Zero); } \
  };                                                                                                                   \
  struct __align__(2) NAME##x2 {                                                                                        \
    __nv_fp8x2_storage_t __x;                                                                                          \
    NAME##x2() = default;                                                                                              \
    explicit NAME##x2(float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, KIND)) {}                             \
    explicit NAME##x2(double2 f) : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, KIND)) {}                           \
    explicit NAME##x2(__half2 h) : __x(__nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, KIND)) {}                          \
    explicit NAME##x2(__nv_bfloat162 h) : __x(__nv_cvt_bfloat16raw2_to_fp8x2(h, __NV_SATFINITE, KIND)) {}               \
    explicit operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, KIND)); }                       \
    explicit operator float2() const {                                                                                 \
      return float2{cudacpu::fp::from_fp8(static_cast<__nv_fp8_storage_t>(__x & 0xff), KIND),                          \
                    cudacpu::fp::from_fp8(static_cast<__nv_fp8_storage_t>(__x >> 8), KIND)};                            \
    }                                                                                                                  \
  };                                                                                                                   \
  struct __align__(4) NAME##x4 {                                                                                        \
    __nv_fp8x4_storage_t __x;                                                                                          \
    NAME##x4() = default;                                                                                              \
    explicit NAME##x4(float4 f)                                                                                        \
        : __x(static_cast<__nv_fp8x4_storage_t>(__nv_cvt_float2_to_fp8x2(float2{f.x, f.y}, __NV_SATFINITE, KIND)) |      \
              (static_cast<__nv_fp8x4_storage_t>(__nv_cvt_float2_to_fp8x2(float2{f.z, f.w}, __NV_SATFINITE, KIND)) << 16)) {} \
    explicit operator float4() const {                                                                                 \
      return float4{cudacpu::fp::from_fp8(static_cast<__nv_fp8_storage_t>(__x & 0xff), KIND),                          \
                    cudacpu::fp::from_fp8(static_cast<__nv_fp8_storage_t>((__x >> 8) & 0xff), KIND),                   \
                    cudacpu::fp::from_fp8(static_cast<__nv_fp8_storage_t>((__x >> 16) & 0xff), KIND),                  \
                    cudacpu::fp::from_fp8(static_cast<__nv_fp8_storage_t>(__x >> 24), KIND)};                          \
    }                                                                                                                  \
  };

CUDACPU_FP8_TYPE(__nv_fp8_e4m3, __NV_E4M3)
CUDACPU_FP8_TYPE(__nv_fp8_e5m2, __NV_E5M2)
#undef CUDACPU_FP8_TYPE

CUDACPU_PLAIN_VALUE(__nv_fp8_e4m3)
CUDACPU_PLAIN_VALUE(__nv_fp8_e5m2)
CUDACPU_PLAIN_VALUE(__nv_fp8_e4m3x2)
CUDACPU_PLAIN_VALUE(__nv_fp8_e5m2x2)
CUDACPU_PLAIN_VALUE(__nv_fp8_e4m3x4)
CUDACPU_PLAIN_VALUE(__nv_fp8_e5m2x4)

typedef __nv_fp8_e4m3 nv_fp8_e4m3;
typedef __nv_fp8_e5m2 nv_fp8_e5m2;
