// The framed answers of the worker and of the judge: `KBAUDIT-ANSWER <nonce> <length>\n<json>`,
// the nonce repeated in the JSON. Anything else on the pipe is no answer.

#include "kbaudit/runtime/probe.h"

#include <yaml-cpp/yaml.h>

#include <sstream>

namespace kbaudit::runtime {

namespace {

constexpr const char *kAnswerTag = "KBAUDIT-ANSWER ";

/// The JSON body of a framed answer, checked against the nonce and its own length.
bool unframe(const std::string &framed, const std::string &expectedNonce, std::string &body, std::string &why) {
  if (expectedNonce.empty()) {
    why = "no nonce to check the answer against";
    return false;
  }
  if (framed.rfind(kAnswerTag, 0) != 0) {
    why = framed.empty() ? "no answer on the private pipe" : "the answer pipe held something other than an answer";
    return false;
  }
  const std::size_t eol = framed.find('\n');
  std::istringstream header(framed.substr(0, eol));
  std::string tag, gotNonce;
  std::size_t length = 0;
  header >> tag >> gotNonce >> length;
  if (eol == std::string::npos || gotNonce != expectedNonce) {
    why = "the answer does not carry this run's nonce (forged)";
    return false;
  }
  if (framed.size() - eol - 1 != length) {
    why = "the answer's length does not match its frame (a second or truncated answer)";
    return false;
  }
  body = framed.substr(eol + 1);
  return true;
}

std::vector<ProbeOutcome> probesOf(const YAML::Node &probes) {
  std::vector<ProbeOutcome> out;
  if (!probes || !probes.IsSequence())
    return out;
  for (const auto &p : probes) {
    ProbeOutcome o;
    o.name = p["name"].as<std::string>("");
    o.status = p["status"].as<std::string>("");
    o.check = p["check"].as<std::string>("");
    o.reason = p["reason"].as<std::string>("");
    if (const YAML::Node nums = p["numbers"]; nums && nums.IsMap())
      for (const auto &kv : nums)
        o.numbers[kv.first.as<std::string>()] = kv.second.as<double>(0.0);
    out.push_back(std::move(o));
  }
  return out;
}

} // namespace

bool parseAnswer(const std::string &framed, const std::string &expectedNonce, RuntimeReport &out,
                 std::string &why) {
  RuntimeReport report = out; // filled in here, handed back only when the whole answer is sound
  if (expectedNonce.empty()) {
    why = "no nonce to check the answer against";
    return false;
  }
  std::string body;
  if (!unframe(framed, expectedNonce, body, why))
    return false;
  try {
    const YAML::Node root = YAML::Load(body);
    if (root["nonce"].as<std::string>("") != expectedNonce) {
      why = "the answer's body does not carry this run's nonce (forged)";
      return false;
    }
    report.device = root["device"].as<std::string>("");
    report.torchVersion = root["torch"].as<std::string>("");
    if (const YAML::Node seeds = root["seeds"]; seeds && seeds.IsSequence())
      for (const auto &s : seeds)
        report.seeds.push_back(s.as<int>(0));
    report.outcome = "ran";
    if (const YAML::Node err = root["setup_error"]; err && err.IsScalar()) {
      // The solution failing to import, build or run on CUDA is its failure (aborted); a
      // reference or a torch that cannot run here, or a solution whose forward fails on a CPU
      // (written for a GPU), means the probe is unavailable on this machine.
      const std::string stage = root["setup_stage"].as<std::string>("");
      report.outcome = stage == "solution" ? "aborted" : "unavailable";
      // A calling convention the probes do not run (pygpubench's kernel(output, *inputs)) is
      // neither side's fault: unavailable, saying which.
      report.reason = (stage == "solution"             ? "the solution could not be loaded or run: "
                       : stage == "solution-on-device" ? "the solution does not run on this device: "
                       : stage == "convention"         ? "the runtime probes do not support this calling convention: "
                       : stage == "torch"              ? ""
                                                       : "the reference does not run on this device: ") +
                      err.as<std::string>();
    }
    report.probes = probesOf(root["probes"]);
    if (const YAML::Node notes = root["notes"]; notes && notes.IsSequence())
      for (const auto &n : notes)
        report.notes.push_back(n.as<std::string>(""));
    if (const YAML::Node events = root["events"]; events && events.IsSequence())
      for (const auto &e : events)
        report.events.push_back(
            {e["kind"].as<std::string>(""), e["detail"].as<std::string>(""), e["confidence"].as<std::string>("")});
  } catch (const YAML::Exception &e) {
    why = std::string("the answer is not valid JSON: ") + e.what();
    return false;
  }
  out = std::move(report);
  return true;
}

bool parseJudgement(const std::string &framed, const std::string &expectedNonce, Judgement &out, std::string &why) {
  std::string body;
  if (!unframe(framed, expectedNonce, body, why))
    return false;
  Judgement j;
  try {
    const YAML::Node root = YAML::Load(body);
    if (root["nonce"].as<std::string>("") != expectedNonce || root["role"].as<std::string>("") != "judge") {
      why = "the judge's answer does not carry this run's nonce";
      return false;
    }
    j.answered = true;
    j.failure = root["setup_error"].as<std::string>("");
    j.witnessError = root["witness_error"].as<std::string>("");
    j.probes = probesOf(root["probes"]);
    for (ProbeOutcome &p : j.probes)
      p.verified = true;
    if (const YAML::Node probes = root["probes"]; probes && probes.IsSequence())
      for (const auto &p : probes)
        if (p["near_limit"].as<bool>(false))
          j.nearLimit.push_back(p["name"].as<std::string>(""));
    if (const YAML::Node un = root["unverified"]; un && un.IsMap())
      for (const auto &kv : un)
        j.unverified[kv.first.as<std::string>()] = kv.second.as<std::string>("");
    if (const YAML::Node notes = root["notes"]; notes && notes.IsSequence())
      for (const auto &n : notes)
        j.notes.push_back(n.as<std::string>(""));
  } catch (const YAML::Exception &e) {
    why = std::string("the judge's answer is not valid JSON: ") + e.what();
    return false;
  }
  out = std::move(j);
  return true;
}

} // namespace kbaudit::runtime
