// kbaudit stub: cuda_pipeline.h / cuda_pipeline_primitives.h (cp.async wrappers).
#pragma once
#include <cuda_runtime.h>
KB_D void __pipeline_memcpy_async(void *, const void *, size_t, size_t = 0);
KB_D void __pipeline_commit();
KB_D void __pipeline_wait_prior(size_t);
KB_D void __pipeline_arrive_on(unsigned long long *);
#include <kbaudit/libcudacxx.h>
