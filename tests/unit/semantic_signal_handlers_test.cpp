// The signals a harness stops a run with and what a handler for one does
// (semantic/signal_handlers.h): RUB013 asks them.

#include "kbaudit/semantic/signal_handlers.h"

#include "kbaudit/facts.h"

#include <gtest/gtest.h>

namespace kbaudit {
namespace {

TEST(SemanticSignalHandlers, SignalsAndWhatHandlersDo) {
  const Facts f = analyzeSource(SourceFile::fromBytes(R"PY(import signal, sys
ALARM = 14
def quiet(signum, frame):
    pass
def loud(signum, frame):
    raise TimeoutError()
signal.signal(signal.SIGALRM, quiet)
signal.signal(ALARM, loud)
signal.signal(signal.SIGTERM, lambda s, f: sys.exit(0))
signal.signal(signal.SIGUSR1, lambda s, f: None)
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT, signal.SIGUSR2])
)PY"));
  const py::PythonFacts &py = f.python;
  const semantic::scope::GradedScope graded(f);
  std::vector<const py::Call *> installs;
  for (const py::Call &c : py.calls)
    if (c.resolved == "signal.signal")
      installs.push_back(&c);
  ASSERT_EQ(installs.size(), 4u);
  const auto handler = [&](int i) -> const py::Expr & { return installs[i]->positionalArg(1)->value; };
  const auto signalOf = [&](int i) { return semantic::harnessSignal(py, installs[i]->positionalArg(0)->value); };
  EXPECT_EQ(signalOf(0), "SIGALRM");
  EXPECT_EQ(signalOf(1), "SIGALRM"); // by number, through a name
  EXPECT_EQ(signalOf(2), "SIGTERM");
  EXPECT_EQ(signalOf(3), ""); // not one a harness stops a run with
  EXPECT_EQ(semantic::handlerSwallows(py, graded, handler(0), *installs[0]), std::optional<bool>(true));
  EXPECT_EQ(semantic::handlerSwallows(py, graded, handler(1), *installs[1]), std::optional<bool>(false));
  EXPECT_EQ(semantic::handlerSwallows(py, graded, handler(2), *installs[2]), std::optional<bool>(false));
  EXPECT_EQ(semantic::handlerSwallows(py, graded, handler(3), *installs[3]), std::optional<bool>(true));
  for (const py::Call &c : py.calls) {
    if (c.resolved == "signal.pthread_sigmask") {
      EXPECT_EQ(semantic::harnessSignalsIn(py, c.positionalArg(1)->value), std::vector<std::string>{"SIGINT"});
    }
  }
}

} // namespace
} // namespace kbaudit
