// kbaudit stub: libtorch as a C++/CUDA extension sees it (torch/extension.h, ATen, c10,
// c10::cuda, pybind11, torch::Library). Ops take catch-all arguments (`Arg`, which binds
// anything, braced lists included) so calls type-check whatever their overloads.
#pragma once
#include <kbaudit/std.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cudnn.h>
#include <kbaudit/any_arg.h>

#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME kbaudit_extension
#endif

namespace c10 {
namespace detail {
using Arg = ::kbaudit_stub::AnyArg;
template <class... A> void torchCheck(A &&...) {}
} // namespace detail
using DeviceIndex = int8_t;
using StreamId = int64_t;
enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat, ComplexDouble,
  Bool, QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4, Bits1x8, Bits2x4, Bits4x2, Bits8,
  Bits16, Float8_e5m2, Float8_e4m3fn, Float8_e5m2fnuz, Float8_e4m3fnuz, UInt16, UInt32, UInt64,
  Float4_e2m1fn_x2, Undefined, NumOptions
};
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat8_e5m2 = ScalarType::Float8_e5m2;
constexpr ScalarType kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;
constexpr ScalarType kFloat8_e5m2fnuz = ScalarType::Float8_e5m2fnuz;
constexpr ScalarType kFloat8_e4m3fnuz = ScalarType::Float8_e4m3fnuz;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kUInt16 = ScalarType::UInt16;
constexpr ScalarType kUInt32 = ScalarType::UInt32;
constexpr ScalarType kUInt64 = ScalarType::UInt64;
const char *toString(ScalarType);
size_t elementSize(ScalarType);
bool isFloatingType(ScalarType);
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
enum class Layout : int8_t { Strided, Sparse };
constexpr Layout kStrided = Layout::Strided;
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
class Device {
public:
  Device(DeviceType, DeviceIndex = -1);
  Device(const std::string &);
  DeviceIndex index() const;
  DeviceType type() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool has_index() const;
  std::string str() const;
  bool operator==(const Device &) const;
  bool operator!=(const Device &) const;
};
#define KB_NUMBER(N)                                                                          \
  struct N {                                                                                  \
    uint16_t x;                                                                               \
    N() = default;                                                                            \
    template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>> KB_HD N(T);    \
    KB_HD operator float() const;                                                             \
  };
KB_NUMBER(Half)
KB_NUMBER(BFloat16)
KB_NUMBER(Float8_e4m3fn)
KB_NUMBER(Float8_e5m2)
KB_NUMBER(Float8_e4m3fnuz)
KB_NUMBER(Float8_e5m2fnuz)
#undef KB_NUMBER
template <class T> struct complex { T real_, imag_; };
template <class T> class ArrayRef {
public:
  using value_type = T;
  using iterator = const T *;
  ArrayRef() {}
  ArrayRef(const T &) {}
  ArrayRef(const T *, size_t) {}
  ArrayRef(const T *, const T *) {}
  template <class A> ArrayRef(const std::vector<T, A> &) {}
  template <size_t N> ArrayRef(const std::array<T, N> &) {}
  template <size_t N> ArrayRef(const T (&)[N]) {}
  ArrayRef(std::initializer_list<T>) {}
  size_t size() const;
  bool empty() const;
  const T *data() const;
  const T *begin() const;
  const T *end() const;
  const T &operator[](size_t) const;
  const T &front() const;
  const T &back() const;
  std::vector<T> vec() const;
  ArrayRef slice(size_t, size_t = 0) const;
  bool equals(ArrayRef) const;
  bool operator==(ArrayRef) const;
  bool operator!=(ArrayRef) const;
};
using IntArrayRef = ArrayRef<int64_t>;
using SymIntArrayRef = ArrayRef<int64_t>;
template <class T, unsigned N = 6> class SmallVector : public std::vector<T> {
public:
  using std::vector<T>::vector;
};
using DimVector = SmallVector<int64_t>;
template <class T> using optional = std::optional<T>;
using std::nullopt;
template <class T> using OptionalArrayRef = std::optional<ArrayRef<T>>;
class Scalar {
public:
  Scalar();
  template <class T> Scalar(T);
  double toDouble() const;
  float toFloat() const;
  int64_t toLong() const;
  int toInt() const;
  bool toBool() const;
  template <class T> T to() const;
  bool isFloatingPoint() const;
  bool isIntegral(bool) const;
};
struct TypeMeta {
  ScalarType toScalarType() const;
  size_t itemsize() const;
  const char *name() const;
  template <class T> static TypeMeta Make();
  operator ScalarType() const;
};
class TensorOptions {
public:
  TensorOptions();
  TensorOptions(ScalarType);
  TensorOptions(Device);
  TensorOptions(DeviceType);
  TensorOptions(Layout);
  TensorOptions dtype(detail::Arg) const;
  template <class T> TensorOptions dtype() const;
  TensorOptions device(detail::Arg) const;
  TensorOptions device(DeviceType, DeviceIndex) const;
  TensorOptions device_index(DeviceIndex) const;
  TensorOptions layout(Layout) const;
  TensorOptions requires_grad(bool) const;
  TensorOptions pinned_memory(bool) const;
  TensorOptions memory_format(MemoryFormat) const;
  ScalarType dtype_() const;
  Device device() const;
};
TensorOptions dtype(ScalarType);
template <class T> TensorOptions dtype();
TensorOptions device(detail::Arg);
TensorOptions device_index(DeviceIndex);
TensorOptions layout(Layout);
TensorOptions requires_grad(bool = true);
ScalarType typeMetaToScalarType(TypeMeta);
struct Storage { void *data() const; const void *data_ptr() const; size_t nbytes() const; };
struct TensorImpl {};
struct DeprecatedTypeProperties { ScalarType scalarType() const; bool is_cuda() const; };
class Stream { public: Stream(); DeviceIndex device_index() const; StreamId id() const; };

namespace cuda {
class CUDAStream {
public:
  CUDAStream();
  explicit CUDAStream(Stream);
  cudaStream_t stream() const;
  operator cudaStream_t() const;
  operator Stream() const;
  DeviceIndex device_index() const;
  Device device() const;
  StreamId id() const;
  void synchronize() const;
  bool query() const;
  int priority() const;
  bool operator==(const CUDAStream &) const;
  bool operator!=(const CUDAStream &) const;
  static std::tuple<int, int> priority_range();
};
CUDAStream getCurrentCUDAStream(DeviceIndex = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex = -1);
CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex = -1);
CUDAStream getStreamFromPool(const int priority, DeviceIndex = -1);
CUDAStream getStreamFromExternal(cudaStream_t, DeviceIndex);
void setCurrentCUDAStream(CUDAStream);
void device_synchronize();
void stream_synchronize(cudaStream_t);
DeviceIndex current_device();
DeviceIndex device_count();
void set_device(DeviceIndex);
struct CUDAStreamGuard { explicit CUDAStreamGuard(Stream); explicit CUDAStreamGuard(CUDAStream); void reset_stream(Stream); CUDAStream current_stream() const; CUDAStream original_stream() const; };
struct OptionalCUDAStreamGuard { OptionalCUDAStreamGuard(); explicit OptionalCUDAStreamGuard(Stream); explicit OptionalCUDAStreamGuard(std::optional<Stream>); };
struct CUDAMultiStreamGuard { explicit CUDAMultiStreamGuard(ArrayRef<CUDAStream>); };
struct CUDAGuard { explicit CUDAGuard(DeviceIndex); explicit CUDAGuard(Device); void set_index(DeviceIndex); };
struct OptionalCUDAGuard { OptionalCUDAGuard(); explicit OptionalCUDAGuard(Device); explicit OptionalCUDAGuard(std::optional<Device>); explicit OptionalCUDAGuard(DeviceIndex); void set_device(Device); void reset(); };
namespace CUDACachingAllocator {
void emptyCache();
void *raw_alloc(size_t);
void *raw_alloc_with_stream(size_t, cudaStream_t);
void raw_delete(void *);
struct DataPtr { void *get() const; };
DataPtr allocate(size_t);
struct CUDAAllocator { void *raw_alloc(size_t); void raw_delete(void *); };
CUDAAllocator *get();
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10

namespace at {
using namespace c10;
class Tensor;
struct TensorPair;
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;
#define KB_ARGS ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}
template <class T, size_t N> class TensorAccessor;
template <class T, size_t N> struct KbAccessorResult { using type = TensorAccessor<T, N - 1>; };
template <class T> struct KbAccessorResult<T, 1> { using type = T &; };
template <class T, size_t N> class TensorAccessor {
public:
  KB_HD typename KbAccessorResult<T, N>::type operator[](int64_t) const;
  KB_HD int64_t size(int64_t) const;
  KB_HD int64_t stride(int64_t) const;
  KB_HD T *data() const;
};
template <class T> struct DefaultPtrTraits { typedef T *PtrType; };
template <class T> struct RestrictPtrTraits { typedef T *__restrict__ PtrType; };
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
class GenericPackedTensorAccessor {
public:
  KB_HD typename KbAccessorResult<T, N>::type operator[](index_t) const;
  KB_HD index_t size(index_t) const;
  KB_HD index_t stride(index_t) const;
  KB_HD T *data() const;
};
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;
template <class T, size_t N, template <class> class PtrTraits = DefaultPtrTraits, class index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

class Tensor {
public:
  Tensor();
  Tensor(const Tensor &);
  Tensor(Tensor &&);
  Tensor &operator=(const Tensor &) &;
  Tensor &operator=(Tensor &&) &;
  Tensor &operator=(const Tensor &) &&;
  Tensor &operator=(::c10::detail::Arg) &&;
  // metadata
  int64_t size(int64_t) const;
  IntArrayRef sizes() const;
  IntArrayRef sym_sizes() const;
  int64_t sym_size(int64_t) const;
  int64_t stride(int64_t) const;
  IntArrayRef strides() const;
  int64_t dim() const;
  int64_t ndimension() const;
  int64_t numel() const;
  size_t nbytes() const;
  int64_t element_size() const;
  int64_t itemsize() const;
  int64_t storage_offset() const;
  template <class T = void> T *data_ptr() const;
  template <class T = void> T *mutable_data_ptr() const;
  template <class T = void> const T *const_data_ptr() const;
  ScalarType scalar_type() const;
  TypeMeta dtype() const;
  Device device() const;
  Layout layout() const;
  TensorOptions options() const;
  DeprecatedTypeProperties type() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  bool is_floating_point() const;
  bool is_complex() const;
  bool is_meta() const;
  bool defined() const;
  bool requires_grad() const;
  bool is_same(const Tensor &) const;
  bool is_same_size(const Tensor &) const;
  bool is_non_overlapping_and_dense() const;
  bool is_alias_of(const Tensor &) const;
  int64_t get_device() const;
  int64_t use_count() const;
  int64_t _version() const;
  MemoryFormat suggest_memory_format() const;
  const Storage &storage() const;
  TensorImpl *unsafeGetTensorImpl() const;
  template <class T = Scalar> T item() const;
  template <class T, size_t N> TensorAccessor<T, N> accessor() const &;
  template <class T, size_t N, template <class> class PT = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PT> packed_accessor32() const &;
  template <class T, size_t N, template <class> class PT = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PT> packed_accessor64() const &;
  template <class T, size_t N, template <class> class PT = DefaultPtrTraits, class I = int64_t>
  GenericPackedTensorAccessor<T, N, PT, I> generic_packed_accessor() const &;
  std::vector<Tensor> split(KB_ARGS) const;
  std::vector<Tensor> chunk(KB_ARGS) const;
  std::vector<Tensor> unbind(KB_ARGS) const;
  TensorPair sort(KB_ARGS) const;
  TensorPair topk(KB_ARGS) const;
  TensorPair max(KB_ARGS) const;
  TensorPair min(KB_ARGS) const;
  TensorPair median(KB_ARGS) const;
  TensorPair mode(KB_ARGS) const;
  // views, conversions and compute: every one returns a Tensor. Most take any arguments
  // (a variadic template is cheap to parse); those often called with braced lists
  // (`x.view({-1, n})`, `x.sum({1, 2})`) take catch-all Arg parameters instead.
#define KB_TENSOR_METHOD(name) template <class... A> Tensor name(A &&...) const;
#define KB_TENSOR_LIST_METHOD(name) Tensor name(KB_ARGS) const;
  KB_TENSOR_METHOD(contiguous) KB_TENSOR_LIST_METHOD(view) KB_TENSOR_LIST_METHOD(reshape) KB_TENSOR_METHOD(flatten)
  KB_TENSOR_LIST_METHOD(unflatten) KB_TENSOR_METHOD(unsqueeze) KB_TENSOR_LIST_METHOD(squeeze) KB_TENSOR_METHOD(transpose)
  KB_TENSOR_METHOD(t) KB_TENSOR_LIST_METHOD(permute) KB_TENSOR_LIST_METHOD(expand) KB_TENSOR_METHOD(expand_as)
  KB_TENSOR_METHOD(narrow) KB_TENSOR_METHOD(slice) KB_TENSOR_METHOD(select) KB_TENSOR_METHOD(as_strided)
  KB_TENSOR_METHOD(view_as) KB_TENSOR_METHOD(reshape_as) KB_TENSOR_METHOD(detach) KB_TENSOR_METHOD(clone)
  KB_TENSOR_LIST_METHOD(to) KB_TENSOR_METHOD(cuda) KB_TENSOR_METHOD(cpu) KB_TENSOR_METHOD(half) KB_TENSOR_METHOD(bfloat16)
  KB_TENSOR_METHOD(toType) KB_TENSOR_METHOD(type_as) KB_TENSOR_LIST_METHOD(new_empty) KB_TENSOR_LIST_METHOD(new_zeros)
  KB_TENSOR_LIST_METHOD(new_ones) KB_TENSOR_LIST_METHOD(new_full) KB_TENSOR_METHOD(copy_) KB_TENSOR_METHOD(fill_)
  KB_TENSOR_METHOD(zero_) KB_TENSOR_LIST_METHOD(resize_) KB_TENSOR_LIST_METHOD(index) KB_TENSOR_LIST_METHOD(index_put_)
  KB_TENSOR_METHOD(index_select) KB_TENSOR_METHOD(index_add_) KB_TENSOR_METHOD(index_copy_) KB_TENSOR_METHOD(gather)
  KB_TENSOR_METHOD(scatter) KB_TENSOR_METHOD(scatter_) KB_TENSOR_METHOD(scatter_add_) KB_TENSOR_METHOD(masked_fill)
  KB_TENSOR_METHOD(masked_fill_) KB_TENSOR_METHOD(masked_select) KB_TENSOR_METHOD(matmul) KB_TENSOR_METHOD(mm)
  KB_TENSOR_METHOD(bmm) KB_TENSOR_METHOD(mv) KB_TENSOR_METHOD(dot) KB_TENSOR_METHOD(addmm) KB_TENSOR_METHOD(addmm_)
  KB_TENSOR_METHOD(baddbmm) KB_TENSOR_METHOD(add) KB_TENSOR_METHOD(add_) KB_TENSOR_METHOD(sub) KB_TENSOR_METHOD(sub_)
  KB_TENSOR_METHOD(mul) KB_TENSOR_METHOD(mul_) KB_TENSOR_METHOD(div) KB_TENSOR_METHOD(div_) KB_TENSOR_METHOD(pow)
  KB_TENSOR_METHOD(sqrt) KB_TENSOR_METHOD(rsqrt) KB_TENSOR_METHOD(exp) KB_TENSOR_METHOD(log) KB_TENSOR_METHOD(tanh)
  KB_TENSOR_METHOD(sigmoid) KB_TENSOR_METHOD(relu) KB_TENSOR_METHOD(relu_) KB_TENSOR_METHOD(abs) KB_TENSOR_METHOD(neg)
  KB_TENSOR_LIST_METHOD(sum) KB_TENSOR_LIST_METHOD(mean) KB_TENSOR_LIST_METHOD(amax) KB_TENSOR_LIST_METHOD(amin) KB_TENSOR_METHOD(argmax)
  KB_TENSOR_METHOD(argmin) KB_TENSOR_METHOD(softmax) KB_TENSOR_METHOD(log_softmax) KB_TENSOR_LIST_METHOD(norm)
  KB_TENSOR_METHOD(clamp) KB_TENSOR_METHOD(clamp_) KB_TENSOR_METHOD(clamp_min) KB_TENSOR_METHOD(clamp_max)
  KB_TENSOR_METHOD(cumsum) KB_TENSOR_METHOD(cumprod) KB_TENSOR_METHOD(prod) KB_TENSOR_LIST_METHOD(std) KB_TENSOR_LIST_METHOD(var)
  KB_TENSOR_METHOD(eq) KB_TENSOR_METHOD(ne) KB_TENSOR_METHOD(lt) KB_TENSOR_METHOD(gt) KB_TENSOR_METHOD(le)
  KB_TENSOR_METHOD(ge) KB_TENSOR_METHOD(all) KB_TENSOR_METHOD(any) KB_TENSOR_METHOD(sign) KB_TENSOR_METHOD(floor)
  KB_TENSOR_METHOD(ceil) KB_TENSOR_METHOD(round) KB_TENSOR_METHOD(reciprocal) KB_TENSOR_METHOD(erf)
  KB_TENSOR_LIST_METHOD(logsumexp) KB_TENSOR_LIST_METHOD(repeat) KB_TENSOR_METHOD(repeat_interleave) KB_TENSOR_LIST_METHOD(flip)
  KB_TENSOR_LIST_METHOD(roll) KB_TENSOR_METHOD(tril) KB_TENSOR_METHOD(triu) KB_TENSOR_METHOD(sin) KB_TENSOR_METHOD(cos)
  KB_TENSOR_METHOD(addcmul) KB_TENSOR_METHOD(addcdiv) KB_TENSOR_METHOD(lerp) KB_TENSOR_METHOD(where)
  KB_TENSOR_METHOD(maximum) KB_TENSOR_METHOD(minimum) KB_TENSOR_METHOD(square) KB_TENSOR_METHOD(argsort)
  KB_TENSOR_METHOD(nonzero) KB_TENSOR_METHOD(masked_scatter) KB_TENSOR_METHOD(bitwise_and) KB_TENSOR_METHOD(logical_and)
  KB_TENSOR_METHOD(record_stream) KB_TENSOR_METHOD(requires_grad_) KB_TENSOR_METHOD(set_) KB_TENSOR_METHOD(exp_)
  KB_TENSOR_METHOD(sigmoid_) KB_TENSOR_METHOD(tanh_) KB_TENSOR_METHOD(float_power) KB_TENSOR_METHOD(sub_out)
#undef KB_TENSOR_METHOD
#undef KB_TENSOR_LIST_METHOD
  Tensor operator[](::c10::detail::Arg) const;
  Tensor operator-() const;
  Tensor operator~() const;
  Tensor &operator+=(::c10::detail::Arg);
  Tensor &operator-=(::c10::detail::Arg);
  Tensor &operator*=(::c10::detail::Arg);
  Tensor &operator/=(::c10::detail::Arg);
};
/// What max/min/sort/topk return: a Tensor (`x.max()`) that also destructures into
/// (values, indices) (`auto [v, i] = x.max(1)`, `std::get<0>(...)`).
struct TensorPair : Tensor {};
template <size_t I> Tensor &get(TensorPair &);
template <size_t I> const Tensor &get(const TensorPair &);
template <size_t I> Tensor &&get(TensorPair &&);
Tensor operator+(const Tensor &, const Tensor &);
Tensor operator-(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, const Tensor &);
Tensor operator/(const Tensor &, const Tensor &);
template <class T> Tensor operator+(const Tensor &, const T &);
template <class T> Tensor operator-(const Tensor &, const T &);
template <class T> Tensor operator*(const Tensor &, const T &);
template <class T> Tensor operator/(const Tensor &, const T &);
template <class T> Tensor operator+(const T &, const Tensor &);
template <class T> Tensor operator-(const T &, const Tensor &);
template <class T> Tensor operator*(const T &, const Tensor &);
template <class T> Tensor operator/(const T &, const Tensor &);
template <class T> Tensor operator>(const Tensor &, const T &);
template <class T> Tensor operator<(const Tensor &, const T &);
template <class T> Tensor operator==(const Tensor &, const T &);

std::vector<Tensor> split(KB_ARGS);
std::vector<Tensor> chunk(KB_ARGS);
std::vector<Tensor> unbind(KB_ARGS);
TensorPair sort(KB_ARGS);
TensorPair topk(KB_ARGS);
TensorPair max(KB_ARGS);
TensorPair min(KB_ARGS);
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(KB_ARGS);
std::tuple<Tensor, Tensor, Tensor> _native_batch_norm_legit(KB_ARGS);
bool allclose(KB_ARGS);
bool equal(KB_ARGS);
Tensor from_blob(void *, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {});
#define KB_ATEN_OP(name) template <class... A> Tensor name(A &&...);
#define KB_ATEN_LIST_OP(name) Tensor name(KB_ARGS);
KB_ATEN_LIST_OP(empty) KB_ATEN_LIST_OP(empty_like) KB_ATEN_LIST_OP(empty_strided) KB_ATEN_LIST_OP(zeros) KB_ATEN_LIST_OP(zeros_like)
KB_ATEN_LIST_OP(ones) KB_ATEN_LIST_OP(ones_like) KB_ATEN_LIST_OP(full) KB_ATEN_LIST_OP(full_like) KB_ATEN_LIST_OP(randn) KB_ATEN_LIST_OP(rand)
KB_ATEN_LIST_OP(randint) KB_ATEN_LIST_OP(randn_like) KB_ATEN_LIST_OP(arange) KB_ATEN_OP(linspace) KB_ATEN_OP(eye) KB_ATEN_LIST_OP(tensor)
KB_ATEN_OP(scalar_tensor) KB_ATEN_LIST_OP(cat) KB_ATEN_LIST_OP(stack) KB_ATEN_OP(matmul) KB_ATEN_OP(mm) KB_ATEN_OP(bmm)
KB_ATEN_OP(addmm) KB_ATEN_OP(baddbmm) KB_ATEN_OP(addbmm) KB_ATEN_OP(mv) KB_ATEN_OP(dot) KB_ATEN_LIST_OP(einsum)
KB_ATEN_OP(linear) KB_ATEN_OP(bilinear) KB_ATEN_LIST_OP(conv1d) KB_ATEN_LIST_OP(conv2d) KB_ATEN_LIST_OP(conv3d)
KB_ATEN_LIST_OP(conv_transpose1d) KB_ATEN_LIST_OP(conv_transpose2d) KB_ATEN_LIST_OP(conv_transpose3d) KB_ATEN_LIST_OP(convolution)
KB_ATEN_LIST_OP(_convolution) KB_ATEN_LIST_OP(cudnn_convolution) KB_ATEN_LIST_OP(max_pool1d) KB_ATEN_LIST_OP(max_pool2d)
KB_ATEN_LIST_OP(max_pool3d) KB_ATEN_LIST_OP(avg_pool1d) KB_ATEN_LIST_OP(avg_pool2d) KB_ATEN_LIST_OP(avg_pool3d)
KB_ATEN_LIST_OP(adaptive_avg_pool2d) KB_ATEN_LIST_OP(adaptive_max_pool2d) KB_ATEN_OP(batch_norm) KB_ATEN_LIST_OP(layer_norm)
KB_ATEN_LIST_OP(group_norm) KB_ATEN_OP(instance_norm) KB_ATEN_LIST_OP(rms_norm) KB_ATEN_OP(softmax) KB_ATEN_OP(log_softmax)
KB_ATEN_OP(relu) KB_ATEN_OP(relu_) KB_ATEN_OP(gelu) KB_ATEN_OP(silu) KB_ATEN_OP(sigmoid) KB_ATEN_OP(tanh)
KB_ATEN_OP(elu) KB_ATEN_OP(selu) KB_ATEN_OP(leaky_relu) KB_ATEN_OP(hardtanh) KB_ATEN_OP(hardswish) KB_ATEN_OP(mish)
KB_ATEN_OP(softplus) KB_ATEN_OP(dropout) KB_ATEN_OP(embedding) KB_ATEN_OP(scaled_dot_product_attention)
KB_ATEN_OP(_scaled_dot_product_flash_attention) KB_ATEN_OP(_scaled_dot_product_efficient_attention)
KB_ATEN_OP(_scaled_mm) KB_ATEN_OP(_int_mm) KB_ATEN_OP(_weight_int4pack_mm) KB_ATEN_OP(_weight_int8pack_mm)
KB_ATEN_LIST_OP(sum) KB_ATEN_LIST_OP(mean) KB_ATEN_LIST_OP(amax) KB_ATEN_LIST_OP(amin) KB_ATEN_OP(argmax) KB_ATEN_OP(argmin)
KB_ATEN_OP(exp) KB_ATEN_OP(log) KB_ATEN_OP(sqrt) KB_ATEN_OP(rsqrt) KB_ATEN_OP(pow) KB_ATEN_OP(abs)
KB_ATEN_OP(clamp) KB_ATEN_OP(clamp_min) KB_ATEN_OP(clamp_max) KB_ATEN_OP(where) KB_ATEN_OP(argsort)
KB_ATEN_OP(cumsum) KB_ATEN_OP(cumprod) KB_ATEN_LIST_OP(logsumexp) KB_ATEN_LIST_OP(norm) KB_ATEN_OP(frobenius_norm)
KB_ATEN_OP(add) KB_ATEN_OP(sub) KB_ATEN_OP(mul) KB_ATEN_OP(div) KB_ATEN_OP(neg) KB_ATEN_OP(tril) KB_ATEN_OP(triu)
KB_ATEN_LIST_OP(flip) KB_ATEN_LIST_OP(roll) KB_ATEN_OP(gather) KB_ATEN_OP(scatter) KB_ATEN_OP(scatter_add)
KB_ATEN_LIST_OP(index_select) KB_ATEN_OP(masked_fill) KB_ATEN_OP(nonzero) KB_ATEN_OP(transpose) KB_ATEN_LIST_OP(permute)
KB_ATEN_LIST_OP(reshape) KB_ATEN_OP(flatten) KB_ATEN_LIST_OP(squeeze) KB_ATEN_OP(unsqueeze) KB_ATEN_OP(narrow)
KB_ATEN_LIST_OP(constant_pad_nd) KB_ATEN_LIST_OP(pad) KB_ATEN_LIST_OP(upsample_bilinear2d) KB_ATEN_LIST_OP(upsample_nearest2d)
KB_ATEN_OP(grid_sampler) KB_ATEN_OP(cross_entropy_loss) KB_ATEN_OP(nll_loss) KB_ATEN_OP(mse_loss)
KB_ATEN_OP(kl_div) KB_ATEN_OP(smooth_l1_loss) KB_ATEN_OP(huber_loss) KB_ATEN_OP(l1_loss)
KB_ATEN_OP(binary_cross_entropy) KB_ATEN_OP(binary_cross_entropy_with_logits) KB_ATEN_OP(cosine_similarity)
KB_ATEN_OP(pairwise_distance) KB_ATEN_OP(cdist) KB_ATEN_OP(triplet_margin_loss) KB_ATEN_OP(hinge_embedding_loss)
KB_ATEN_OP(margin_ranking_loss) KB_ATEN_OP(isnan) KB_ATEN_OP(isinf) KB_ATEN_OP(erf) KB_ATEN_OP(sign)
KB_ATEN_OP(floor) KB_ATEN_OP(ceil) KB_ATEN_OP(round) KB_ATEN_OP(maximum) KB_ATEN_OP(minimum) KB_ATEN_OP(fmax)
KB_ATEN_OP(fmin) KB_ATEN_OP(remainder) KB_ATEN_OP(fmod) KB_ATEN_OP(lerp) KB_ATEN_OP(addcmul) KB_ATEN_OP(addcdiv)
KB_ATEN_OP(outer) KB_ATEN_OP(kron) KB_ATEN_OP(bucketize) KB_ATEN_OP(searchsorted) KB_ATEN_OP(histc)
KB_ATEN_OP(bincount) KB_ATEN_OP(matrix_exp) KB_ATEN_OP(square) KB_ATEN_OP(reciprocal) KB_ATEN_OP(sin)
KB_ATEN_OP(cos) KB_ATEN_OP(diag) KB_ATEN_OP(diagonal) KB_ATEN_OP(trace) KB_ATEN_OP(one_hot)
KB_ATEN_OP(_softmax) KB_ATEN_OP(_log_softmax) KB_ATEN_OP(prelu) KB_ATEN_OP(threshold) KB_ATEN_OP(hardsigmoid)
KB_ATEN_OP(glu) KB_ATEN_OP(logical_and) KB_ATEN_OP(logical_or) KB_ATEN_OP(eq) KB_ATEN_OP(ne) KB_ATEN_OP(gt)
KB_ATEN_OP(lt) KB_ATEN_OP(ge) KB_ATEN_OP(le) KB_ATEN_OP(prod) KB_ATEN_LIST_OP(var) KB_ATEN_LIST_OP(std) KB_ATEN_OP(median)
KB_ATEN_OP(quantile) KB_ATEN_OP(unique) KB_ATEN_LIST_OP(expand) KB_ATEN_OP(contiguous) KB_ATEN_OP(clone)
KB_ATEN_LIST_OP(as_strided) KB_ATEN_OP(_to_copy) KB_ATEN_OP(view_as_real) KB_ATEN_OP(fft_fft) KB_ATEN_OP(fft_rfft)
KB_ATEN_OP(fft_irfft) KB_ATEN_LIST_OP(linalg_norm) KB_ATEN_LIST_OP(linalg_vector_norm) KB_ATEN_OP(linalg_matmul)
KB_ATEN_OP(linalg_inv) KB_ATEN_OP(linalg_solve) KB_ATEN_OP(linalg_cholesky) KB_ATEN_OP(inverse) KB_ATEN_OP(cholesky)
KB_ATEN_OP(addmv) KB_ATEN_LIST_OP(tensordot) KB_ATEN_OP(chain_matmul) KB_ATEN_OP(hardshrink) KB_ATEN_OP(softshrink)
KB_ATEN_OP(celu) KB_ATEN_OP(logsigmoid) KB_ATEN_OP(softsign) KB_ATEN_OP(tanhshrink) KB_ATEN_OP(pixel_shuffle)
KB_ATEN_OP(exp2) KB_ATEN_OP(log2) KB_ATEN_OP(log1p) KB_ATEN_OP(expm1) KB_ATEN_OP(atan2) KB_ATEN_OP(hypot)
#undef KB_ATEN_OP
#undef KB_ATEN_LIST_OP
namespace native {
template <class... A> Tensor matmul(A &&...) { return {}; }
} // namespace native
namespace detail {
Tensor empty_cuda(KB_ARGS);
Tensor empty_cpu(KB_ARGS);
Tensor empty_strided_cuda(KB_ARGS);
} // namespace detail
namespace kbaudit_dispatch {
// The AT_DISPATCH_* macros below expand to a call of the function named like the macro, so
// the facts record which dispatch (and so which scalar types) a launch sits in.
template <class F> auto AT_DISPATCH_FLOATING_TYPES(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_FLOATING_TYPES_AND_HALF(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_REDUCED_FLOATING_TYPES(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_ALL_TYPES(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_INTEGRAL_TYPES(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_FLOATING_TYPES_AND(::c10::detail::Arg, ::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_ALL_TYPES_AND(::c10::detail::Arg, ::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_FLOATING_TYPES_AND2(::c10::detail::Arg, ::c10::detail::Arg, ::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_ALL_TYPES_AND2(::c10::detail::Arg, ::c10::detail::Arg, ::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_FLOATING_TYPES_AND3(::c10::detail::Arg, ::c10::detail::Arg, ::c10::detail::Arg, ::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_ALL_TYPES_AND3(::c10::detail::Arg, ::c10::detail::Arg, ::c10::detail::Arg, ::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
template <class F> auto AT_DISPATCH_SWITCH(::c10::detail::Arg, const char *, F &&f) -> decltype(f()) { return f(); }
} // namespace kbaudit_dispatch
namespace cuda {
using namespace ::c10::cuda;
cublasHandle_t getCurrentCUDABlasHandle();
cublasLtHandle_t getCurrentCUDABlasLtHandle();
cudaDeviceProp *getCurrentDeviceProperties();
cudaDeviceProp *getDeviceProperties(int64_t);
int64_t getNumGPUs();
bool is_available();
void *getCUDABlasLtWorkspace();
size_t getCUDABlasLtWorkspaceSize();
class CUDAEvent {
public:
  CUDAEvent();
  explicit CUDAEvent(unsigned int);
  void record();
  void record(const CUDAStream &);
  void block(const CUDAStream &);
  void synchronize() const;
  bool query() const;
  float elapsed_time(const CUDAEvent &) const;
  cudaEvent_t event() const;
};
class CUDAGraph {
public:
  CUDAGraph();
  void capture_begin(::c10::detail::Arg = {}, ::c10::detail::Arg = {});
  void capture_end();
  void replay();
  void reset();
  void enable_debug_mode();
};
namespace blas {
template <class... A> void gemm(A &&...) {}
template <class... A> void bgemm(A &&...) {}
template <class... A> void gemm_and_bias(A &&...) {}
template <class... A> void scaled_gemm(A &&...) {}
} // namespace blas
} // namespace cuda
namespace native {
cudnnHandle_t getCudnnHandle();
}
struct NoGradGuard { NoGradGuard(); };
struct AutoDispatchBelowADInplaceOrView { AutoDispatchBelowADInplaceOrView(); };
namespace indexing {
struct Slice { Slice(::c10::detail::Arg = {}, ::c10::detail::Arg = {}, ::c10::detail::Arg = {}); };
struct EllipsisIndexType {};
extern const EllipsisIndexType Ellipsis;
extern const std::nullopt_t None;
} // namespace indexing
template <class F> void parallel_for(int64_t, int64_t, int64_t, const F &f) { f(0, 0); }
// Process-wide numeric switches (PREC002 reads calls to these).
enum class Float32MatmulPrecision { HIGHEST, HIGH, MEDIUM };
struct Context {
  void setAllowTF32CuBLAS(bool);
  void setAllowTF32CuDNN(bool);
  void setAllowFP16ReductionCuBLAS(bool);
  void setAllowBF16ReductionCuBLAS(bool);
  void setFloat32MatmulPrecision(const std::string &);
  void setFloat32MatmulPrecision(Float32MatmulPrecision);
  bool allowTF32CuBLAS() const;
  bool allowTF32CuDNN() const;
};
Context &globalContext();
std::optional<Device> device_of(const Tensor &);
int get_num_threads();
} // namespace at

namespace std {
template <> struct tuple_size<at::TensorPair> : integral_constant<size_t, 2> {};
template <size_t I> struct tuple_element<I, at::TensorPair> { using type = at::Tensor; };
using at::get;
} // namespace std

namespace torch {
using namespace at;
using at::Tensor;
using Dtype = at::ScalarType;
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
namespace cuda {
void synchronize(int64_t = -1);
bool is_available();
int64_t device_count();
} // namespace cuda
namespace nn {
namespace functional {
#define KB_NNF(name) at::Tensor name(KB_ARGS);
KB_NNF(linear) KB_NNF(conv1d) KB_NNF(conv2d) KB_NNF(conv3d) KB_NNF(conv_transpose2d) KB_NNF(relu) KB_NNF(gelu)
KB_NNF(silu) KB_NNF(softmax) KB_NNF(log_softmax) KB_NNF(layer_norm) KB_NNF(batch_norm) KB_NNF(group_norm)
KB_NNF(instance_norm) KB_NNF(max_pool2d) KB_NNF(avg_pool2d) KB_NNF(adaptive_avg_pool2d) KB_NNF(dropout) KB_NNF(pad)
KB_NNF(interpolate) KB_NNF(embedding) KB_NNF(cross_entropy) KB_NNF(mse_loss) KB_NNF(normalize)
KB_NNF(scaled_dot_product_attention) KB_NNF(elu) KB_NNF(leaky_relu) KB_NNF(hardtanh) KB_NNF(softplus) KB_NNF(mish)
#undef KB_NNF
struct FuncOptions { template <class... A> FuncOptions(A &&...) {} template <class T> FuncOptions &operator()(T &&); };
using LinearFuncOptions = FuncOptions;
using Conv2dFuncOptions = FuncOptions;
using SoftmaxFuncOptions = FuncOptions;
using LayerNormFuncOptions = FuncOptions;
using PadFuncOptions = FuncOptions;
using InterpolateFuncOptions = FuncOptions;
} // namespace functional
} // namespace nn
namespace autograd { using Variable = at::Tensor; }
using NoGradGuard = at::NoGradGuard;
using at::indexing::Slice;
using at::indexing::None;

/// TORCH_LIBRARY / TORCH_LIBRARY_IMPL receivers.
class Library {
public:
  enum Kind { DEF, IMPL, FRAGMENT };
  Library &def(const char *schema);
  template <class Name, class Func, class... Extra> Library &def(Name &&, Func &&, Extra &&...) { return *this; }
  template <class Name, class Func> Library &impl(Name &&, Func &&) { return *this; }
  template <class Func> Library &fallback(Func &&) { return *this; }
};
template <class F> F dispatch(::c10::detail::Arg, F f) { return f; }
struct RegisterOperators {
  RegisterOperators();
  template <class... A> RegisterOperators &op(A &&...) { return *this; }
};
} // namespace torch

namespace pybind11 {
class handle { public: handle(); template <class T> T cast() const; };
class object : public handle { public: object(); template <class T> object(T &&); object attr(const char *) const; template <class... A> object operator()(A &&...) const; };
class none : public object {};
class str : public object { public: str(const char *); str(const std::string &); };
class tuple : public object {};
class list : public object { public: void append(handle); size_t size() const; };
class dict : public object {};
class capsule : public object { public: template <class... A> capsule(A &&...); };
class array : public object {};
template <class T> T cast(handle);
template <class T> object cast(T &&);
template <class... A> tuple make_tuple(A &&...);
enum class return_value_policy { automatic, take_ownership, copy, move, reference, reference_internal };
struct arg {
  constexpr explicit arg(const char *n) : name(n) {}
  template <class T> arg operator=(T &&) const { return *this; }
  arg &noconvert(bool = true);
  arg &none(bool = true);
  const char *name;
};
using arg_v = arg;
namespace literals { inline arg operator""_a(const char *s, size_t) { return arg(s); } }
struct call_guard_base {};
template <class... T> struct call_guard { using type = call_guard_base; };
struct gil_scoped_release { gil_scoped_release(); };
struct gil_scoped_acquire { gil_scoped_acquire(); };
template <class... A> struct kb_overload_cast {
  template <class R> constexpr auto operator()(R (*pf)(A...)) const -> decltype(pf) { return pf; }
  template <class R, class C> constexpr auto operator()(R (C::*pf)(A...), std::false_type = {}) const -> decltype(pf) { return pf; }
};
template <class... A> inline constexpr kb_overload_cast<A...> overload_cast{};
class module_ : public object {
public:
  module_();
  explicit module_(const char *, const char * = nullptr);
  template <class F, class... Extra> module_ &def(const char *, F &&, const Extra &...) { return *this; }
  module_ def_submodule(const char *, const char * = nullptr);
  template <class T> module_ &attr_set(const char *, T &&);
  static module_ import(const char *);
  object attr(const char *) const;
};
using module = module_;
template <class T, class... Options> class class_ : public object {
public:
  template <class... A> class_(A &&...) {}
  template <class... A> class_ &def(A &&...) { return *this; }
  template <class... A> class_ &def_readwrite(A &&...) { return *this; }
  template <class... A> class_ &def_readonly(A &&...) { return *this; }
  template <class... A> class_ &def_property(A &&...) { return *this; }
  template <class... A> class_ &def_static(A &&...) { return *this; }
};
template <class... A> struct init { };
template <class T> class enum_ : public object { public: template <class... A> enum_(A &&...) {} template <class... A> enum_ &value(A &&...) { return *this; } };
class error_already_set : public std::exception {};
} // namespace pybind11
namespace py = pybind11;

// The Python C API and torch's bridges to it (torch/extension.h includes Python.h).
extern "C" {
typedef long Py_ssize_t;
typedef struct _object { Py_ssize_t ob_refcnt; } PyObject;
extern PyObject *Py_None;
extern PyObject *PyExc_RuntimeError;
extern PyObject *PyExc_ValueError;
PyObject *PyTuple_New(Py_ssize_t);
int PyTuple_SetItem(PyObject *, Py_ssize_t, PyObject *);
PyObject *PyTuple_GetItem(PyObject *, Py_ssize_t);
PyObject *PyList_New(Py_ssize_t);
int PyList_SetItem(PyObject *, Py_ssize_t, PyObject *);
PyObject *PyLong_FromLong(long);
long PyLong_AsLong(PyObject *);
PyObject *PyFloat_FromDouble(double);
void PyErr_SetString(PyObject *, const char *);
int PyArg_ParseTuple(PyObject *, const char *, ...);
void Py_IncRef(PyObject *);
PyObject *PyCapsule_New(void *, const char *, void (*)(PyObject *));
void *PyCapsule_GetPointer(PyObject *, const char *);
PyObject *PyBool_FromLong(long);
PyObject *PyUnicode_FromString(const char *);
void Py_DecRef(PyObject *);
}
#define Py_INCREF(o) Py_IncRef((PyObject *)(o))
#define Py_DECREF(o) Py_DecRef((PyObject *)(o))
#define Py_RETURN_NONE return Py_None
#define PyTuple_SET_ITEM(t, i, v) PyTuple_SetItem((t), (i), (v))
#define PyList_SET_ITEM(l, i, v) PyList_SetItem((l), (i), (v))
PyObject *THPVariable_Wrap(at::Tensor);
const at::Tensor &THPVariable_Unpack(PyObject *);
bool THPVariable_Check(PyObject *);

#define PYBIND11_MODULE(name, variable) void pybind11_init_##name(::pybind11::module_ &variable)
#define TORCH_LIBRARY(ns, m) void TORCH_LIBRARY_init_##ns(::torch::Library &m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) void TORCH_LIBRARY_FRAGMENT_init_##ns(::torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, k, m) void TORCH_LIBRARY_IMPL_init_##ns##_##k(::torch::Library &m)
#define TORCH_FN(f) (f)
#define TORCH_SELECTIVE_NAME(n) (n)
#define TORCH_SELECTIVE_SCHEMA(n) (n)
#define TORCH_CHECK(cond, ...) ::c10::detail::torchCheck((cond), ##__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) ::c10::detail::torchCheck((cond), ##__VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) ::c10::detail::torchCheck((cond), ##__VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...) ::c10::detail::torchCheck((cond), ##__VA_ARGS__)
#define TORCH_WARN(...) ::c10::detail::torchCheck(true, __VA_ARGS__)
#define TORCH_WARN_ONCE(...) ::c10::detail::torchCheck(true, __VA_ARGS__)
#define AT_ASSERT(cond, ...) ::c10::detail::torchCheck((cond), ##__VA_ARGS__)
#define AT_ASSERTM(cond, ...) ::c10::detail::torchCheck((cond), ##__VA_ARGS__)
#define AT_ERROR(...) ::c10::detail::torchCheck(false, __VA_ARGS__)
#define C10_CUDA_CHECK(expr) ::c10::detail::torchCheck((expr))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ::c10::detail::torchCheck(true)
#define AT_CUDA_CHECK(expr) ::c10::detail::torchCheck((expr))
#define TORCH_CUDABLAS_CHECK(expr) ::c10::detail::torchCheck((expr))
#define C10_UNUSED __attribute__((unused))
#define C10_LIKELY(x) (x)
#define C10_UNLIKELY(x) (x)
#define C10_HOST_DEVICE KB_HD
#define C10_DEVICE KB_D
#define C10_HOST
#define C10_WARP_SIZE 32
#define C10_LAUNCH_BOUNDS_1(n) __launch_bounds__(n)
#define C10_LAUNCH_BOUNDS_2(n, m) __launch_bounds__(n, m)

#define KB_DISPATCH(NAME, ...) ::at::kbaudit_dispatch::NAME(__VA_ARGS__)
#define KB_DISPATCH_BODY(...) [&] { using scalar_t = float; (void)sizeof(scalar_t); return __VA_ARGS__(); }
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_FLOATING_TYPES, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_FLOATING_TYPES_AND_HALF, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_REDUCED_FLOATING_TYPES, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_ALL_TYPES, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_INTEGRAL_TYPES, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_FLOATING_TYPES_AND, T1, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_ALL_TYPES_AND, T1, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_FLOATING_TYPES_AND2, T1, T2, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_ALL_TYPES_AND2, T1, T2, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_FLOATING_TYPES_AND3, T1, T2, T3, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_ALL_TYPES_AND3, T1, T2, T3, TYPE, NAME, KB_DISPATCH_BODY(__VA_ARGS__))
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...) KB_DISPATCH(AT_DISPATCH_SWITCH, TYPE, NAME, [&] { __VA_ARGS__ })
#define AT_DISPATCH_CASE(ENUM, ...) { using scalar_t = float; (void)sizeof(scalar_t); __VA_ARGS__(); }
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) AT_DISPATCH_CASE(0, __VA_ARGS__)
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(...) AT_DISPATCH_CASE(0, __VA_ARGS__)
