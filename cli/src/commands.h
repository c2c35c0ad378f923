#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace kbaudit::cli {

int cmdCheck(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdBaseline(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdAudit(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdRules(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdExplain(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdScore(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdReport(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdProblem(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdProbe(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdSuites(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdDocs(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
int cmdCudaTranslate(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace kbaudit::cli
