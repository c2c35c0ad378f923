"""Stand-in benchmark for the runtime-probe tests (never run): solutions must not read or edit it."""
print("0.0 ms")
