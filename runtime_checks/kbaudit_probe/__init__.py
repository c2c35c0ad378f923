"""kbaudit runtime probe: runs one solution against its reference inside kbaudit's sandbox.

Started by `kbaudit probe` / `kbaudit audit --runtime` in a child process with a private copy of
the run and the problem (the package is compiled into the kbaudit binary and written next to
them). It answers with one JSON document on a private pipe (never stdout, which the solution
controls), framed with a nonce read from stdin before any solution code runs.

Every probe reports `passed`, `finding`, `skipped` (with the reason: a probe that cannot run on
this device says so instead of passing) or `error`, and what it observed where it can see more
than one thing (`check`); which rule that is evidence for is kbaudit's rule metadata's to say
(`runtime:` in rules/*/*.yaml), never the probe's.

Modules: `events` (the audit hook), `state_watch` (process state compared around the solution's
code: the probe's own frames and objects, descriptors, signals, tracing, threads, children),
`numerics` (error measures), `cpu_mapping` (running CUDA- and Triton-targeted code on CPU tensors
under Triton's interpreter), `sizing` (shapes that fit the interpreter), `protocol` (the calling
conventions: KernelBench, config and state, GPU MODE), `harness` (loading, calling, reporting),
`probes/*` (one module per family), `cli` (the entry point).
"""
