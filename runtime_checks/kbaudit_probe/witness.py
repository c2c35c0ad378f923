"""The witness: the solution's raw outputs for the probes whose passing clears a finding
(differential, memoization, caller_context, call_count), for the judge (judge.py) to compare
against the reference in a process the solution never ran in.

The worker writes it on a descriptor kbaudit opened and passed in before the solution was
imported; the judge reads the same file. Nothing in it is trusted: the solution shares the
worker's process and can write anything there. What it cannot do is make the judge's reference
or inputs say something else, so a forged witness can only claim outputs, which the judge then
measures; a malformed one is itself a finding (kbaudit: tampering suspected).

Format: records, each `KBW1 <n>\\n` + n bytes of JSON header + the raw bytes of the tensors the
header lists (dtype, shape; C order, native byte order). Headers: `setup` (the shape the models
were built at) first, one per output (`probe`, `key`, `tensors`), `complete` once a probe's
outputs are all written, `omitted` for outputs over the budget, and `end` last.
"""
import json
import math
import os

MAGIC = b"KBW1 "
# Whole-witness budget: outputs past it are `omitted` (the probe is then not verified, so it
# clears nothing); under RLIMIT_FSIZE (512 MiB) with room to spare.
BUDGET = 256 << 20
MAX_HEADER = 1 << 16
MAX_DIMS = 8
PROBES = ("differential", "memoization", "caller_context", "call_count")
DTYPES = ("float64", "float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
          "float8_e5m2fnuz", "int64", "int32", "int16", "int8", "uint8", "bool")

# Bound before the solution is imported: replacing json.dumps or os.write later changes
# nothing here (patching this module's own globals is what the judge is for).
_dumps, _loads, _write, _read = json.dumps, json.loads, os.write, os.read


class Writer:
    def __init__(self, fd, budget=BUDGET):
        self.fd = fd
        self.budget = budget
        self.written = 0

    def _emit(self, header, payloads=()):
        head = _dumps(header, sort_keys=True).encode()
        data = MAGIC + str(len(head)).encode() + b"\n" + head
        for chunk in [data, *payloads]:
            view = memoryview(chunk)
            while view:
                n = _write(self.fd, view)
                view = view[n:]
                self.written += n

    def setup(self, shape, protocol_name, missing_keys=()):
        """The shape the models were built at; the reference's keys the solution had no place
        for (the judge uses them only to say a wrong answer is explained by them, as the worker does)."""
        self._emit({"probe": "setup", "shape": shape, "protocol": protocol_name,
                    "missing_keys": [str(k) for k in missing_keys][:20]})

    def output(self, probe, key, value):
        """One output of the solution's (a tensor, or a tuple / list / dict of them)."""
        import torch

        from .numerics import tensors_of

        tensors, specs, size = [], [], 0
        for t in tensors_of(value):
            t = t.detach().to("cpu").contiguous()
            name = str(t.dtype).replace("torch.", "")
            if name not in DTYPES:
                t, name = t.to(torch.float64), "float64"  # complex and the rest: measured as float64
            tensors.append(t)
            specs.append({"dtype": name, "shape": list(t.shape)})
            size += t.numel() * t.element_size()
        if self.written + size > self.budget:
            self._emit({"probe": probe, "key": key, "omitted": "the witness budget (%d MiB) is spent" %
                        (self.budget >> 20)})
            return
        payloads = [t.reshape(-1).view(torch.uint8).numpy().tobytes() for t in tensors]
        self._emit({"probe": probe, "key": key, "tensors": specs}, payloads)

    def complete(self, probe):
        self._emit({"probe": probe, "complete": True})

    def end(self):
        self._emit({"probe": "end"})


class NoWriter:
    """Where kbaudit passed no witness descriptor (the probe run by hand)."""

    def setup(self, *a):
        pass

    def output(self, *a):
        pass

    def complete(self, *a):
        pass

    def end(self):
        pass


class Malformed(Exception):
    """The witness is not what the worker writes: kbaudit reports tampering suspected."""


def read_all(fd, limit=BUDGET + (64 << 20)):
    chunks, size = [], 0
    while True:
        chunk = _read(fd, 1 << 20)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise Malformed("the witness is larger than any the worker writes (%d MiB)" % (limit >> 20))
        chunks.append(chunk)
    return b"".join(chunks)


def _check_key(probe, key):
    if probe == "call_count":
        ok = isinstance(key, list) and len(key) == 2 and all(isinstance(k, int) and 0 <= k < 1 << 20 for k in key)
    else:
        ok = (isinstance(key, str) and len(key) <= 64) or (isinstance(key, int) and not isinstance(key, bool))
    if not ok:
        raise Malformed("a %s record has the key %r" % (probe, key))


def parse(data):
    """The witness as {"setup": header, "outputs": {probe: [(key, [tensor specs and bytes])]},
    "complete": set, "omitted": {probe: why}}; raises Malformed for anything the worker does
    not write (the judge never trusts a length, a dtype or a shape it did not check)."""
    out = {"setup": None, "outputs": {p: [] for p in PROBES}, "complete": set(), "omitted": {}}
    seen, pos, ended = set(), 0, False
    while pos < len(data):
        if ended:
            raise Malformed("data after the witness's end record")
        if data[pos:pos + len(MAGIC)] != MAGIC:
            raise Malformed("no record at byte %d" % pos)
        eol = data.find(b"\n", pos, pos + len(MAGIC) + 8)
        if eol < 0 or not data[pos + len(MAGIC):eol].isdigit():
            raise Malformed("a record header without its length at byte %d" % pos)
        n = int(data[pos + len(MAGIC):eol])
        if n > MAX_HEADER or eol + 1 + n > len(data):
            raise Malformed("a record header of %d bytes at byte %d" % (n, pos))
        try:
            header = _loads(data[eol + 1:eol + 1 + n].decode())
        except (ValueError, UnicodeDecodeError) as e:
            raise Malformed("a record header that is not JSON (%s)" % e)
        pos = eol + 1 + n
        if not isinstance(header, dict):
            raise Malformed("a record header that is not an object")
        probe = header.get("probe")
        if probe == "setup":
            if out["setup"] is not None or seen:
                raise Malformed("the setup record is not the first and only one")
            shape = header.get("shape")
            if not isinstance(shape, dict) or not all(isinstance(k, str) and isinstance(v, int) and
                                                      not isinstance(v, bool) for k, v in shape.items()):
                raise Malformed("the setup record's shape is %r" % (shape,))
            out["setup"] = header
            seen.add(("setup",))
            continue
        if out["setup"] is None:
            raise Malformed("a record before the setup record")
        if probe == "end":
            ended = True
            continue
        if probe not in PROBES:
            raise Malformed("a record of an unknown probe %r" % (probe,))
        if probe in out["complete"]:
            raise Malformed("a %s record after that probe was complete" % probe)
        if header.get("complete") is True:
            out["complete"].add(probe)
            continue
        key = header.get("key")
        _check_key(probe, key)
        ident = (probe, _dumps(key))
        if ident in seen:
            raise Malformed("two %s records with the key %r" % (probe, key))
        seen.add(ident)
        if "omitted" in header:
            out["omitted"][probe] = str(header["omitted"])[:200]
            continue
        specs = header.get("tensors")
        if not isinstance(specs, list) or len(specs) > 64:
            raise Malformed("a %s record without a tensor list" % probe)
        tensors = []
        for spec in specs:
            if not isinstance(spec, dict) or spec.get("dtype") not in DTYPES:
                raise Malformed("a tensor of dtype %r" % (spec.get("dtype") if isinstance(spec, dict) else spec,))
            shape = spec.get("shape")
            if not isinstance(shape, list) or len(shape) > MAX_DIMS or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 1 << 40 for d in shape):
                raise Malformed("a tensor of shape %r" % (shape,))
            size = math.prod(shape) * itemsize(spec["dtype"])
            if pos + size > len(data):
                raise Malformed("a tensor of %d bytes past the witness's end" % size)
            tensors.append((spec["dtype"], shape, data[pos:pos + size]))
            pos += size
        out["outputs"][probe].append((key, tensors))
    if out["setup"] is None or not ended:
        raise Malformed("the witness has no %s record" % ("setup" if out["setup"] is None else "end"))
    return out


def itemsize(dtype):
    if dtype in ("float64", "int64"):
        return 8
    if dtype in ("float32", "int32"):
        return 4
    if dtype in ("float16", "bfloat16", "int16"):
        return 2
    return 1


def tensors(entry):
    """The tensors of one parsed output, as CPU tensors (copies, writable)."""
    import torch

    out = []
    for dtype, shape, raw in entry:
        flat = torch.frombuffer(bytearray(raw), dtype=torch.uint8) if raw else torch.empty(0, dtype=torch.uint8)
        out.append(flat.view(getattr(torch, dtype)).reshape(shape))
    return out
