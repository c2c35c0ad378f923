"""The judge: the verdicts of the probes that clear findings (differential, memoization,
caller_context, call_count), from the outputs the worker's witness carries, in a process the
solution never ran in.

kbaudit starts it after the worker has ended, in a sandbox of its own, with fresh copies of this
package and of the problem (never the run). It imports the reference alone, builds it at the
shape the witness names (which must be one the worker may run at), regenerates every input from
the seeds kbaudit gives it, and measures the witnessed outputs with verdicts.py. What it answers
(nonce-framed, as the worker does) is the only evidence kbaudit lets clear a finding; a witness
that is not what a worker writes is answered as `witness_error` (kbaudit: tampering suspected).
"""
import os
import sys
import traceback
from json import dumps

from . import verdicts, witness
from .events import Events
from .harness import Harness, OutOfTime, arm_deadline, disarm_deadline
from .numerics import clone_inputs


class WitnessMismatch(Exception):
    """Well-formed records that do not fit the run: wrong seeds, calls or keys."""


def main(args):
    nonce = sys.stdin.readline().strip()
    answer = os.fdopen(os.dup(args.answer_fd), "w")
    os.close(args.answer_fd)
    report = {"nonce": nonce, "role": "judge", "probes": [], "notes": [], "unverified": {}}
    try:
        judge(args, report)
    except (witness.Malformed, WitnessMismatch) as e:
        report["witness_error"] = str(e)[:400]
    except OutOfTime:
        report["setup_error"] = "the judge's time budget ran out"
    except BaseException as e:  # the reference failing here is the judge's failure, not the solution's
        report["setup_error"] = "%s: %s" % (type(e).__name__, str(e)[:300])
        report["setup_trace"] = traceback.format_exc()[-2000:]
    finally:
        disarm_deadline()
    text = dumps(report, default=str)
    answer.write("KBAUDIT-ANSWER %s %d\n%s" % (nonce, len(text), text))
    answer.flush()


def judge(args, report):
    parsed = witness.parse(witness.read_all(args.witness_fd))
    import torch

    report["torch"] = torch.__version__
    torch.set_num_threads(1)
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    mapping = None
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
        # A reference written for a GPU (.cuda(), device="cuda") runs as it does in the worker.
        from .cpu_mapping import Mapping

        mapping = Mapping([])
        mapping.install()
    # The worker's run directory is not here: nothing of the solution's is imported.
    args.run = os.path.join(os.getcwd(), "no-run")
    side = Harness(args, Events(os.getcwd(), args.problem), mapping)
    side.sol = None
    arm_deadline(side.time_left() if args.budget > 0 else 0)
    side.load_reference()
    shape = parsed["setup"]["shape"]
    allowed = [s for _, s in side.shape_plan()]
    if shape not in allowed:
        raise WitnessMismatch("the witness says the models were built at shape %s, which is not one the worker may "
                              "run at (%s)" % (shape, allowed))
    side.apply_shape(shape)
    ref, _ = side.build_reference()
    side.ref = side.as_graded(ref.to(side.device_torch()))
    side.smoke_inputs = side.inputs(side.seeds[0])
    side.call(side.ref, clone_inputs(side.smoke_inputs))
    side.choose_oracle()
    missing = parsed["setup"].get("missing_keys") or []
    missing = [str(k) for k in missing][:20] if isinstance(missing, list) else []
    for probe in witness.PROBES:
        if probe in parsed["omitted"]:
            report["unverified"][probe] = parsed["omitted"][probe]
        elif probe in parsed["complete"]:
            status, check, reason, numbers, close = judged(side, probe, parsed["outputs"][probe], missing)
            report["probes"].append({"name": probe, "status": status, "check": check, "reason": reason,
                                     "numbers": numbers, "near_limit": bool(close)})
    report["notes"] = side.notes


def judged(side, probe, records, missing):
    outputs = {}
    for key, entry in records:
        outputs[tuple(key) if isinstance(key, list) else key] = witness.tensors(entry)
    if probe == "differential":
        expect(probe, set(outputs), set(side.seeds))
        return verdicts.differential(side, outputs, missing)
    if probe == "memoization":
        expect(probe, set(outputs), {"first", "second", "fresh"})
        return verdicts.memoization(side, outputs["first"], outputs["second"], outputs["fresh"])
    if probe == "caller_context":
        expect(probe, set(outputs), set(range(len(verdicts.CALLERS))))
        return verdicts.caller_context(side, [outputs[i] for i in range(len(verdicts.CALLERS))])
    count = verdicts.CallCount(side)
    sets = len(side.seeds[:3])
    if not outputs or any(index >= sets for index, _ in outputs) or {i for i, _ in outputs} != set(range(sets)):
        raise WitnessMismatch("the witness's call_count outputs are for input sets %s, the run has %d" %
                              (sorted({i for i, _ in outputs}), sets))
    for index, at in sorted(outputs, key=lambda k: k[1]):
        count.add(index, at, outputs[(index, at)])
    return count.verdict()


def expect(probe, got, wanted):
    if got != wanted:
        raise WitnessMismatch("the witness's %s outputs are for %s, the run's calls were %s" %
                              (probe, sorted(got, key=str), sorted(wanted, key=str)))
