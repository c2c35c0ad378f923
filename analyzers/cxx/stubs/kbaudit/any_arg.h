// kbaudit stub: a parameter type that binds any argument — values, references, and braced
// lists, homogeneous ({M, N}) or not ({nullptr, ld}) — so stubbed APIs accept whatever
// overload the real one would have picked.
#pragma once
#include <kbaudit/std.h>
#include <kbaudit/cuda_attrs.h>
namespace kbaudit_stub {
struct AnyArg {
  KB_HD AnyArg() {}
  template <class... T> KB_HD AnyArg(T &&...) {}
  template <class T> KB_HD AnyArg(std::initializer_list<T>) {}
  KB_HD AnyArg(std::initializer_list<int64_t>) {}
};
} // namespace kbaudit_stub
#define KB_ANY ::kbaudit_stub::AnyArg = {}
#define KB_ANY16 KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY, KB_ANY
