"""Stand-in grader for the runtime-probe tests (never run): solutions must not read or edit it."""
import sys

print("PASS")
sys.exit(0)
