"""The probe's entry point: arguments, the audit hook, the answer on the private pipe."""
import argparse
import json
import os
import sys
import traceback

from .events import Events
from .harness import Harness, SetupError, arm_deadline, disarm_deadline


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="kbaudit_probe")
    parser.add_argument("--run", required=True)
    parser.add_argument("--problem", required=True)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--answer-fd", type=int, default=3)
    # Seconds the probes may take before the rest are skipped (0: no limit); kbaudit passes its
    # wall-clock limit less a margin, so the answer is written before the sandbox kills the child.
    parser.add_argument("--budget", type=float, default=0)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    nonce = sys.stdin.readline().strip()
    answer = os.fdopen(os.dup(args.answer_fd), "w")
    os.close(args.answer_fd)
    events = Events(os.getcwd(), args.problem, run=args.run, answer_fd=answer.fileno())
    sys.addaudithook(events.hook)
    report = {"nonce": nonce, "device": args.device, "python": sys.version.split()[0], "probes": [],
              "events": events.items, "notes": []}
    try:
        try:
            import torch
        except BaseException as e:  # a broken install raises OSError as often as ImportError
            raise ImportError("%s: %s" % (type(e).__name__, e)) from e

        report["torch"] = torch.__version__
        torch.set_num_threads(1)
        if args.device == "auto":
            args.device = "cuda" if torch.cuda.is_available() else "cpu"
        if args.device == "cpu":
            # Before anything imports Triton (torch._dynamo below does): Triton decides at import
            # whether its own jitted helpers (tl.sum's combine function) are interpreted.
            os.environ["TRITON_INTERPRET"] = "1"
        try:
            # Importing torch._dynamo wraps torch.manual_seed (torch does it itself); whatever imports
            # it later (einops, torch.compile) would otherwise look like the solution patching torch.
            import torch._dynamo  # noqa: F401
        except Exception:
            pass
        mapping = None
        if args.device == "cpu":
            # Code written for a GPU runs on CPU tensors, Triton kernels under the interpreter.
            from .cpu_mapping import Mapping

            mapping = Mapping([args.run])
            mapping.install()
            try:
                import triton

                report["triton"] = triton.__version__
            except Exception:
                pass
        probe = Harness(args, events, mapping)
        report["seeds"] = probe.seeds
        probe.deadline_armed = arm_deadline(probe.time_left() if args.budget > 0 else 0)
        try:
            probe.setup()
        except SetupError as e:
            events.watching = False  # formatting the trace reads source files: not the solution's doing
            report["setup_error"] = str(e)
            report["setup_stage"] = e.stage
            report["setup_trace"] = traceback.format_exc()[-2000:]
        else:
            probe.run()
            nothing = probe.nothing_ran()
            if nothing:
                # Every probe skipped (the budget went on building and first calls): the run
                # tells nothing, so it is not `ran` (kbaudit: unavailable, with this reason).
                report["setup_error"] = nothing
                report["setup_stage"] = "solution-on-device"
        finally:
            disarm_deadline()
        report["device"] = probe.device_label()
        report["probes"] = probe.results
        report["notes"] = probe.notes + (mapping.notes if mapping else [])
    except ImportError as e:
        report["setup_error"] = "torch is not importable: %s" % e
        report["setup_stage"] = "torch"
    events.watching = False
    text = json.dumps(report, default=str)
    answer.write("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(text), text))
    answer.flush()
