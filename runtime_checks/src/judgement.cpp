// The worker's answer is a claim (the solution runs in its process); the judge's verdicts on the
// witnessed outputs are evidence. Here the claims are checked against themselves and against
// the judgement, and the judgement takes their place. A claim that does not hold is not
// corrected in silence: it is a `tampering` event (RUB012, decisive), because an honest worker
// never contradicts its own witness.

#include "kbaudit/runtime/probe.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>

namespace kbaudit::runtime {

namespace {

constexpr std::array<const char *, 4> kWitnessed = {"differential", "memoization", "caller_context", "call_count"};
constexpr std::array<const char *, 4> kStatuses = {"passed", "finding", "skipped", "error"};
constexpr double kErrorRatioLimit = 64.0; // kbaudit_probe/numerics.py ERROR_RATIO_LIMIT

void tampering(RuntimeReport &report, const std::string &detail) {
  report.events.push_back({"tampering", "tampering suspected: " + detail, "high"});
}

ProbeOutcome *findProbe(std::vector<ProbeOutcome> &probes, const std::string &name) {
  const auto it = std::find_if(probes.begin(), probes.end(), [&](const ProbeOutcome &p) { return p.name == name; });
  return it == probes.end() ? nullptr : &*it;
}

bool decided(const std::string &status) { return status == "passed" || status == "finding"; }

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

} // namespace

bool witnessedProbe(const std::string &name) {
  return std::any_of(kWitnessed.begin(), kWitnessed.end(), [&](const char *w) { return name == w; });
}

std::vector<std::string> inconsistentClaims(const RuntimeReport &report) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const ProbeOutcome &p : report.probes) {
    if (std::none_of(kStatuses.begin(), kStatuses.end(), [&](const char *s) { return p.status == s; }))
      out.push_back("the answer gives probe '" + p.name + "' the status '" + p.status + "', which no probe answers");
    if (!seen.insert(p.name).second)
      out.push_back("the answer reports probe '" + p.name + "' twice");
    if (p.status != "passed")
      continue;
    if (const auto it = p.numbers.find("error_ratio"); p.name == "differential" && it != p.numbers.end() &&
                                                        !(it->second <= kErrorRatioLimit))
      out.push_back("the answer says differential passed with an error ratio of " + number(it->second) +
                    " (the limit is 64)");
    if (const auto it = p.numbers.find("over_limit");
        p.name == "call_count" && it != p.numbers.end() && !(it->second <= 1.0))
      out.push_back("the answer says call_count passed at " + number(it->second) + " times its limit");
  }
  return out;
}

void applyJudgement(RuntimeReport &report, const Judgement &judgement) {
  if (!judgement.answered || !judgement.failure.empty()) {
    report.notes.push_back("the judge could not run (" +
                           (judgement.failure.empty() ? std::string("no answer") : judgement.failure) +
                           "): no probe result is verified, so none clears a finding");
    return;
  }
  if (!judgement.witnessError.empty()) {
    tampering(report, "the witness of the solution's outputs is not what the probe writes: " + judgement.witnessError);
    return;
  }
  std::string verified;
  for (const char *name : kWitnessed) {
    ProbeOutcome *claim = findProbe(report.probes, name);
    const auto judged = std::find_if(judgement.probes.begin(), judgement.probes.end(),
                                     [&](const ProbeOutcome &p) { return p.name == name; });
    if (judged != judgement.probes.end()) {
      const bool near = std::find(judgement.nearLimit.begin(), judgement.nearLimit.end(), name) !=
                        judgement.nearLimit.end();
      if (!claim) {
        tampering(report, std::string("the witness holds the outputs of ") + name +
                              ", which the probe's answer does not report");
        report.probes.push_back(*judged);
      } else {
        if (decided(claim->status) && claim->status != judged->status && !near)
          tampering(report, std::string("the probe's answer says ") + name + " " + claim->status +
                                ", the outputs it witnessed say " + judged->status +
                                (judged->reason.empty() ? "" : " (" + judged->reason + ")"));
        *claim = *judged;
      }
      verified += (verified.empty() ? "" : ", ") + std::string(name);
    } else if (claim && decided(claim->status)) {
      if (const auto why = judgement.unverified.find(name); why != judgement.unverified.end())
        report.notes.push_back(std::string(name) + " is not verified (" + why->second + "): it clears nothing");
      else
        tampering(report, std::string("the probe's answer says ") + name + " " + claim->status +
                              ", but the witness holds no complete record of its outputs");
    }
  }
  if (!verified.empty())
    report.notes.push_back("verified outside the solution's process from the outputs it returned: " + verified);
}

} // namespace kbaudit::runtime
