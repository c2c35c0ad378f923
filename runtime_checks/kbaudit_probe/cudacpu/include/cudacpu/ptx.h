// The inline PTX the CPU runner emulates (the translator, analyzers/cudacpu/src/ptx.cpp, turns
// each instruction of an asm statement it knows into a call here; the rest is reported as
// unavailable). Registers are bit containers; an operand bound to a C++ variable is read and
// written through memcpy of its bits, as the asm constraint ("r", "l", "h", "f", "d") moves them.
//
// Shared-window addresses (__cvta_generic_to_shared, cvta.to.shared): the low 32 bits of the
// generic address, remembered so a shared address (and any offset from it) maps back.
// Asynchronous copies (cp.async) complete when issued, so commits and waits are no-ops. The
// warp-wide instructions gather the warp's registers (runtime.h's warpGather) and follow the
// fragment layouts of the PTX ISA: ldmatrix / stmatrix .m8n8 (.x1/.x2/.x4, .trans), mma.sync
// .m16n8k8 / .m16n8k16 with f16/bf16 inputs and .m16n8k32 with e4m3/e5m2/s8/u8 inputs: the
// products are exact and are summed in float (fp32 accumulators) or int32, in k order, which
// is within what a tensor core's accumulation guarantees, not its exact rounding.
#pragma once

#include "cudacpu/fp16.h"
#include "cudacpu/fp8.h"
#include "cudacpu/intrinsics.h"
#include "cudacpu/runtime.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>

namespace cudacpu::ptx {

// ---------------------------------------------------------------- operand bits
template <class T> std::uint32_t b32(const T &v) {
  if constexpr (sizeof(T) >= 4) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
  } else {
    std::uint32_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    return u;
  }
}
template <class T> std::uint64_t b64(const T &v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T) < 8 ? sizeof(T) : 8);
  if constexpr (std::is_signed_v<T> && sizeof(T) < 8)
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  return u;
}
template <class T> std::uint16_t b16(const T &v) { return static_cast<std::uint16_t>(b32(v)); }
template <class T, class U> void set(T &dst, U bits) {
  const std::uint64_t wide = static_cast<std::uint64_t>(bits);
  std::memcpy(&dst, &wide, sizeof(T) < 8 ? sizeof(T) : 8);
}
inline float f32(std::uint32_t b) { return fp::from_bits(b); }
inline std::uint32_t u32(float f) { return fp::bits(f); }
inline double f64(std::uint64_t b) { return fp::from_bits64(b); }
inline std::uint64_t u64(double d) { return fp::bits(d); }

// ---------------------------------------------------------------- addresses
inline std::map<std::uint32_t, std::uintptr_t> &sharedWindow() {
  static std::map<std::uint32_t, std::uintptr_t> w;
  return w;
}
inline std::uint32_t toShared(const void *p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto h = static_cast<std::uint32_t>(a);
  sharedWindow()[h] = a;
  return h;
}
inline void *fromShared(std::uint64_t handle) {
  if (handle >> 32)
    return reinterpret_cast<void *>(handle); // a generic address used as a shared one
  const auto h = static_cast<std::uint32_t>(handle);
  auto &w = sharedWindow();
  auto it = w.upper_bound(h);
  if (it == w.begin())
    throw KernelError("a shared-memory address (0x" + std::to_string(h) + ") that no __cvta_generic_to_shared made, in " +
                      detail::where());
  --it;
  return reinterpret_cast<void *>(it->second + (h - it->first));
}
inline void *global(std::uint64_t a) { return reinterpret_cast<void *>(a); }

// ---------------------------------------------------------------- special registers
inline std::uint32_t laneid() { return detail::g_thread->lane; }
inline std::uint32_t warpid() { return detail::g_thread->warp; }

// ---------------------------------------------------------------- memory
inline void copy(void *dst, const void *src, std::size_t size, std::size_t srcSize) {
  const std::size_t n = srcSize < size ? srcSize : size;
  if (n)
    std::memcpy(dst, src, n);
  if (n < size)
    std::memset(static_cast<char *>(dst) + n, 0, size - n);
}
template <class T> T load(const void *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T> void store(void *p, T v) { std::memcpy(p, &v, sizeof(T)); }

// ---------------------------------------------------------------- conversions
inline std::uint32_t pack16(std::uint16_t lo, std::uint16_t hi) { return static_cast<std::uint32_t>(lo) | (static_cast<std::uint32_t>(hi) << 16); }
inline std::uint16_t f32_to_f16(std::uint32_t f) { return fp::float_to_half_rn(f32(f)); }
inline std::uint16_t f32_to_bf16(std::uint32_t f) { return fp::float_to_bf16_rn(f32(f)); }
inline std::uint32_t f16_to_f32(std::uint16_t h) { return u32(fp::half_to_float(h)); }
inline std::uint32_t bf16_to_f32(std::uint16_t h) { return u32(fp::bf16_to_float(h)); }
/// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 d, a, b: a in the upper byte.
inline std::uint16_t f32x2_to_fp8x2(std::uint32_t a, std::uint32_t b, bool e4m3) {
  const auto k = e4m3 ? __NV_E4M3 : __NV_E5M2;
  return static_cast<std::uint16_t>(fp::to_fp8(f32(b), __NV_SATFINITE, k) | (fp::to_fp8(f32(a), __NV_SATFINITE, k) << 8));
}
/// cvt.rn.f16x2.{e4m3,e5m2}x2 d, a: each byte widened (exact).
inline std::uint32_t fp8x2_to_f16x2(std::uint16_t a, bool e4m3) {
  const auto k = e4m3 ? __NV_E4M3 : __NV_E5M2;
  return pack16(fp::float_to_half_rn(fp::from_fp8(static_cast<__nv_fp8_storage_t>(a & 0xff), k)),
                fp::float_to_half_rn(fp::from_fp8(static_cast<__nv_fp8_storage_t>(a >> 8), k)));
}

// ---------------------------------------------------------------- f32 and packed arithmetic
inline std::uint32_t ex2(std::uint32_t a) { return u32(std::exp2(f32(a))); }
inline std::uint32_t lg2(std::uint32_t a) { return u32(std::log2(f32(a))); }
inline std::uint32_t rcp(std::uint32_t a) { return u32(1.0f / f32(a)); }
inline std::uint32_t rsqrt(std::uint32_t a) { return u32(1.0f / std::sqrt(f32(a))); }
inline std::uint32_t sqrtf32(std::uint32_t a) { return u32(std::sqrt(f32(a))); }
inline std::uint32_t tanhf32(std::uint32_t a) { return u32(std::tanh(f32(a))); }
inline std::uint32_t sinf32(std::uint32_t a) { return u32(std::sin(f32(a))); }
inline std::uint32_t cosf32(std::uint32_t a) { return u32(std::cos(f32(a))); }
inline std::uint32_t addf(std::uint32_t a, std::uint32_t b) { return u32(f32(a) + f32(b)); }
inline std::uint32_t subf(std::uint32_t a, std::uint32_t b) { return u32(f32(a) - f32(b)); }
inline std::uint32_t mulf(std::uint32_t a, std::uint32_t b) { return u32(f32(a) * f32(b)); }
inline std::uint32_t divf(std::uint32_t a, std::uint32_t b) { return u32(f32(a) / f32(b)); }
inline std::uint32_t fmaf32(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return u32(std::fma(f32(a), f32(b), f32(c))); }
inline std::uint32_t maxf(std::uint32_t a, std::uint32_t b) { return u32(std::fmax(f32(a), f32(b))); }
inline std::uint32_t minf(std::uint32_t a, std::uint32_t b) { return u32(std::fmin(f32(a), f32(b))); }
/// Packed f16x2 / bf16x2: each half rounded once (fp16.h).
template <class H> std::uint32_t packed(std::uint32_t a, std::uint32_t b, int op) {
  auto one = [&](std::uint16_t x, std::uint16_t y) -> std::uint16_t {
    H hx, hy;
    hx.__x = x;
    hy.__x = y;
    H r = op == 0 ? __hadd(hx, hy) : op == 1 ? __hsub(hx, hy) : op == 2 ? __hmul(hx, hy) : op == 3 ? __hmax(hx, hy) : __hmin(hx, hy);
    return r.__x;
  };
  return pack16(one(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b)),
                one(static_cast<std::uint16_t>(a >> 16), static_cast<std::uint16_t>(b >> 16)));
}
template <class H> std::uint32_t packedFma(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  auto one = [&](std::uint16_t x, std::uint16_t y, std::uint16_t z) -> std::uint16_t {
    H hx, hy, hz;
    hx.__x = x;
    hy.__x = y;
    hz.__x = z;
    return __hfma(hx, hy, hz).__x;
  };
  return pack16(one(static_cast<std::uint16_t>(a), static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(c)),
                one(static_cast<std::uint16_t>(a >> 16), static_cast<std::uint16_t>(b >> 16), static_cast<std::uint16_t>(c >> 16)));
}
/// lop3.b32: the 8-entry truth table `lut` over (a, b, c).
inline std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut) {
  std::uint32_t r = 0;
  for (int i = 0; i < 8; ++i) {
    if (!((lut >> i) & 1u))
      continue;
    const std::uint32_t ma = (i & 4) ? a : ~a, mb = (i & 2) ? b : ~b, mc = (i & 1) ? c : ~c;
    r |= ma & mb & mc;
  }
  return r;
}
inline std::uint32_t bfe(std::uint32_t a, std::uint32_t pos, std::uint32_t len, bool isSigned) {
  pos &= 0xff;
  len &= 0xff;
  if (len == 0)
    return 0;
  const std::uint64_t v = static_cast<std::uint64_t>(a) >> (pos > 31 ? 31 : pos);
  std::uint32_t r = static_cast<std::uint32_t>(v & (len >= 32 ? 0xffffffffull : ((1ull << len) - 1)));
  if (isSigned && len < 32 && ((r >> (len - 1)) & 1u))
    r |= ~((1u << len) - 1u);
  return r;
}
inline std::uint32_t bfi(std::uint32_t a, std::uint32_t b, std::uint32_t pos, std::uint32_t len) {
  pos &= 0xff;
  len &= 0xff;
  if (len == 0 || pos > 31)
    return b;
  const std::uint32_t mask = (len >= 32 ? 0xffffffffu : ((1u << len) - 1u)) << pos;
  return (b & ~mask) | ((a << pos) & mask);
}

// ---------------------------------------------------------------- atomics (red / atom)
template <class T> T atomicOp(void *p, T v, int op) {
  T old;
  std::memcpy(&old, p, sizeof(T));
  T r = old;
  switch (op) {
  case 0: r = old + v; break;
  case 1: r = v < old ? v : old; break;
  case 2: r = v > old ? v : old; break;
  case 3: r = v; break;
  default: break;
  }
  std::memcpy(p, &r, sizeof(T));
  return old;
}
inline std::uint32_t atomicPacked(void *p, std::uint32_t v, bool bf16) {
  std::uint32_t old;
  std::memcpy(&old, p, 4);
  const std::uint32_t r = bf16 ? packed<__nv_bfloat16>(old, v, 0) : packed<__half>(old, v, 0);
  std::memcpy(p, &r, 4);
  return old;
}

// ---------------------------------------------------------------- warp-wide matrix instructions
/// ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16: lanes 8m..8m+7 give the rows of
/// matrix m; lane l receives, per matrix, row l/4's elements 2(l%4) and 2(l%4)+1 (transposed:
/// column l/4's elements at rows 2(l%4), 2(l%4)+1).
inline void ldmatrix(int count, bool trans, std::uint64_t address, std::uint32_t *out) {
  const std::uint64_t addr = reinterpret_cast<std::uint64_t>(fromShared(address));
  const std::uint32_t words[2] = {static_cast<std::uint32_t>(addr), static_cast<std::uint32_t>(addr >> 32)};
  const std::uint32_t *all = detail::warpGather(words, 2);
  const unsigned lane = laneid();
  auto rowOf = [&](unsigned m, unsigned r) {
    const std::uint32_t *w = all + (m * 8 + r) * detail::kGatherWords;
    return reinterpret_cast<const std::uint16_t *>(static_cast<std::uintptr_t>(w[0]) | (static_cast<std::uintptr_t>(w[1]) << 32));
  };
  for (int m = 0; m < count; ++m) {
    std::uint16_t lo, hi;
    if (!trans) {
      const std::uint16_t *row = rowOf(static_cast<unsigned>(m), lane / 4);
      lo = load<std::uint16_t>(row + 2 * (lane % 4));
      hi = load<std::uint16_t>(row + 2 * (lane % 4) + 1);
    } else {
      lo = load<std::uint16_t>(rowOf(static_cast<unsigned>(m), 2 * (lane % 4)) + lane / 4);
      hi = load<std::uint16_t>(rowOf(static_cast<unsigned>(m), 2 * (lane % 4) + 1) + lane / 4);
    }
    out[m] = pack16(lo, hi);
  }
}

/// stmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16: the inverse of ldmatrix.
inline void stmatrix(int count, bool trans, std::uint64_t address, const std::uint32_t *in) {
  const std::uint64_t addr = reinterpret_cast<std::uint64_t>(fromShared(address));
  std::uint32_t words[6] = {static_cast<std::uint32_t>(addr), static_cast<std::uint32_t>(addr >> 32), 0, 0, 0, 0};
  for (int m = 0; m < count; ++m)
    words[2 + m] = in[m];
  const std::uint32_t *all = detail::warpGather(words, 2 + count);
  const unsigned lane = laneid();
  if (lane >= 8u * static_cast<unsigned>(count))
    return;
  // This lane writes its own row (lane % 8) of matrix lane / 8, from the registers of the four
  // lanes that hold that row's pieces.
  const unsigned m = lane / 8, r = lane % 8;
  auto *row = reinterpret_cast<std::uint16_t *>(addr);
  for (unsigned c = 0; c < 8; ++c) {
    unsigned holder, half;
    if (!trans) {
      holder = r * 4 + c / 2;
      half = c % 2;
    } else {
      holder = c * 4 + r / 2;
      half = r % 2;
    }
    const std::uint32_t w = all[holder * detail::kGatherWords + 2 + m];
    store<std::uint16_t>(row + c, static_cast<std::uint16_t>(half ? w >> 16 : w));
  }
}

enum class Elem { F16, BF16, E4M3, E5M2, S8, U8, TF32 };

inline double element(std::uint32_t word, int index, Elem e) {
  switch (e) {
  case Elem::F16: return fp::half_to_float(static_cast<std::uint16_t>(word >> (16 * index)));
  case Elem::BF16: return fp::bf16_to_float(static_cast<std::uint16_t>(word >> (16 * index)));
  case Elem::E4M3: return fp::from_fp8(static_cast<__nv_fp8_storage_t>(word >> (8 * index)), __NV_E4M3);
  case Elem::E5M2: return fp::from_fp8(static_cast<__nv_fp8_storage_t>(word >> (8 * index)), __NV_E5M2);
  case Elem::S8: return static_cast<signed char>(word >> (8 * index));
  case Elem::U8: return static_cast<unsigned char>(word >> (8 * index));
  case Elem::TF32: return f32(word & 0xffffe000u);
  }
  return 0;
}

/// mma.sync.aligned.m16n8k{k}.row.col: D = A(16 x k) B(k x 8) + C for the warp; this lane's
/// fragments of A (`a`), B (`b`), C (`c`) in, its D fragment out. `f16Accumulator`: C and D are
/// f16x2 pairs (2 registers), else f32 (4 registers; int32 for integer inputs).
inline void mma(int k, Elem in, bool f16Accumulator, std::uint32_t *d, const std::uint32_t *a, const std::uint32_t *b,
                const std::uint32_t *c) {
  const int perWord = in == Elem::F16 || in == Elem::BF16 ? 2 : 4;
  const int aRegs = k * 16 / 32 / perWord, bRegs = k * 8 / 32 / perWord;
  std::uint32_t words[8];
  for (int i = 0; i < aRegs; ++i)
    words[i] = a[i];
  for (int i = 0; i < bRegs; ++i)
    words[aRegs + i] = b[i];
  const std::uint32_t *all = detail::warpGather(words, aRegs + bRegs);
  const unsigned lane = laneid(), g = lane >> 2, t = lane & 3;
  // A element (row, col): held by lane 4 * (row % 8) + col_in_group, register and index by the layout.
  auto A = [&](unsigned row, unsigned col) {
    const unsigned half = row >= 8, block = col / (perWord * 4); // which k block of 4 lanes' worth
    const unsigned within = col % (perWord * 4);
    const unsigned holder = 4 * (row % 8) + within / perWord;
    const unsigned reg = block * 2 + half;
    return element(all[holder * detail::kGatherWords + reg], static_cast<int>(within % perWord), in);
  };
  auto B = [&](unsigned row, unsigned col) {
    const unsigned block = row / (perWord * 4), within = row % (perWord * 4);
    const unsigned holder = 4 * col + within / perWord;
    return element(all[holder * detail::kGatherWords + aRegs + block], static_cast<int>(within % perWord), in);
  };
  const bool integer = in == Elem::S8 || in == Elem::U8;
  for (int i = 0; i < 4; ++i) {
    const unsigned row = g + (i >= 2 ? 8u : 0u), col = 2 * t + (i & 1);
    double cin;
    if (f16Accumulator)
      cin = fp::half_to_float(static_cast<std::uint16_t>(c[i / 2] >> (16 * (i & 1))));
    else
      cin = integer ? static_cast<double>(static_cast<std::int32_t>(c[i])) : f32(c[i]);
    if (integer) {
      std::int64_t acc = static_cast<std::int64_t>(cin);
      for (unsigned kk = 0; kk < static_cast<unsigned>(k); ++kk)
        acc += static_cast<std::int64_t>(A(row, kk)) * static_cast<std::int64_t>(B(kk, col));
      d[i] = static_cast<std::uint32_t>(static_cast<std::int32_t>(acc));
      continue;
    }
    float acc = static_cast<float>(cin);
    for (unsigned kk = 0; kk < static_cast<unsigned>(k); ++kk)
      acc += static_cast<float>(A(row, kk) * B(kk, col)); // an exact product, summed in float
    if (f16Accumulator) {
      const std::uint16_t h = fp::float_to_half_rn(acc);
      d[i / 2] = (i & 1) ? ((d[i / 2] & 0xffffu) | (static_cast<std::uint32_t>(h) << 16)) : ((d[i / 2] & 0xffff0000u) | h);
    } else {
      d[i] = u32(acc);
    }
  }
}

} // namespace cudacpu::ptx

inline size_t __cvta_generic_to_shared(const void *p) { return cudacpu::ptx::toShared(p); }
inline void *__cvta_shared_to_generic(size_t a) { return cudacpu::ptx::fromShared(a); }
inline size_t __cvta_generic_to_global(const void *p) { return reinterpret_cast<size_t>(p); }
inline void *__cvta_global_to_generic(size_t a) { return reinterpret_cast<void *>(a); }
inline unsigned __isShared(const void *) { return 1; }
inline unsigned __isGlobal(const void *) { return 1; }
