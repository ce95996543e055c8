#include "repl/interrupt.h"

#include <signal.h>

#include <atomic>

namespace alea::repl {
namespace {

// Lock-free atomics only: they are touched from the signal handler.
std::atomic<alea_vm*> g_running{nullptr};
std::atomic<bool> g_prompt_interrupt{false};

void OnInterrupt(int) {
  // alea_vm_interrupt only sets a flag the VM polls: safe in a handler.
  if (alea_vm* vm = g_running.load()) {
    alea_vm_interrupt(vm);
  } else {
    g_prompt_interrupt.store(true);
  }
}

}  // namespace

void InstallInterruptHandler() {
  struct sigaction action = {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
  sigaction(SIGINT, &action, nullptr);
}

bool TakePromptInterrupt() { return g_prompt_interrupt.exchange(false); }
bool PromptInterruptPending() { return g_prompt_interrupt.load(); }

Evaluating::Evaluating(alea_vm* vm) {
  g_prompt_interrupt.store(false);
  g_running.store(vm);
}

Evaluating::~Evaluating() { g_running.store(nullptr); }

}  // namespace alea::repl
