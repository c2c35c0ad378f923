#pragma once

// The problem-side operation class of a heavy op the kernel inventory found in forward.

#include "kbaudit/kernels/inventory.h"
#include "kbaudit/problems/problem_context.h"

namespace kbaudit::rules {

inline problems::OpClass opClassOf(kernels::HeavyOpKind k) {
  switch (k) {
  case kernels::HeavyOpKind::Matmul: return problems::OpClass::Matmul;
  case kernels::HeavyOpKind::Conv: return problems::OpClass::Conv;
  case kernels::HeavyOpKind::Attention: return problems::OpClass::Attention;
  case kernels::HeavyOpKind::Scan: return problems::OpClass::Scan;
  case kernels::HeavyOpKind::Sort: return problems::OpClass::Sort;
  }
  return problems::OpClass::Elementwise;
}

} // namespace kbaudit::rules
