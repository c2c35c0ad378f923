// kbaudit stub: CuTe. Every algebra object is `Any`, which supports whatever is done with it,
// so kernels written against CuTe parse and their calls (cute::gemm, cute::copy) are seen.
#pragma once
#include <kbaudit/cutlass.h>
#ifndef CUTE_HOST_DEVICE
#define CUTE_HOST_DEVICE KB_HD inline
#define CUTE_DEVICE KB_D inline
#define CUTE_HOST inline
#define CUTE_UNROLL _Pragma("unroll")
#endif
namespace cute {
struct Any {
  KB_HD Any() {}
  template <class T> KB_HD Any(T &&) {}
  template <class... A> KB_HD Any operator()(A &&...) const { return {}; }
  template <class T> KB_HD Any operator[](T &&) const { return {}; }
  template <class T> KB_HD operator T() const { return T(); }
  template <class T> KB_HD Any &operator=(T &&) { return *this; }
  KB_HD Any layout() const { return {}; }
  KB_HD Any shape() const { return {}; }
  KB_HD Any stride() const { return {}; }
  KB_HD Any data() const { return {}; }
  KB_HD Any size() const { return {}; }
  template <class... A> KB_HD Any with(A &&...) const { return {}; }
  template <class... A> KB_HD Any compose(A &&...) const { return {}; }
  template <class... A> KB_HD Any get_slice(A &&...) const { return {}; }
  template <class... A> KB_HD Any get_thread_slice(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_A(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_B(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_C(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_S(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_D(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_fragment_A(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_fragment_B(A &&...) const { return {}; }
  template <class... A> KB_HD Any partition_fragment_C(A &&...) const { return {}; }
  template <class... A> KB_HD Any retile_S(A &&...) const { return {}; }
  template <class... A> KB_HD Any retile_D(A &&...) const { return {}; }
  static constexpr int value = 1;
};
#define KB_CUTE_OP(op) template <class T> KB_HD Any operator op(const Any &, T &&) { return {}; }
KB_CUTE_OP(+) KB_CUTE_OP(-) KB_CUTE_OP(*) KB_CUTE_OP(/) KB_CUTE_OP(%) KB_CUTE_OP(<) KB_CUTE_OP(==)
#undef KB_CUTE_OP
template <int N> struct C { static constexpr int value = N; KB_HD constexpr operator int() const { return N; } };
template <int N> using Int = C<N>;
using _0 = Int<0>; using _1 = Int<1>; using _2 = Int<2>; using _4 = Int<4>; using _8 = Int<8>;
using _16 = Int<16>; using _32 = Int<32>; using _64 = Int<64>; using _128 = Int<128>; using _256 = Int<256>;
using _3 = Int<3>; using _5 = Int<5>; using _6 = Int<6>; using _7 = Int<7>; using _12 = Int<12>; using _24 = Int<24>; using _48 = Int<48>; using _96 = Int<96>; using _192 = Int<192>; using _512 = Int<512>;
struct Underscore {};
inline constexpr Underscore _{};
template <class... T> struct Shape : Any { using Any::Any; };
template <class... T> struct Stride : Any { using Any::Any; };
template <class... T> struct Step : Any { using Any::Any; };
template <class... T> struct Coord : Any { using Any::Any; };
template <class... T> struct tuple : Any { using Any::Any; };
template <class... T> struct Layout : Any { using Any::Any; };
template <class... T> struct Tensor : Any { using Any::Any; };
template <class... T> struct ComposedLayout : Any { using Any::Any; };
template <class... T> struct MMA_Atom : Any { using Any::Any; };
template <class... T> struct Copy_Atom : Any { using Any::Any; };
template <class... T> struct TiledMMA : Any { using Any::Any; };
template <class... T> struct TiledCopy : Any { using Any::Any; };
template <class... T> struct Swizzle : Any { using Any::Any; };
template <int B, int M, int S> struct SwizzleN : Any { using Any::Any; };
template <class... T> struct ArrayEngine : Any { using Any::Any; };
template <class T> struct smem_ptr_flag_bits {};
struct GenRowMajor {}; struct GenColMajor {}; struct LayoutLeft {}; struct LayoutRight {};
struct UniversalCopy {}; struct DefaultCopy {}; struct AutoVectorizingCopy {};
template <class... T> struct UniversalFMA {};
template <class... T> struct SM80_CP_ASYNC_CACHEALWAYS {};
template <class... T> struct SM80_CP_ASYNC_CACHEGLOBAL {};
struct SM75_U32x4_LDSM_N {}; struct SM75_U32x2_LDSM_N {}; struct SM75_U16x8_LDSM_T {}; struct SM75_U32x1_LDSM_N {};
struct SM90_TMA_LOAD {}; struct SM90_TMA_LOAD_MULTICAST {}; struct SM90_TMA_STORE {};
struct SM80_16x8x16_F32F16F16F32_TN {}; struct SM80_16x8x16_F32BF16BF16F32_TN {}; struct SM80_16x8x8_F32TF32TF32F32_TN {};
struct SM80_16x8x16_F16F16F16F16_TN {}; struct SM80_16x8x32_S32S8S8S32_TN {}; struct SM89_16x8x32_F32E4M3E4M3F32_TN {};
namespace SM90 { namespace GMMA { enum class Major { K, MN }; enum class ScaleIn { One, Neg }; template <class... T> struct Layout_K_SW128_Atom {}; template <class... A> KB_HD Any ss_op_selector() { return {}; } template <class... A> KB_HD Any rs_op_selector() { return {}; } } }
#define KB_CUTE_FN(name) template <class... A> KB_HD Any name(A &&...) { return {}; }
KB_CUTE_FN(make_shape) KB_CUTE_FN(make_stride) KB_CUTE_FN(make_layout) KB_CUTE_FN(make_tensor) KB_CUTE_FN(make_coord)
KB_CUTE_FN(make_step) KB_CUTE_FN(make_tuple) KB_CUTE_FN(make_gmem_ptr) KB_CUTE_FN(make_smem_ptr) KB_CUTE_FN(make_rmem_ptr)
KB_CUTE_FN(make_identity_tensor) KB_CUTE_FN(make_fragment_like) KB_CUTE_FN(make_tensor_like) KB_CUTE_FN(make_tiled_mma)
KB_CUTE_FN(make_tiled_copy) KB_CUTE_FN(make_tiled_copy_A) KB_CUTE_FN(make_tiled_copy_B) KB_CUTE_FN(make_tiled_copy_C)
KB_CUTE_FN(make_tma_copy) KB_CUTE_FN(make_ordered_layout) KB_CUTE_FN(local_tile) KB_CUTE_FN(local_partition)
KB_CUTE_FN(partition_shape_A) KB_CUTE_FN(partition_shape_B) KB_CUTE_FN(tile_to_shape) KB_CUTE_FN(composition)
KB_CUTE_FN(logical_divide) KB_CUTE_FN(zipped_divide) KB_CUTE_FN(tiled_divide) KB_CUTE_FN(flat_divide)
KB_CUTE_FN(blocked_product) KB_CUTE_FN(raked_product) KB_CUTE_FN(coalesce) KB_CUTE_FN(filter) KB_CUTE_FN(append)
KB_CUTE_FN(prepend) KB_CUTE_FN(select) KB_CUTE_FN(take) KB_CUTE_FN(group_modes) KB_CUTE_FN(recast) KB_CUTE_FN(flatten)
KB_CUTE_FN(size) KB_CUTE_FN(rank) KB_CUTE_FN(depth) KB_CUTE_FN(shape) KB_CUTE_FN(stride) KB_CUTE_FN(layout)
KB_CUTE_FN(cosize) KB_CUTE_FN(ceil_div) KB_CUTE_FN(round_up) KB_CUTE_FN(elem_less) KB_CUTE_FN(product)
KB_CUTE_FN(copy) KB_CUTE_FN(copy_if) KB_CUTE_FN(gemm) KB_CUTE_FN(axpby) KB_CUTE_FN(clear) KB_CUTE_FN(fill)
KB_CUTE_FN(transform) KB_CUTE_FN(cp_async_fence) KB_CUTE_FN(cp_async_wait) KB_CUTE_FN(warpgroup_arrive)
KB_CUTE_FN(warpgroup_commit_batch) KB_CUTE_FN(warpgroup_wait) KB_CUTE_FN(warpgroup_fence_operand)
KB_CUTE_FN(tma_store_fence) KB_CUTE_FN(tma_store_arrive) KB_CUTE_FN(tma_store_wait) KB_CUTE_FN(get)
KB_CUTE_FN(print) KB_CUTE_FN(print_tensor) KB_CUTE_FN(max) KB_CUTE_FN(min) KB_CUTE_FN(abs) KB_CUTE_FN(sqrt) KB_CUTE_FN(exp)
KB_CUTE_FN(block) KB_CUTE_FN(thread) KB_CUTE_FN(elect_one_sync) KB_CUTE_FN(conditional_return)
#undef KB_CUTE_FN
template <int N, class... A> KB_HD Any get(A &&...) { return {}; }
template <int N, class... A> KB_HD Any cp_async_wait(A &&...) { return {}; }
template <int N, class... A> KB_HD Any warpgroup_wait(A &&...) { return {}; }
template <class T, class... A> KB_HD Any recast(A &&...) { return {}; }
template <class T, class... A> KB_HD Any make_tensor(A &&...) { return {}; }
template <class T, class... A> KB_HD Any make_fragment_like(A &&...) { return {}; }
template <class... T> KB_HD Any make_counting_tensor(T &&...) { return {}; }
template <class T> struct is_tensor : std::false_type {};
using std::conditional_t;
using ::cutlass::sizeof_bits;
using std::is_same_v;
using uint128_t = ulonglong2;
using half_t = ::cutlass::half_t;
using bfloat16_t = ::cutlass::bfloat16_t;
using tfloat32_t = ::cutlass::tfloat32_t;
using float_e4m3_t = ::cutlass::float_e4m3_t;
using float_e5m2_t = ::cutlass::float_e5m2_t;
} // namespace cute
