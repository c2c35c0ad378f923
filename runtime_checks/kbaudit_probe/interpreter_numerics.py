"""Numerics Triton's interpreter gets wrong, made to compute what the GPU computes.

Triton 3.5's interpreter keeps bf16 tensors as their raw 16-bit patterns (numpy has no bf16) and
converts them only in bf16 <-> fp32 casts: every other operation on them (arithmetic, compares,
math functions, reductions, `tl.dot`) runs on the bit patterns, which gives numbers like 1e30 for
`x * s`. And it computes an fp32 `tl.dot` in full fp32, where tensor cores read fp32 operands as
TF32 at the default `input_precision="tf32"`.

Fixes, installed on the interpreter's builder and reduction classes:
* bf16 values: each operation widens its bf16 operands to fp32 values, computes, and rounds a
  floating result back to bf16 bits (round to nearest even): bf16 storage, loads, stores and
  bitcasts are untouched, and each operation rounds as bf16 hardware arithmetic does;
* casts between bf16 and anything but fp32 go through fp32 values, and the missing bf16 constant
  (`builder.get_bf16`) exists;
* `tl.dot` on fp32 operands with TF32 input precision rounds the operands to TF32.
"""
import functools

BF16_OPS = ("binary_op", "ternary_op", "unary_op", "create_fma", "create_fabs", "create_erf", "create_rsqrt",
            "create_dot")
CASTS = ("cast_impl",)


def round_mantissa(np, data, drop):
    """fp32 values rounded to nearest (ties to even) with the low `drop` mantissa bits cleared:
    16 gives bf16, 13 gives TF32. NaN and infinity stay as they are (rounding could carry a NaN's
    payload into infinity)."""
    f = np.ascontiguousarray(data, dtype=np.float32)
    u = f.view(np.uint32)
    half = np.uint32((1 << (drop - 1)) - 1)
    keep = np.uint32((0xFFFFFFFF >> drop) << drop)
    rounded = ((u + half + ((u >> np.uint32(drop)) & np.uint32(1))) & keep).view(np.float32)
    return np.where(np.isfinite(f), rounded, f).astype(np.float32)


def install():
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter

    TensorHandle = interpreter.TensorHandle
    builder_cls = interpreter.InterpreterBuilder

    def is_bf16(h):
        return isinstance(h, TensorHandle) and h.dtype == tl.bfloat16 and h.data.dtype == np.uint16

    def values(bits):
        return (np.ascontiguousarray(bits).astype(np.uint32) << np.uint32(16)).view(np.float32)

    def to_bits(data):
        return (round_mantissa(np, data, 16).view(np.uint32) >> np.uint32(16)).astype(np.uint16)

    def widen(h):
        return TensorHandle(values(h.data), tl.float32) if is_bf16(h) else h

    def narrow(h):
        if isinstance(h, TensorHandle) and h.dtype == tl.float32 and np.issubdtype(h.data.dtype, np.floating):
            return TensorHandle(to_bits(h.data), tl.bfloat16)
        return h

    def bf16_aware(original, name):
        @functools.wraps(original)
        def op(self_, *args, **kwargs):
            if not any(is_bf16(a) for a in args):
                return original(self_, *args, **kwargs)
            result = original(self_, *(widen(a) for a in args), **kwargs)
            if name == "create_dot":  # the accumulator's type decides
                return narrow(result) if len(args) > 2 and is_bf16(args[2]) else result
            if isinstance(result, TensorHandle) and result.data.dtype == np.bool_:
                return TensorHandle(result.data, tl.bfloat16)  # a compare, typed as the original types it
            return narrow(result)

        return op

    for name in BF16_OPS:
        if hasattr(builder_cls, name):
            setattr(builder_cls, name, bf16_aware(getattr(builder_cls, name), name))

    original_cast = builder_cls.cast_impl

    def cast_impl(self_, src, dst_type):
        dst = dst_type.scalar
        if is_bf16(src) and dst != tl.float32:
            src = widen(src)
            if dst == tl.bfloat16:
                return narrow(src)
        if dst == tl.bfloat16 and src.dtype != tl.float32 and not is_bf16(src):
            return TensorHandle(to_bits(src.data.astype(np.float32)), tl.bfloat16)
        return original_cast(self_, src, dst_type)

    builder_cls.cast_impl = cast_impl
    if not hasattr(builder_cls, "get_bf16"):
        builder_cls.get_bf16 = lambda self_, v: TensorHandle(to_bits(np.array([v], dtype=np.float32)), tl.bfloat16)

    install_reductions(interpreter, tl, np, is_bf16, values, to_bits)
    install_tf32_dot(builder_cls, interpreter, tl, np)


def install_reductions(interpreter, tl, np, is_bf16, values, to_bits):
    """The reductions' fast paths (sum, min, max, cumsum) call numpy on the handle's data."""
    TensorHandle = interpreter.TensorHandle

    def widen_tensor(t):
        if isinstance(t, tl.core.tensor) and is_bf16(t.handle):
            shape = list(t.shape)
            ty = tl.block_type(tl.float32, shape) if shape else tl.float32
            return tl.core.tensor(TensorHandle(values(t.handle.data), tl.float32), ty), True
        return t, False

    def narrow_tensor(t):
        if isinstance(t, tl.core.tensor) and t.handle.dtype == tl.float32:
            shape = list(t.shape)
            ty = tl.block_type(tl.bfloat16, shape) if shape else tl.bfloat16
            return tl.core.tensor(TensorHandle(to_bits(t.handle.data), tl.bfloat16), ty)
        return t

    for cls_name in ("ReduceOps", "ScanOps"):
        cls = getattr(interpreter, cls_name, None)
        if cls is None or not hasattr(cls, "apply_impl"):
            continue
        original = cls.apply_impl

        def apply_impl(self_, input, _original=original):
            widened = [widen_tensor(t) for t in input]
            if not any(w for _, w in widened):
                return _original(self_, input)
            result = _original(self_, tuple(t for t, _ in widened))
            if isinstance(result, (list, tuple)):
                return type(result)(narrow_tensor(r) for r in result)
            return narrow_tensor(result)

        cls.apply_impl = apply_impl


def install_tf32_dot(builder_cls, interpreter, tl, np):
    original = builder_cls.create_dot

    def to_tf32(data):
        # TF32 keeps 10 of fp32's 23 mantissa bits: that is how the tensor cores read fp32.
        return round_mantissa(np, data, 13)

    def create_dot(self_, a, b, d, input_precision, max_num_imprecise_acc):
        precision = str(input_precision).upper()
        if a.dtype == tl.float32 and b.dtype == tl.float32 and "TF32" in precision and "X3" not in precision:
            a = interpreter.TensorHandle(to_tf32(a.data), a.dtype)
            b = interpreter.TensorHandle(to_tf32(b.data), b.dtype)
        return original(self_, a, b, d, input_precision, max_num_imprecise_acc)

    builder_cls.create_dot = create_dot
