// The light build's binding: a solution's `PYBIND11_MODULE(name, m) { m.def("f", &f, ...); }`
// (torch's generated main.cpp, or its own) registers each function as a torch operator
// (TORCH_LIBRARY) instead of a pybind11 module, so the extension compiles against torch's
// types.h (ATen) alone, without pybind11, Python.h and the rest of torch/extension.h, which
// take most of a build's time. The Python side (kbaudit_probe/cuda_cpu.py) loads the library
// with torch.ops.load_library and hands the solution a module whose attributes are the ops.
//
// Parameter types map to the operator schema's: the integer types to int64_t, float and
// double to double, tensors, optional tensors, lists, strings and scalar types as they are;
// results likewise. A binding this cannot express (pybind11 classes, py::object, a lambda
// over Python state) does not compile, and the build falls back to torch/extension.h.
#pragma once

#include <torch/library.h>
#include <torch/types.h>

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// CUDACPU_LIBRARY, the operator namespace, is defined by the build (cuda_cpu.py); it is used only
// where PYBIND11_MODULE expands, so a precompiled copy of this header serves every build.

namespace cudacpu::bind {

template <class T, class = void> struct Arg {
  static_assert(sizeof(T) == 0, "this parameter type has no torch operator schema type");
};
template <class T> struct Arg<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = int64_t;
  static T unwrap(int64_t v) { return static_cast<T>(v); }
};
template <class T> struct Arg<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  using type = double;
  static T unwrap(double v) { return static_cast<T>(v); }
};
template <> struct Arg<bool> {
  using type = bool;
  static bool unwrap(bool v) { return v; }
};
/// Types the schema has as they are (passed through).
template <class T> struct Same {
  using type = const T &;
  static T &unwrap(const T &v) { return const_cast<T &>(v); }
};
template <> struct Arg<at::Tensor> : Same<at::Tensor> {};
template <> struct Arg<std::optional<at::Tensor>> : Same<std::optional<at::Tensor>> {};
template <> struct Arg<std::vector<at::Tensor>> : Same<std::vector<at::Tensor>> {};
template <> struct Arg<std::string> : Same<std::string> {};
template <> struct Arg<at::Scalar> : Same<at::Scalar> {};
template <> struct Arg<std::optional<at::Scalar>> : Same<std::optional<at::Scalar>> {};
template <> struct Arg<at::ScalarType> {
  using type = at::ScalarType;
  static at::ScalarType unwrap(at::ScalarType v) { return v; }
};
template <> struct Arg<std::optional<at::ScalarType>> : Same<std::optional<at::ScalarType>> {};
template <> struct Arg<std::optional<int64_t>> : Same<std::optional<int64_t>> {};
template <> struct Arg<std::optional<double>> : Same<std::optional<double>> {};
template <> struct Arg<std::optional<bool>> : Same<std::optional<bool>> {};
template <> struct Arg<std::vector<int64_t>> : Same<std::vector<int64_t>> {};
template <> struct Arg<std::vector<double>> : Same<std::vector<double>> {};
template <> struct Arg<std::vector<bool>> : Same<std::vector<bool>> {};
template <> struct Arg<at::IntArrayRef> {
  using type = const std::vector<int64_t> &;
  static at::IntArrayRef unwrap(const std::vector<int64_t> &v) { return at::IntArrayRef(v); }
};
template <> struct Arg<at::TensorList> {
  using type = const std::vector<at::Tensor> &;
  static at::TensorList unwrap(const std::vector<at::Tensor> &v) { return at::TensorList(v); }
};
template <> struct Arg<std::vector<int>> {
  using type = const std::vector<int64_t> &;
  static std::vector<int> unwrap(const std::vector<int64_t> &v) { return std::vector<int>(v.begin(), v.end()); }
};
template <> struct Arg<std::vector<float>> {
  using type = const std::vector<double> &;
  static std::vector<float> unwrap(const std::vector<double> &v) { return std::vector<float>(v.begin(), v.end()); }
};
template <> struct Arg<std::string_view> {
  using type = const std::string &;
  static std::string_view unwrap(const std::string &v) { return v; }
};
template <> struct Arg<const char *> {
  using type = const std::string &;
  static const char *unwrap(const std::string &v) { return v.c_str(); }
};

template <class T> using Param = Arg<std::remove_cv_t<std::remove_reference_t<T>>>;

template <class T, class = void> struct Result {
  static_assert(sizeof(T) == 0, "this result type has no torch operator schema type");
};
template <class T> struct Result<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  using type = int64_t;
  static int64_t wrap(T v) { return static_cast<int64_t>(v); }
};
template <class T> struct Result<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  using type = double;
  static double wrap(T v) { return static_cast<double>(v); }
};
template <class T> struct Keep {
  using type = T;
  static T wrap(T v) { return v; }
};
template <> struct Result<bool> : Keep<bool> {};
template <> struct Result<at::Tensor> : Keep<at::Tensor> {};
template <> struct Result<std::vector<at::Tensor>> : Keep<std::vector<at::Tensor>> {};
template <> struct Result<std::vector<int64_t>> : Keep<std::vector<int64_t>> {};
template <> struct Result<std::vector<double>> : Keep<std::vector<double>> {};
template <> struct Result<at::Scalar> : Keep<at::Scalar> {};
template <> struct Result<std::string> : Keep<std::string> {};
template <> struct Result<std::optional<at::Tensor>> : Keep<std::optional<at::Tensor>> {};
template <class... T> struct Result<std::tuple<T...>> {
  using type = std::tuple<typename Result<std::decay_t<T>>::type...>;
  static type wrap(std::tuple<T...> v) {
    return std::apply([](auto &&...x) { return type(Result<std::decay_t<decltype(x)>>::wrap(x)...); }, std::move(v));
  }
};
template <class A, class B> struct Result<std::pair<A, B>> {
  using type = std::tuple<typename Result<A>::type, typename Result<B>::type>;
  static type wrap(std::pair<A, B> v) { return type(Result<A>::wrap(v.first), Result<B>::wrap(v.second)); }
};
template <class T> using Return = Result<std::remove_cv_t<std::remove_reference_t<T>>>;

template <class R, class... A> auto adapt(R (*f)(A...)) {
  if constexpr (std::is_void_v<R>)
    return [f](typename Param<A>::type... a) { f(Param<A>::unwrap(a)...); };
  else
    return [f](typename Param<A>::type... a) -> typename Return<R>::type {
      return Return<R>::wrap(f(Param<A>::unwrap(a)...));
    };
}

} // namespace cudacpu::bind

namespace pybind11 {
/// py::arg("x") and py::arg("x") = default: accepted (operators take positional arguments).
struct arg {
  explicit arg(const char *n) : name(n) {}
  template <class T> arg operator=(T &&) const { return *this; }
  const char *name;
};
struct arg_v : arg {
  using arg::arg;
};
struct return_value_policy {
  static constexpr int reference = 0, take_ownership = 1, copy = 2, move = 3, automatic = 4;
};
struct call_guard_base {};
template <class... T> struct call_guard : call_guard_base {};
class gil_scoped_release {};
class gil_scoped_acquire {};

class module_ {
public:
  explicit module_(torch::Library *lib) : lib_(lib) {}
  template <class R, class... A, class... Extra> module_ &def(const char *name, R (*f)(A...), const Extra &...) {
    lib_->def(name, cudacpu::bind::adapt(f));
    return *this;
  }
  module_ &doc(const char *) { return *this; }

private:
  torch::Library *lib_;
};
using module = module_;
} // namespace pybind11
namespace py = pybind11;

namespace torch {
template <class F> F wrap_pybind_function(F f) { return f; }
template <class F> F wrap_pybind_function_no_gil(F f) { return f; }
} // namespace torch

// One more level, so CUDACPU_LIBRARY is expanded before TORCH_LIBRARY pastes it.
#define CUDACPU_TORCH_LIBRARY(ns, m) TORCH_LIBRARY(ns, m)
#define PYBIND11_MODULE(name, variable)                                                                                \
  static void cudacpu_pybind_init(::pybind11::module_ &);                                                              \
  CUDACPU_TORCH_LIBRARY(CUDACPU_LIBRARY, cudacpu_library) {                                                            \
    ::pybind11::module_ cudacpu_module(&cudacpu_library);                                                              \
    cudacpu_pybind_init(cudacpu_module);                                                                               \
  }                                                                                                                    \
  static void cudacpu_pybind_init(::pybind11::module_ &variable)
