// The sandbox's seccomp program (classic BPF over struct seccomp_data), built in kbaudit before
// the fork and installed by the child just before exec. It does not try to be a whitelist
// (torch, Triton and compilers use hundreds of syscalls); it closes the ways out that the other
// layers leave open: sockets where no network namespace scopes them (AF_VSOCK reaches a VM's
// host from inside any namespace), io_uring (its operations bypass seccomp), ptrace and
// process_vm_* (another process of the same uid: kbaudit itself when it is not root), kernel
// keyrings (shared by the uid), bpf, and every call that rearranges mounts or namespaces.

#include "containment.h"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace kbaudit::runtime::detail {

namespace {

// Syscalls refused with EPERM, where this architecture has them.
constexpr int kDenied[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_keyctl, __NR_add_key, __NR_request_key,
    __NR_bpf, __NR_unshare, __NR_setns, __NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot,
#ifdef __NR_io_uring_setup
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
#ifdef __NR_open_tree
    __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
    __NR_kexec_load, __NR_init_module, __NR_finit_module, __NR_delete_module,
};

// clone(2) flags that would make new namespaces (a user namespace gives back every capability).
constexpr unsigned kNamespaceFlags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC |
                                     CLONE_NEWUTS | CLONE_NEWCGROUP;

// Socket families a network namespace scopes: inside one they reach only that namespace.
constexpr unsigned kScopedFamilies[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};

struct Builder {
  std::vector<sock_filter> p;
  void load(std::uint32_t offset) { p.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void ret(std::uint32_t value) { p.push_back(BPF_STMT(BPF_RET | BPF_K, value)); }
  /// if (A == k) fall through to the next instruction, else skip `skip` instructions.
  void ifEqual(std::uint32_t k, std::uint8_t skip) { p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, skip)); }
};

constexpr std::uint32_t errnoOf(int e) { return SECCOMP_RET_ERRNO | (static_cast<std::uint32_t>(e) & SECCOMP_RET_DATA); }

} // namespace

std::vector<sock_filter> seccompProgram(bool networkNamespace) {
#if defined(__x86_64__)
  constexpr std::uint32_t arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
  constexpr std::uint32_t arch = AUDIT_ARCH_AARCH64;
#else
  (void)networkNamespace;
  return {}; // syscall numbers differ: no filter rather than a wrong one (the notes say so)
#endif
  Builder b;
  const auto nr = static_cast<std::uint32_t>(offsetof(struct seccomp_data, nr));
  const auto arg0 = static_cast<std::uint32_t>(offsetof(struct seccomp_data, args)); // low half (little-endian)
  // Another architecture's calling convention (i386's int 0x80 on x86-64) has other numbers.
  b.load(static_cast<std::uint32_t>(offsetof(struct seccomp_data, arch)));
  b.p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0));
  b.ret(errnoOf(ENOSYS));
  b.load(nr);
#if defined(__x86_64__)
  // x32 syscalls (bit 30) are the same calls under other numbers.
  b.p.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  b.ret(errnoOf(ENOSYS));
#endif
  for (const int call : kDenied) {
    b.ifEqual(static_cast<std::uint32_t>(call), 1);
    b.ret(errnoOf(EPERM));
  }
  // clone3 passes its flags in memory the filter cannot read: ENOSYS makes glibc use clone.
#ifdef __NR_clone3
  b.ifEqual(__NR_clone3, 1);
  b.ret(errnoOf(ENOSYS));
#endif
  // clone with namespace flags: load the flags, refuse those, allow the rest.
  b.ifEqual(__NR_clone, 4);
  b.load(arg0);
  b.p.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 0, 1));
  b.ret(errnoOf(EPERM));
  b.ret(SECCOMP_RET_ALLOW);
  // socket(family, ...): the scoped families inside a network namespace, nothing outside one
  // (socketpair, which reaches nobody, stays allowed).
  const std::uint8_t families = networkNamespace ? static_cast<std::uint8_t>(std::size(kScopedFamilies)) : 0;
  b.ifEqual(__NR_socket, static_cast<std::uint8_t>(2 + 2 * families));
  b.load(arg0);
  for (std::uint8_t i = 0; i < families; ++i) {
    b.ifEqual(kScopedFamilies[i], 1);
    b.ret(SECCOMP_RET_ALLOW);
  }
  b.ret(errnoOf(EACCES));
  b.ret(SECCOMP_RET_ALLOW);
  return b.p;
}

} // namespace kbaudit::runtime::detail
