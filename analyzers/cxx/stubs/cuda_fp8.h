// kbaudit stub: cuda_fp8.h (and the fp6/fp4 types of cuda_fp6.h / cuda_fp4.h).
#pragma once
#include <cuda_bf16.h>
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef unsigned char __nv_fp6_storage_t;
typedef unsigned short __nv_fp6x2_storage_t;
typedef unsigned char __nv_fp4_storage_t;
typedef unsigned char __nv_fp4x2_storage_t;
typedef unsigned short __nv_fp4x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;
typedef enum __nv_fp6_interpretation_t { __NV_E2M3, __NV_E3M2 } __nv_fp6_interpretation_t;
typedef enum __nv_fp4_interpretation_t { __NV_E2M1 } __nv_fp4_interpretation_t;
KB_HD __nv_fp8_storage_t __nv_cvt_float_to_fp8(float, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8_storage_t __nv_cvt_double_to_fp8(double, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(double2, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(__half2_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw, __nv_saturation_t, __nv_fp8_interpretation_t);
KB_HD __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t, __nv_fp8_interpretation_t);
KB_HD __half2_raw __nv_cvt_fp8x2_to_halfraw2(__nv_fp8x2_storage_t, __nv_fp8_interpretation_t);
KB_HD __nv_fp4_storage_t __nv_cvt_float_to_fp4(float, __nv_fp4_interpretation_t, int);
KB_HD __nv_fp4x2_storage_t __nv_cvt_float2_to_fp4x2(float2, __nv_fp4_interpretation_t, int);
KB_HD __half2_raw __nv_cvt_fp4x2_to_halfraw2(__nv_fp4x2_storage_t, __nv_fp4_interpretation_t);
KB_HD __nv_fp6_storage_t __nv_cvt_float_to_fp6(float, __nv_fp6_interpretation_t, int);
#define KB_FP8_SCALAR(N, S)                                                                \
  struct N {                                                                               \
    S __x;                                                                                 \
    N() = default;                                                                         \
    template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>> KB_HD explicit N(T); \
    KB_HD explicit N(const __half &);                                                      \
    KB_HD explicit N(const __nv_bfloat16 &);                                               \
    KB_HD operator float() const;                                                          \
    KB_HD explicit operator __half() const;                                                \
    KB_HD explicit operator __nv_bfloat16() const;                                         \
  };
#define KB_FP8_VECTOR(N, S, F, H)                                                          \
  struct N {                                                                               \
    S __x;                                                                                 \
    N() = default;                                                                         \
    KB_HD explicit N(const F &);                                                           \
    KB_HD explicit N(const H &);                                                           \
    KB_HD explicit operator F() const;                                                     \
  };
KB_FP8_SCALAR(__nv_fp8_e4m3, __nv_fp8_storage_t)
KB_FP8_SCALAR(__nv_fp8_e5m2, __nv_fp8_storage_t)
KB_FP8_VECTOR(__nv_fp8x2_e4m3, __nv_fp8x2_storage_t, float2, __half2)
KB_FP8_VECTOR(__nv_fp8x2_e5m2, __nv_fp8x2_storage_t, float2, __half2)
KB_FP8_VECTOR(__nv_fp8x4_e4m3, __nv_fp8x4_storage_t, float4, __nv_bfloat162)
KB_FP8_VECTOR(__nv_fp8x4_e5m2, __nv_fp8x4_storage_t, float4, __nv_bfloat162)
KB_FP8_SCALAR(__nv_fp6_e2m3, __nv_fp6_storage_t)
KB_FP8_SCALAR(__nv_fp6_e3m2, __nv_fp6_storage_t)
KB_FP8_SCALAR(__nv_fp4_e2m1, __nv_fp4_storage_t)
KB_FP8_VECTOR(__nv_fp4x2_e2m1, __nv_fp4x2_storage_t, float2, __half2)
KB_FP8_VECTOR(__nv_fp4x4_e2m1, __nv_fp4x4_storage_t, float4, __nv_bfloat162)
#undef KB_FP8_SCALAR
#undef KB_FP8_VECTOR
