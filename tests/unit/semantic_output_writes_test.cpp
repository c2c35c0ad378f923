// Whether the graded entry writes the preallocated output it is handed
// (kbaudit/semantic/output_writes.h): MEM006 reads this answer.

#include "kbaudit/semantic/graded_entry.h"
#include "kbaudit/semantic/output_writes.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

Facts factsOf(const std::string &text) { return analyzeSource(SourceFile::fromBytes(text)); }

semantic::OutputFate fateOf(const std::string &text) {
  const Facts f = factsOf(text);
  const auto e = semantic::gradedEntry(f);
  EXPECT_TRUE(e);
  if (!e)
    return semantic::OutputFate::Written;
  const auto buffers = semantic::preallocatedOutputs(f, *e);
  EXPECT_EQ(buffers.size(), 1u);
  if (buffers.empty())
    return semantic::OutputFate::Written;
  std::vector<std::string> weak;
  if (e->convention == semantic::EntryConvention::CustomKernel)
    weak.push_back(e->function->params.front());
  return semantic::outputWrites(f, *e->function, buffers.front().name, weak).fate;
}

TEST(SemanticOutputWrites, WritePaths) {
  using semantic::OutputFate;
  EXPECT_EQ(fateOf("def kernel(out, a):\n    out.copy_(a)\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("def kernel(out, a):\n    out[...] = a\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("def kernel(out, a):\n    out += a\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("import torch\ndef kernel(out, a, b):\n    torch.matmul(a, b, out=out)\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("def kernel(out, a):\n    o = out.view(-1)\n    o[:4] = a\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("def kernel(out, a):\n    k[(1,)](a, out.view(-1), 4)\n"), OutputFate::Written)
      << "a launch writes what it is handed";
  EXPECT_EQ(fateOf("def _fill(dst, v):\n    dst.fill_(v)\ndef kernel(out, a):\n    _fill(out, 1.0)\n"),
            OutputFate::Written)
      << "a helper of the file that writes its parameter";
  EXPECT_EQ(fateOf("import cupy\n_k = cupy.RawKernel('extern \"C\" __global__ void k(float* o) {}', 'k')\n"
                   "def kernel(out, a):\n    _k((1,), (32,), (a.data_ptr(), out.data_ptr()))\n"),
            OutputFate::Written)
      << "a runtime-compiled kernel launched with the buffer's pointer";
  EXPECT_EQ(fateOf("def kernel(out, a):\n    bufs = [a, out]\n    bufs[1].zero_()\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("import torch\ndef kernel(out, a):\n    torch.Tensor.copy_(out, a)\n"), OutputFate::Written)
      << "the function form of an in-place op writes its first argument";
}

TEST(SemanticOutputWrites, ReadsAndEscapes) {
  using semantic::OutputFate;
  EXPECT_EQ(fateOf("import torch\ndef kernel(out, a):\n    r = torch.empty_like(out)\n    r.copy_(a)\n    return r\n"),
            OutputFate::Untouched)
      << "torch's functional ops and the source of another tensor's copy only read";
  EXPECT_EQ(fateOf("import torch\ndef kernel(out, a):\n    out = torch.relu(a)\n    return out\n"),
            OutputFate::Untouched)
      << "rebinding the name does not write the buffer";
  EXPECT_EQ(fateOf("import vendor\ndef kernel(out, a):\n    vendor.run(a, out)\n"), OutputFate::Escapes);
  EXPECT_EQ(fateOf("import vendor\ndef kernel(out, a):\n    vendor.run(a, out.cpu())\n"), OutputFate::Escapes)
      << "another form of the buffer handed to an unknown call";
  EXPECT_EQ(fateOf("import torch\ndef kernel(out, a):\n    torch._C._fill(out, a)\n"), OutputFate::Escapes)
      << "a private torch binding may write";
  EXPECT_EQ(fateOf("def kernel(out, a):\n    o = out.numpy()\n    o[:] = a\n"), OutputFate::Written);
  EXPECT_EQ(fateOf("def kernel(out, a):\n    out = a.clone()\n    out.add_(1)\n"), OutputFate::Escapes)
      << "a write after the name was rebound is not certain to reach the buffer";
  EXPECT_EQ(fateOf("def _noop(dst, v):\n    return v\ndef kernel(out, a):\n    _noop(out, a)\n"), OutputFate::Untouched)
      << "a helper that only reads its parameter";
}

TEST(SemanticOutputWrites, GpuModeBufferFromData) {
  using semantic::OutputFate;
  EXPECT_EQ(fateOf("def custom_kernel(data):\n    a, c = data\n    return c\n"), OutputFate::Untouched);
  EXPECT_EQ(fateOf("def custom_kernel(data):\n    a, c = data\n    c.copy_(a * 2)\n    return c\n"),
            OutputFate::Written);
  EXPECT_EQ(fateOf("def custom_kernel(data):\n    a, c = data\n    data[1].copy_(a)\n    return c\n"),
            OutputFate::Escapes)
      << "a write through the data tuple may reach the buffer";
  const Facts fresh = factsOf("import torch\ndef custom_kernel(data):\n    a, c = data\n    return torch.relu(a)\n");
  EXPECT_TRUE(semantic::preallocatedOutputs(fresh, *semantic::gradedEntry(fresh)).empty())
      << "a fresh result is not a handed buffer";
}

} // namespace
} // namespace kbaudit
