// kbaudit stub: cooperative_groups.h (with reduce, memcpy_async and scan).
#pragma once
#include <cuda_runtime.h>
namespace cooperative_groups {
class thread_group {
public:
  KB_D void sync() const;
  KB_D unsigned long long size() const;
  KB_D unsigned long long num_threads() const;
  KB_D unsigned long long thread_rank() const;
};
class thread_block : public thread_group {
public:
  KB_D dim3 group_index() const;
  KB_D dim3 thread_index() const;
  KB_D dim3 group_dim() const;
  KB_D dim3 dim_threads() const;
};
class grid_group : public thread_group {
public:
  KB_D bool is_valid() const;
  KB_D dim3 group_dim() const;
  KB_D unsigned long long block_rank() const;
  KB_D unsigned long long num_blocks() const;
};
class cluster_group : public thread_group {
public:
  KB_D unsigned block_rank() const;
  KB_D unsigned num_blocks() const;
  template <class T> KB_D T *map_shared_rank(T *, unsigned) const;
};
class coalesced_group : public thread_group {
public:
  template <class T> KB_D T shfl(T, unsigned) const;
  KB_D unsigned meta_group_rank() const;
};
template <unsigned N, class Parent = void> class thread_block_tile : public thread_group {
public:
  template <class T> KB_D T shfl(T, int) const;
  template <class T> KB_D T shfl_down(T, unsigned) const;
  template <class T> KB_D T shfl_up(T, unsigned) const;
  template <class T> KB_D T shfl_xor(T, unsigned) const;
  KB_D unsigned meta_group_rank() const;
  KB_D unsigned meta_group_size() const;
  KB_D int any(int) const;
  KB_D int all(int) const;
  KB_D unsigned ballot(int) const;
};
KB_D thread_block this_thread_block();
KB_D grid_group this_grid();
KB_D cluster_group this_cluster();
KB_D coalesced_group coalesced_threads();
template <unsigned N, class G> KB_D thread_block_tile<N, G> tiled_partition(const G &);
KB_D thread_group tiled_partition(const thread_group &, unsigned);
template <class G> KB_D void sync(const G &);
template <class G> KB_D void wait(const G &);
template <unsigned N, class G> KB_D void wait_prior(const G &);
template <class T = void> struct plus { template <class U> KB_D U operator()(U a, U b) const { return a + b; } };
template <class T = void> struct less { template <class U> KB_D U operator()(U a, U b) const { return a < b ? a : b; } };
template <class T = void> struct greater { template <class U> KB_D U operator()(U a, U b) const { return a < b ? b : a; } };
template <class T = void> struct bit_and {};
template <class G, class T, class Op> KB_D T reduce(const G &, T, Op) { return T(); }
template <class G, class T, class Op> KB_D T inclusive_scan(const G &, T, Op) { return T(); }
template <class G, class T> KB_D T inclusive_scan(const G &, T) { return T(); }
template <class G, class T> KB_D T exclusive_scan(const G &, T) { return T(); }
template <class G, class... A> KB_D void memcpy_async(const G &, A &&...) {}
namespace experimental { template <unsigned N> struct block_tile_memory {}; }
} // namespace cooperative_groups
