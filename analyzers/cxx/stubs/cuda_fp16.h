// kbaudit stub: cuda_fp16.h — the half types and their conversion/arithmetic intrinsics.
#pragma once
#include <cuda_runtime.h>
struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };
struct __half {
  unsigned short __x;
  __half() = default;
  template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>> KB_HD __half(T);
  KB_HD __half(const __half_raw &);
  KB_HD operator float() const;
  KB_HD operator __half_raw() const;
  KB_HD explicit operator bool() const;
};
struct __half2 {
  __half x, y;
  __half2() = default;
  KB_HD __half2(const __half &, const __half &);
  KB_HD __half2(const __half2_raw &);
  KB_HD operator __half2_raw() const;
};
typedef __half half;
typedef __half2 half2;
KB_HD __half __float2half(float);
KB_HD __half __float2half_rn(float);
KB_HD __half __float2half_rz(float);
KB_HD __half __float2half_rd(float);
KB_HD __half __float2half_ru(float);
KB_HD __half __double2half(double);
KB_HD float __half2float(__half);
KB_HD __half2 __float2half2_rn(float);
KB_HD __half2 __floats2half2_rn(float, float);
KB_HD __half2 __float22half2_rn(float2);
KB_HD float2 __half22float2(__half2);
KB_HD __half2 __halves2half2(__half, __half);
KB_HD __half2 __half2half2(__half);
KB_HD __half __int2half_rn(int);
KB_HD __half __uint2half_rn(unsigned);
KB_HD __half __short2half_rn(short);
KB_HD __half __ushort2half_rn(unsigned short);
KB_HD __half __ll2half_rn(long long);
KB_HD int __half2int_rn(__half);
KB_HD int __half2int_rz(__half);
KB_HD unsigned __half2uint_rn(__half);
KB_HD short __half2short_rn(__half);
KB_HD unsigned short __half_as_ushort(__half);
KB_HD __half __ushort_as_half(unsigned short);
KB_HD short __half_as_short(__half);
KB_HD __half __short_as_half(short);
#define KB_HALF_T __half
#define KB_HALF_T2 __half2
#include <kbaudit/half_ops.h>
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
