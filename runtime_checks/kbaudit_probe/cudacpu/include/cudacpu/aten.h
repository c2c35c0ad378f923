// The ATen/c10 CUDA API an extension's host code calls, on CPU tensors: the current stream and
// stream pools, device and stream guards, device properties, CUDA events, the launch checks
// (C10_CUDA_KERNEL_LAUNCH_CHECK, C10_CUDA_CHECK, AT_CUDA_CHECK), empty_cuda and the caching
// allocator's raw allocations. The overlay headers ATen/cuda/*.h and c10/cuda/*.h include this
// instead of torch's CUDA headers, which need the CUDA toolkit and a device.
//
// It also wraps torch's CPU allocator (once per extension, at load): every CPU storage
// allocated afterwards is tracked with its size, so a kernel launch can give the pointers it is
// passed guarded copies of their storages (runtime.h), whatever host code made them.
#pragma once

#include "cudacpu/prelude.h"

#include <ATen/ATen.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/Device.h>
#include <c10/core/Stream.h>

#include <memory>
#include <optional>
#include <tuple>

namespace cudacpu::detail {

/// torch's CPU allocator, with every allocation tracked for the launches' guards.
class TrackingAllocator final : public c10::Allocator {
public:
  explicit TrackingAllocator(c10::Allocator *inner) : inner_(inner) {}
  c10::DataPtr allocate(size_t n) override {
    c10::DataPtr inner = inner_->allocate(n);
    void *data = inner.get();
    const c10::Device device = inner.device();
    if (!data)
      return inner;
    track(data, n, nullptr, nullptr);
    auto *held = new c10::DataPtr(std::move(inner));
    return c10::DataPtr(data, held, &TrackingAllocator::release, device);
  }
  void copy_data(void *dest, const void *src, std::size_t count) const override { inner_->copy_data(dest, src, count); }

private:
  static void release(void *context) {
    auto *held = static_cast<c10::DataPtr *>(context);
    untrack(held->get());
    delete held;
  }
  c10::Allocator *inner_;
};

inline bool installTrackingAllocator() {
  if (!guardsEnabled())
    return false;
  static TrackingAllocator allocator(c10::GetCPUAllocator());
  c10::SetCPUAllocator(&allocator, /*priority=*/255);
  return true;
}
inline const bool g_trackingAllocator = installTrackingAllocator();

} // namespace cudacpu::detail

namespace c10::cuda {

/// A stream that exists and is ordered (work runs when it is issued).
class CUDAStream {
public:
  enum Unchecked { UNCHECKED };
  CUDAStream() = default;
  explicit CUDAStream(c10::Stream) {}
  CUDAStream(Unchecked, c10::Stream) {}
  explicit CUDAStream(cudaStream_t s) : stream_(s) {}
  cudaStream_t stream() const { return stream_; }
  operator cudaStream_t() const { return stream_; }
  operator c10::Stream() const { return unwrap(); }
  c10::Stream unwrap() const { return c10::Stream(c10::Stream::DEFAULT, c10::Device(c10::kCPU)); }
  c10::DeviceIndex device_index() const { return 0; }
  c10::Device device() const { return c10::Device(c10::kCPU); }
  c10::DeviceType device_type() const { return c10::kCPU; }
  c10::StreamId id() const { return static_cast<c10::StreamId>(reinterpret_cast<std::intptr_t>(stream_)); }
  bool query() const { return true; }
  void synchronize() const {}
  int priority() const { return stream_ ? stream_->priority : 0; }
  static std::tuple<int, int> priority_range() { return {0, -5}; }
  bool operator==(const CUDAStream &o) const { return stream_ == o.stream_; }
  bool operator!=(const CUDAStream &o) const { return stream_ != o.stream_; }

private:
  cudaStream_t stream_ = nullptr;
};

namespace detail {
inline CUDAStream &currentStream() {
  static CUDAStream s;
  return s;
}
} // namespace detail

inline CUDAStream getCurrentCUDAStream(c10::DeviceIndex = -1) { return detail::currentStream(); }
inline CUDAStream getDefaultCUDAStream(c10::DeviceIndex = -1) { return CUDAStream(); }
inline CUDAStream getStreamFromPool(bool highPriority = false, c10::DeviceIndex = -1) {
  static CUDAStream low(new CUstream_st{0}), high(new CUstream_st{-5});
  return highPriority ? high : low;
}
inline CUDAStream getStreamFromPool(int priority, c10::DeviceIndex = -1) { return getStreamFromPool(priority < 0); }
inline CUDAStream getStreamFromExternal(cudaStream_t s, c10::DeviceIndex) { return CUDAStream(s); }
inline void setCurrentCUDAStream(CUDAStream s) { detail::currentStream() = s; }
inline c10::DeviceIndex current_device() { return 0; }
inline c10::DeviceIndex device_count() noexcept { return 1; }
inline void set_device(c10::DeviceIndex) {}
inline void device_synchronize() {}
inline void stream_synchronize(cudaStream_t) {}
inline c10::DeviceIndex exchange_device(c10::DeviceIndex) { return 0; }

struct CUDAGuard {
  explicit CUDAGuard(c10::DeviceIndex) {}
  explicit CUDAGuard(c10::Device) {}
  CUDAGuard(const CUDAGuard &) = delete;
  void set_device(c10::Device) {}
  void reset_device(c10::Device) {}
  void set_index(c10::DeviceIndex) {}
  c10::Device original_device() const { return c10::Device(c10::kCPU); }
  c10::Device current_device() const { return c10::Device(c10::kCPU); }
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard() = default;
  explicit OptionalCUDAGuard(std::optional<c10::Device>) {}
  explicit OptionalCUDAGuard(std::optional<c10::DeviceIndex>) {}
  explicit OptionalCUDAGuard(c10::Device) {}
  explicit OptionalCUDAGuard(c10::DeviceIndex) {}
  void set_device(c10::Device) {}
  void reset_device(c10::Device) {}
  void set_index(c10::DeviceIndex) {}
  void reset() {}
  std::optional<c10::Device> original_device() const { return c10::Device(c10::kCPU); }
  std::optional<c10::Device> current_device() const { return c10::Device(c10::kCPU); }
};
struct CUDAStreamGuard {
  explicit CUDAStreamGuard(c10::Stream) : previous_(detail::currentStream()) {}
  explicit CUDAStreamGuard(CUDAStream s) : previous_(detail::currentStream()) { detail::currentStream() = s; }
  ~CUDAStreamGuard() { detail::currentStream() = previous_; }
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  void reset_stream(CUDAStream s) { detail::currentStream() = s; }
  CUDAStream original_stream() const { return previous_; }
  CUDAStream current_stream() const { return detail::currentStream(); }

private:
  CUDAStream previous_;
};
struct OptionalCUDAStreamGuard {
  OptionalCUDAStreamGuard() = default;
  explicit OptionalCUDAStreamGuard(CUDAStream s) : guard_(std::make_unique<CUDAStreamGuard>(s)) {}
  explicit OptionalCUDAStreamGuard(std::optional<CUDAStream> s) {
    if (s)
      guard_ = std::make_unique<CUDAStreamGuard>(*s);
  }
  void reset() { guard_.reset(); }

private:
  std::unique_ptr<CUDAStreamGuard> guard_;
};

namespace CUDACachingAllocator {
inline void *raw_alloc(size_t n) { return ::cudacpu::detail::deviceAlloc(n); }
inline void *raw_alloc_with_stream(size_t n, cudaStream_t) { return raw_alloc(n); }
inline void raw_delete(void *p) { ::cudacpu::detail::deviceFree(p); }
inline c10::Allocator *get() { return c10::GetCPUAllocator(); }
inline void emptyCache() {}
} // namespace CUDACachingAllocator

} // namespace c10::cuda

#define C10_CUDA_CHECK(EXPR)                                                                                           \
  do {                                                                                                                 \
    const cudaError_t cudacpu_err_ = (EXPR);                                                                           \
    TORCH_CHECK(cudacpu_err_ == cudaSuccess, "CUDA error: ", cudaGetErrorString(cudacpu_err_));                        \
  } while (0)
#define C10_CUDA_CHECK_WARN(EXPR) ((void)(EXPR))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
#define C10_CUDA_IGNORE_ERROR(EXPR) ((void)(EXPR))
#define C10_CUDA_ERROR_HANDLED(EXPR) (EXPR)
#define AT_CUDA_CHECK(EXPR) C10_CUDA_CHECK(EXPR)
#define AT_CUDA_DRIVER_CHECK(EXPR) ((void)(EXPR))
#define C10_CUDA_API

namespace at::cuda {
using namespace c10::cuda;
inline cudaDeviceProp *getCurrentDeviceProperties() {
  static cudaDeviceProp p{};
  return &p;
}
inline cudaDeviceProp *getDeviceProperties(c10::DeviceIndex) { return getCurrentDeviceProperties(); }
inline int warp_size() { return 32; }
inline bool is_available() { return true; }
inline c10::DeviceIndex getNumGPUs() { return 1; }
inline c10::Allocator *getCUDADeviceAllocator() { return c10::GetCPUAllocator(); }

/// An event that records the host's time (work runs when it is issued).
class CUDAEvent {
public:
  explicit CUDAEvent(unsigned int = cudaEventDisableTiming) {}
  void record() { at_ = ::cudacpu::detail::now(); }
  void record(const CUDAStream &) { record(); }
  void recordOnce(const CUDAStream &s) {
    if (at_ < 0)
      record(s);
  }
  void block(const CUDAStream &) {}
  bool query() const { return true; }
  void synchronize() const {}
  bool isCreated() const { return at_ >= 0; }
  float elapsed_time(const CUDAEvent &other) const { return static_cast<float>((other.at_ - at_) * 1e3); }
  cudaEvent_t event() const { return nullptr; }

private:
  double at_ = -1;
};
} // namespace at::cuda

namespace at::detail {
inline at::Tensor empty_cuda(at::IntArrayRef size, at::ScalarType dtype, std::optional<c10::Device> = std::nullopt,
                             std::optional<c10::MemoryFormat> memory_format = std::nullopt) {
  return at::empty(size, at::TensorOptions().dtype(dtype).device(c10::kCPU), memory_format);
}
inline at::Tensor empty_cuda(at::IntArrayRef size, const at::TensorOptions &options) {
  return at::empty(size, options.device(c10::kCPU));
}
inline at::Tensor empty_cuda(at::IntArrayRef size, std::optional<at::ScalarType> dtype, std::optional<c10::Layout>,
                             std::optional<c10::Device>, std::optional<bool>, std::optional<c10::MemoryFormat> mf) {
  return at::empty(size, at::TensorOptions().dtype(dtype.value_or(at::kFloat)).device(c10::kCPU), mf);
}
} // namespace at::detail
