#pragma once

// Runtime probes: the solution and its reference run in a sandboxed Python child, the worker
// (the runtime_checks/kbaudit_probe package, compiled into kbaudit), which reports, per probe,
// whether it passed, found something (with the rule it is evidence for), or could not run and
// why. The worker shares its process with the solution, so its answer is a claim: the outputs it
// witnessed for the probes that clear findings are judged again by a second sandboxed process
// that never imports the solution (kbaudit_probe/judge.py), and only that judgement clears
// anything (docs/security.md).

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/runtime/sandbox.h"
#include "kbaudit/source/embedded_file.h"

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::runtime {

using EmbeddedFile = ::kbaudit::EmbeddedFile;

/// $KBAUDIT_PYTHON, else probeVenv()/bin/python (install_layout.h), else /usr/bin/python3.
std::filesystem::path defaultPython();

/// The kbaudit whose `cuda-translate` the worker runs for the CPU runner (kbaudit_probe/cuda_cpu.py):
/// $KBAUDIT_CUDA_TRANSLATOR, else this executable when it is kbaudit, else a kbaudit beside it or
/// one directory up (a test binary's build); empty when none is found (CUDA C++ is then unavailable).
std::filesystem::path defaultTranslator();

struct ProbeOptions {
  std::string device = "auto";                         ///< auto | cuda | cpu
  std::filesystem::path python = defaultPython();
  /// Mounted read-only into the worker's view and named in $KBAUDIT_CUDA_TRANSLATOR.
  std::filesystem::path translator = defaultTranslator();
  std::vector<int> seeds = {0, 1, 2};
  SandboxLimits limits;
  /// The strongest this machine allows unless a test asks for a fallback (sandbox.h).
  Containment containment = Containment::Strongest;
};

struct ProbeOutcome {
  std::string name;   ///< "differential", "memoization", ...
  std::string status; ///< passed | finding | skipped | error
  /// What the probe observed, where it can see more than one thing ("fresh-inputs" of
  /// `timing`); "" for the probe's own question. Probes never name rules.
  std::string check;
  /// The rule the outcome speaks to ("PREC001"), "" when none: set by attributeProbes from
  /// the rules' metadata (`runtime: confirmed_by`), never taken from the worker or the judge.
  std::string rule;
  std::string reason; ///< why it was skipped, what it found, or what broke
  std::map<std::string, double> numbers; ///< error ratios, timings, ...
  /// Judged outside the solution's process, from the outputs it returned (the judge's verdict);
  /// false for what only the worker, which the solution shares, reports. Only a verified
  /// `passed` clears a finding.
  bool verified = false;
};

/// The probes whose outputs the worker witnesses for the judge (their passing clears a finding).
bool witnessedProbe(const std::string &name);

/// A side effect the solution had, recorded by the child's audit hook, by the state checks
/// around the solution's code (kbaudit_probe/state_watch.py), or by comparing the grader files
/// before and after.
struct RuntimeEvent {
  /// grader-file, grader-changed, write-outside, delete, process, network; introspection,
  /// harness-state, raw-memory, result-channel, process-control, host-concurrency; tampering
  /// (kbaudit's side: an answer or witness that is forged, malformed or contradicts itself)
  std::string kind;
  std::string detail;
  /// How sure the probe is that the event is harm: high (the event is the harm itself), medium,
  /// low (review); "" where the probe does not say (the older kinds).
  std::string confidence = "";
};

struct RuntimeReport {
  /// ran: the child answered; aborted: it ended without an answer (crash, os._exit, timeout,
  /// forged or oversized answer) or the solution could not be loaded; unavailable: the probe
  /// could not be started, or the reference / torch cannot run on this machine.
  std::string outcome = "unavailable";
  std::string reason;          ///< why it aborted or was unavailable; setup errors
  std::string device;
  std::string torchVersion;
  std::vector<int> seeds;
  std::vector<ProbeOutcome> probes;
  std::vector<RuntimeEvent> events;
  std::vector<std::string> isolation;
  /// What the probe adapted to run here: the shape it ran at, CUDA calls mapped to the CPU,
  /// what it refused (CUDA graph capture), a time budget that ran out.
  std::vector<std::string> notes;
  double seconds = 0;

  bool ran() const { return outcome == "ran"; }
};

/// Runs every probe for the solution (a solution.py or its run directory) against `problem`.
/// Never throws; failures are described in the report.
/// Each probe works on a private copy in `$TMPDIR/kbaudit-probe-<pid>-XXXXXX`; commands that run
/// probes first remove the copies whose owner is gone (lifetime::removeStaleDirs).
inline constexpr std::string_view kProbeDirPrefix = "kbaudit-probe";

RuntimeReport runProbes(const std::filesystem::path &solution, const problems::ProblemContext &problem,
                        const ProbeOptions &options = {});

/// What the judge said about the witnessed probes (kbaudit_probe/judge.py).
struct Judgement {
  bool answered = false;   ///< a well-framed answer with this run's nonce came back
  std::string failure;     ///< why there is no verdict (the judge could not run, or ran out of time)
  std::string witnessError; ///< the witness is not what a worker writes (tampering)
  std::vector<ProbeOutcome> probes; ///< verified verdicts
  std::vector<std::string> nearLimit; ///< probes whose deciding measure is within 4x of its limit
  std::map<std::string, std::string> unverified; ///< probe -> why its outputs are not in the witness
  std::vector<std::string> notes;
};

/// Parses the judge's framed answer (same framing as the worker's).
bool parseJudgement(const std::string &framed, const std::string &nonce, Judgement &out, std::string &why);

/// The worker's claims that contradict themselves: a status no probe answers, a probe twice,
/// a `passed` whose own numbers cross its limit (differential's error ratio over 64). Each is a
/// reason for a `tampering` event.
std::vector<std::string> inconsistentClaims(const RuntimeReport &report);

/// Puts the judge's verdicts in place of the worker's claims for the witnessed probes (marked
/// verified) and adds a `tampering` event (RUB012, high) for every disagreement that is not
/// near a limit, every claimed result without a witness, and a malformed witness. Without a
/// judgement the claims stay, unverified, and the notes say why.
void applyJudgement(RuntimeReport &report, const Judgement &judgement);

/// Names the rule each outcome speaks to from the rule catalogue's `runtime:` links
/// (rules/runtime_links.h), then applies one cause, one rule: the findings a confirmed rule
/// `explains` (output left unwritten makes every numeric probe wrong) keep no rule of their own.
/// runProbes calls it last; exposed for tests.
void attributeProbes(RuntimeReport &report);

/// Parses the child's framed answer; exposed for tests. Returns false (with `why`) for a
/// missing, forged, repeated or malformed answer. On success it sets `report.outcome`: "ran",
/// or "aborted" when the solution could not be imported or built, or "unavailable" when the
/// reference or torch could not be loaded on this machine (with the error in `reason`).
bool parseAnswer(const std::string &framed, const std::string &nonce, RuntimeReport &report, std::string &why);

/// The kbaudit_probe package's files (paths relative to runtime_checks/), as compiled in.
std::span<const EmbeddedFile> probePackage();

} // namespace kbaudit::runtime
