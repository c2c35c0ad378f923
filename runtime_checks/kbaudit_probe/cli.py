"""The probe's entry points: the worker (arguments, the audit hook, the witness, the answer on
the private pipe) and, with --judge, the judge (judge.py)."""
import argparse
import os
import sys
import traceback
from json import dumps  # bound now: a solution replacing json.dumps later does not write the answer

from .events import Events
from .harness import Harness, SetupError, arm_deadline, disarm_deadline
from .witness import Writer


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="kbaudit_probe")
    parser.add_argument("--run", default="")  # the worker's; the judge never sees the run
    parser.add_argument("--problem", required=True)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument("--answer-fd", type=int, default=3)
    # Seconds the probes may take before the rest are skipped (0: no limit); kbaudit passes its
    # wall-clock limit less a margin, so the answer is written before the sandbox kills the child.
    parser.add_argument("--budget", type=float, default=0)
    # Where the solution's outputs go for the judge (the worker), or come from (the judge).
    parser.add_argument("--witness-fd", type=int, default=-1)
    parser.add_argument("--judge", action="store_true")
    # How the suite's grader builds and calls the models (its profile's `harness:`): the mode both
    # run in (train, eval; unknown keeps eval, the probes' historical choice) and who sees the
    # inputs first in its correctness check.
    parser.add_argument("--suite", default="unknown")
    parser.add_argument("--model-mode", default="unknown", choices=("unknown", "train", "eval"))
    parser.add_argument("--call-order", default="unknown", choices=("unknown", "reference-first", "solution-on-copy"))
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.judge:
        from .judge import main as judge_main

        return judge_main(args)
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
        if mapping is not None and args.budget > 0:
            mapping.deadline = probe.deadline  # CUDA extensions built and run on CPU stop there too
        if args.witness_fd >= 0:
            probe.witness = Writer(args.witness_fd)
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
            probe.witness.setup(probe.shape, probe.protocol.name, getattr(probe, "missing_keys", None) or ())
            probe.run()
            probe.witness.end()
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
    text = dumps(report, default=str)
    answer.write("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(text), text))
    answer.flush()
