// cuda_pipeline.h on the CPU runner: an asynchronous copy is done when it is issued, so the
// pipeline's commits and waits have nothing left to wait for.
#pragma once
#include <cudacpu/prelude.h>
inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size, size_t src_size = ~size_t{0}) {
  const size_t n = src_size < size ? src_size : size;
  std::memcpy(dst, src, n);
  if (n < size)
    std::memset(static_cast<char *>(dst) + n, 0, size - n);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(size_t) {}
