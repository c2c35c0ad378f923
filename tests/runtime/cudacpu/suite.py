"""The CPU runner's test suite: builds suite_kernels.cu with load_inline through the probe's CPU
mapping (kbaudit_probe.cuda_cpu: translated by `kbaudit cuda-translate`, compiled with g++ against
the fiber runtime) and compares every kernel's result with torch on the CPU. Prints one line per
case, `CASE <name> ok` or `CASE <name> FAIL <why>`, then `DONE`.

usage: python suite.py REPO_ROOT KBAUDIT_BINARY SCRATCH_DIR
"""
import os
import sys
import time


def main():
    root, translator, scratch = sys.argv[1:4]
    sys.path.insert(0, os.path.join(root, "runtime_checks"))
    os.environ["KBAUDIT_CUDA_TRANSLATOR"] = translator
    os.environ["TORCH_EXTENSIONS_DIR"] = os.path.join(scratch, "torch_extensions")
    os.environ["KBAUDIT_CUDACPU_LAUNCH_SECONDS"] = "3"  # the hanging kernel's limit
    os.environ["KBAUDIT_HARNESS_BUILD"] = "0"  # the runtime is under test here, not the harness's build
    os.environ["TMPDIR"] = scratch
    import torch

    torch.manual_seed(0)
    from kbaudit_probe.cpu_mapping import Mapping

    here = os.path.dirname(os.path.abspath(__file__))
    mapping = Mapping([here])
    mapping.install()
    from torch.utils.cpp_extension import load_inline

    with open(os.path.join(here, "suite_kernels.cu")) as f:
        cuda_source = f.read()
    decls = """
torch::Tensor gelu_tanh(torch::Tensor x);
torch::Tensor softmax(torch::Tensor x);
torch::Tensor block_sums(torch::Tensor x, int64_t blocks);
torch::Tensor legacy_sum(torch::Tensor x);
torch::Tensor coop_sum(torch::Tensor x);
torch::Tensor matmul(torch::Tensor a, torch::Tensor b);
std::vector<torch::Tensor> atomics(torch::Tensor values, torch::Tensor x, int64_t nbins);
std::vector<torch::Tensor> narrow(torch::Tensor x, torch::Tensor y);
torch::Tensor warp_ops(int64_t threads);
int64_t fault(int64_t which);
std::vector<torch::Tensor> ptx_ops(torch::Tensor a, torch::Tensor bt, torch::Tensor x);
"""
    started = time.monotonic()
    ext = load_inline(name="kbaudit_cudacpu_suite", cpp_sources=decls, cuda_sources=cuda_source,
                      functions=["gelu_tanh", "softmax", "block_sums", "legacy_sum", "coop_sum", "matmul", "atomics", "narrow", "warp_ops", "fault", "ptx_ops"])
    print("BUILD %.1f s; %s" % (time.monotonic() - started, " | ".join(mapping.notes)), flush=True)

    def case(name, fn):
        try:
            why = fn()
        except Exception as e:  # noqa: BLE001  (a case's failure is its result)
            why = "%s: %s" % (type(e).__name__, str(e)[:300])
        print("CASE %s %s" % (name, "ok" if not why else "FAIL " + why), flush=True)

    def close(a, b, rtol, atol, what):
        if a.shape != b.shape:
            return "%s: shape %s, torch %s" % (what, tuple(a.shape), tuple(b.shape))
        if not torch.allclose(a, b, rtol=rtol, atol=atol):
            return "%s: max difference %g" % (what, (a.double() - b.double()).abs().max().item())
        return ""

    x = torch.randn(4099)
    case("elementwise_gelu_float4", lambda: close(ext.gelu_tanh(x), torch.nn.functional.gelu(x, approximate="tanh"),
                                                  1e-5, 1e-6, "gelu"))
    rows = torch.randn(33, 1000) * 3
    case("reduction_softmax_shared_shuffles", lambda: close(ext.softmax(rows), torch.softmax(rows, dim=1), 1e-5, 1e-7,
                                                            "softmax"))
    v = torch.randn(10000)
    case("reduction_dynamic_shared", lambda: close(ext.block_sums(v, 7).sum(), v.sum(), 1e-4, 1e-4, "block sums"))
    w = torch.randn(5000)
    case("reduction_legacy_warp_synchronous", lambda: close(ext.legacy_sum(w), w.sum().reshape(1), 1e-4, 1e-4,
                                                            "volatile last-warp sum"))
    case("cooperative_launch_grid_sync", lambda: close(ext.coop_sum(w), w.sum().reshape(1), 1e-4, 1e-4,
                                                       "cooperative grid sum"))
    a, b = torch.randn(70, 45), torch.randn(45, 33)
    case("tiled_matmul_syncthreads", lambda: close(ext.matmul(a, b), a @ b, 1e-4, 1e-5, "matmul"))

    def atomics():
        values = torch.randint(0, 1000, (5000,))
        pos = torch.rand(3000)
        bins, total, biggest, count = ext.atomics(values, pos, 17)
        return (close(bins.long(), torch.bincount(values % 17, minlength=17), 0, 0, "histogram") or
                close(total, pos.sum().reshape(1), 1e-4, 1e-3, "atomicAdd sum") or
                close(biggest, pos.max().reshape(1), 0, 0, "atomicCAS max") or
                close(count.long(), torch.tensor([3000]), 0, 0, "atomicInc count"))

    case("atomics", atomics)

    def narrow():
        x = torch.cat([torch.randn(3000) * 4, torch.tensor([65504.0, 65520.0, 1e-8, -0.0, 2.0 ** -24, 448.0, 500.0])])
        y = torch.randn(x.numel())
        h, b, hsum, hfma, bmul, e4m3, e5m2, back = ext.narrow(x, y)
        xh, yh = x.half(), y.half()
        fma = (xh.double() * yh.double() + 0.25).half()  # one rounding of the exact value
        finite = x.abs() <= 448
        return (close(h.view(torch.int16), xh.view(torch.int16), 0, 0, "float->half bits") or
                close(b.view(torch.int16), x.bfloat16().view(torch.int16), 0, 0, "float->bf16 bits") or
                close(hsum.view(torch.int16), (xh.float() + yh.float()).half().view(torch.int16), 0, 0, "__hadd bits") or
                close(hfma.view(torch.int16), fma.view(torch.int16), 0, 0, "__hfma bits") or
                close(bmul.view(torch.int16), (x.bfloat16().float() * y.bfloat16().float()).bfloat16().view(torch.int16),
                      0, 0, "bf16 __hmul bits") or
                close(e4m3[finite], x[finite].to(torch.float8_e4m3fn).view(torch.uint8), 0, 0, "float->e4m3 bits") or
                close(e4m3[~finite & ~x.isnan()] & 0x7f, torch.full_like(e4m3[~finite & ~x.isnan()], 0x7e), 0, 0,
                      "e4m3 saturates") or
                close(e5m2[finite], x[finite].to(torch.float8_e5m2).view(torch.uint8), 0, 0, "float->e5m2 bits") or
                close(back, xh.float() + x.to(torch.float8_e4m3fn).float().where(finite, torch.tensor(448.0) * x.sign()),
                      0, 0, "half2 / fp8 back to float"))

    case("half_bf16_fp8_rounding", narrow)

    def warp():
        threads = 48  # one full warp and one of 16 lanes
        out = ext.warp_ops(threads).tolist()
        for t, (ballot, anyall, bcast, match, active, tile_sum, rmax) in enumerate(out):
            warp_lanes = 32 if t < 32 else 16
            lane = t % 32
            want = {
                "ballot": sum(1 << l for l in range(warp_lanes) if l % 3 == 0),
                "any/all": (1 if warp_lanes == 32 else 0) + 2 * (0 if warp_lanes == 32 else 1),
                "broadcast": 50,
                "match_any": sum(1 << l for l in range(warp_lanes) if l // 8 == lane // 8),
                "activemask": sum(1 << l for l in range(0, warp_lanes, 2)) if lane % 2 == 0 else -1,
                "tile reduce": sum(range(lane // 8 * 8, lane // 8 * 8 + 8)),
                "reduce_max": max(l * 7 % 32 for l in range(warp_lanes)),
            }
            got = {"ballot": ballot, "any/all": anyall, "broadcast": bcast, "match_any": match, "activemask": active,
                   "tile reduce": tile_sum, "reduce_max": rmax}
            for key in want:
                w = want[key] if want[key] < (1 << 31) else want[key] - (1 << 32)
                if got[key] != w:
                    return "thread %d %s: %d, expected %d" % (t, key, got[key], w)
        return ""

    case("warp_intrinsics_lockstep", warp)

    def ptx():
        a, bt = torch.randn(48, 64).bfloat16(), torch.randn(24, 64).bfloat16()
        xs = torch.randn(100)
        c, e, packed, bits, named = ext.ptx_ops(a, bt, xs)
        pairs = torch.stack([(-xs).bfloat16().view(torch.int16), xs.bfloat16().view(torch.int16)], dim=1)
        i = torch.arange(100, dtype=torch.int64)
        lop = ((i ^ 0xff00ff00 ^ 0x0f0f0f0f) & 0xffffffff)
        lop = torch.where(lop >= 2 ** 31, lop - 2 ** 32, lop).to(torch.int32)
        return (close(c, a.float() @ bt.float().t(), 1e-5, 1e-4, "cp.async + ldmatrix + mma.sync gemm") or
                close(e, torch.exp2(xs), 1e-6, 0, "ex2.approx") or
                close(packed.view(torch.int16).view(100, 2), pairs, 0, 0, "cvt.rn.bf16x2.f32") or
                close(bits, torch.where(i < 10, lop, torch.zeros_like(lop)), 0, 0, "prmt, lop3, predicated st") or
                close(named, torch.arange(31, -1, -1, dtype=torch.float32) * 2, 0, 0, "named barrier (bar.sync/bar.arrive)"))

    case("inline_ptx_tensor_core_gemm_and_scalar_ops", ptx)

    def fault(which, words):
        def run():
            try:
                ext.fault(which)
            except RuntimeError as e:
                missing = [w for w in words if w not in str(e)]
                return "message lacks %s: %s" % (missing, str(e)[:300]) if missing else ""
            return "no error"
        return run

    t0 = time.monotonic()
    case("hang_is_reported", fault(0, ["kbaudit-cudacpu", "hang_kernel", "time limit"]))
    hang_seconds = time.monotonic() - t0
    case("hang_ends_near_its_limit", lambda: "" if hang_seconds < 10 else "took %.1f s" % hang_seconds)
    case("out_of_bounds_read_is_reported", fault(1, ["out-of-bounds read", "read_past_end_kernel", "thread (99,0,0)",
                                                     "argument #1", "400 bytes"]))
    case("out_of_bounds_write_is_reported", fault(2, ["out-of-bounds write", "write_past_end_kernel", "thread (100,0,0)"]))
    case("deadlock_is_reported", fault(3, ["deadlock", "divergent_barrier_kernel", "__syncthreads", "__shfl_sync"]))
    case("bad_configuration_is_a_launch_error", fault(4, ["invalid configuration argument"]))
    case("runs_again_after_faults", lambda: close(ext.matmul(a, b), a @ b, 1e-4, 1e-5, "matmul after faults"))
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
