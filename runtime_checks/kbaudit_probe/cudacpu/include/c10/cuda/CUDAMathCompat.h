// c10/cuda/CUDAMathCompat.h on the CPU runner.
#pragma once
#include <cudacpu/prelude.h>
#include <c10/util/complex.h>
namespace c10::cuda::compat {
template <class T> T abs(T x) { return std::abs(x); }
template <class T> T exp(T x) { return std::exp(x); }
template <class T> T log(T x) { return std::log(x); }
template <class T> T sqrt(T x) { return std::sqrt(x); }
template <class T> T rsqrt(T x) { return T(1) / std::sqrt(x); }
template <class T> T pow(T a, T b) { return std::pow(a, b); }
template <class T> T max(T a, T b) { return a > b ? a : b; }
template <class T> T min(T a, T b) { return a < b ? a : b; }
}
