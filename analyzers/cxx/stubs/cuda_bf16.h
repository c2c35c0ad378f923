// kbaudit stub: cuda_bf16.h — the bfloat16 types and their intrinsics.
#pragma once
#include <cuda_fp16.h>
struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x, y; };
struct __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>> KB_HD __nv_bfloat16(T);
  KB_HD __nv_bfloat16(const __nv_bfloat16_raw &);
  KB_HD explicit __nv_bfloat16(const __half &);
  KB_HD operator float() const;
  KB_HD operator __nv_bfloat16_raw() const;
  KB_HD explicit operator bool() const;
};
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  KB_HD __nv_bfloat162(const __nv_bfloat16 &, const __nv_bfloat16 &);
  KB_HD __nv_bfloat162(const __nv_bfloat162_raw &);
  KB_HD operator __nv_bfloat162_raw() const;
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
KB_HD __nv_bfloat16 __float2bfloat16(float);
KB_HD __nv_bfloat16 __float2bfloat16_rn(float);
KB_HD __nv_bfloat16 __float2bfloat16_rz(float);
KB_HD __nv_bfloat16 __float2bfloat16_rd(float);
KB_HD __nv_bfloat16 __float2bfloat16_ru(float);
KB_HD __nv_bfloat16 __double2bfloat16(double);
KB_HD float __bfloat162float(__nv_bfloat16);
KB_HD __nv_bfloat162 __float2bfloat162_rn(float);
KB_HD __nv_bfloat162 __floats2bfloat162_rn(float, float);
KB_HD __nv_bfloat162 __float22bfloat162_rn(float2);
KB_HD float2 __bfloat1622float2(__nv_bfloat162);
KB_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
KB_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16);
KB_HD __nv_bfloat16 __low2bfloat16(__nv_bfloat162);
KB_HD __nv_bfloat16 __high2bfloat16(__nv_bfloat162);
KB_HD __nv_bfloat16 __int2bfloat16_rn(int);
KB_HD __nv_bfloat16 __uint2bfloat16_rn(unsigned);
KB_HD int __bfloat162int_rn(__nv_bfloat16);
KB_HD int __bfloat162int_rz(__nv_bfloat16);
KB_HD unsigned short __bfloat16_as_ushort(__nv_bfloat16);
KB_HD __nv_bfloat16 __ushort_as_bfloat16(unsigned short);
KB_HD short __bfloat16_as_short(__nv_bfloat16);
KB_HD __nv_bfloat16 __short_as_bfloat16(short);
#define KB_HALF_T __nv_bfloat16
#define KB_HALF_T2 __nv_bfloat162
#include <kbaudit/half_ops.h>
