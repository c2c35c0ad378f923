#pragma once

// A listener on the host that a sandboxed child must not reach: a filesystem Unix socket, an
// abstract Unix socket or a TCP port on 127.0.0.1, accepting in a thread of its own and keeping
// whatever is delivered, so a test can assert that nothing arrived.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>

namespace kbaudit::test {

class HostListener {
public:
  enum class Kind { UnixPath, UnixAbstract, Tcp };

  explicit HostListener(Kind kind) : kind_(kind) {
    std::random_device rd;
    const std::string unique = std::to_string(::getpid()) + "-" + std::to_string(rd());
    if (kind == Kind::Tcp) {
      fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      socklen_t len = sizeof addr;
      if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
          ::getsockname(fd_, reinterpret_cast<sockaddr *>(&addr), &len) != 0)
        return;
      address_ = std::to_string(ntohs(addr.sin_port));
    } else {
      fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      address_ = kind == Kind::UnixPath ? "/tmp/kbaudit-test-" + unique + ".sock" : "kbaudit-test-abstract-" + unique;
      const std::size_t offset = kind == Kind::UnixPath ? 0 : 1; // abstract: a leading NUL
      std::memcpy(addr.sun_path + offset, address_.data(), address_.size());
      const socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + offset + address_.size() +
                                                   (kind == Kind::UnixPath ? 1 : 0));
      if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr *>(&addr), len) != 0)
        return;
    }
    if (::listen(fd_, 8) != 0)
      return;
    listening_ = true;
    thread_ = std::thread([this] { serve(); });
  }

  ~HostListener() {
    stop_ = true;
    if (thread_.joinable())
      thread_.join();
    if (fd_ >= 0)
      ::close(fd_);
    if (kind_ == Kind::UnixPath && !address_.empty())
      ::unlink(address_.c_str());
  }
  HostListener(const HostListener &) = delete;
  HostListener &operator=(const HostListener &) = delete;

  bool listening() const { return listening_; }
  /// The path, the abstract name (without its NUL) or the port.
  const std::string &address() const { return address_; }
  /// Everything delivered so far, and how many connections were accepted.
  std::string received() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return received_;
  }
  int connections() const { return connections_; }

private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0)
        continue;
      const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0)
        continue;
      ++connections_;
      char buf[4096];
      for (int rounds = 0; rounds < 40; ++rounds) { // up to 2 s per connection
        pollfd c{client, POLLIN, 0};
        if (::poll(&c, 1, 50) <= 0)
          continue;
        const ssize_t n = ::read(client, buf, sizeof buf);
        if (n <= 0)
          break;
        std::lock_guard<std::mutex> lock(mutex_);
        received_.append(buf, static_cast<std::size_t>(n));
      }
      ::close(client);
    }
  }

  Kind kind_;
  int fd_ = -1;
  bool listening_ = false;
  std::string address_;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mutex_;
  std::string received_;
  std::thread thread_;
};

} // namespace kbaudit::test
