// Runtime events about the process the solution runs in (kbaudit_probe/events.py, state_watch.py):
// introspection of the caller's frames (RUB010), the probe's own state written (RUB010, high), raw
// memory (RUB011), the result channel (RUB012), signals and tracing (RUB013), threads and processes
// left running (TIME003); and the GPU MODE calling convention. The event table and the parsing need
// no torch; the tests that run the probe write their own tiny problem and solutions (CPU, pure
// torch) and skip, saying why, where the probes' default interpreter cannot import torch.
//
// RUB010-RUB013 come from other rules' work: where this build's catalogue lacks one, its runtime
// finding is added for review (verdict review, never decisive) and the tests say so.

#include "kbaudit/annotations/runtime_evidence.h"
#include "kbaudit/problems/problem_context.h"
#include "kbaudit/rules/rule_meta.h"
#include "kbaudit/runtime/probe.h"

#include "runtime_support.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace kbaudit;
using namespace std::chrono_literals;
using kbaudit::test::runCommand;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;
namespace fs = std::filesystem;

namespace {

const std::string kPython = kbaudit::test::probePython();


// A row softmax, 8 x 16 in fp32: the smallest problem every probe still runs on.
const char *kReference = R"(import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(8, 16)]


def get_init_inputs():
    return []
)";

// GPU MODE's layout: reference.py imports task.py and utils.py beside it; task.yml lists the tests.
const char *kGpuModeReference = R"(import torch
from task import input_t, output_t
from utils import make_match_reference


def ref_kernel(data: input_t) -> output_t:
    x, w = data
    return torch.softmax(x @ w, dim=-1)


def generate_input(m: int, n: int, k: int, seed: int) -> input_t:
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    x = torch.randn(m, k, device="cuda", generator=gen)
    w = torch.randn(k, n, device="cuda", generator=gen)
    return x, w


check_implementation = make_match_reference(ref_kernel)
)";

const char *kGpuModeTask = R"(from typing import Tuple

import torch

input_t = Tuple[torch.Tensor, torch.Tensor]
output_t = torch.Tensor
)";

const char *kGpuModeUtils = R"(import torch


def make_match_reference(reference, rtol=1e-5, atol=1e-6):
    def check(data, output):
        expected = reference(data)
        if torch.allclose(output, expected, rtol=rtol, atol=atol):
            return True, ""
        return False, "mismatch"
    return check
)";

const char *kGpuModeYaml = R"(# a GPU MODE style task for the runtime-probe tests
lang: "py"
tests:
  - {"m": 32, "n": 16, "k": 24, "seed": 4242}
  - {"m": 8, "n": 16, "k": 8, "seed": 17}
benchmarks:
  - {"m": 1024, "n": 1024, "k": 1024, "seed": 9}
)";

/// Writes a KernelBench-style problem (or GPU MODE's, `gpumode`) and one solution into `dir`, and
/// probes it on the CPU with one seed.
runtime::RuntimeReport probeSolution(const TempDir &dir, const std::string &name, const std::string &solution,
                                     bool gpumode = false) {
  const fs::path problem = dir / ("problem_" + name);
  writeFile(problem / "problem.yaml", "name: tiny\nprecision: fp32\n");
  writeFile(problem / "check.py", "print(\"PASS\")\n");
  if (gpumode) {
    writeFile(problem / "reference.py", kGpuModeReference);
    writeFile(problem / "task.py", kGpuModeTask);
    writeFile(problem / "utils.py", kGpuModeUtils);
    writeFile(problem / "task.yml", kGpuModeYaml);
  } else {
    writeFile(problem / "reference.py", kReference);
  }
  writeFile(dir / name / "solution.py", solution);
  runtime::ProbeOptions options;
  options.device = "cpu";
  options.python = kPython;
  options.seeds = {0};
  options.limits.wall = 90s;
  return runtime::runProbes(dir / name, problems::loadProblem(problem), options);
}

std::string describe(const runtime::RuntimeReport &r) {
  std::ostringstream s;
  s << "outcome " << r.outcome << " (" << r.reason << "), " << r.seconds << " s\n";
  for (const runtime::ProbeOutcome &p : r.probes)
    s << "  " << p.name << ": " << p.status << " " << p.rule << " " << p.reason << "\n";
  for (const runtime::RuntimeEvent &e : r.events)
    s << "  event " << e.kind << " (" << e.confidence << "): " << e.detail << "\n";
  return s.str();
}

const runtime::RuntimeEvent *findEvent(const runtime::RuntimeReport &r, const std::string &kind,
                                       const std::string &detailPart) {
  for (const runtime::RuntimeEvent &e : r.events)
    if (e.kind == kind && e.detail.find(detailPart) != std::string::npos)
      return &e;
  return nullptr;
}

const runtime::ProbeOutcome *findProbe(const runtime::RuntimeReport &r, const std::string &name) {
  for (const runtime::ProbeOutcome &p : r.probes)
    if (p.name == name)
      return &p;
  return nullptr;
}

/// The findings applyRuntime makes of a report, with no static findings to start from.
rules::RuleResults findingsOf(const runtime::RuntimeReport &r) {
  rules::RuleResults results;
  annotations::applyRuntime(results, r);
  return results;
}

const rules::Finding *findingOf(const rules::RuleResults &results, const std::string &rule) {
  for (const rules::Finding &f : results.findings)
    if (f.rule == rule)
      return &f;
  return nullptr;
}

/// Every probe that ran passed (or was skipped for its own reason) and nothing was recorded.
void expectQuiet(const runtime::RuntimeReport &r) {
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  EXPECT_TRUE(r.events.empty()) << describe(r);
  for (const runtime::ProbeOutcome &p : r.probes)
    EXPECT_NE(p.status, "finding") << describe(r);
}

runtime::RuntimeEvent event(std::string kind, std::string detail, std::string confidence) {
  return runtime::RuntimeEvent{std::move(kind), std::move(detail), std::move(confidence)};
}

} // namespace

// ---------------------------------------------------------------- the table (no torch)

TEST(RuntimeEvents, EachKindIsEvidenceForOneRule) {
  EXPECT_EQ(annotations::eventRule("grader-file"), "RUB002");
  EXPECT_EQ(annotations::eventRule("grader-changed"), "RUB002");
  EXPECT_EQ(annotations::eventRule("introspection"), "RUB010");
  EXPECT_EQ(annotations::eventRule("harness-state"), "RUB010");
  EXPECT_EQ(annotations::eventRule("raw-memory"), "RUB011");
  EXPECT_EQ(annotations::eventRule("result-channel"), "RUB012");
  EXPECT_EQ(annotations::eventRule("process-control"), "RUB013");
  EXPECT_EQ(annotations::eventRule("host-concurrency"), "TIME003");
  EXPECT_EQ(annotations::eventRule("stall"), "RUB018");
  // Reported in the runtime block only.
  for (const char *kind : {"write-outside", "delete", "process", "network", "something-new"})
    EXPECT_EQ(annotations::eventRule(kind), "") << kind;
  // The grader kinds carry no confidence and are high; the others say their own, or add nothing.
  EXPECT_EQ(annotations::eventConfidence(event("grader-file", "read check.py", "")), rules::Confidence::High);
  EXPECT_EQ(annotations::eventConfidence(event("raw-memory", "x", "medium")), rules::Confidence::Medium);
  EXPECT_EQ(annotations::eventConfidence(event("result-channel", "x", "low")), rules::Confidence::Low);
  EXPECT_FALSE(annotations::eventConfidence(event("introspection", "x", "")));
  EXPECT_FALSE(annotations::eventConfidence(event("process", "x", "high")));
}

TEST(RuntimeEvents, TheAnswerCarriesEachEventsConfidence) {
  const std::string nonce = "0123456789abcdef0123456789abcdef";
  const std::string json = R"({"nonce": ")" + nonce + R"(", "device": "cpu", "probes": [], "events": [)"
                           R"({"kind": "grader-file", "detail": "read check.py"}, )"
                           R"({"kind": "introspection", "detail": "sys._getframe", "confidence": "medium"}]})";
  runtime::RuntimeReport r;
  std::string why;
  ASSERT_TRUE(runtime::parseAnswer("KBAUDIT-ANSWER " + nonce + " " + std::to_string(json.size()) + "\n" + json, nonce,
                                   r, why))
      << why;
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.events[0].confidence, "");
  EXPECT_EQ(r.events[1].kind, "introspection");
  EXPECT_EQ(r.events[1].confidence, "medium");

  // A calling convention the probes do not run is unavailable, and says so.
  const std::string unsupported =
      R"({"nonce": ")" + nonce + R"j(", "probes": [], "events": [], "setup_error": "kernel(output, *inputs)", )j"
      R"("setup_stage": "convention"})";
  runtime::RuntimeReport u;
  ASSERT_TRUE(runtime::parseAnswer(
      "KBAUDIT-ANSWER " + nonce + " " + std::to_string(unsupported.size()) + "\n" + unsupported, nonce, u, why));
  EXPECT_EQ(u.outcome, "unavailable");
  EXPECT_NE(u.reason.find("do not support this calling convention"), std::string::npos) << u.reason;
}

TEST(RuntimeEvents, EventsBecomeOneFindingPerRuleAtTheirSurestConfidence) {
  runtime::RuntimeReport r;
  r.outcome = "ran";
  r.events = {event("grader-file", "read check.py", ""), event("grader-changed", "check.py was modified", ""),
              event("introspection", "gc.get_objects() at solution.py:3", "low"),
              event("introspection", "sys._getframe at solution.py:9 returned a frame of harness.py:1", "medium"),
              event("host-concurrency", "an idle thread", "low"), event("write-outside", "/tmp/x", ""),
              event("process", "sh", "")};
  const rules::RuleResults results = findingsOf(r);
  ASSERT_EQ(results.findings.size(), 3u);
  // RUB002 as before: high, the grader file in the message.
  const rules::Finding *grader = findingOf(results, "RUB002");
  ASSERT_NE(grader, nullptr);
  EXPECT_EQ(grader->confidence, rules::Confidence::High);
  EXPECT_NE(grader->message.find("touched a grader file: read check.py"), std::string::npos) << grader->message;
  // RUB010 at the surest of its events, which leads the message; both are in the evidence.
  const rules::Finding *introspection = findingOf(results, "RUB010");
  ASSERT_NE(introspection, nullptr);
  EXPECT_EQ(introspection->confidence, rules::Confidence::Medium);
  EXPECT_NE(introspection->message.find("sys._getframe"), std::string::npos) << introspection->message;
  EXPECT_NE(introspection->evidence.find("gc.get_objects"), std::string::npos) << introspection->evidence;
  // A low event is a review finding.
  const rules::Finding *threads = findingOf(results, "TIME003");
  ASSERT_NE(threads, nullptr);
  EXPECT_EQ(threads->confidence, rules::Confidence::Low);
  EXPECT_EQ(threads->category, "TIME");
  // A rule this build does not know yet is added for review only: never decisive by itself.
  if (!rules::findRule("RUB010")) {
    EXPECT_EQ(introspection->verdict, rules::VerdictClass::Review) << "RUB010 must exist to decide a verdict";
    EXPECT_EQ(introspection->category, "RUB");
  }
}

TEST(RuntimeEvents, StaticFindingsOfTheRuleAreConfirmedNotDuplicated) {
  rules::RuleResults results;
  rules::Finding statik;
  statik.rule = "RUB011";
  statik.confidence = rules::Confidence::Low;
  statik.lines = {4, 4};
  results.findings.push_back(statik);
  runtime::RuntimeReport r;
  r.events = {event("raw-memory", "ctypes.memmove at solution.py:4 writes into a Python object", "medium")};
  annotations::applyRuntime(results, r);
  ASSERT_EQ(results.findings.size(), 1u);
  EXPECT_EQ(results.findings[0].confidence, rules::Confidence::Medium);
  EXPECT_NE(results.findings[0].evidence.find("confirmed at run time"), std::string::npos);
  EXPECT_NE(results.findings[0].evidence.find("ctypes.memmove"), std::string::npos);
}

// ---------------------------------------------------------------- the probe (torch)

TEST(RuntimeEvents, HonestNearMissesRecordNothing) {
  REQUIRE_TORCH();
  // What honest code does that looks most like each hack: the standard library asking for its
  // caller's frame (namedtuple, enum, TypeVar, logging), a helper asking for the frame of the
  // solution's own function, ctypes between its own buffers, output silenced and restored, a
  // signal handler set and put back, a thread started and joined.
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "near_misses", R"(import collections
import contextlib
import ctypes
import enum
import inspect
import io
import logging
import os
import signal
import sys
import threading
import typing

import torch
import torch.nn as nn

Pair = collections.namedtuple("Pair", "a b")
Color = enum.Enum("Color", "RED GREEN")
T = typing.TypeVar("T")
log = logging.getLogger("solution")

_src = ctypes.create_string_buffer(b"abcdefgh", 8)
_dst = ctypes.create_string_buffer(8)
ctypes.memmove(_dst, _src, 8)
ctypes.memmove(ctypes.addressof(_dst), ctypes.addressof(_src), 4)


def _caller_name():
    return sys._getframe(1).f_code.co_name  # its caller: a function of this file


def _quiet(fn):
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        return fn()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


class ModelNew(nn.Module):
    def forward(self, x):
        log.info("forward %s", inspect.currentframe().f_code.co_name)
        assert _caller_name() == "forward"
        with contextlib.redirect_stdout(io.StringIO()):
            print("noisy")
        old = signal.signal(signal.SIGUSR1, signal.SIG_IGN)
        try:
            worker = threading.Thread(target=lambda: None)
            worker.start()
            worker.join()
            return _quiet(lambda: torch.softmax(x, dim=-1))
        finally:
            signal.signal(signal.SIGUSR1, old)
)");
  expectQuiet(r);
  EXPECT_TRUE(findingsOf(r).findings.empty()) << describe(r);
}

TEST(RuntimeEvents, ReadingTheCallersFramesIsIntrospection) {
  REQUIRE_TORCH();
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "introspect", R"(import gc
import sys

import torch
import torch.nn as nn

_objects = len(gc.get_objects())


class ModelNew(nn.Module):
    def forward(self, x):
        caller = sys._getframe(2)
        self.seen = sorted(caller.f_locals)
        return torch.softmax(x, dim=-1)
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::RuntimeEvent *frame = findEvent(r, "introspection", "sys._getframe at solution.py:12");
  ASSERT_NE(frame, nullptr) << describe(r);
  EXPECT_EQ(frame->confidence, "medium");
  const runtime::RuntimeEvent *gc = findEvent(r, "introspection", "gc.get_objects() (every object of the interpreter) "
                                                                  "at solution.py:7");
  ASSERT_NE(gc, nullptr) << describe(r);
  EXPECT_EQ(gc->confidence, "low");
  const rules::RuleResults results = findingsOf(r);
  ASSERT_EQ(results.findings.size(), 1u) << describe(r);
  EXPECT_EQ(results.findings[0].rule, "RUB010");
  EXPECT_EQ(results.findings[0].confidence, rules::Confidence::Medium);
}

TEST(RuntimeEvents, WritingTheProbesOwnStateIsHighConfidence) {
  REQUIRE_TORCH();
  // It switches the audit hook off (found through gc) and writes into the dict a caller's frame
  // holds (the probe's answer): the harm itself, which a harness keeping its verdict in its
  // frames would suffer. The switch is turned back on, so later events are still seen.
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "harness_write", R"(import gc
import sys

import torch
import torch.nn as nn

for _o in gc.get_objects():
    if type(_o).__name__ == "Events" and hasattr(_o, "watching"):
        _o.watching = False


class ModelNew(nn.Module):
    def forward(self, x):
        f = sys._getframe(1)
        while f is not None:
            if isinstance(f.f_locals.get("report"), dict):
                f.f_locals["report"]["python"] = "patched"
            f = f.f_back
        return torch.softmax(x, dim=-1)
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::RuntimeEvent *hook = findEvent(r, "harness-state", "during import");
  ASSERT_NE(hook, nullptr) << describe(r);
  EXPECT_NE(hook->detail.find("the audit hook's switch"), std::string::npos) << hook->detail;
  EXPECT_EQ(hook->confidence, "high");
  const runtime::RuntimeEvent *answer = findEvent(r, "harness-state", "main's local 'report'");
  ASSERT_NE(answer, nullptr) << describe(r);
  // Seen after the switch was put back: the frame walk in forward.
  EXPECT_NE(findEvent(r, "introspection", "sys._getframe at solution.py:14"), nullptr) << describe(r);
  const rules::RuleResults results = findingsOf(r);
  const rules::Finding *f = findingOf(results, "RUB010");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->confidence, rules::Confidence::High);
}

TEST(RuntimeEvents, RawMemoryThroughCtypes) {
  REQUIRE_TORCH();
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "raw_memory", R"(import ctypes

import torch
import torch.nn as nn

_flag = [1.0]
_view = ctypes.c_long.from_address(id(_flag) + 8)
_locals_to_fast = ctypes.pythonapi.PyFrame_LocalsToFast
_mprotect = ctypes.CDLL(None).mprotect


class ModelNew(nn.Module):
    def forward(self, x):
        box = (1, 2)
        ctypes.memmove(id(box) + 24, ctypes.addressof(ctypes.c_long(0)), 0)
        return torch.softmax(x, dim=-1)
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  for (const char *what : {"ctypes.cdata at solution.py:7 reads or maps the memory of a Python object",
                           "the interpreter's PyFrame_LocalsToFast at solution.py:8", "mprotect at solution.py:9",
                           "ctypes.memmove at solution.py:15 writes into the memory of a Python object"}) {
    const runtime::RuntimeEvent *e = findEvent(r, "raw-memory", what);
    ASSERT_NE(e, nullptr) << what << "\n" << describe(r);
    EXPECT_EQ(e->confidence, "medium") << what;
  }
  const rules::RuleResults results = findingsOf(r);
  ASSERT_EQ(results.findings.size(), 1u) << describe(r);
  EXPECT_EQ(results.findings[0].rule, "RUB011");
  EXPECT_EQ(results.findings[0].confidence, rules::Confidence::Medium);
}

TEST(RuntimeEvents, TheResultChannel) {
  REQUIRE_TORCH();
  // stderr left pointing at /dev/null after the import (a grader's errors vanish), and stdout
  // written past sys.stdout (a harness capturing sys.stdout would not see the "PASS").
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "channel", R"(import os

import torch
import torch.nn as nn

os.dup2(os.open(os.devnull, os.O_WRONLY), 2)


class ModelNew(nn.Module):
    def forward(self, x):
        try:  # (as the probe's unprivileged uid, reopening root's pipe is refused: the attempt shows)
            with open("/proc/self/fd/1", "w") as out:
                out.write("PASS\n")
        except OSError:
            pass
        return torch.softmax(x, dim=-1)
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::RuntimeEvent *redirected = findEvent(r, "result-channel", "after import descriptor 2 (stderr) points "
                                                                           "to /dev/null");
  ASSERT_NE(redirected, nullptr) << describe(r);
  EXPECT_EQ(redirected->confidence, "medium");
  const runtime::RuntimeEvent *stdoutWrite =
      findEvent(r, "result-channel", "open('/proc/self/fd/1') for writing at solution.py:12");
  ASSERT_NE(stdoutWrite, nullptr) << describe(r);
  EXPECT_EQ(stdoutWrite->confidence, "low");
  EXPECT_EQ(findEvent(r, "write-outside", "/proc"), nullptr) << "one event, of the channel's kind\n" << describe(r);
  const rules::Finding *f = findingOf(findingsOf(r), "RUB012");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->confidence, rules::Confidence::Medium);
}

TEST(RuntimeEvents, SignalsTheDeadlineAndTracing) {
  REQUIRE_TORCH();
  // The probe's own SIGALRM deadline replaced at import (put back, so the budget still ends a hung
  // call), SIGTERM ignored, a trace function left installed by forward; signal 0 to itself
  // (asking whether a process exists) is nothing.
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "signals", R"(import os
import signal
import sys

import torch
import torch.nn as nn


def _ignore(signum, frame):
    pass


signal.signal(signal.SIGALRM, _ignore)
signal.signal(signal.SIGTERM, signal.SIG_IGN)


class ModelNew(nn.Module):
    def forward(self, x):
        os.kill(os.getpid(), 0)
        sys.settrace(lambda *a: None)
        return torch.softmax(x, dim=-1)
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  for (const char *what : {"the probe's deadline handler (SIGALRM) was replaced; restored",
                           "the handler of SIGTERM became SIG_IGN", "a trace function (sys.settrace)"}) {
    const runtime::RuntimeEvent *e = findEvent(r, "process-control", what);
    ASSERT_NE(e, nullptr) << what << "\n" << describe(r);
    EXPECT_EQ(e->confidence, "medium") << what;
  }
  EXPECT_EQ(findEvent(r, "process-control", "os.kill"), nullptr) << describe(r);
  const rules::Finding *f = findingOf(findingsOf(r), "RUB013");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->confidence, rules::Confidence::Medium);
}

TEST(RuntimeEvents, SleepsOnCallsItRecognises) {
  REQUIRE_TORCH();
  // forward sleeps when an input's address comes back (the harness's warm-up repeats its
  // inputs): a stall during a call (RUB018, medium); the sleep at import, a build lock's back-off
  // in shape, is low, and sleep(0) only yields.
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "stall", R"(import time

import torch
import torch.nn as nn

time.sleep(0.001)
_seen = set()


class ModelNew(nn.Module):
    def forward(self, x):
        time.sleep(0)
        if x.data_ptr() in _seen:
            time.sleep(0.002)
        _seen.add(x.data_ptr())
        return torch.softmax(x, dim=-1)
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::RuntimeEvent *call = findEvent(r, "stall", "time.sleep(0.002)");
  ASSERT_NE(call, nullptr) << describe(r);
  EXPECT_EQ(call->confidence, "medium");
  EXPECT_NE(call->detail.find("during the call"), std::string::npos) << call->detail;
  const runtime::RuntimeEvent *import = findEvent(r, "stall", "time.sleep(0.001)");
  ASSERT_NE(import, nullptr) << describe(r);
  EXPECT_EQ(import->confidence, "low");
  EXPECT_EQ(findEvent(r, "stall", "time.sleep(0)"), nullptr) << describe(r);
  const rules::Finding *f = findingOf(findingsOf(r), "RUB018");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->confidence, rules::Confidence::Medium);
}

TEST(RuntimeEvents, WorkLeftRunningAfterForward) {
  REQUIRE_TORCH();
  // A thread finishing the output after forward returned, and a child process left running.
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "escaping", R"(import subprocess
import threading
import time

import torch
import torch.nn as nn


def _finish(out):
    time.sleep(1.0)
    out.mul_(1.0)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.softmax(x, dim=-1)
        threading.Thread(target=_finish, args=(out,), daemon=True).start()
        if not hasattr(self, "child"):
            self.child = subprocess.Popen(["sleep", "3"])
        return out
)");
  ASSERT_EQ(r.outcome, "ran") << describe(r);
  const runtime::RuntimeEvent *thread =
      findEvent(r, "host-concurrency", "a thread the solution started at solution.py:17 is still running (at "
                                       "solution.py:10)");
  ASSERT_NE(thread, nullptr) << describe(r);
  EXPECT_EQ(thread->confidence, "medium");
  const runtime::RuntimeEvent *child = findEvent(r, "host-concurrency", "a child process the solution started (sleep 3)");
  ASSERT_NE(child, nullptr) << describe(r);
  EXPECT_EQ(child->confidence, "medium");
  const rules::Finding *f = findingOf(findingsOf(r), "TIME003");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->confidence, rules::Confidence::Medium);

  // The near miss: a thread pool whose work forward waits for. Its idle workers outlive the call
  // (review only: a worker later calls could feed), nothing runs on.
  const runtime::RuntimeReport pool = probeSolution(dir, "pool", R"(import concurrent.futures

import torch
import torch.nn as nn

_pool = concurrent.futures.ThreadPoolExecutor(2)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.cat(list(_pool.map(lambda t: torch.softmax(t, dim=-1), x.chunk(2))))
)");
  ASSERT_EQ(pool.outcome, "ran") << describe(pool);
  ASSERT_FALSE(pool.events.empty()) << describe(pool);
  for (const runtime::RuntimeEvent &e : pool.events) {
    EXPECT_EQ(e.kind, "host-concurrency") << describe(pool);
    EXPECT_EQ(e.confidence, "low") << describe(pool);
    EXPECT_NE(e.detail.find("an idle thread"), std::string::npos) << describe(pool);
  }
}

// ---------------------------------------------------------------- GPU MODE's convention

TEST(RuntimeGpuMode, CustomKernelAgainstRefKernel) {
  REQUIRE_TORCH();
  TempDir dir;
  const runtime::RuntimeReport honest = probeSolution(dir, "gm_honest", R"(import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x, w = data
    return torch.softmax(torch.matmul(x, w), dim=-1)
)",
                                                      true);
  expectQuiet(honest);
  for (const char *name : {"differential", "adversarial", "memoization", "aliasing", "caller_context", "call_count",
                           "global_state", "uninitialized_output"}) {
    const runtime::ProbeOutcome *p = findProbe(honest, name);
    ASSERT_NE(p, nullptr) << name << "\n" << describe(honest);
    EXPECT_EQ(p->status, "passed") << name << "\n" << describe(honest);
  }
  bool noted = false;
  for (const std::string &n : honest.notes)
    noted |= n.find("protocol: gpumode") != std::string::npos && n.find("m=8, n=16") != std::string::npos;
  EXPECT_TRUE(noted) << "the smallest test of task.yml runs on a CPU";

  // A result cached on the inputs' pointers: the memoization probe rewrites them in place.
  const runtime::RuntimeReport memo = probeSolution(dir, "gm_memo", R"(import torch

_cache = {}


def custom_kernel(data):
    x, w = data
    key = (x.data_ptr(), w.data_ptr())
    if key not in _cache:
        _cache[key] = torch.softmax(x @ w, dim=-1)
    return _cache[key]
)",
                                                    true);
  ASSERT_EQ(memo.outcome, "ran") << describe(memo);
  const runtime::ProbeOutcome *m = findProbe(memo, "memoization");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->status, "finding") << describe(memo);
  EXPECT_EQ(m->rule, "MEM001");
}

TEST(RuntimeGpuMode, PygpubenchKernelIsUnavailableWithTheReason) {
  REQUIRE_TORCH();
  TempDir dir;
  const runtime::RuntimeReport r = probeSolution(dir, "pygpubench", R"(import torch


def kernel(output, x, w):
    output.copy_(torch.softmax(x @ w, dim=-1))
)",
                                                 true);
  EXPECT_EQ(r.outcome, "unavailable") << describe(r);
  EXPECT_NE(r.reason.find("do not support this calling convention"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("kernel(output, *inputs)"), std::string::npos) << r.reason;
  EXPECT_TRUE(r.probes.empty());
}
