#include "kbaudit/semantic/random_draws.h"

#include "kbaudit/semantic/python_text.h"

#include <set>

namespace kbaudit::semantic {

using namespace pytext;

namespace {

const std::set<std::string_view> &samplers() {
  static const std::set<std::string_view> s = {"randn",     "rand",         "randint", "randn_like",
                                               "rand_like", "randint_like", "normal",  "randperm",
                                               "bernoulli", "multinomial",  "poisson"};
  return s;
}

const std::set<std::string_view> &fills() {
  static const std::set<std::string_view> s = {"normal_",      "uniform_", "random_",     "bernoulli_",
                                               "exponential_", "cauchy_",  "log_normal_", "geometric_"};
  return s;
}

} // namespace

bool isGlobalReseed(std::string_view resolved) {
  static const std::set<std::string_view> s = {"torch.manual_seed",
                                               "torch.cuda.manual_seed",
                                               "torch.cuda.manual_seed_all",
                                               "torch.random.manual_seed",
                                               "torch.seed",
                                               "torch.cuda.seed",
                                               "torch.cuda.seed_all",
                                               "torch.random.seed",
                                               "torch.set_rng_state",
                                               "torch.random.set_rng_state",
                                               "torch.cuda.set_rng_state",
                                               "torch.cuda.set_rng_state_all",
                                               "torch.cuda.random.manual_seed",
                                               "torch.cuda.random.manual_seed_all",
                                               "torch.cuda.random.set_rng_state",
                                               "torch.default_generator.manual_seed",
                                               "torch.default_generator.set_state",
                                               "torch.random.default_generator.manual_seed",
                                               "torch.cuda.default_generators[...].manual_seed",
                                               "torch.cuda.default_generators[...].set_state",
                                               "random.seed",
                                               "random.setstate",
                                               "numpy.random.seed",
                                               "numpy.random.set_state",
                                               "np.random.seed"};
  return s.count(resolved) > 0;
}

bool isRngRestore(std::string_view resolved) { return isGlobalReseed(resolved) || lastSegment(resolved) == "fork_rng"; }

bool isRandomDraw(const py::Call &c) {
  const std::string_view last = lastSegment(c.resolved);
  if (startsWith(c.resolved, "torch.") && samplers().count(last))
    return true;
  if (startsWith(c.resolved, "numpy.random.") && !isGlobalReseed(c.resolved) && last != "get_state" &&
      last != "default_rng" && last != "RandomState" && last != "Generator")
    return true;
  return fills().count(c.method) > 0;
}

bool isRandomFactory(std::string_view resolved) {
  const std::string_view last = lastSegment(resolved);
  if (samplers().count(last) || fills().count(last) || last == "empty" || last == "empty_like")
    return true;
  return startsWith(resolved, "torch.nn.init.") || startsWith(resolved, "numpy.random.") ||
         startsWith(resolved, "random.");
}

} // namespace kbaudit::semantic
