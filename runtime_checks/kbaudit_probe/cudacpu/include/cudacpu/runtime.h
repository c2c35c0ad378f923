// The CUDA-on-CPU runtime: a kernel launch runs every block of the grid in turn on the
// launching OS thread, and every thread of a block as a fiber (Boost.Context) with a stack of
// its own. A thread runs until it must wait for others (__syncthreads, a warp-synchronous
// intrinsic, __activemask) or ends; the block's scheduler then runs the next ready thread, and
// releases a barrier when every thread of the block that has not exited has arrived, a warp
// collective when every lane its mask names has arrived (or exited). This is the design of
// pocl's work-group fibers and ROCm's HIP-CPU runtime (docs/runtime.md says why).
//
// What a GPU would report as a fault is a KernelError (a C++ exception that reaches Python as a
// RuntimeError whose message starts "kbaudit-cudacpu:"): a deadlock (threads that wait for each
// other at different synchronisation points), a kernel that runs past its time limit (a
// watchdog timer: an infinite loop or a wait on another block, which runs later here), an
// access outside a tensor's storage (the pointer arguments of a launch are given copies placed
// against guard pages), a stack overflow, __trap and a failed device-side assert.
#pragma once

#include "cudacpu/traits.h"
#include "cudacpu/vector_types.h"

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace cudacpu {

/// A fault of a kernel (what the GPU would report as an error of the launch, or a hang).
struct KernelError : std::runtime_error {
  explicit KernelError(const std::string &what) : std::runtime_error("kbaudit-cudacpu: " + what) {}
};

namespace detail {

enum class State : unsigned char { Ready, Barrier, Warp, ActiveMask, Named, Grid, Done };

enum WarpOp : int {
  OpSync, OpShflIdx, OpShflUp, OpShflDown, OpShflXor, OpBallot, OpAny, OpAll, OpMatchAny, OpMatchAll,
  OpAddU, OpMinU, OpMaxU, OpMinI, OpMaxI, OpAnd, OpOr, OpXor, OpGather
};

inline const char *opName(int op) {
  static const char *names[] = {"__syncwarp", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                "__ballot_sync", "__any_sync", "__all_sync", "__match_any_sync", "__match_all_sync",
                                "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_min_sync",
                                "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
                                "a warp-wide PTX instruction (ldmatrix, mma.sync)"};
  return op >= 0 && op <= OpGather ? names[op] : "a warp intrinsic";
}

struct Thread {
  uint3 idx{};
  unsigned linear = 0, lane = 0, warp = 0;
  State state = State::Ready;
  boost::context::fiber *sink = nullptr; ///< the scheduler, while this thread runs
  // A warp collective it waits at.
  int op = 0;
  unsigned mask = 0;
  unsigned long long value = 0, result = 0;
  int arg = 0, width = 32;
  const void *site = nullptr; ///< __activemask's call site
  // __syncthreads_count/and/or.
  int barPred = 0, barResult = 0;
  int namedBarrier = -1; ///< the named barrier (bar.sync id, count) it waits at
  // A gather (the warp-wide PTX instructions): the words this lane offers.
  const std::uint32_t *gatherWords = nullptr;
  int gatherCount = 0;
};

/// Words per lane a gather carries at most (mma.sync m16n8k16: A 4, B 2, C 4).
constexpr int kGatherWords = 16;

/// Fiber stacks, reused across blocks and launches; each has a guard page below it, so a
/// thread that overflows its stack faults there and is reported as such.
class StackPool {
public:
  StackPool() { registry().push_back(this); }
  explicit StackPool(std::size_t size) : size_(size) { registry().push_back(this); }
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;
  /// Every pool, so a fault in any stack's guard page is recognised.
  static std::vector<StackPool *> &registry() {
    static std::vector<StackPool *> pools;
    return pools;
  }
  std::size_t size() const { return size_; }
  boost::context::stack_context allocate() {
    void *base;
    if (!free_.empty()) {
      base = free_.back();
      free_.pop_back();
    } else {
      const std::size_t total = size_ + page();
      base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        throw KernelError("cannot map a fiber stack (" + std::to_string(total >> 10) + " KiB): " + std::strerror(errno));
      ::mprotect(base, page(), PROT_NONE);
      all_.push_back(base);
    }
    boost::context::stack_context sc;
    sc.size = size_;
    sc.sp = static_cast<char *>(base) + page() + size_;
    return sc;
  }
  void deallocate(boost::context::stack_context &sc) {
    free_.push_back(static_cast<char *>(sc.sp) - size_ - page());
  }
  /// Whether `addr` is in the guard page of one of the stacks.
  bool inGuard(const void *addr) const {
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    for (void *b : all_) {
      const auto base = reinterpret_cast<std::uintptr_t>(b);
      if (a >= base && a < base + page())
        return true;
    }
    return false;
  }
  static std::size_t page() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

private:
  std::size_t size_ = [] {
    const char *kb = std::getenv("KBAUDIT_CUDACPU_STACK_KB");
    const long v = kb ? std::atol(kb) : 0;
    return static_cast<std::size_t>(v > 16 ? v : 256) << 10;
  }();
  std::vector<void *> free_, all_;
};

struct PoolAllocator {
  StackPool *pool;
  boost::context::stack_context allocate() { return pool->allocate(); }
  void deallocate(boost::context::stack_context &sc) noexcept { pool->deallocate(sc); }
};

/// One guarded copy of a pointer argument's storage (see Guards).
struct Guarded {
  std::uintptr_t base = 0; ///< the original storage
  std::size_t size = 0;
  char *region = nullptr;  ///< the mapping: guard page, slack, data, guard page
  std::size_t mapped = 0;
  char *data = nullptr;    ///< where the copy starts (its end touches the upper guard page)
  int argument = -1;       ///< the launch argument it was made for (first one)
};

struct Launch;

/// A cooperative launch's grid: every block's threads live at once, and this_grid().sync() is a
/// barrier of all of them.
struct Grid {
  unsigned arrived = 0, alive = 0;
  std::vector<Launch *> blocks;
};

/// What a launch runs: the grid, and where each thread is (one of these per block of a
/// cooperative launch).
struct Launch {
  const char *kernel = "";
  dim3 grid, block;
  uint3 blockIdx{};
  std::size_t sharedBytes = 0;
  std::vector<Thread> threads;
  unsigned alive = 0, atBarrier = 0, atActiveMask = 0;
  int barKind = 0;
  long long barCount = 0;
  std::exception_ptr error;
  std::vector<Guarded> guarded;
  Grid *coop = nullptr;              ///< the cooperative launch this block belongs to
  StackPool *stacks = nullptr;       ///< where its threads' stacks come from (g_stacks by default)
  /// Named barriers (PTX bar.sync / bar.arrive id, count): arrivals so far per id.
  unsigned namedArrived[16] = {};
  unsigned namedWaiting = 0;
  /// Per warp, 32 lanes x kGatherWords: what the last gather of the warp collected. A lane reads
  /// it as soon as it is released, before it can reach the next gather, which needs every lane.
  std::vector<std::uint32_t> gathered;
};

// The running launch and thread. Kernels run one at a time per process (g_mutex), all on
// one OS thread, so plain globals are enough.
inline Launch *g_launch = nullptr;
inline Thread *g_thread = nullptr;
inline std::recursive_mutex g_mutex;
inline StackPool g_stacks;

// ---------------------------------------------------------------- faults and the watchdog
inline sigjmp_buf g_jump;
inline volatile std::sig_atomic_t g_inKernel = 0;   ///< the jump buffer is armed
inline volatile std::sig_atomic_t g_inRuntime = 0;  ///< inside the scheduler: defer a timeout
inline volatile std::sig_atomic_t g_timedOut = 0;
inline void *volatile g_faultAddress = nullptr;
inline volatile int g_faultWrite = -1;               ///< 1 write, 0 read, -1 unknown
inline struct sigaction g_oldSegv, g_oldBus;

inline int watchdogSignal() { return SIGRTMIN + 7; }

inline void onFault(int sig, siginfo_t *info, void *context) {
  if (g_inKernel) {
    g_faultAddress = info->si_addr;
#if defined(__x86_64__)
    const auto *uc = static_cast<const ucontext_t *>(context);
    g_faultWrite = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
    (void)context;
#endif
    g_inKernel = 0;
    siglongjmp(g_jump, 1);
  }
  // Not a kernel's: the handler that was there before, or the default action.
  struct sigaction &old = sig == SIGSEGV ? g_oldSegv : g_oldBus;
  if (old.sa_flags & SA_SIGINFO) {
    if (old.sa_sigaction) {
      old.sa_sigaction(sig, info, context);
      return;
    }
  } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
    return;
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

inline void onWatchdog(int, siginfo_t *, void *) {
  g_timedOut = 1;
  if (g_inKernel && !g_inRuntime) {
    g_inKernel = 0;
    siglongjmp(g_jump, 2);
  }
}

/// The fault handlers, once per process, on an alternate stack (a stack overflow leaves none).
inline void installHandlers() {
  static bool installed = false;
  if (installed)
    return;
  installed = true;
  static char *alt = nullptr;
  const std::size_t altSize = 1 << 16;
  alt = static_cast<char *>(std::malloc(altSize));
  stack_t ss{};
  ss.ss_sp = alt;
  ss.ss_size = altSize;
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_sigaction = onFault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGSEGV, &sa, &g_oldSegv);
  ::sigaction(SIGBUS, &sa, &g_oldBus);
  struct sigaction wd{};
  wd.sa_sigaction = onWatchdog;
  wd.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&wd.sa_mask);
  ::sigaction(watchdogSignal(), &wd, nullptr);
}

/// A one-shot timer that signals this OS thread after `seconds`.
class Watchdog {
public:
  explicit Watchdog(double seconds) {
    struct sigevent sev{};
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = watchdogSignal();
    sev._sigev_un._tid = static_cast<pid_t>(::syscall(SYS_gettid));
    if (::timer_create(CLOCK_MONOTONIC, &sev, &timer_) != 0)
      return;
    armed_ = true;
    struct itimerspec its{};
    if (seconds < 0.001)
      seconds = 0.001;
    its.it_value.tv_sec = static_cast<time_t>(seconds);
    its.it_value.tv_nsec = static_cast<long>((seconds - static_cast<double>(its.it_value.tv_sec)) * 1e9);
    ::timer_settime(timer_, 0, &its, nullptr);
  }
  ~Watchdog() {
    if (armed_)
      ::timer_delete(timer_);
  }
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

private:
  timer_t timer_{};
  bool armed_ = false;
};

inline double monotonicNow() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// Seconds a launch may run: $KBAUDIT_CUDACPU_LAUNCH_SECONDS (default 60), and no later than
/// $KBAUDIT_CUDACPU_DEADLINE (CLOCK_MONOTONIC seconds: the probe's own budget).
inline double launchLimit() {
  double limit = 60;
  if (const char *s = std::getenv("KBAUDIT_CUDACPU_LAUNCH_SECONDS"))
    limit = std::atof(s) > 0 ? std::atof(s) : limit;
  if (const char *d = std::getenv("KBAUDIT_CUDACPU_DEADLINE")) {
    const double left = std::atof(d) - monotonicNow();
    if (left < limit)
      limit = left;
  }
  return limit;
}

inline std::string dim(const uint3 &v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

inline std::string where() {
  std::string s = std::string("kernel ") + (g_launch ? g_launch->kernel : "?");
  if (g_launch)
    s += " block " + dim(g_launch->blockIdx);
  if (g_thread)
    s += " thread " + dim(g_thread->idx);
  return s;
}

// ---------------------------------------------------------------- scheduling
/// Switches back to the scheduler until this thread is ready again.
inline void waitReady(Thread *t) {
  while (t->state != State::Ready) {
    g_inRuntime = 1;
    *t->sink = std::move(*t->sink).resume();
    g_inRuntime = 0;
    g_thread = t;
  }
}

inline void releaseBarrier(Launch &l) {
  int result = 0;
  if (l.barKind == 1)
    result = static_cast<int>(l.barCount);
  else if (l.barKind == 2)
    result = l.barCount == static_cast<long long>(l.atBarrier) ? 1 : 0;
  else if (l.barKind == 3)
    result = l.barCount > 0 ? 1 : 0;
  for (Thread &t : l.threads)
    if (t.state == State::Barrier) {
      t.barResult = result;
      t.state = State::Ready;
    }
  l.atBarrier = 0;
  l.barCount = 0;
  l.barKind = 0;
}

/// The value lane `src` (warp-local) offers in a resolved collective, or the caller's own.
inline unsigned long long offered(const Launch &l, unsigned warpBase, unsigned src, const Thread &self,
                                  unsigned groupMask) {
  if (src >= 32 || !(groupMask & (1u << src)))
    return self.value;
  return l.threads[warpBase + src].value;
}

/// Resolves the collective lane `t` waits at, when every lane its mask names has arrived at a
/// warp collective or exited. Returns whether it did.
inline bool tryResolveWarp(Launch &l, Thread &t) {
  const unsigned base = t.warp * 32;
  const unsigned end = std::min<unsigned>(base + 32, static_cast<unsigned>(l.threads.size()));
  unsigned group = 0;
  for (unsigned j = base; j < end; ++j) {
    if (!(t.mask & (1u << (j - base))))
      continue;
    const State s = l.threads[j].state;
    if (s == State::Done)
      continue;
    if (s != State::Warp)
      return false;
    group |= 1u << (j - base);
  }
  group |= 1u << (t.linear - base);
  // Every member computes its result from the values the group offered.
  for (unsigned j = base; j < end; ++j) {
    if (!(group & (1u << (j - base))))
      continue;
    Thread &m = l.threads[j];
    const unsigned lane = j - base;
    const unsigned w = static_cast<unsigned>(m.width > 0 && m.width <= 32 ? m.width : 32);
    const unsigned seg = lane & ~(w - 1);
    unsigned long long r = 0;
    switch (m.op) {
    case OpSync:
      break;
    case OpShflIdx:
      r = offered(l, base, seg + (static_cast<unsigned>(m.arg) & (w - 1)), m, group);
      break;
    case OpShflUp:
      r = lane - seg >= static_cast<unsigned>(m.arg) ? offered(l, base, lane - static_cast<unsigned>(m.arg), m, group) : m.value;
      break;
    case OpShflDown:
      r = lane - seg + static_cast<unsigned>(m.arg) < w ? offered(l, base, lane + static_cast<unsigned>(m.arg), m, group) : m.value;
      break;
    case OpShflXor: {
      const unsigned src = lane ^ static_cast<unsigned>(m.arg);
      r = src >= seg + w ? m.value : offered(l, base, src, m, group);
      break;
    }
    case OpBallot:
    case OpAny:
    case OpAll: {
      unsigned ballot = 0;
      for (unsigned k = 0; k < 32; ++k)
        if ((group & (1u << k)) && (m.mask & (1u << k)) && l.threads[base + k].value)
          ballot |= 1u << k;
      const unsigned members = group & m.mask;
      r = m.op == OpBallot ? ballot : m.op == OpAny ? (ballot != 0) : (ballot == members);
      break;
    }
    case OpGather:
      for (unsigned k = 0; k < 32; ++k)
        if (group & (1u << k)) {
          const Thread &src = l.threads[base + k];
          std::uint32_t *dst = &l.gathered[(static_cast<std::size_t>(m.warp) * 32 + k) * kGatherWords];
          std::memcpy(dst, src.gatherWords, sizeof(std::uint32_t) * static_cast<std::size_t>(src.gatherCount));
        }
      break;
    case OpMatchAny:
    case OpMatchAll: {
      unsigned same = 0;
      bool all = true;
      for (unsigned k = 0; k < 32; ++k)
        if ((group & (1u << k)) && (m.mask & (1u << k))) {
          if (l.threads[base + k].value == m.value)
            same |= 1u << k;
          else
            all = false;
        }
      r = m.op == OpMatchAny ? same : (all ? (group & m.mask) | (1ull << 32) : 0);
      break;
    }
    default: {
      bool first = true;
      for (unsigned k = 0; k < 32; ++k) {
        if (!((group & (1u << k)) && (m.mask & (1u << k))))
          continue;
        const unsigned long long v = l.threads[base + k].value & 0xffffffffull;
        const auto vs = static_cast<long long>(static_cast<int>(static_cast<unsigned>(v)));
        if (first) {
          r = m.op == OpMinI || m.op == OpMaxI ? static_cast<unsigned long long>(vs) : v;
          first = false;
          continue;
        }
        switch (m.op) {
        case OpAddU: r = (r + v) & 0xffffffffull; break;
        case OpMinU: r = std::min(r, v); break;
        case OpMaxU: r = std::max(r, v); break;
        case OpMinI: r = static_cast<unsigned long long>(std::min(static_cast<long long>(r), vs)); break;
        case OpMaxI: r = static_cast<unsigned long long>(std::max(static_cast<long long>(r), vs)); break;
        case OpAnd: r &= v; break;
        case OpOr: r |= v; break;
        case OpXor: r ^= v; break;
        default: break;
        }
      }
      break;
    }
    }
    m.result = r;
  }
  for (unsigned j = base; j < end; ++j)
    if (group & (1u << (j - base)))
      l.threads[j].state = State::Ready;
  return true;
}

/// After a lane exited: the collectives of its warp that waited only for it can go on.
inline void onLaneExit(Launch &l, Thread &t) {
  const unsigned base = t.warp * 32;
  const unsigned end = std::min<unsigned>(base + 32, static_cast<unsigned>(l.threads.size()));
  for (unsigned j = base; j < end; ++j)
    if (l.threads[j].state == State::Warp && tryResolveWarp(l, l.threads[j]))
      break;
}

/// __activemask: the lanes of a warp whose every live lane is waiting somewhere, grouped by
/// the __activemask call they wait at (the lanes a GPU would have run there together).
inline bool resolveActiveMasks(Launch &l) {
  bool any = false;
  const unsigned n = static_cast<unsigned>(l.threads.size());
  for (unsigned base = 0; base < n && l.atActiveMask; base += 32) {
    const unsigned end = std::min(base + 32, n);
    bool waiting = false, running = false;
    for (unsigned j = base; j < end; ++j) {
      waiting |= l.threads[j].state == State::ActiveMask;
      running |= l.threads[j].state == State::Ready;
    }
    if (!waiting || running)
      continue;
    for (unsigned j = base; j < end; ++j) {
      Thread &t = l.threads[j];
      if (t.state != State::ActiveMask)
        continue;
      unsigned mask = 0;
      for (unsigned k = base; k < end; ++k)
        if (l.threads[k].state == State::ActiveMask && l.threads[k].site == t.site)
          mask |= 1u << (k - base);
      for (unsigned k = base; k < end; ++k)
        if (l.threads[k].state == State::ActiveMask && l.threads[k].site == t.site) {
          l.threads[k].result = mask;
          l.threads[k].state = State::Ready;
          --l.atActiveMask;
        }
      any = true;
    }
  }
  return any;
}

inline std::string deadlockReport(const Launch &l) {
  unsigned barrier = 0, warp = 0, active = 0, done = 0, named = 0;
  std::string ops;
  for (const Thread &t : l.threads) {
    switch (t.state) {
    case State::Barrier: ++barrier; break;
    case State::Warp:
      if (++warp <= 3)
        ops += std::string(ops.empty() ? "" : ", ") + "thread " + dim(t.idx) + " at " + opName(t.op) + " (mask 0x" +
               [&] { char b[16]; std::snprintf(b, sizeof b, "%08x", t.mask); return std::string(b); }() + ")";
      break;
    case State::ActiveMask: ++active; break;
    case State::Named: ++named; break;
    case State::Done: ++done; break;
    default: break;
    }
  }
  std::string s = "deadlock in kernel " + std::string(l.kernel) + " block " + dim(l.blockIdx) + ": ";
  s += std::to_string(barrier) + " threads wait at __syncthreads, " + std::to_string(warp) +
       " at warp-synchronous intrinsics, " + (named ? std::to_string(named) + " at named barriers (bar.sync id, count), " : "") +
       std::to_string(done) + " have exited";
  if (!ops.empty())
    s += " (" + ops + (warp > 3 ? ", ..." : "") + ")";
  s += ": the threads wait for each other at different synchronisation points, which hangs on a GPU";
  return s;
}

/// What every thread runs: the kernel with its arguments.
struct Body {
  void (*run)(void *);
  void *context;
};

/// The block's shared memory: every static `__shared__` variable (the translator registers each
/// one where it is declared) and the dynamic buffer. A cooperative launch keeps one copy per
/// block and swaps it in when the scheduler moves to that block.
struct SharedRegion {
  void *address;
  std::size_t size;
};
inline std::vector<SharedRegion> &sharedRegions() {
  static std::vector<SharedRegion> regions;
  return regions;
}
struct BlockShared {
  std::vector<std::vector<char>> saved; ///< per region (by index), empty when never saved
  std::vector<char> dynamic;
};

inline void releaseGrid(Grid &g) {
  for (Launch *b : g.blocks)
    for (Thread &t : b->threads)
      if (t.state == State::Grid)
        t.state = State::Ready;
  g.arrived = 0;
}

/// Makes a block's fibers (each runs the kernel for its thread, then leaves the barriers and
/// collectives it no longer takes part in).
inline void startBlock(Launch &l, const Body &body, std::vector<boost::context::fiber> &fibers) {
  namespace ctx = boost::context;
  const unsigned n = static_cast<unsigned>(l.threads.size());
  l.alive = n;
  l.atBarrier = 0;
  l.atActiveMask = 0;
  std::fill(std::begin(l.namedArrived), std::end(l.namedArrived), 0u);
  l.namedWaiting = 0;
  StackPool *pool = l.stacks ? l.stacks : &g_stacks;
  for (unsigned i = 0; i < n; ++i) {
    Thread &t = l.threads[i];
    t.state = State::Ready;
    Launch *lp = &l;
    fibers[i] = ctx::fiber(std::allocator_arg, PoolAllocator{pool}, [lp, &t, body](ctx::fiber &&sink) {
      t.sink = &sink;
      g_thread = &t;
      g_inRuntime = 0;
      try {
        body.run(body.context);
      } catch (const ctx::detail::forced_unwind &) {
        throw;
      } catch (...) {
        if (!lp->error)
          lp->error = std::current_exception();
      }
      g_inRuntime = 1;
      t.state = State::Done;
      --lp->alive;
      if (lp->atBarrier && lp->atBarrier == lp->alive)
        releaseBarrier(*lp);
      onLaneExit(*lp, t);
      if (lp->coop) {
        --lp->coop->alive;
        if (lp->coop->arrived && lp->coop->arrived == lp->coop->alive)
          releaseGrid(*lp->coop);
      }
      return std::move(sink);
    });
  }
}

/// Runs every ready thread of the block once, to its next wait or its end; whether any ran.
inline bool sweep(Launch &l, std::vector<boost::context::fiber> &fibers) {
  bool ran = false;
  const unsigned n = static_cast<unsigned>(l.threads.size());
  for (unsigned i = 0; i < n; ++i) {
    Thread &t = l.threads[i];
    if (t.state != State::Ready || !fibers[i])
      continue;
    g_launch = &l;
    g_thread = &t;
    g_inRuntime = 0;
    fibers[i] = std::move(fibers[i]).resume();
    g_inRuntime = 1;
    g_thread = nullptr;
    ran = true;
    if (l.error)
      std::rethrow_exception(l.error);
    if (g_timedOut)
      throw KernelError("kernel " + std::string(l.kernel) + " ran past its time limit (" +
                        std::to_string(static_cast<int>(launchLimit())) + " s)");
  }
  return ran;
}

inline void runBlockOrThrow(Launch &l, const Body &body, std::vector<boost::context::fiber> &fibers) {
  startBlock(l, body, fibers);
  for (;;) {
    const bool ran = sweep(l, fibers);
    if (l.alive == 0)
      break;
    if (l.atActiveMask && resolveActiveMasks(l))
      continue;
    if (!ran)
      throw KernelError(deadlockReport(l));
  }
}

inline char *dynamicSharedBuffer();

inline void saveShared(BlockShared &s, std::size_t dynamicBytes) {
  const std::vector<SharedRegion> &regions = sharedRegions();
  s.saved.resize(regions.size());
  for (std::size_t i = 0; i < regions.size(); ++i)
    s.saved[i].assign(static_cast<char *>(regions[i].address), static_cast<char *>(regions[i].address) + regions[i].size);
  s.dynamic.assign(dynamicSharedBuffer(), dynamicSharedBuffer() + dynamicBytes);
}
inline void restoreShared(const BlockShared &s, std::size_t dynamicBytes) {
  const std::vector<SharedRegion> &regions = sharedRegions();
  for (std::size_t i = 0; i < regions.size() && i < s.saved.size(); ++i)
    if (!s.saved[i].empty())
      std::memcpy(regions[i].address, s.saved[i].data(), regions[i].size);
  if (s.dynamic.size() == dynamicBytes && dynamicBytes)
    std::memcpy(dynamicSharedBuffer(), s.dynamic.data(), dynamicBytes);
}

/// A cooperative launch: every block's threads at once, round robin over the blocks, each
/// block's shared memory swapped in while its threads run.
inline void runCooperativeOrThrow(std::vector<Launch> &blocks, Grid &grid, const Body &body,
                                  std::vector<std::vector<boost::context::fiber>> &fibers) {
  std::vector<BlockShared> shared(blocks.size());
  const std::size_t dyn = blocks.empty() ? 0 : blocks[0].sharedBytes;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    g_launch = &blocks[b];
    startBlock(blocks[b], body, fibers[b]);
    grid.alive += blocks[b].alive;
  }
  std::size_t current = blocks.size(); // the block whose shared memory is in place
  for (;;) {
    bool ran = false;
    unsigned alive = 0;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      Launch &l = blocks[b];
      if (l.alive == 0)
        continue;
      if (current != b) {
        if (current < blocks.size())
          saveShared(shared[current], dyn);
        restoreShared(shared[b], dyn);
        current = b;
      }
      ran |= sweep(l, fibers[b]);
      if (l.atActiveMask)
        ran |= resolveActiveMasks(l);
      alive += l.alive;
    }
    if (alive == 0)
      break;
    if (!ran) {
      for (Launch &l : blocks)
        if (l.alive)
          throw KernelError(deadlockReport(l) + " (a cooperative launch: " + std::to_string(grid.arrived) +
                            " threads of the grid wait at this_grid().sync())");
    }
  }
}

/// Runs one block; an error comes back as an exception_ptr, so the caller destroys (unwinds) the
/// fibers still suspended outside any exception in flight.
inline std::exception_ptr runBlock(Launch &l, const Body &body, std::vector<boost::context::fiber> &fibers) {
  try {
    runBlockOrThrow(l, body, fibers);
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

/// Thread `linear`'s index in a block.
inline uint3 threadIndex(const dim3 &b, unsigned linear) {
  return uint3{linear % b.x, (linear / b.x) % b.y, linear / (b.x * b.y)};
}

// ---------------------------------------------------------------- guarded arguments
/// Storages a launch may be given pointers into (tensors whose data_ptr the host code took,
/// cudaMalloc): base -> size and a check that the storage still lives there.
struct Tracked {
  std::size_t size = 0;
  std::shared_ptr<void> handle;                      ///< a weak reference, as the tracker made it
  bool (*alive)(const void *handle, std::uintptr_t base, std::size_t size) = nullptr;
};
inline std::map<std::uintptr_t, Tracked> g_tracked;
inline std::mutex g_trackedMutex;

/// Records that [base, base + size) is a storage kernels may be handed pointers into.
inline void track(const void *base, std::size_t size, std::shared_ptr<void> handle,
                  bool (*alive)(const void *, std::uintptr_t, std::size_t)) {
  if (!base || !size)
    return;
  std::lock_guard<std::mutex> lock(g_trackedMutex);
  if (g_tracked.size() > 4096) // forget storages that are gone
    for (auto it = g_tracked.begin(); it != g_tracked.end();)
      it = it->second.alive && !it->second.alive(it->second.handle.get(), it->first, it->second.size) ? g_tracked.erase(it) : std::next(it);
  g_tracked[reinterpret_cast<std::uintptr_t>(base)] = Tracked{size, std::move(handle), alive};
}

inline void untrack(const void *base) {
  std::lock_guard<std::mutex> lock(g_trackedMutex);
  g_tracked.erase(reinterpret_cast<std::uintptr_t>(base));
}

/// The tracked storage holding `p`: (base, size), or (0, 0).
inline std::pair<std::uintptr_t, std::size_t> storageOf(const void *p) {
  std::lock_guard<std::mutex> lock(g_trackedMutex);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = g_tracked.upper_bound(a);
  if (it == g_tracked.begin())
    return {0, 0};
  --it;
  if (a >= it->first + it->second.size)
    return {0, 0};
  if (it->second.alive && !it->second.alive(it->second.handle.get(), it->first, it->second.size)) {
    g_tracked.erase(it);
    return {0, 0};
  }
  return {it->first, it->second.size};
}

constexpr unsigned char kCanary = 0xa5;

inline bool guardsEnabled() {
  const char *g = std::getenv("KBAUDIT_CUDACPU_GUARD");
  return !(g && g[0] == '0');
}

/// The copy of the storage holding `p` that this launch's kernel sees instead, made on first
/// use: the copy's end touches a PROT_NONE page (an access past it faults, within 16 bytes of
/// slack that is checked afterwards), and a guard page lies below it.
inline void *guardPointer(Launch &l, void *p, int argument) {
  if (!p)
    return p;
  const auto [base, size] = storageOf(p);
  if (!base)
    return p;
  for (Guarded &g : l.guarded)
    if (g.base == base)
      return g.data + (reinterpret_cast<std::uintptr_t>(p) - base);
  const std::size_t page = StackPool::page();
  const std::size_t padded = (size + 15) & ~std::size_t{15};
  const std::size_t dataPages = (padded + page - 1) / page * page;
  const std::size_t total = dataPages + 2 * page;
  void *region = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED)
    return p; // no room for a guarded copy: the kernel runs on the storage itself
  char *r = static_cast<char *>(region);
  ::mprotect(r, page, PROT_NONE);
  ::mprotect(r + page + dataPages, page, PROT_NONE);
  Guarded g;
  g.base = base;
  g.size = size;
  g.region = r;
  g.mapped = total;
  g.data = r + page + dataPages - padded;
  g.argument = argument;
  std::memset(r + page, kCanary, dataPages);
  std::memcpy(g.data, reinterpret_cast<const void *>(base), size);
  l.guarded.push_back(g);
  return g.data + (reinterpret_cast<std::uintptr_t>(p) - base);
}

/// Copies every guarded storage back and unmaps it; returns what the canaries say was written
/// outside a storage (within the slack the guard pages cannot catch), or "".
inline std::string releaseGuards(Launch &l) {
  std::string report;
  const std::size_t page = StackPool::page();
  for (Guarded &g : l.guarded) {
    std::memcpy(reinterpret_cast<void *>(g.base), g.data, g.size);
    const char *lo = g.region + page;
    std::size_t before = 0, after = 0;
    for (const char *c = lo; c < g.data; ++c)
      before += static_cast<unsigned char>(*c) != kCanary;
    for (const char *c = g.data + g.size; c < g.region + g.mapped - page; ++c)
      after += static_cast<unsigned char>(*c) != kCanary;
    if ((before || after) && report.empty())
      report = "out-of-bounds write: kernel " + std::string(l.kernel) + " wrote " +
               std::to_string(before ? before : after) + " bytes " + (before ? "before" : "after") +
               " the storage of argument #" + std::to_string(g.argument + 1) + " (" + std::to_string(g.size) +
               " bytes)";
    ::munmap(g.region, g.mapped);
  }
  l.guarded.clear();
  return report;
}

/// What a fault at `addr` was, in words.
inline std::string describeFault(const Launch &l, const void *addr, int write) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const std::size_t page = StackPool::page();
  const char *access = write == 1 ? "write" : write == 0 ? "read" : "access";
  for (const Guarded &g : l.guarded) {
    const auto lo = reinterpret_cast<std::uintptr_t>(g.region), hi = lo + g.mapped;
    if (a < lo || a >= hi)
      continue;
    const auto data = reinterpret_cast<std::uintptr_t>(g.data);
    std::string at = a >= data ? "at byte " + std::to_string(a - data) + " of"
                               : std::to_string(data - a) + " bytes before";
    return "out-of-bounds " + std::string(access) + " in " + where() + ": " + at + " the storage of argument #" +
           std::to_string(g.argument + 1) + ", which has " + std::to_string(g.size) + " bytes";
  }
  for (const StackPool *pool : StackPool::registry())
    if (pool->inGuard(addr))
      return "stack overflow in " + where() + " (a thread's stack is " + std::to_string(pool->size() >> 10) +
             " KiB here; KBAUDIT_CUDACPU_STACK_KB sets it)";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", addr);
  return "invalid memory " + std::string(access) + " in " + where() + " at address " + buf +
         " (outside every buffer the kernel was given)";
}

/// The dynamic shared memory of the running block: one buffer for the process, its unused
/// tail made inaccessible during each launch.
inline constexpr std::size_t kMaxDynamicShared = 232448; // H100: 227 KiB per block
inline char *dynamicSharedBuffer() {
  static char *buffer = [] {
    const std::size_t page = StackPool::page();
    const std::size_t size = (kMaxDynamicShared + page - 1) / page * page + page;
    void *m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? nullptr : static_cast<char *>(m);
  }();
  return buffer;
}

inline const char *g_lastErrorName = nullptr; ///< a launch the GPU would have refused

} // namespace detail

/// A static `__shared__` variable, registered where it is declared (the translator adds one
/// after each declaration), so a cooperative launch can keep a copy of it per block.
struct SharedRegistration {
  SharedRegistration(void *address, std::size_t size) {
    for (const detail::SharedRegion &r : detail::sharedRegions())
      if (r.address == address)
        return;
    detail::sharedRegions().push_back(detail::SharedRegion{address, size});
  }
};

/// The running block's dynamic shared memory (`extern __shared__ T name[]`, translated).
inline void *dynamicShared() { return detail::dynamicSharedBuffer(); }

/// The launch configuration of `kernel<<<grid, block, shared, stream>>>`.
struct LaunchConfig {
  dim3 grid, block;
  std::size_t shared = 0;
  bool cooperative = false; ///< cudaLaunchCooperativeKernel: every block at once, this_grid().sync()
  template <class G, class B>
  LaunchConfig(G g, B b, std::size_t s = 0) : grid(toDim(g)), block(toDim(b)), shared(s) {}
  template <class G, class B, class S>
  LaunchConfig(G g, B b, std::size_t s, const S &) : grid(toDim(g)), block(toDim(b)), shared(s) {}

private:
  static dim3 toDim(const dim3 &d) { return d; }
  static dim3 toDim(const uint3 &d) { return dim3(d); }
  template <class I, class = std::enable_if_t<std::is_integral_v<I> || std::is_enum_v<I>>>
  static dim3 toDim(I v) { return dim3(static_cast<unsigned>(v)); }
};

namespace detail {

/// Runs the grid; `body` calls the kernel for the current thread.
inline void initThreads(Launch &l) {
  const std::size_t perBlock = static_cast<std::size_t>(l.block.x) * l.block.y * l.block.z;
  l.threads.assign(perBlock, Thread{});
  for (unsigned i = 0; i < perBlock; ++i) {
    Thread &t = l.threads[i];
    t.linear = i;
    t.idx = threadIndex(l.block, i);
    t.lane = i % 32;
    t.warp = i / 32;
  }
  l.gathered.assign((perBlock + 31) / 32 * 32 * kGatherWords, 0u);
}

/// Threads a cooperative launch may have: what an H100 keeps resident (132 SMs x 2048).
constexpr unsigned long long kMaxCooperativeThreads = 132ull * 2048ull;

inline void runCooperative(Launch &l, const Body &body) {
  const std::size_t perBlock = static_cast<std::size_t>(l.block.x) * l.block.y * l.block.z;
  const std::size_t count = static_cast<std::size_t>(l.grid.x) * l.grid.y * l.grid.z;
  if (count * perBlock > kMaxCooperativeThreads)
    throw KernelError("cooperative launch of kernel " + std::string(l.kernel) + " with " + std::to_string(count) +
                      " blocks of " + std::to_string(perBlock) + " threads: more than an H100 keeps resident "
                      "(cudaErrorCooperativeLaunchTooLarge)");
  // Every thread of the grid lives at once: smaller stacks (2 GiB in all, 16-256 KiB each).
  const std::size_t page = StackPool::page();
  const std::size_t each = std::clamp<std::size_t>((std::size_t{2} << 30) / std::max<std::size_t>(count * perBlock, 1),
                                                   16 << 10, 256 << 10) / page * page;
  static std::map<std::size_t, std::unique_ptr<StackPool>> pools;
  std::unique_ptr<StackPool> &pool = pools[each];
  if (!pool)
    pool = std::make_unique<StackPool>(each);
  std::vector<Launch> blocks(count);
  Grid grid;
  std::size_t b = 0;
  for (unsigned z = 0; z < l.grid.z; ++z)
    for (unsigned y = 0; y < l.grid.y; ++y)
      for (unsigned x = 0; x < l.grid.x; ++x, ++b) {
        Launch &k = blocks[b];
        k.kernel = l.kernel;
        k.grid = l.grid;
        k.block = l.block;
        k.sharedBytes = l.sharedBytes;
        k.blockIdx = uint3{x, y, z};
        k.coop = &grid;
        k.stacks = pool.get();
        initThreads(k);
        grid.blocks.push_back(&k);
      }
  std::vector<std::vector<boost::context::fiber>> fibers(count);
  for (auto &f : fibers)
    f.resize(perBlock);
  std::exception_ptr error;
  try {
    runCooperativeOrThrow(blocks, grid, body, fibers);
  } catch (...) {
    error = std::current_exception();
  }
  g_launch = &l;
  if (error) {
    fibers.clear(); // unwinds the fibers still waiting, outside the exception
    std::rethrow_exception(error);
  }
}

/// Runs the grid; `body` calls the kernel for the current thread.
inline void runGrid(Launch &l, const Body &body, bool cooperative) {
  if (cooperative) {
    runCooperative(l, body);
    return;
  }
  initThreads(l);
  const std::size_t perBlock = l.threads.size();
  std::vector<boost::context::fiber> fibers(perBlock);
  for (unsigned z = 0; z < l.grid.z; ++z)
    for (unsigned y = 0; y < l.grid.y; ++y)
      for (unsigned x = 0; x < l.grid.x; ++x) {
        l.blockIdx = uint3{x, y, z};
        if (std::exception_ptr e = runBlock(l, body, fibers)) {
          fibers.clear();
          std::rethrow_exception(e);
        }
      }
}

template <class Fn, class Tuple> struct Invocation {
  Fn *fn;
  Tuple *args;
  static void run(void *self) {
    auto *inv = static_cast<Invocation *>(self);
    std::apply([&](auto &...a) { (*inv->fn)(a...); }, *inv->args);
  }
};

} // namespace detail

/// Runs `kernel<<<config>>>(args...)`: `fn(args...)` is the kernel call, made once per thread
/// with a copy of the arguments (a GPU thread's parameters are its own).
template <class Fn, class... A> void launch(const char *name, const LaunchConfig &config, Fn &&fn, A &&...args) {
  using namespace detail;
  // A configuration the GPU refuses: the kernel does not run, and cudaGetLastError says why.
  const unsigned long long threads = static_cast<unsigned long long>(config.block.x) * config.block.y * config.block.z;
  if (threads == 0 || threads > 1024 || config.block.z > 64 || config.grid.x == 0 || config.grid.y == 0 ||
      config.grid.z == 0 || config.grid.y > 65535 || config.grid.z > 65535) {
    g_lastErrorName = "cudaErrorInvalidConfiguration";
    return;
  }
  if (config.shared > kMaxDynamicShared) {
    g_lastErrorName = "cudaErrorInvalidValue";
    return;
  }
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  installHandlers();
  std::tuple<std::decay_t<A>...> params(std::forward<A>(args)...);
  Launch l;
  l.kernel = name;
  l.grid = config.grid;
  l.block = config.block;
  l.sharedBytes = config.shared;
  Launch *outer = g_launch;
  Thread *outerThread = g_thread;
  g_launch = &l;
  // Pointer arguments get guarded copies, unless an argument is a class whose pointers we
  // cannot see (a struct of pointers, a tensor accessor): its pointers would reach the
  // storage itself while the others reached the copy.
  constexpr bool plain = (::cudacpu::PlainValue<std::decay_t<A>>::value && ...);
  if (guardsEnabled() && plain) {
    int index = 0;
    std::apply([&](auto &...p) {
      ([&](auto &v) {
        if constexpr (std::is_pointer_v<std::decay_t<decltype(v)>>) {
          using P = std::decay_t<decltype(v)>;
          v = static_cast<P>(guardPointer(l, const_cast<void *>(static_cast<const void *>(v)), index));
        }
        ++index;
      }(p), ...);
    }, params);
  }
  // The unused tail of the dynamic shared memory buffer faults.
  char *dyn = dynamicSharedBuffer();
  const std::size_t page = StackPool::page();
  const std::size_t usedPages = (config.shared + page - 1) / page * page;
  const std::size_t allPages = (kMaxDynamicShared + page - 1) / page * page;
  if (dyn && usedPages < allPages)
    ::mprotect(dyn + usedPages, allPages - usedPages, PROT_NONE);
  Invocation<std::remove_reference_t<Fn>, decltype(params)> inv{&fn, &params};
  const Body body{&Invocation<std::remove_reference_t<Fn>, decltype(params)>::run, &inv};
  std::string failure;
  const double limit = launchLimit();
  g_timedOut = 0;
  if (limit <= 0) {
    failure = "kernel " + std::string(name) + " was not run: the probe's time budget is spent";
  } else {
    Watchdog watchdog(limit);
    const int jumped = sigsetjmp(g_jump, 1);
    if (jumped == 0) {
      g_inKernel = 1;
      try {
        runGrid(l, body, config.cooperative);
      } catch (const KernelError &e) {
        failure = e.what() + std::strlen("kbaudit-cudacpu: ");
      } catch (const std::exception &e) {
        failure = std::string("kernel ") + name + " threw: " + e.what();
      }
      g_inKernel = 0;
    } else if (jumped == 1) {
      failure = describeFault(l, g_faultAddress, g_faultWrite);
    } else {
      failure = "kernel " + std::string(name) + " ran past its time limit (" +
                std::to_string(static_cast<int>(limit)) + " s): an infinite loop, or a wait for another block "
                "(blocks run one after another here), hangs on a GPU too";
    }
    g_inKernel = 0;
    g_inRuntime = 0;
  }
  if (dyn && usedPages < allPages)
    ::mprotect(dyn + usedPages, allPages - usedPages, PROT_READ | PROT_WRITE);
  const std::string outside = releaseGuards(l);
  g_launch = outer;
  g_thread = outerThread;
  if (failure.empty())
    failure = outside;
  if (!failure.empty()) {
    g_lastErrorName = "cudaErrorLaunchFailure";
    throw KernelError(failure);
  }
}

/// The threads' view of the running launch (what threadIdx etc. expand to).
namespace detail {
inline const uint3 &threadIdxRef() { return g_thread->idx; }
inline const uint3 &blockIdxRef() { return g_launch->blockIdx; }
inline const dim3 &blockDimRef() { return g_launch->block; }
inline const dim3 &gridDimRef() { return g_launch->grid; }
} // namespace detail

// ---------------------------------------------------------------- synchronisation
namespace detail {
inline int barrier(int kind, int pred) {
  Thread *t = g_thread;
  Launch &l = *g_launch;
  if (kind) {
    if (l.barKind == 0)
      l.barKind = kind;
    l.barCount += pred ? 1 : 0;
  }
  t->state = State::Barrier;
  ++l.atBarrier;
  if (l.atBarrier == l.alive)
    releaseBarrier(l);
  else
    waitReady(t);
  return t->barResult;
}

/// PTX `bar.sync id, count` (`wait`) and `bar.arrive id, count`: the barrier completes when
/// `count` threads have arrived at barrier `id` (count 0: every thread of the block); the
/// waiting ones go on. Warp-specialised kernels use them to sync subsets of the block.
inline void namedBarrier(unsigned id, unsigned count, bool wait) {
  Thread *t = g_thread;
  Launch &l = *g_launch;
  if (id == 0 && count == 0 && wait) {
    barrier(0, 0);
    return;
  }
  if (id >= 16)
    throw KernelError("named barrier " + std::to_string(id) + " (PTX allows 0-15) in " + where());
  const unsigned all = static_cast<unsigned>(l.threads.size());
  const unsigned need = count ? count : all;
  ++l.namedArrived[id];
  if (l.namedArrived[id] >= need) {
    l.namedArrived[id] = 0;
    for (Thread &o : l.threads)
      if (o.state == State::Named && o.namedBarrier == static_cast<int>(id)) {
        o.state = State::Ready;
        o.namedBarrier = -1;
        --l.namedWaiting;
      }
    return;
  }
  if (!wait)
    return;
  t->namedBarrier = static_cast<int>(id);
  t->state = State::Named;
  ++l.namedWaiting;
  waitReady(t);
}

/// cooperative_groups::this_grid().sync(): every thread of a cooperative launch meets.
inline void gridBarrier() {
  Thread *t = g_thread;
  Launch &l = *g_launch;
  if (!l.coop)
    throw KernelError("grid-wide synchronization (cooperative_groups::this_grid().sync()) in kernel " +
                      std::string(l.kernel) + ", which was not launched with cudaLaunchCooperativeKernel: on a GPU "
                      "that is undefined (it hangs or faults)");
  t->state = State::Grid;
  ++l.coop->arrived;
  if (l.coop->arrived == l.coop->alive)
    releaseGrid(*l.coop);
  else
    waitReady(t);
}

inline unsigned long long warpCollective(int op, unsigned mask, unsigned long long value, int arg = 0, int width = 32) {
  Thread *t = g_thread;
  Launch &l = *g_launch;
  t->op = op;
  t->mask = mask;
  t->value = value;
  t->arg = arg;
  t->width = width;
  t->state = State::Warp;
  if (!tryResolveWarp(l, *t))
    waitReady(t);
  return t->result;
}

/// Every lane of the warp offers `count` words; returns the warp's words, lane k's at
/// [k * kGatherWords]. The warp-wide PTX instructions are built on it.
inline const std::uint32_t *warpGather(const std::uint32_t *words, int count) {
  Thread *t = g_thread;
  t->gatherWords = words;
  t->gatherCount = count;
  warpCollective(OpGather, 0xffffffffu, 0);
  return &g_launch->gathered[static_cast<std::size_t>(t->warp) * 32 * kGatherWords];
}

template <class T> unsigned long long toBits(const T &v) {
  static_assert(sizeof(T) <= 8, "a warp shuffle moves at most 8 bytes per call");
  unsigned long long b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> T fromBits(unsigned long long b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
} // namespace detail

} // namespace cudacpu

inline void __syncthreads() { cudacpu::detail::barrier(0, 0); }
inline int __syncthreads_count(int p) { return cudacpu::detail::barrier(1, p); }
inline int __syncthreads_and(int p) { return cudacpu::detail::barrier(2, p); }
inline int __syncthreads_or(int p) { return cudacpu::detail::barrier(3, p); }
inline void __syncwarp(unsigned mask = 0xffffffffu) { cudacpu::detail::warpCollective(cudacpu::detail::OpSync, mask, 0); }
inline void __threadfence() { std::atomic_signal_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_signal_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_signal_fence(std::memory_order_seq_cst); }

template <class T> T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  return cudacpu::detail::fromBits<T>(cudacpu::detail::warpCollective(cudacpu::detail::OpShflIdx, mask, cudacpu::detail::toBits(v), src, width));
}
template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return cudacpu::detail::fromBits<T>(cudacpu::detail::warpCollective(cudacpu::detail::OpShflUp, mask, cudacpu::detail::toBits(v), static_cast<int>(delta), width));
}
template <class T> T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return cudacpu::detail::fromBits<T>(cudacpu::detail::warpCollective(cudacpu::detail::OpShflDown, mask, cudacpu::detail::toBits(v), static_cast<int>(delta), width));
}
template <class T> T __shfl_xor_sync(unsigned mask, T v, int laneMask, int width = 32) {
  return cudacpu::detail::fromBits<T>(cudacpu::detail::warpCollective(cudacpu::detail::OpShflXor, mask, cudacpu::detail::toBits(v), laneMask, width));
}
// The pre-Volta forms behave as the _sync ones with every lane named.
template <class T> T __shfl(T v, int src, int width = 32) { return __shfl_sync(0xffffffffu, v, src, width); }
template <class T> T __shfl_up(T v, unsigned d, int width = 32) { return __shfl_up_sync(0xffffffffu, v, d, width); }
template <class T> T __shfl_down(T v, unsigned d, int width = 32) { return __shfl_down_sync(0xffffffffu, v, d, width); }
template <class T> T __shfl_xor(T v, int m, int width = 32) { return __shfl_xor_sync(0xffffffffu, v, m, width); }
inline unsigned __ballot_sync(unsigned mask, int p) {
  return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpBallot, mask, p != 0));
}
inline int __any_sync(unsigned mask, int p) { return static_cast<int>(cudacpu::detail::warpCollective(cudacpu::detail::OpAny, mask, p != 0)); }
inline int __all_sync(unsigned mask, int p) { return static_cast<int>(cudacpu::detail::warpCollective(cudacpu::detail::OpAll, mask, p != 0)); }
inline int __uni_sync(unsigned mask, int p) {
  const int all = __all_sync(mask, p);
  return all || !__any_sync(mask, p);
}
inline unsigned __ballot(int p) { return __ballot_sync(0xffffffffu, p); }
inline int __any(int p) { return __any_sync(0xffffffffu, p); }
inline int __all(int p) { return __all_sync(0xffffffffu, p); }
template <class T> unsigned __match_any_sync(unsigned mask, T v) {
  return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpMatchAny, mask, cudacpu::detail::toBits(v)));
}
template <class T> unsigned __match_all_sync(unsigned mask, T v, int *pred) {
  const unsigned long long r = cudacpu::detail::warpCollective(cudacpu::detail::OpMatchAll, mask, cudacpu::detail::toBits(v));
  if (pred)
    *pred = (r >> 32) ? 1 : 0;
  return static_cast<unsigned>(r);
}
inline unsigned __reduce_add_sync(unsigned mask, unsigned v) { return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpAddU, mask, v)); }
inline int __reduce_add_sync(unsigned mask, int v) { return static_cast<int>(cudacpu::detail::warpCollective(cudacpu::detail::OpAddU, mask, static_cast<unsigned>(v))); }
inline unsigned __reduce_min_sync(unsigned mask, unsigned v) { return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpMinU, mask, v)); }
inline unsigned __reduce_max_sync(unsigned mask, unsigned v) { return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpMaxU, mask, v)); }
inline int __reduce_min_sync(unsigned mask, int v) { return static_cast<int>(cudacpu::detail::warpCollective(cudacpu::detail::OpMinI, mask, static_cast<unsigned>(v))); }
inline int __reduce_max_sync(unsigned mask, int v) { return static_cast<int>(cudacpu::detail::warpCollective(cudacpu::detail::OpMaxI, mask, static_cast<unsigned>(v))); }
inline unsigned __reduce_and_sync(unsigned mask, unsigned v) { return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpAnd, mask, v)); }
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) { return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpOr, mask, v)); }
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) { return static_cast<unsigned>(cudacpu::detail::warpCollective(cudacpu::detail::OpXor, mask, v)); }

/// The lanes of the warp running this call together: those that reach the same __activemask
/// call while the rest of the warp waits elsewhere or has exited (noinline: the call site is
/// its return address).
__attribute__((noinline)) inline unsigned __activemask() {
  using namespace cudacpu::detail;
  Thread *t = g_thread;
  t->site = __builtin_return_address(0);
  t->state = State::ActiveMask;
  ++g_launch->atActiveMask;
  waitReady(t);
  return static_cast<unsigned>(t->result);
}

/// The translator puts this after each statement that writes through a volatile variable
/// (analyzers/cudacpu/src/lockstep.cpp): the warp's lanes that reach it meet there, as lanes in
/// lockstep would, while the rest of the warp waits elsewhere or has exited. Outside a kernel
/// it does nothing.
__attribute__((noinline)) inline void __cudacpu_lockstep() {
  using namespace cudacpu::detail;
  Thread *t = g_thread;
  if (!t || !g_launch)
    return;
  t->site = __builtin_return_address(0);
  t->state = State::ActiveMask;
  ++g_launch->atActiveMask;
  waitReady(t);
}

inline unsigned __lanemask_lt() { return (1u << cudacpu::detail::g_thread->lane) - 1u; }
inline unsigned __lanemask_le() { return (2u << cudacpu::detail::g_thread->lane) - 1u; }
inline unsigned __lanemask_gt() { return ~__lanemask_le(); }
inline unsigned __lanemask_ge() { return ~__lanemask_lt(); }
inline unsigned __lanemask_eq() { return 1u << cudacpu::detail::g_thread->lane; }

[[noreturn]] inline void __trap() { throw cudacpu::KernelError("__trap() in " + cudacpu::detail::where()); }
[[noreturn]] inline void __brkpt() { __trap(); }
inline void cudacpu_assert_fail(const char *expr, const char *file, int line) {
  throw cudacpu::KernelError("device-side assertion `" + std::string(expr) + "` failed in " + cudacpu::detail::where() +
                             " (" + file + ":" + std::to_string(line) + ")");
}
#define CUDACPU_ASSERT(e) ((e) ? (void)0 : cudacpu_assert_fail(#e, __FILE__, __LINE__))

#define threadIdx (::cudacpu::detail::threadIdxRef())
#define blockIdx (::cudacpu::detail::blockIdxRef())
#define blockDim (::cudacpu::detail::blockDimRef())
#define gridDim (::cudacpu::detail::gridDimRef())
inline constexpr int warpSize = 32;

inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline unsigned long long __globaltimer() { return static_cast<unsigned long long>(clock64()); }
inline void __nanosleep(unsigned) {}
