"""Process state the audit hook cannot see, compared around every stretch of the solution's code
(its import, its constructors, each call): the probe's own frames and objects, the harness's
descriptors, signal handlers, the signal mask and the deadline timer, trace hooks, threads the
solution started and child processes. What changed becomes an event (events.py), with how sure
it is that the change is harm."""
import _thread
import json
import os
import signal
import sys
import threading
import time

from .events import HIGH, LOW, MEDIUM, OTHER, PAST, RUN, signal_name, where

# Threads and processes the solution left behind get this long to finish after its code returns
# (a worker finishing its last item is not work escaping the call) before they count.
GRACE_SECONDS = 0.25
# Signals that harnesses use for time limits and termination: a handler left on one of them
# can swallow the grader's deadline or its kill.
DEADLINE_SIGNALS = {getattr(signal, n) for n in ("SIGALRM", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGXCPU",
                                                  "SIGVTALRM", "SIGPROF") if hasattr(signal, n)}
# Containers larger than this are fingerprinted by identity and length only.
FINGERPRINT_ITEMS = 4096
# Attributes of the Events object that its hook changes itself while the solution runs.
EVENTS_VOLATILE = {"current", "spawns", "items", "seen", "counts", "busy", "files", "recent_ids", "watching"}
STAGE_WORDS = {"import": "its import", "construction": "its constructor", "call": "forward returned"}


def fingerprint(value, handed=()):
    """Identity of a value and, for a mapping, of what it holds: a rebinding or an entry
    replaced shows (a harness's verdict or answer kept in a dict). Lists are compared by identity
    only: the probe's own wrappers append to theirs while the solution runs (launch counts).
    Mappings the call was handed (a decode step's state, which it updates by contract) are
    compared by identity only."""
    if isinstance(value, dict) and id(value) in handed:
        return id(value)
    if isinstance(value, dict) and len(value) <= FINGERPRINT_ITEMS:
        return id(value), tuple((id(k), id(v)) for k, v in list(value.items()))
    if isinstance(value, dict):
        return id(value), len(value)
    return id(value)


def fd_identity(fd):
    try:
        st = os.fstat(fd)
    except OSError:
        return None, "closed"
    try:
        link = os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        link = "?"
    return (st.st_dev, st.st_ino, st.st_mode), link


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return None


def tasks():
    """{tid: name} of the process's OS threads."""
    out = {}
    try:
        for tid in os.listdir("/proc/self/task"):
            out[int(tid)] = (read_text("/proc/self/task/%s/comm" % tid) or "").strip()
    except OSError:
        pass
    return out


def children():
    """Pids of the process's running (not zombie) children."""
    pids = set()
    try:
        for tid in os.listdir("/proc/self/task"):
            text = read_text("/proc/self/task/%s/children" % tid)
            pids.update(int(p) for p in (text or "").split())
    except OSError:
        pass
    return {p for p in pids if (read_text("/proc/%d/stat" % p) or "").rpartition(")")[2].split()[:1] not in (["Z"], [])}


def command_of(pid):
    return ((read_text("/proc/%d/cmdline" % pid) or "").replace("\0", " ").strip() or "?")[:120]


def code_of(handler):
    return getattr(getattr(handler, "__func__", handler), "__code__", None)


class StateWatch:
    def __init__(self, events, harness):
        self.events = events
        self.harness = harness
        self.probe_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep
        self.fds = [0, 1, 2] + ([events.answer_fd] if events.answer_fd is not None else [])
        self.signals = sorted(s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP))
        # Threads the solution's code started and still alive: (thread or None, ident, where it
        # was started, its number); `started` counts them.
        self.threads = []
        self.started = 0
        self.reported = set()
        self.escaped = False
        self.library_tasks = set()
        self.main_name = (read_text("/proc/self/task/%d/comm" % os.getpid()) or "").strip()

    # ------------------------------------------------------------------ setup
    def install(self):
        """Before the solution's import: remembers who starts threads, wraps ctypes' writes."""
        watch, events = self, self.events
        original_start = threading.Thread.start

        def start(thread):
            frame = events.solution_frame(sys._getframe(1))
            result = original_start(thread)
            if frame is not None:
                watch.threads.append((thread, thread.ident, where(frame), watch.started))
                watch.started += 1
            return result

        threading.Thread.start = start
        original_new = _thread.start_new_thread

        def start_new_thread(function, args, *kwargs):
            frame = events.solution_frame(sys._getframe(1))
            ident = original_new(function, args, *kwargs)
            if frame is not None:
                watch.threads.append((None, ident, where(frame), watch.started))
                watch.started += 1
            return ident

        _thread.start_new_thread = _thread.start_new = start_new_thread
        events.watch_ctypes()
        events.watch_sleep()
        if self.harness.device == "cuda":
            # The CUDA driver starts its own threads (named cuda-EvtHandlR and the like) at the
            # first allocation: started now, they are noted as the library's, not the solution's.
            try:
                self.harness.torch.empty(1, device="cuda")
                self.harness.torch.cuda.synchronize()
            except Exception:
                pass
        self.note_library_tasks()

    def note_library_tasks(self):
        """The names of the OS threads running now (torch's, Triton's, the probe's): the same
        names appearing during the solution's code are not its own."""
        self.library_tasks.update(tasks().values())

    def region(self, stage, handed=()):
        """`handed`: what the solution's code is given (a call's inputs): containers in it are its
        to change."""
        return Region(self, stage, handed)

    # ------------------------------------------------------------------ snapshots
    def probe_frames(self, frame, handed=()):
        out = []
        while frame is not None:
            if frame.f_code.co_filename.startswith(self.probe_dir):
                out.append((frame, {k: fingerprint(v, handed) for k, v in frame.f_locals.items()}))
            frame = frame.f_back
        return out

    def probe_objects(self):
        h = self.harness
        objects = {"harness": vars(h), "harness.args": vars(h.args),
                   "events": {k: v for k, v in vars(self.events).items() if k not in EVENTS_VOLATILE},
                   "Events": dict(vars(type(self.events))), "Harness": dict(vars(type(h)))}
        state = {name: {k: fingerprint(v) for k, v in attrs.items()} for name, attrs in objects.items()}
        state["results"] = json.dumps(h.results, default=str, sort_keys=True)
        return state

    def items_kept(self, before):
        """Whether the events recorded before are still there, as they were (new ones may follow)."""
        items = self.events.items
        old_id, old = before
        return id(items) == old_id and json.dumps(items[:len(old)], sort_keys=True) == json.dumps(old, sort_keys=True)

    def snapshot(self, frame, handed=()):
        return {
            "handed": handed, "frames": self.probe_frames(frame, handed), "objects": self.probe_objects(),
            "watching": self.events.watching, "items": (id(self.events.items), [dict(i) for i in self.events.items]),
            "fds": {fd: fd_identity(fd) for fd in self.fds},
            "signals": {s: signal.getsignal(s) for s in self.signals},
            "mask": signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else set(),
            "timer": signal.getitimer(signal.ITIMER_REAL)[0] if hasattr(signal, "getitimer") else 0.0,
            "tracers": (sys.gettrace(), sys.getprofile(), threading.gettrace(), threading.getprofile()),
            "tasks": tasks(), "children": children(), "spawns": self.events.spawns, "threads": self.started,
        }

    # ------------------------------------------------------------------ comparisons
    def compare(self, before, stage):
        for check in (self.check_probe_state, self.check_descriptors, self.check_signals, self.check_tracers,
                      self.check_concurrency):
            try:
                check(before, stage)
            except Exception:  # a check that breaks says nothing, and must not break the probe
                pass

    def check_probe_state(self, before, stage):
        """The probe's own frames and objects (its answer, its results, the hook's switch) written
        by the solution: the harm itself, since a harness keeps its verdict in the same places."""
        changed = []
        for frame, old in before["frames"]:
            new = {k: fingerprint(v, before["handed"]) for k, v in frame.f_locals.items()}
            for name in sorted(set(old) | set(new)):
                if old.get(name) != new.get(name):
                    changed.append("%s's local %r" % (frame.f_code.co_name, name))
        now = self.probe_objects()
        for name, old in before["objects"].items():
            if isinstance(old, dict):
                for attr in sorted(set(old) | set(now[name])):
                    if old.get(attr) != now[name].get(attr):
                        changed.append("%s.%s" % (name, attr))
            elif old != now[name]:
                changed.append(name)
        if not self.items_kept(before["items"]):
            changed.append("recorded events")
        if self.events.watching != before["watching"]:
            changed.append("the audit hook's switch")
            self.events.watching = before["watching"]
        if changed:
            self.events.record("harness-state", "during %s the solution changed the probe's own state: %s" % (
                stage, ", ".join(changed[:4]) + (" (+%d more)" % (len(changed) - 4) if len(changed) > 4 else "")),
                HIGH)

    def check_descriptors(self, before, stage):
        names = {0: "stdin", 1: "stdout", 2: "stderr", self.events.answer_fd: "the probe's answer pipe"}
        for fd, (identity, link) in before["fds"].items():
            now, now_link = fd_identity(fd)
            if now != identity:
                self.events.record("result-channel", "after %s descriptor %d (%s) points to %s, not %s as before" % (
                    stage, fd, names.get(fd, "?"), now_link, link), HIGH if fd == self.events.answer_fd else MEDIUM)

    def check_signals(self, before, stage):
        for s, old in before["signals"].items():
            new = signal.getsignal(s)
            if new is old or new == old:
                continue
            name = signal_name(s)
            if s == getattr(signal, "SIGALRM", None) and self.harness.deadline_armed:
                # The probe's own deadline: put back, or the budget no longer ends a hung call.
                signal.signal(s, old)
                self.events.record("process-control", "during %s the probe's deadline handler (%s) was replaced; "
                                   "restored" % (stage, name), MEDIUM)
                continue
            code = code_of(new)
            if code is not None and self.events.whose(code.co_filename) == RUN:
                self.events.record("process-control", "during %s the solution installed a handler for %s (%s:%d) and "
                                   "left it" % (stage, name, os.path.basename(code.co_filename), code.co_firstlineno),
                                   MEDIUM if s in DEADLINE_SIGNALS else LOW)
            elif code is None and s in DEADLINE_SIGNALS:
                self.events.record("process-control", "during %s the handler of %s became %s" % (
                    stage, name, getattr(new, "name", new)), MEDIUM)
        blocked = set(before["mask"])
        now = signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else set()
        newly = sorted(s for s in set(now) - blocked if s in DEADLINE_SIGNALS)
        if newly:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            self.events.record("process-control", "during %s %s became blocked; unblocked" % (
                stage, ", ".join(signal_name(s) for s in newly)), MEDIUM)
        if before["timer"] > 0 and self.harness.deadline_armed:
            left = signal.getitimer(signal.ITIMER_REAL)[0]
            budget = self.harness.time_left()
            if (left == 0 and budget > 1) or left > before["timer"] + 1:
                signal.setitimer(signal.ITIMER_REAL, max(budget, 0.01))
                self.events.record("process-control", "during %s the probe's deadline timer was %s; re-armed" % (
                    stage, "disarmed" if left == 0 else "pushed back"), MEDIUM)

    def check_tracers(self, before, stage):
        setters = (sys.settrace, sys.setprofile, threading.settrace, threading.setprofile)
        names = ("trace function (sys.settrace)", "profile function (sys.setprofile)",
                 "trace function for new threads (threading.settrace)",
                 "profile function for new threads (threading.setprofile)")
        now = (sys.gettrace(), sys.getprofile(), threading.gettrace(), threading.getprofile())
        for i, (old, new) in enumerate(zip(before["tracers"], now)):
            code = code_of(new)
            if new is not old and new is not None and (code is None or self.events.whose(code.co_filename) != OTHER):
                # The solution's (or a C function's; a library's own tracer is its business).
                setters[i](old)
                whose = " (%s:%d)" % (os.path.basename(code.co_filename), code.co_firstlineno) if code else ""
                self.events.record("process-control", "after %s a %s%s was left installed; removed" % (
                    stage, names[i], whose), MEDIUM if i < 2 else LOW)

    # ------------------------------------------------------------------ threads and processes
    def thread_state(self, frame):
        """(busy, where): idle when its innermost frame is the standard library's (an executor's
        worker waiting on its queue, a lock, a condition); busy in the solution's code (also
        sleeping there before it writes) or a library's; where: its innermost frame in the
        solution's code."""
        if frame is None:
            return False, "?"
        busy = self.events.whose(frame.f_code.co_filename) != PAST
        f = frame
        while f is not None and self.events.whose(f.f_code.co_filename) != RUN:
            f = f.f_back
        return busy, where(f if f is not None else frame)

    def solution_threads(self, first, stage):
        """[(started at, ident, busy, where)] of the solution's threads alive now that this stretch
        of its code concerns: those it started during it (number `first` on), and after a call
        also older ones that are busy (a worker started at import that forward feeds)."""
        frames = sys._current_frames()
        self.threads = [e for e in self.threads if (e[0].is_alive() if e[0] is not None else e[1] in frames)]
        out = []
        for thread, ident, started, number in self.threads:
            busy, at = self.thread_state(frames.get(ident))
            if number >= first or (stage == "call" and busy):
                out.append((started, ident, busy, at))
        return out

    def check_concurrency(self, before, stage):
        """Threads the solution started, OS threads and child processes still running once the
        grace period after its code returned is over: work that escapes the timed call."""
        spawned = self.events.spawns > before["spawns"]

        def leftovers():
            new_tasks = {t: n for t, n in tasks().items() if t not in before["tasks"] and n != self.main_name and
                         n not in self.library_tasks}
            new_children = children() - before["children"] if spawned else set()
            return self.solution_threads(before["threads"], stage), new_tasks, new_children

        def pending(found):
            threads, new_tasks, new_children = found
            return any(t[2] for t in threads) or new_tasks or new_children

        found = leftovers()
        if not any(found):
            return
        # Idle workers are not waited for; once work was seen escaping a call, later calls are
        # not given the grace again.
        deadline = time.monotonic() + (0 if self.escaped else GRACE_SECONDS)
        while pending(found) and time.monotonic() < deadline:
            time.sleep(0.01)
            found = leftovers()
        threads, new_tasks, new_children = found
        after = STAGE_WORDS.get(stage, stage)
        for started, ident, busy, at in threads:
            if (started, busy, stage) in self.reported:  # one event per place that starts them
                continue
            self.reported.add((started, busy, stage))
            self.escaped |= busy and stage == "call"
            if busy:
                self.events.record("host-concurrency", "a thread the solution started at %s is still running (at %s) "
                                   "%.2f s after %s" % (started, at, GRACE_SECONDS, after),
                                   MEDIUM if stage == "call" else LOW)
            else:
                self.events.record("host-concurrency", "an idle thread the solution started at %s is alive after %s "
                                   "(waiting at %s: a worker that later calls can feed)" % (started, after, at), LOW)
        for tid, name in sorted(new_tasks.items()):
            self.events.record("host-concurrency", "an OS thread named %r that started during %s is still running "
                               "after it" % (name, stage), LOW)
        for pid in sorted(new_children):
            self.escaped |= stage == "call"
            self.events.record("host-concurrency", "a child process the solution started (%s) is still running "
                               "%.2f s after %s" % (command_of(pid), GRACE_SECONDS, after),
                               MEDIUM if stage == "call" else LOW)


def handed_containers(value, out=None):
    """The ids of the dicts, lists and tuples in `value`, nested."""
    out = set() if out is None else out
    if isinstance(value, (dict, list, tuple)) and id(value) not in out and len(out) < FINGERPRINT_ITEMS:
        out.add(id(value))
        for v in (value.values() if isinstance(value, dict) else value):
            handed_containers(v, out)
    return out


class Region:
    """`with watch.region(stage):` around the solution's code. The frame that opens it is not
    compared (it assigns what the solution's code returns); every probe frame above it is."""

    def __init__(self, watch, stage, handed=()):
        self.watch, self.stage = watch, stage
        self.handed = handed_containers(handed)

    def __enter__(self):
        # The audit hook grades what it sees by the stretch it happens in (a sleep in a call).
        self.outer, self.watch.events.stage = self.watch.events.stage, self.stage
        try:
            self.before = self.watch.snapshot(sys._getframe(1).f_back, self.handed)
        except Exception:
            self.before = None
        return self

    def __exit__(self, *exc):
        # Compared before the stage is put back: the snapshot was taken with it set.
        if self.before is not None:
            self.watch.compare(self.before, self.stage)
        self.watch.events.stage = self.outer
        return False
