// kbaudit stub: mma.h — nvcuda::wmma fragments and tensor-core operations.
#pragma once
#include <cuda_bf16.h>
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32;
struct u4;
struct s4;
struct b1;
} // namespace precision
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
} // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} // namespace experimental
template <class T> struct kb_element { using type = T; };
template <> struct kb_element<precision::tf32> { using type = float; };
template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
public:
  using element_type = typename kb_element<T>::type;
  using storage_element_type = element_type;
  static constexpr int num_elements = 8;
  element_type x[num_elements];
};
template <class F, class V> KB_D void fill_fragment(F &, const V &);
template <class F, class P> KB_D void load_matrix_sync(F &, const P *, unsigned);
template <class F, class P> KB_D void load_matrix_sync(F &, const P *, unsigned, layout_t);
template <class P, class F> KB_D void store_matrix_sync(P *, const F &, unsigned, layout_t);
template <class D, class A, class B, class C> KB_D void mma_sync(D &, const A &, const B &, const C &, bool = false);
template <class... X> KB_D void bmma_sync(X &&...);
KB_D float __float_to_tf32(float);
} // namespace wmma
} // namespace nvcuda
