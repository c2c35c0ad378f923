// Which kernel argument types are plain values (no pointer can hide in them). A launch gives
// its pointer arguments guarded copies only when every other argument is plain: a struct of
// pointers or a tensor accessor would reach the storage itself while they reached the copy.
#pragma once

#include <type_traits>

namespace cudacpu {
template <class T> struct PlainValue : std::bool_constant<std::is_scalar_v<T>> {};
} // namespace cudacpu

#define CUDACPU_PLAIN_VALUE(T)                                                                                         \
  namespace cudacpu {                                                                                                  \
  template <> struct PlainValue<T> : std::true_type {};                                                                \
  }
