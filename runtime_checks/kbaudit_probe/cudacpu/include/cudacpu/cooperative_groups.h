// The part of cooperative_groups a kernel uses within a block: this_thread_block(),
// tiled_partition<N> (static tiles of a warp) and tiled_partition(block, n), their collectives
// (sync, shfl*, ballot, any, all, match), cg::reduce with plus/less/greater/bit_*, and the grid
// group of a cooperative launch (this_grid().sync() meets every thread of the grid; in a kernel
// not launched cooperatively it raises a KernelError). Cluster groups are not here (the
// translator names them as unavailable).
#pragma once

#include "cudacpu/runtime.h"

#include <functional>

namespace cooperative_groups {

namespace details {
inline unsigned linearThread() { return ::cudacpu::detail::g_thread->linear; }
inline unsigned blockSize() {
  const dim3 &b = ::cudacpu::detail::g_launch->block;
  return b.x * b.y * b.z;
}
} // namespace details

class thread_group {
public:
  virtual ~thread_group() = default;
};

class thread_block {
public:
  void sync() const { __syncthreads(); }
  void barrier_wait() const { __syncthreads(); }
  unsigned thread_rank() const { return details::linearThread(); }
  unsigned size() const { return details::blockSize(); }
  unsigned num_threads() const { return size(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }

class grid_group {
public:
  void sync() const { ::cudacpu::detail::gridBarrier(); }
  unsigned long long thread_rank() const {
    const auto &g = gridDim;
    const unsigned long long block = blockIdx.x + static_cast<unsigned long long>(blockIdx.y) * g.x +
                                     static_cast<unsigned long long>(blockIdx.z) * g.x * g.y;
    return block * details::blockSize() + details::linearThread();
  }
  unsigned long long size() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z * details::blockSize();
  }
  unsigned long long num_threads() const { return size(); }
  bool is_valid() const { return true; }
  dim3 group_dim() const { return gridDim; }
  dim3 block_index() const { return dim3(blockIdx); }
};
inline grid_group this_grid() { return grid_group(); }

/// A tile of `Size` consecutive threads of a warp (`Size` a power of two up to 32).
template <unsigned Size> class thread_block_tile {
  static_assert(Size > 0 && Size <= 32 && (Size & (Size - 1)) == 0, "tiles are powers of two up to 32");

public:
  static constexpr unsigned numThreads = Size;
  unsigned thread_rank() const { return details::linearThread() % Size; }
  static constexpr unsigned size() { return Size; }
  static constexpr unsigned num_threads() { return Size; }
  unsigned meta_group_rank() const { return details::linearThread() / Size; }
  unsigned meta_group_size() const { return (details::blockSize() + Size - 1) / Size; }
  void sync() const { __syncwarp(mask()); }
  template <class T> T shfl(T v, int src) const { return __shfl_sync(mask(), v, src, Size); }
  template <class T> T shfl_down(T v, unsigned d) const { return __shfl_down_sync(mask(), v, d, Size); }
  template <class T> T shfl_up(T v, unsigned d) const { return __shfl_up_sync(mask(), v, d, Size); }
  template <class T> T shfl_xor(T v, int m) const { return __shfl_xor_sync(mask(), v, m, Size); }
  unsigned ballot(int p) const { return (__ballot_sync(mask(), p) >> shift()) & low(); }
  int any(int p) const { return ballot(p) != 0; }
  int all(int p) const { return ballot(p) == low(); }
  template <class T> unsigned match_any(T v) const { return (__match_any_sync(mask(), v) >> shift()) & low(); }
  template <class T> unsigned match_all(T v, int &pred) const { return (__match_all_sync(mask(), v, &pred) >> shift()) & low(); }

private:
  static constexpr unsigned low() { return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u); }
  unsigned shift() const { return (details::linearThread() % 32) / Size * Size; }
  unsigned mask() const { return low() << shift(); }
};

/// tiled_partition(block, n): a dynamically sized tile (n a power of two up to 32).
class thread_group_tile {
public:
  explicit thread_group_tile(unsigned n) : n_(n) {}
  unsigned thread_rank() const { return details::linearThread() % n_; }
  unsigned size() const { return n_; }
  unsigned num_threads() const { return n_; }
  unsigned meta_group_rank() const { return details::linearThread() / n_; }
  void sync() const { __syncwarp(mask()); }
  template <class T> T shfl(T v, int src) const { return __shfl_sync(mask(), v, src, static_cast<int>(n_)); }
  template <class T> T shfl_down(T v, unsigned d) const { return __shfl_down_sync(mask(), v, d, static_cast<int>(n_)); }
  template <class T> T shfl_up(T v, unsigned d) const { return __shfl_up_sync(mask(), v, d, static_cast<int>(n_)); }
  template <class T> T shfl_xor(T v, int m) const { return __shfl_xor_sync(mask(), v, m, static_cast<int>(n_)); }
  unsigned ballot(int p) const { return (__ballot_sync(mask(), p) >> shift()) & low(); }
  int any(int p) const { return ballot(p) != 0; }
  int all(int p) const { return ballot(p) == low(); }

private:
  unsigned low() const { return n_ >= 32 ? 0xffffffffu : ((1u << n_) - 1u); }
  unsigned shift() const { return (details::linearThread() % 32) / n_ * n_; }
  unsigned mask() const { return low() << shift(); }
  unsigned n_;
};

template <unsigned Size, class Parent> thread_block_tile<Size> tiled_partition(const Parent &) { return {}; }
inline thread_group_tile tiled_partition(const thread_block &, unsigned n) { return thread_group_tile(n); }

/// The active lanes of the warp, as __activemask sees them.
class coalesced_group {
public:
  coalesced_group() : mask_(__activemask()) {}
  unsigned size() const { return static_cast<unsigned>(__popc(mask_)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const { return static_cast<unsigned>(__popc(mask_ & __lanemask_lt())); }
  void sync() const { __syncwarp(mask_); }
  template <class T> T shfl(T v, int rank) const { return __shfl_sync(mask_, v, laneOf(static_cast<unsigned>(rank))); }
  unsigned ballot(int p) const { return __ballot_sync(mask_, p); }
  int any(int p) const { return __any_sync(mask_, p); }
  int all(int p) const { return __all_sync(mask_, p); }

private:
  int laneOf(unsigned rank) const {
    unsigned m = mask_;
    for (unsigned i = 0; i < rank && m; ++i)
      m &= m - 1;
    return m ? __builtin_ctz(m) : 0;
  }
  unsigned mask_;
};
inline coalesced_group coalesced_threads() { return coalesced_group(); }

template <class Group> void sync(const Group &g) { g.sync(); }

template <class T> struct plus {
  T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T> struct less {
  T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T> struct bit_or {
  T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T> struct bit_xor {
  T operator()(const T &a, const T &b) const { return a ^ b; }
};

/// cg::reduce over a tile: a butterfly of shfl_xor, as the library's own implementation does
/// for tiles (so the summation order, and the rounding, is a butterfly's).
template <class Tile, class T, class Op> T reduce(const Tile &tile, T value, Op op) {
  for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2)
    value = op(value, tile.shfl_xor(value, static_cast<int>(offset)));
  return value;
}

template <class Tile, class T, class Op> T inclusive_scan(const Tile &tile, T value, Op op) {
  for (unsigned offset = 1; offset < tile.size(); offset *= 2) {
    const T other = tile.shfl_up(value, offset);
    if (tile.thread_rank() >= offset)
      value = op(value, other);
  }
  return value;
}
template <class Tile, class T> T inclusive_scan(const Tile &tile, T value) { return inclusive_scan(tile, value, plus<T>()); }
template <class Tile, class T, class Op> T exclusive_scan(const Tile &tile, T value, Op op) {
  const T inc = inclusive_scan(tile, value, op);
  const T prev = tile.shfl_up(inc, 1);
  return tile.thread_rank() == 0 ? T{} : prev;
}
template <class Tile, class T> T exclusive_scan(const Tile &tile, T value) { return exclusive_scan(tile, value, plus<T>()); }

} // namespace cooperative_groups
