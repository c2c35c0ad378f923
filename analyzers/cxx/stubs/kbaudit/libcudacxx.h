// kbaudit stub: libcu++ (cuda/pipeline, cuda/barrier, cuda/atomic, cuda/std/*).
#pragma once
#include <cuda_runtime.h>
namespace cuda {
namespace std = ::std;
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
template <size_t N> struct aligned_size_t {
  size_t value;
  KB_HD constexpr explicit aligned_size_t(size_t v) : value(v) {}
  KB_HD constexpr operator size_t() const { return value; }
};
template <thread_scope S = thread_scope_system> class pipeline {
public:
  KB_D void producer_acquire();
  KB_D void producer_commit();
  KB_D void consumer_wait();
  KB_D void consumer_release();
  KB_D bool quit();
};
template <thread_scope S, unsigned char N> class pipeline_shared_state {};
template <class... A> KB_D pipeline<thread_scope_block> make_pipeline(A &&...) { return {}; }
template <unsigned char N> KB_D void pipeline_consumer_wait_prior(pipeline<thread_scope_thread> &);
template <class... A> KB_D void pipeline_producer_commit(A &&...) {}
template <thread_scope S = thread_scope_system, class F = void> class barrier {
public:
  struct arrival_token {};
  KB_HD barrier();
  KB_HD barrier(long);
  KB_D arrival_token arrive(long = 1);
  KB_D void wait(arrival_token &&) const;
  KB_D void arrive_and_wait();
  KB_D void arrive_and_drop();
};
template <class B> KB_D void init(B *, long) {}
template <class... A> KB_D void memcpy_async(A &&...) {}
template <class T, thread_scope S = thread_scope_system> struct atomic : ::std::atomic<T> { using ::std::atomic<T>::atomic; };
template <class T, thread_scope S = thread_scope_system> struct atomic_ref {
  KB_HD explicit atomic_ref(T &);
  KB_HD T fetch_add(T, ::std::memory_order = ::std::memory_order_seq_cst) const;
  KB_HD T load(::std::memory_order = ::std::memory_order_seq_cst) const;
  KB_HD void store(T, ::std::memory_order = ::std::memory_order_seq_cst) const;
};
namespace device { template <class... A> KB_D auto barrier_arrive_tx(A &&...) { return 0; } }
} // namespace cuda
